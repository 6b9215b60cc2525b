"""How the cells of a grid are named, printed and written in data: the coordinate schemes and
the cell lists a designer writes (one cell, a range, a row or column, everything else).

The schemes:

- ``wargame``: column then row, each with leading zeros (``0101``, ``1207``), two digits
  each, or three where the grid has columns or rows past 99;
- ``letters``: the column as letters, the row as a number (``A1``, ``C12``, ``AA3``), as a
  spreadsheet names its cells;
- ``numbers``: one number per cell, row by row from the top, left to right (a turn track);
- ``none``: nothing printed; cells are named column-row (``3-2``).

Numbers count from ``start`` (1 unless set). Written in data, a cell id is case-blind and a
wargame id may have lost its leading zeros (a spreadsheet stores ``0101`` as 101)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from generator.model.gridgeometry import Cell

Scheme = Literal["wargame", "letters", "numbers", "none"]
KEYWORDS = {"row": "row", "rows": "row", "col": "col", "cols": "col", "column": "col"}
KEYWORDS |= {"columns": "col"}
EVERYTHING = "*"
SHOWN = 8  # names a message lists


class CellError(ValueError):
    """A cell list that names no cell of the grid: what is wrong and how to fix it."""


@dataclass(frozen=True)
class Naming:
    """The names of the cells of a ``cols`` x ``rows`` grid in one scheme."""

    scheme: Scheme
    cols: int
    rows: int
    start: int = 1

    @property
    def widths(self) -> tuple[int, int]:
        """Digits of a wargame id's column and row."""
        last_col, last_row = self.start + self.cols - 1, self.start + self.rows - 1
        return max(2, len(str(last_col))), max(2, len(str(last_row)))

    def label(self, cell: Cell) -> str:
        """What ``cell`` is called (and prints): ``0304``, ``C4``, ``12`` or ``3-4``."""
        col, row = cell
        if self.scheme == "wargame":
            wc, wr = self.widths
            return f"{col - 1 + self.start:0{wc}d}{row - 1 + self.start:0{wr}d}"
        if self.scheme == "letters":
            return f"{letters(col)}{row - 1 + self.start}"
        if self.scheme == "numbers":
            return str((row - 1) * self.cols + col - 1 + self.start)
        return f"{col}-{row}"

    def place(self, prefix: str, cell: Cell) -> str:
        """The place name of ``cell`` on its board: ``map-0304``, ``map-c4``."""
        return f"{prefix}-{self.label(cell).lower()}"

    def column(self, col: int) -> str:
        """How column ``col`` is written in a cell id."""
        if self.scheme == "letters":
            return letters(col)
        if self.scheme == "wargame":
            return f"{col - 1 + self.start:0{self.widths[0]}d}"
        return str(col)

    def row(self, row: int) -> str:
        """How row ``row`` is written in a cell id."""
        if self.scheme == "wargame":
            return f"{row - 1 + self.start:0{self.widths[1]}d}"
        return str(row - 1 + self.start) if self.scheme == "letters" else str(row)

    def span(self) -> str:
        """The grid's ids from first to last, for a message."""
        first, last = (1, 1), (self.cols, self.rows)
        if self.scheme in ("wargame", "letters"):
            return (
                f"columns {self.column(1)} to {self.column(self.cols)}, rows {self.row(1)} to "
                f"{self.row(self.rows)}"
            )
        return f"cells {self.label(first)} to {self.label(last)}"

    def cell(self, text: str) -> Cell:
        """The cell an id names; a CellError if none does."""
        found = self._parse(text.strip())
        if found is None:
            raise CellError(self._unknown(text.strip()))
        if not (1 <= found[0] <= self.cols and 1 <= found[1] <= self.rows):
            raise CellError(f"cell '{text.strip()}' is outside the grid ({self.span()})")
        return found

    def _parse(self, text: str) -> Cell | None:
        """(col, row) of an id as written, inside the grid or not; None if it is no id."""
        if self.scheme == "wargame" and text.isdigit() and text.isascii():
            wc, wr = self.widths
            if len(text) > wc + wr:
                return None
            text = text.zfill(wc + wr)
            return int(text[:wc]) - self.start + 1, int(text[wc:]) - self.start + 1
        if self.scheme == "letters":
            found = re.fullmatch(r"([A-Za-z]{1,3})(\d{1,4})", text)
            if found:
                return number(found[1]), int(found[2]) - self.start + 1
        if self.scheme == "numbers" and text.isdigit() and text.isascii():
            n = int(text) - self.start
            return (n % self.cols + 1, n // self.cols + 1) if n >= 0 else None
        if self.scheme == "none":
            found = re.fullmatch(r"(\d{1,3})-(\d{1,3})", text)
            if found:
                return int(found[1]), int(found[2])
        return None

    @cached_property
    def labels(self) -> list[str]:
        """Every cell's id, row by row."""
        rows, cols = range(1, self.rows + 1), range(1, self.cols + 1)
        return [self.label((c, r)) for r in rows for c in cols]

    def _unknown(self, text: str) -> str:
        """Why ``text`` is no cell id, with the ids it is closest to."""
        names = self.labels
        close = difflib.get_close_matches(text.upper(), names, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        return f"'{text}' is not a cell of this grid ({self.span()}, e.g. {names[0]}){hint}"

    def cells(self, written: str | Sequence[str]) -> list[Cell]:
        """The cells a cell list names, in the order written: ids, ranges (``0101-0105``: the
        cells of the rectangle between two corners; ``3-7`` of numbers: those numbers),
        ``row N``, ``col N`` (or ``rows 2-4``, ``cols B-D``), ``*`` for every cell; several
        separated by spaces or commas. A CellError names the first part that is wrong."""
        parts = [written] if isinstance(written, str) else list(written)
        tokens = [t for p in parts for t in re.split(r"[\s,;]+", str(p).strip()) if t]
        if not tokens:
            raise CellError("names no cell; write a cell id such as " + self.label((1, 1)))
        found: list[Cell] = []
        keyword: str | None = None
        for token in tokens:
            if keyword is not None:
                found += self._lines(keyword, token)
                keyword = None
            elif token.lower() in KEYWORDS:
                keyword = KEYWORDS[token.lower()]
            elif token == EVERYTHING:
                found += [(c, r) for r in range(1, self.rows + 1) for c in range(1, self.cols + 1)]
            else:
                found += self._range(token)
        if keyword is not None:
            raise CellError(f"'{keyword}' needs the {keyword} it names, e.g. '{keyword} 2'")
        return found

    def _range(self, token: str) -> list[Cell]:
        """The cells of one id or range."""
        ends = _ends(token, self.scheme)
        if ends is None:
            return [self.cell(token)]
        first, last = self.cell(ends[0]), self.cell(ends[1])
        if self.scheme == "numbers":
            low, high = sorted(self._index(c) for c in (first, last))
            return [(n % self.cols + 1, n // self.cols + 1) for n in range(low, high + 1)]
        cols = range(min(first[0], last[0]), max(first[0], last[0]) + 1)
        rows = range(min(first[1], last[1]), max(first[1], last[1]) + 1)
        return [(c, r) for r in rows for c in cols]

    def _index(self, cell: Cell) -> int:
        """The place of ``cell`` in reading order, from 0."""
        return (cell[1] - 1) * self.cols + cell[0] - 1

    def _lines(self, keyword: str, token: str) -> list[Cell]:
        """The cells of the rows or columns ``token`` names (one, or a range ``2-4``)."""
        ends = token.split("-") if token.count("-") == 1 else [token, token]
        numbers = [self._line(keyword, end) for end in ends]
        low, high = min(numbers), max(numbers)
        if keyword == "row":
            return [(c, r) for r in range(low, high + 1) for c in range(1, self.cols + 1)]
        return [(c, r) for r in range(1, self.rows + 1) for c in range(low, high + 1)]

    def _line(self, keyword: str, text: str) -> int:
        """The row or column (from 1) ``text`` names."""
        count = self.rows if keyword == "row" else self.cols
        names = [self.row(n) if keyword == "row" else self.column(n) for n in range(1, count + 1)]
        for n, name in enumerate(names, start=1):
            digits = text.isdigit() and name.isdigit()
            if text.upper() == name.upper() or (digits and int(text) == int(name)):
                return n
        return self._no_line(keyword, text, names)

    def _no_line(self, keyword: str, text: str, names: list[str]) -> int:
        """A CellError for a row or column the grid does not have."""
        close = difflib.get_close_matches(text.upper(), names, n=1, cutoff=0.6)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise CellError(
            f"'{keyword} {text}' is not a {keyword} of this grid ({keyword}s {names[0]} to "
            f"{names[-1]}){hint}"
        )


def _ends(token: str, scheme: Scheme) -> tuple[str, str] | None:
    """The two ends of a range token, or None for a single id (a ``none`` id is ``3-2``, its
    range ``1-1-3-2``)."""
    parts = token.split("-")
    if scheme == "none":
        return ("-".join(parts[:2]), "-".join(parts[2:])) if len(parts) == 4 else None
    return (parts[0], parts[1]) if len(parts) == 2 else None


def letters(col: int) -> str:
    """A column's letters: 1 → A, 26 → Z, 27 → AA."""
    out = ""
    while col > 0:
        col, rest = divmod(col - 1, 26)
        out = chr(65 + rest) + out
    return out


def number(text: str) -> int:
    """The column letters name: A → 1, AA → 27."""
    value = 0
    for char in text.upper():
        value = value * 26 + ord(char) - 64
    return value
