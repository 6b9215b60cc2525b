"""What an Excel workbook hides from a designer, said at its row with the fix: the sheet read
(the first, even when hidden; the cards on another), a formula no program has calculated (no
saved value: the cell reads empty), a date where a number was meant (Excel turns 3/1 into 1
March) and heading cells merged across several columns."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from generator.errors import SpecError
from generator.limits import MAX_COLUMNS

MAX_SHEETS_LISTED = 8
Rows = list[tuple[int, list[Any]]]  # (row number, cells) of a sheet


def first_sheet(path: Path, book: Any) -> str:
    """The sheet read when none is named: the first, unless it is hidden (an error naming
    the sheets and the spec line to write, since the cards are rarely on a hidden sheet)."""
    names = list(book.sheetnames) if book is not None else []
    if not names:
        raise SpecError(path, None, "the spreadsheet has no sheets")
    if book[names[0]].sheet_state == "visible":
        return str(names[0])
    visible = [n for n in names if book[n].sheet_state == "visible"]
    target = visible[0] if visible else names[0]
    raise SpecError(
        path,
        None,
        f"the first sheet, '{names[0]}', is hidden, and pnp reads the first sheet; name the "
        f"sheet the cards are on: {{from: {path.name}, sheet: {target}}} (its sheets: "
        f"{listing(book)})",
    )


def listing(book: Any) -> str:
    """'Notes (hidden), Cards' : the sheets of a workbook, the hidden ones marked."""
    names = [
        f"{n} (hidden)" if book[n].sheet_state != "visible" else str(n) for n in book.sheetnames
    ]
    more = ", ..." if len(names) > MAX_SHEETS_LISTED else ""
    return ", ".join(names[:MAX_SHEETS_LISTED]) + more


def review(
    path: Path, data: bytes | None, book: Any, read: str, rows: list[tuple[int, list[Any]]]
) -> None:
    """Raise at the first cell or sheet Excel leaves unclear (see ``check_cell``), or for a
    sheet with no rows below its headings when the workbook has others; ``data`` is None for
    a workbook holding no formula (its formulas need not be read)."""
    filled = [(n, cells) for n, cells in rows if any(c not in (None, "") for c in cells)]
    heads = [str(c) if c not in (None, "") else "" for c in (filled[0][1] if filled else [])]
    for number, cells in filled:
        for index, value in enumerate(cells):
            check_cell(path, number, _column(heads, index), value, None)
    if len(filled) <= 1 and len(book.sheetnames) > 1:
        other = next(n for n in book.sheetnames if n != read)
        raise SpecError(
            path,
            filled[0][0] if filled else None,
            f"sheet '{read}' has no rows below its headings, and pnp reads only it; if the "
            f"rows are on another sheet, name it: {{from: {path.name}, sheet: {other}}} (its "
            f"sheets: {listing(book)})",
        )
    if data is not None and any(None in cells for _, cells in filled):
        _formulas(path, data, read, filled)


def _formulas(path: Path, data: bytes, read: str, rows: Rows) -> None:
    """A formula whose cell reads empty: no program calculated it before it was saved."""
    import io

    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    try:
        values = dict(rows)
        heads = [str(c) if c not in (None, "") else "" for c in rows[0][1]]
        rows_read = book[read].iter_rows(max_col=MAX_COLUMNS + 1, values_only=True)
        for number, cells in enumerate(rows_read, 1):  # never padded out to the dimension
            if number > max(values):
                break
            for index, formula in enumerate(cells[: len(values.get(number, []))]):
                check_cell(path, number, _column(heads, index), values[number][index], formula)
    finally:
        book.close()


def _column(heads: list[str], index: int) -> str:
    """How a message names a column: by its heading, else by its number."""
    head = heads[index] if index < len(heads) else ""
    return f"'{head}'" if head else str(index + 1)


def check_cell(path: Path, row: int, column: str, value: Any, formula: Any) -> None:
    """A cell Excel leaves unclear: a formula with no saved value, or a date."""
    if value is None and isinstance(formula, str) and formula.startswith("="):
        raise SpecError(
            path,
            row,
            f"column {column}: the formula {formula[:40]} has no saved value (the workbook was "
            "written by a program that does not calculate); open it in Excel or LibreOffice "
            "and save it, or type the value",
        )
    if isinstance(value, (datetime.date, datetime.time)):
        if isinstance(value, datetime.datetime) and value.time() == datetime.time():
            value = value.date()  # how Excel shows it: 2024-03-01, not at midnight
        raise SpecError(
            path,
            row,
            f"column {column}: {value} is a date or time: Excel turned what was typed "
            "(3/1, 1-2, 12:30) into one; format the column as Text, type the value again "
            "and save",
        )


def merged_hint(path: Path) -> str:
    """For a value under no heading in a spreadsheet: merged heading cells may be why."""
    if path.suffix.lower() not in (".xlsx", ".ods"):
        return ""
    return (
        " (heading cells merged across columns leave all but the first empty: unmerge them "
        "and give each column a heading of its own)"
    )
