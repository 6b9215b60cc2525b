"""A catalog's strings cut into quoted lines as GNU gettext writes them (``msgmerge``,
``msgcat``, ``msginit``, and Poedit after them): 79 columns, a line ending after each ``\\n``
of the string, and lines broken where the Unicode line-breaking rules let a line end (after a
space, a hyphen, a slash, between ideographs; never inside an escape). So a catalog that pnp
writes is the one a translator's own tools write back, and ``pnp i18n update`` leaves a diff of
what changed, not of how it was wrapped.

The characters' line-break classes (UAX #14) come from ``uniseg``; the pairs that may part are
the ones GNU gettext's line breaker lets part (its table is an older revision of UAX #14's:
a colon or a full stop followed by a letter may end a line), checked against ``msgcat`` on
every catalog pnp ships and on random text (tests/test_catalog_tools.py)."""

from __future__ import annotations

import unicodedata
from functools import cache

WIDTH = 79  # gettext's page width: no line longer, quotes and prefix counted
ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "\n": "\\n",
    "\t": "\\t",
    "\r": "\\r",
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\v": "\\v",
}
CLASSES = ("OP", "CL", "CP", "QU", "GL", "NS", "EX", "SY", "IS", "PR", "PO", "NU", "AL", "ID", "IN",
           "HY", "BA", "BB", "B2", "ZW", "CM", "WJ")  # fmt: skip
# what may part a character of the row's class from one of the column's class that follows
# it: "_" a line may end between them, "%" only where spaces part them, "^" never, "#" a
# combining mark (it joins the character before it)
PAIRS = {
    "OP": "^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ ^ # ^",
    "CL": "_ ^ ^ % % ^ ^ ^ ^ % % _ _ _ % % % _ _ ^ # ^",
    "CP": "_ ^ ^ % % ^ ^ ^ ^ % % % % _ % % % _ _ ^ # ^",
    "QU": "^ ^ ^ % % % ^ ^ ^ % % % % % % % % % % ^ # ^",
    "GL": "% ^ ^ % % % ^ ^ ^ % % % % % % % % % % ^ # ^",
    "NS": "_ ^ ^ % % % ^ ^ ^ _ _ _ _ _ % % % _ _ ^ # ^",
    "EX": "_ ^ ^ % % % ^ ^ ^ _ _ _ _ _ % % % _ _ ^ # ^",
    "SY": "_ ^ ^ % % % ^ ^ ^ _ _ % _ _ % % % _ _ ^ # ^",
    "IS": "_ ^ ^ % % % ^ ^ ^ _ _ % _ _ % % % _ _ ^ # ^",
    "PR": "% ^ ^ % % % ^ ^ ^ _ _ % % % % % % _ _ ^ # ^",
    "PO": "% ^ ^ % % % ^ ^ ^ _ _ % % _ % % % _ _ ^ # ^",
    "NU": "% ^ ^ % % % ^ ^ ^ % % % % _ % % % _ _ ^ # ^",
    "AL": "% ^ ^ % % % ^ ^ ^ % % % % _ % % % _ _ ^ # ^",
    "ID": "_ ^ ^ % % % ^ ^ ^ _ % _ _ _ % % % _ _ ^ # ^",
    "IN": "_ ^ ^ % % % ^ ^ ^ _ _ _ _ _ % % % _ _ ^ # ^",
    "HY": "_ ^ ^ % _ % ^ ^ ^ _ _ % _ _ % % % _ _ ^ # ^",
    "BA": "_ ^ ^ % _ % ^ ^ ^ _ _ _ _ _ % % % _ _ ^ # ^",
    "BB": "% ^ ^ % % % ^ ^ ^ % % % % % % % % % % ^ # ^",
    "B2": "_ ^ ^ % % % ^ ^ ^ _ _ _ _ _ % % % _ ^ ^ # ^",
    "ZW": "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ^ _ _",
    "CM": "% ^ ^ % % % ^ ^ ^ % % % % _ % % % _ _ ^ # ^",
    "WJ": "% ^ ^ % % % ^ ^ ^ % % % % % % % % % % ^ # ^",
}
TABLE = {
    (before, after): rule
    for before, row in PAIRS.items()
    for after, rule in zip(CLASSES, row.split(), strict=True)
}
# classes that break as one of the table's (Hebrew letters as letters, but see below)
ALIKE = {
    "HL": "AL", "AI": "AL", "SA": "AL", "XX": "AL", "SG": "AL", "CB": "AL", "AK": "AL",
    "AP": "AL", "AS": "AL", "VI": "AL", "VF": "AL", "RI": "AL", "CJ": "NS", "H2": "ID",
    "H3": "ID", "JL": "ID", "JV": "ID", "JT": "ID", "EB": "ID", "EM": "ID", "ZWJ": "CM",
    "NL": "BA", "BK": "BA", "CR": "BA", "LF": "BA",
}  # fmt: skip


