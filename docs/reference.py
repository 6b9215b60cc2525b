"""The spec reference, written from the JSON Schema that ``pnp schema`` prints (the models'
own field descriptions), so the docs cannot say a field exists that the code does not have,
nor miss one it has. ``python docs/reference.py`` writes ``docs/reference.md`` (``make docs``
runs it; kept in git so that the page reads unbuilt, and a test fails when it is stale);
``docs/hooks.py`` puts a kind's tables on its page."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from generator.cli.schema import LAX, spec_schema
from generator.model.game import GameSpec
from generator.model.kinds import COMPONENT_KINDS

PAGE = Path(__file__).resolve().parent / "reference.md"
HEAD = """# Spec reference

<!-- Written by docs/reference.py from the code (make docs runs it): do not edit. -->

Every field of `game.yaml` and of each kind of component, with its type, its default and
what it is, written from the code by `docs/reference.py` (`make docs` runs it) from the same
JSON Schema that `pnp schema` prints. A test fails when a field has no description, or when
this page is not what the code says.
"""

# models every component shares: a kind's page links to them on the reference page
SHARED = ("Style", "StandsOn", "Size", "PlayerColour")
PLAIN = {"string": "text", "integer": "integer", "number": "number", "boolean": "true/false"}

Link = Callable[[str], str]


def missing_descriptions(schema: dict[str, Any] | None = None) -> list[str]:
    """``Model.field`` for every field of the spec format that says nothing about itself."""
    defs = (schema or spec_schema())["$defs"]
    return [
        f"{model}.{name}"
        for model, body in defs.items()
        for name, field in body.get("properties", {}).items()
        if not field.get("description", "").strip()
    ]


def _refs(schema: Any) -> Iterator[str]:
    """The models a piece of schema names, in the order it names them."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            yield schema["$ref"].rsplit("/", 1)[1]
        for value in schema.values():
            yield from _refs(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _refs(value)


def reachable(name: str, defs: dict[str, Any], skip: tuple[str, ...] = ()) -> list[str]:
    """``name`` and every model its fields lead to, depth first, each once."""
    order: list[str] = []
    todo = [name]
    while todo:
        current = todo.pop(0)
        if current in order or current in skip:
            continue
        order.append(current)
        todo.extend(_refs(defs[current].get("properties", {})))
    return order


def _type(schema: dict[str, Any], link: Link) -> str:
    """A field's type in words: text, number (0 to 10), list of [BoardSpace](#boardspace) ..."""
    if "$ref" in schema:
        return link(schema["$ref"].rsplit("/", 1)[1])
    if "const" in schema:
        return f"`{schema['const']}`"
    if "enum" in schema:
        return ", ".join(f"`{value}`" for value in schema["enum"])
    if "anyOf" in schema:  # not the forms the loader also reads (a number as text ...)
        shown = [p for p in schema["anyOf"] if p.get("type") != "null" and not p.get(LAX)]
        parts = [_type(p, link) for p in shown]
        return " or ".join(dict.fromkeys(parts))
    kind = schema.get("type")
    if kind == "array":
        return f"list of {_type(schema.get('items', {}), link)}"
    if kind == "object":
        values = [*schema.get("patternProperties", {}).values()]
        extra = schema.get("additionalProperties")
        inner = values[0] if values else extra if isinstance(extra, dict) else None
        return f"map of {_type(inner, link)}" if inner else "map"
    words = PLAIN.get(str(kind), str(kind or "any value"))
    low, high = schema.get("minimum", schema.get("exclusiveMinimum")), schema.get("maximum")
    if low is not None and high is not None:
        return f"{words} ({low} to {high})"
    return words


ESCAPES = str.maketrans({"|": "\\|", "<": "&lt;", ">": "&gt;", "{": "&#123;", "}": "&#125;"})


def _cell(text: str) -> str:
    """Text on one line, Markdown's and HTML's special characters escaped outside its code
    spans (``{...}`` would be read as attributes, ``<deck>`` as a tag)."""
    parts = text.split("`")
    escaped = [p if i % 2 else p.translate(ESCAPES) for i, p in enumerate(parts)]
    return " ".join("`".join(escaped).split())


def model_table(name: str, defs: dict[str, Any], link: Link) -> str:
    """A model's heading, what it is, and a table of its fields."""
    body = defs[name]
    required = set(body.get("required", []))
    lines = [
        f"### {name}",
        "",
        _cell(body.get("description", "").replace("``", "`")),
        "",
        "| field | type | default | what it is |",
        "| --- | --- | --- | --- |",
    ]
    for field, schema in body.get("properties", {}).items():
        if field in required:
            default = "required"
        elif schema.get("default") is None:
            default = ""
        else:
            default = f"`{json.dumps(schema['default'], ensure_ascii=False)}`"
        kind, what = _type(schema, link), schema.get("description", "")
        lines.append(f"| `{field}` | {kind} | {default} | {_cell(what)} |")
    return "\n".join(lines) + "\n"


def _same_page(name: str) -> str:
    return f"[{name}](#{name.lower()})"


def reference() -> str:
    """Every model of the spec format: game.yaml's first, then each kind's, each once."""
    defs = spec_schema()["$defs"]
    shown: list[str] = []
    parts = ["## game.yaml\n"]
    for name in reachable(GameSpec.__name__, defs):
        shown.append(name)
        parts.append(model_table(name, defs, _same_page))
    kinds = ", ".join(f"[{kind}](#kind-{kind})" for kind in COMPONENT_KINDS)
    parts.append(
        f"## Components\n\n### Component\n\n{_cell(defs['Component']['description'])}: {kinds}.\n"
    )
    for kind, model in COMPONENT_KINDS.items():
        parts.append(f"## kind: {kind}\n")
        for name in reachable(model.__name__, defs, tuple(shown)):
            shown.append(name)
            parts.append(model_table(name, defs, _same_page))
    return "\n".join(parts)


def kind_fields(kind: str, reference_page: str = "../reference.md") -> str:
    """The tables of one kind: its model and the models its fields lead to; those every
    component shares link to the reference page."""
    defs = spec_schema()["$defs"]

    def link(name: str) -> str:
        return f"[{name}]({reference_page}#{name.lower()})" if name in SHARED else _same_page(name)

    names = reachable(COMPONENT_KINDS[kind].__name__, defs, SHARED)
    return "\n".join(model_table(name, defs, link) for name in names)


def one_model(name: str, reference_page: str = "reference.md") -> str:
    """One model's table (``Style``, say), its links to the reference page."""
    defs = spec_schema()["$defs"]
    return model_table(name, defs, lambda other: f"[{other}]({reference_page}#{other.lower()})")


def page() -> str:
    """The whole reference page."""
    return f"{HEAD}\n{reference()}"


if __name__ == "__main__":
    PAGE.write_text(page(), encoding="utf-8")
    print(PAGE.relative_to(Path.cwd()) if PAGE.is_relative_to(Path.cwd()) else PAGE)
