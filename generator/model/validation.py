"""Pydantic's validation errors said in a designer's words: ``file:LINE: message`` at the
line the YAML map gives, the key probably meant for an unknown one, the keys allowed there,
and how to fix it."""

from __future__ import annotations

import difflib
import re
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.errors import ErrorList, ctrl_c_held
from generator.model.game import STYLE_TAGS, Style
from generator.model.yamlsource import YamlDoc

STYLE = frozenset(Style.model_fields)


def validate(model: type[BaseModel], doc: YamlDoc, errors: ErrorList) -> Any:
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict):
        errors.add(doc.path, doc.line_of(()), "expected a mapping of keys to values")
        return None
    try:
        with ctrl_c_held():  # pydantic-core calls discriminators from native code
            return model.model_validate(data)
    except ValidationError as exc:
        found: list[dict[str, Any]] = [
            {**e, "loc": _plain_loc(tuple(e["loc"]))} for e in exc.errors()
        ]
        unknown = {tuple(e["loc"]) for e in found if e["type"] == "extra_forbidden"}
        for err in found:
            loc = tuple(err["loc"])
            typo = _misspelling(data, loc) if err["type"] == "missing" else None
            if typo in _allowed_keys(model, loc[:-1]):
                typo = None  # a key of its own ('style' is not 'title' misspelt)
            if typo is None and "exactly one of count" in str(err.get("msg", "")):
                near = _close_key(data, loc, ("count", "per_player", "counts"))
                if near:
                    key, wanted = near
                    errors.add(
                        doc.path,
                        doc.line_of((*loc, key)),
                        f"'{key}' is not a key here; did you mean '{wanted}'?",
                    )
                    continue
            if typo is None:
                loc = _second_of_name(data, loc, str(err.get("msg", "")))
                errors.add(*doc.where(loc), _in_data(doc, loc, explain(model, err)))
            elif (*loc[:-1], typo) not in unknown:
                errors.add(
                    doc.path,
                    doc.line_of((*loc[:-1], typo)),
                    f"'{typo}' is not a key here; did you mean '{loc[-1]}'? (it is required)",
                )
        return None


TWICE = re.compile(r"two entries are named '(?P<name>[^']*)'")


def _second_of_name(data: Any, loc: tuple, message: str) -> tuple:
    """Where a list's entry that repeats a name is (its row in a data file), for the error
    that a list's entries share a name; else ``loc``."""
    found = TWICE.search(message)
    entries = data.get(loc[0]) if isinstance(data, dict) and len(loc) == 1 else None
    if found is None or not isinstance(entries, list):
        return loc
    named = [i for i, e in enumerate(entries) if isinstance(e, dict) and e.get("name") == found[1]]
    return (loc[0], named[1], "name") if len(named) > 1 else loc


def _plain_loc(loc: tuple) -> tuple:
    """An error's location as keys of the spec: without the form a style key was written
    in (``style.accent.value`` is ``style.accent``)."""
    return tuple(
        part
        for i, part in enumerate(loc)
        if not (part in STYLE_TAGS and i >= 2 and loc[i - 2] == "style" and loc[i - 1] in STYLE)
    )


def _in_data(doc: YamlDoc, loc: tuple, message: str) -> str:
    """A message about a value read from a data file, in its terms: the column, not the
    path inside the spec (``column 'count': ...`` for ``cards.3.count: ...``)."""
    for prefix in doc.sources:
        inner = loc[len(prefix) :]
        if loc[: len(prefix)] == prefix and len(inner) >= 2 and isinstance(inner[1], str):
            path = ".".join(map(str, loc)) + ": "
            return f"column '{inner[1]}': " + message.removeprefix(path)
    return message


def _close_key(data: Any, loc: tuple, wanted: tuple[str, ...]) -> tuple[str, str] | None:
    """A key of the mapping at ``loc`` that looks like a misspelling of one of ``wanted``."""
    mapping = data
    for part in loc:
        try:
            mapping = mapping[part]
        except (KeyError, IndexError, TypeError):
            return None
    if not isinstance(mapping, dict):
        return None
    for key in mapping:
        close = difflib.get_close_matches(str(key), wanted, n=1, cutoff=0.6)
        if close and key not in wanted:
            return str(key), close[0]
    return None


def _misspelling(data: Any, loc: tuple) -> str | None:
    """A key beside the missing key ``loc`` that looks like a misspelling of it."""
    parent = data
    for part in loc[:-1]:
        try:
            parent = parent[part]
        except (KeyError, IndexError, TypeError):
            return None
    if not isinstance(parent, dict):
        return None
    keys = [str(k) for k in parent]
    close = difflib.get_close_matches(str(loc[-1]), keys, n=1, cutoff=0.6)
    return close[0] if close else None


def explain(model: type[BaseModel], err: Any) -> str:
    """A pydantic error in the user's terms: which key, what is wrong, what is allowed."""
    loc = tuple(err["loc"])
    key = ".".join(str(p) for p in loc) or "document"
    kind = err["type"]
    if kind == "extra_forbidden":
        allowed = _allowed_keys(model, loc[:-1])
        hint = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        did_you_mean = f"; did you mean '{hint[0]}'?" if hint else ""
        return f"unknown key '{loc[-1]}'{did_you_mean} Allowed keys: {', '.join(allowed)}"
    if kind == "missing":
        return f"missing required key '{loc[-1]}'"
    message = err["msg"].removeprefix("Value error, ")
    if kind.startswith(("value_error", "assertion_error")):
        return f"{key}: {message}"
    given = repr(err["input"])
    if len(given) > 60:  # a 4,000-digit number, a whole mapping: its start says enough
        given = given[:57] + "..."
    return f"{key}: {message[0].lower()}{message[1:]}, got {given}{_fix(loc, kind)}"


def _fix(loc: tuple, kind: str) -> str:
    """How to fix the commonest mistakes of an entry's ``name`` and ``count``."""
    if loc and loc[-1] == "name" and kind == "string_pattern_mismatch":
        return (
            "; 'name' is an id (lower-case letters, digits and dashes, as in expect:): put the "
            "printed name in 'title'"
        )
    if loc and loc[-1] == "count" and kind in ("int_type", "int_parsing", "int_from_float"):
        return "; give the number of copies as a whole number, e.g. 3 (0 keeps it out)"
    return ""


def _allowed_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """The field names of the model found at ``loc`` inside ``model``."""
    current: Any = model
    for part in loc:
        current = _inner(current, part)
        if current is None:
            return []
    return list(current.model_fields) if _is_model(current) else []


def _inner(annotation: Any, part: Any) -> Any:
    if _is_model(annotation):
        field_info = annotation.model_fields.get(part)
        return _unwrap(field_info.annotation) if field_info else None
    if isinstance(part, int):
        args = typing.get_args(annotation)
        return _unwrap(args[0]) if args else None
    return None


def _unwrap(annotation: Any) -> Any:
    """Strip Optional/Annotated down to a model or list type."""
    for arg in (annotation, *typing.get_args(annotation)):
        if _is_model(arg) or typing.get_origin(arg) is list:
            return arg
    return annotation


def _is_model(obj: Any) -> bool:
    return isinstance(obj, type) and issubclass(obj, BaseModel)