@cache
def _class(char: str) -> str:
    """A character's line-break class (Hebrew letters kept apart: ``HL``): uniseg's tables
    are loaded when a catalog is first written, not by every command that reads one."""
    from uniseg.linebreak import line_break

    found = line_break(char)
    name = str(getattr(found, "name", found))
    return name if name == "HL" else ALIKE.get(name, name)


def _width(char: str) -> int:
    """The columns a character of an escaped string takes, as gettext counts them."""
    if char == "\u200b" or unicodedata.category(char) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def _rule(before: str, after: str) -> str:
    plain = {"HL": "AL"}
    return TABLE[(plain.get(before, before), plain.get(after, after))]


def breaks(text: str) -> list[bool]:
    """Where a line may start in ``text`` (``breaks[i]``: before ``text[i]``)."""
    allowed = [False] * len(text)
    previous: str | None = None
    spaces = hebrew = False  # spaces since the last character; a Hebrew letter's hyphen
    for index, char in enumerate(text):
        kind = _class(char)
        if kind == "SP":
            spaces = True
            continue
        if kind == "CM" and previous is not None and not spaces and previous != "ZW":
            continue  # a mark belongs to the character before it
        if previous is None or kind == "CM":  # a mark after a space starts a word of its own
            allowed[index] = previous is not None
            previous, spaces, hebrew = ("AL" if kind == "CM" else kind), False, False
            continue
        rule = _rule(previous, kind)
        if not spaces and (hebrew or (previous == "SY" and kind == "HL")):
            rule = "^"  # UAX #14: no break after a Hebrew letter's hyphen, nor in "/א"
        allowed[index] = rule == "_" or (rule == "%" and spaces)
        hebrew = previous == "HL" and kind in ("HY", "BA") and not spaces
        previous, spaces = kind, False
    return allowed


def escape(text: str) -> str:
    """``text`` as a PO string's contents: backslash, quote and control characters escaped."""
    return "".join(ESCAPES.get(char, char) for char in text)


def _portions(text: str) -> list[str]:
    """``text`` cut after each newline (the last portion may be empty only for '')."""
    out = [part + "\n" for part in text.split("\n")]
    out[-1] = out[-1][:-1]
    return out if len(out) == 1 or out[-1] else out[:-1]


def _lay(text: str, start: int, limit: int) -> list[str]:
    """The escaped ``text`` in lines, the first starting at column ``start`` (its quote
    counted), each with its closing quote within ``limit``: as many pieces from one break to
    the next as fit on a line, a piece's trailing spaces counted, a piece too long for any
    line on a line of its own."""
    escaped = escape(text)
    inside: set[int] = set()  # no break within an escape, nor before a final \n
    at = 0
    for char in text:
        size = len(ESCAPES.get(char, char))
        inside.update(range(at + 1, at + size))
        at += size
    if text.endswith("\n"):
        inside.add(len(escaped) - 2)
    allowed = breaks(escaped)
    cuts = [i for i in range(1, len(escaped)) if allowed[i] and i not in inside]
    lines, line, column, begin = [], "", start, 0
    for end in [*cuts, len(escaped)]:
        piece = escaped[begin:end]
        begin = end
        width = sum(_width(char) for char in piece)
        if line and column + width + 1 > limit:
            lines.append(line)
            line, column = "", 1
        line += piece
        column += width
    return [*lines, line]


def po_lines(keyword: str, text: str, prefix: str = "", limit: int = WIDTH) -> list[str]:
    """The lines of ``keyword "text"`` (``msgid``, ``msgstr[0]`` …) as gettext writes them,
    each beginning with ``prefix`` (``#~ `` for an obsolete entry): on one line when it fits
    and has no newline before its end, else ``keyword ""`` and the text's lines."""
    head = f"{prefix}{keyword} "
    portions = _portions(text)
    if len(portions) == 1:
        lines = _lay(portions[0], len(head) + 1, limit)
        if len(lines) == 1:
            return [f'{head}"{lines[0]}"']
    out = [f'{head}""']
    for portion in portions:
        out += [f'{prefix}"{line}"' for line in _lay(portion, len(prefix) + 1, limit)]
    return out


def reference_lines(references: list[str], limit: int = WIDTH) -> list[str]:
    """``#: file:line`` comments, as many references on a line as fit in ``limit``."""
    lines: list[str] = []
    line = ""
    for reference in references:
        if line and len(line) + 1 + len(reference) > limit:
            lines.append(line)
            line = ""
        line = (line or "#:") + " " + reference
    return [*lines, line] if line else lines
