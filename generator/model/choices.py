"""Words a template draws by name (a unit counter's type symbol, its size mark), declared in
a block at the top of the template, one field a line with the words it knows:

    {#- choices
    symbol: infantry inf armour armor tank ...
    echelon: squad section platoon company ...
    -#}

A piece whose field holds a word its template does not know would print nothing there, so
it is an error at the piece's row (its line of the spec, or its row of the spreadsheet),
with the word probably meant and the words the template knows. Words are compared as the
template should look them up: ``choice_key`` (no case, a space or ``_`` as ``-``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generator.model.templatefields import template_file
from generator.paths import PathRefused, read_text

Notice = tuple[Path, int | None, str]
_BLOCK = re.compile(r"\{#-?\s*choices\s*\n(?P<body>.*?)-?#\}", re.DOTALL)
_LINE = re.compile(r"^\s*(?P<name>[A-Za-z_]\w*)\s*:(?P<words>.*)$")


def choice_key(value: object) -> str:
    """A word as it is looked up: trimmed, lower case, spaces and ``_`` as ``-``."""
    return re.sub(r"[\s_]+", "-", str(value).strip().lower())


def parse_choices(source: str) -> dict[str, tuple[tuple[str, ...], ...]]:
    """The words each field of a template's ``choices`` block may hold, as written: one
    tuple a line, its first word the name and the rest other spellings of it (none when the
    template has no block)."""
    found = _BLOCK.search(source)
    if found is None:
        return {}
    out: dict[str, tuple[tuple[str, ...], ...]] = {}
    for line in found["body"].splitlines():
        match = _LINE.match(line)
        words = tuple(w for w in re.split(r"[\s,]+", match["words"]) if w) if match else ()
        if match and words:
            out[match["name"]] = (*out.get(match["name"], ()), words)
    return out


Choices = dict[str, tuple[str, tuple[tuple[str, ...], ...]]]  # field -> template, its lines


def declared_choices(root: Path, templates: list[str]) -> Choices:
    """Field -> (the template, its lines of words) over the templates ``templates`` of the
    game in ``root`` (a template that cannot be read here declares none: the art stage
    reports it)."""
    out: Choices = {}
    for name in templates:
        path = template_file(root, name)
        if path is None:
            continue
        try:
            source = read_text(path.parent, path, "template")
        except (PathRefused, UnicodeDecodeError):
            continue
        for field, lines in parse_choices(source).items():
            out.setdefault(field, (name, lines))
    return out


def _names(lines: tuple[tuple[str, ...], ...]) -> str:
    """'division (XX), brigade (X)': each line's name, and its first other spelling."""
    return ", ".join(f"{w[0]} ({w[1]})" if len(w) > 1 else w[0] for w in lines)


def unknown_choices(
    root: Path,
    templates: list[str],
    entries: list[Any],
    where: Callable[[tuple[Any, ...]], tuple[Path, int]],
) -> list[Notice]:
    """An error for each piece whose field holds a word its template does not know."""
    choices = declared_choices(root, templates)
    if not choices:
        return []
    problems: list[Notice] = []
    for index, entry in enumerate(entries):
        fields = entry.fields()
        for field, (template, lines) in choices.items():
            value = fields.get(field)
            written = {choice_key(w): w for words in lines for w in words}
            if value in (None, "") or choice_key(value) in written:
                continue
            close = difflib.get_close_matches(choice_key(value), list(written), n=1, cutoff=0.6)
            hint = f" (did you mean '{written[close[0]]}'?)" if close else ""
            problems.append(
                (
                    *where((index, field)),
                    f"column '{field}': {template} draws no {field} '{value}'{hint}; it "
                    f"draws {_names(lines)}, each also by the other names its choices block "
                    "lists",
                )
            )
    return problems
