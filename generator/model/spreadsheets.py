"""The guard of the spreadsheet decoders (zipfile, openpyxl, lxml for OpenDocument): an Excel
(.xlsx) or LibreOffice (.ods) file is a zip of XML, checked by this sanitiser before a library
reads it, and whatever a library raises leaves as the file's ``SpecError``.

- the zip: at most ``MAX_ZIP_ENTRIES`` files, stored or deflated only, every member inflated
  here in pieces with a cap: the total, declared and as inflated, at most ``MAX_UNZIPPED``
  (a declared size can lie; the stream cannot);
- the XML: no document type (``<!DOCTYPE``: entity declarations, the billion laughs) in any
  member; an Excel file's shared strings at most ``MAX_SHARED_STRINGS``;
- the rows and columns read: at most ``MAX_ROWS`` and ``MAX_COLUMNS`` (one more, to say so),
  an Excel sheet's declared dimension never padded out to (``max_col`` given), an ODS file's
  repeated rows and cells expanded only up to the limits.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

from lxml import etree

from generator.errors import SpecError
from generator.limits import (
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_SHARED_STRINGS,
    MAX_UNZIPPED,
    MAX_ZIP_ENTRIES,
)
from generator.model.workbooks import first_sheet, review

PIECE = 1 << 20  # bytes inflated at a time
ODS = {
    "table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
    "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
    "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
}
NOT_A_ZIP = (
    "not a spreadsheet file (it is no zip archive); save it again from the spreadsheet program"
)
# what zipfile raises on a damaged archive: a bad header or directory (BadZipFile, a negative
# seek: ValueError), a cut member (EOFError), bad compressed data (zlib.error), an unknown method
ZIP_DAMAGE = (zipfile.BadZipFile, OSError, ValueError, EOFError, zlib.error, NotImplementedError)
# a formula element of a worksheet's XML, with or without a namespace prefix (<f>, <x:f t=..>)
FORMULA = re.compile(rb"<(?:[\w.-]+:)?f[\s/>]")


def rows(path: Path, data: bytes, suffix: str, sheet: str | None) -> list[tuple[int, list[Any]]]:
    """(row number, cells) of a sheet of an .xlsx or .ods file, checked first (``sanitised``)."""
    members = sanitised(path, data)
    if suffix == ".xlsx":
        return _xlsx_rows(path, data, sheet, _has_formulas(members))
    return _ods_rows(path, members, sheet)


def sanitised(path: Path, data: bytes) -> dict[str, bytes]:
    """Every member of the zip, inflated within the limits and its XML without a document
    type; a SpecError at the file for one that is no zip or passes a limit."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
            _within(path, infos)
            members, made = {}, 0
            for info in infos:
                members[info.filename] = body = _inflated(path, archive, info, MAX_UNZIPPED - made)
                made += len(body)
    except ZIP_DAMAGE:
        raise SpecError(path, None, NOT_A_ZIP) from None
    for name, body in members.items():
        if name.endswith((".xml", ".rels")) and b"<!DOCTYPE" in body[:4096].upper():
            raise SpecError(path, None, f"'{name}' declares a document type (entities), which no "
                            "spreadsheet program writes; save the file again")  # fmt: skip
    shared = members.get("xl/sharedStrings.xml", b"")
    if shared.count(b"<si") > MAX_SHARED_STRINGS:
        raise SpecError(path, None, f"more than {MAX_SHARED_STRINGS:,} texts; split the table")
    return members


def _within(path: Path, infos: list[zipfile.ZipInfo]) -> None:
    """The zip's directory within the limits: entries, methods and declared sizes."""
    if len(infos) > MAX_ZIP_ENTRIES:
        many = f"the spreadsheet holds {len(infos):,} files; the limit is {MAX_ZIP_ENTRIES:,}"
        raise SpecError(path, None, f"{many}; save it again from the spreadsheet program")
    if any(i.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) for i in infos):
        raise SpecError(path, None, "the spreadsheet is compressed in a way spreadsheet programs "
                        "do not use; save it again")  # fmt: skip
    declared = sum(info.file_size for info in infos)
    if declared > MAX_UNZIPPED:
        raise _unpacks_to(path, declared)


def _inflated(path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, left: int) -> bytes:
    """One member inflated in pieces, stopped past ``left`` bytes (whatever it declared)."""
    pieces, made = [], 0
    with archive.open(info) as member:
        while piece := member.read(PIECE):
            made += len(piece)
            if made > left:
                raise _unpacks_to(path, None)
            pieces.append(piece)
    return b"".join(pieces)


def _unpacks_to(path: Path, size: int | None) -> SpecError:
    """The error of a spreadsheet that unpacks to ``size`` bytes (None: more than the limit,
    found while inflating it)."""
    made = f"{size:,} bytes" if size is not None else f"more than {MAX_UNZIPPED:,} bytes"
    return SpecError(
        path, None, f"the spreadsheet unpacks to {made}; the limit is {MAX_UNZIPPED:,}"
    )


def _has_formulas(members: dict[str, bytes]) -> bool:
    """Whether any worksheet of an Excel file holds a formula element (``<f>``): only then is
    the workbook read a second time for formulas with no saved value."""
    return any(
        FORMULA.search(body) for name, body in members.items() if name.startswith("xl/worksheets/")
    )


def _xlsx_rows(
    path: Path, data: bytes, sheet: str | None, formulas: bool
) -> list[tuple[int, list[Any]]]:
    """(row number, cells) of a worksheet of an Excel file: the first, or ``sheet``;
    ``formulas``: whether it may hold formulas to review."""
    import openpyxl  # only games with Excel data pay for loading it

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds on a damaged file
        raise SpecError(
            path,
            None,
            f"cannot read the workbook ({type(exc).__name__}: {exc}); save it again as .xlsx",
        ) from None
    try:
        worksheet = _pick_sheet(path, book.sheetnames, sheet) if sheet else first_sheet(path, book)
        rows = []
        for number, cells in enumerate(
            book[worksheet].iter_rows(max_col=MAX_COLUMNS + 1, values_only=True), 1
        ):
            rows.append((number, list(cells[: MAX_COLUMNS + 1])))
            if len(rows) > MAX_ROWS + 1:
                break
        # a formula with no saved value, a date, an empty sheet
        review(path, data if formulas else None, book, worksheet, rows)
        return [(number, [_whole(c) for c in cells]) for number, cells in rows]
    except SpecError:
        raise
    except Exception as exc:
        raise SpecError(
            path, None, f"cannot read the workbook ({type(exc).__name__}); save it again as .xlsx"
        ) from None
    finally:
        book.close()


def _pick_sheet(path: Path, names: list[str], sheet: str | None) -> str:
    if sheet is None:
        return names[0] if names else first_sheet(path, None)
    if sheet not in names:
        raise SpecError(path, None, f"no sheet named '{sheet}'; it has: {', '.join(names)}")
    return sheet


def _whole(value: Any) -> Any:
    """A spreadsheet cell: a whole float (Excel stores 3 as 3.0) as an int, a date as text."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    return str(value)


def _ods_rows(
    path: Path, members: dict[str, bytes], sheet: str | None
) -> list[tuple[int, list[Any]]]:
    """(row number, cells) of a table of an OpenDocument spreadsheet: the first, or ``sheet``.
    Repeated rows and cells (how ODS stores blank runs) are expanded only up to the limits."""
    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
        root = etree.fromstring(members["content.xml"], parser)
    except (KeyError, etree.XMLSyntaxError):
        raise SpecError(
            path,
            None,
            "not an OpenDocument spreadsheet (no readable content.xml); save it again as .ods",
        ) from None
    tables = root.iterfind(".//table:table", ODS)
    found = {t.get(f"{{{ODS['table']}}}name", ""): t for t in tables}
    table = found[_pick_sheet(path, list(found), sheet)]
    rows: list[tuple[int, list[Any]]] = []
    number = 0
    for row in table.iterfind(".//table:table-row", ODS):
        where = (path, number + 1)
        cells = _ods_cells(row, where)
        repeat = min(_repeat(row, "number-rows-repeated", where), MAX_ROWS + 2)
        for _ in range(repeat):
            number += 1
            rows.append((number, list(cells)))
        if len(rows) > MAX_ROWS + 1:
            break
    return rows


def _ods_cells(row: etree._Element, where: tuple[Path, int]) -> list[Any]:
    """The values of one ODS row (``where``: its file and row, for a mistake), blank runs
    expanded up to ``MAX_COLUMNS`` + 1."""
    cells: list[Any] = []
    office = ODS["office"]
    for cell in row:
        if etree.QName(cell).localname not in ("table-cell", "covered-table-cell"):
            continue
        repeat = min(_repeat(cell, "number-columns-repeated", where), MAX_COLUMNS + 1)
        kind = cell.get(f"{{{office}}}value-type")
        if kind in ("float", "percentage", "currency"):
            value: Any = _whole(_ods_number(cell.get(f"{{{office}}}value", "0"), where))
        else:
            paragraphs = cell.iterfind("text:p", ODS)
            value = "\n".join("".join(p.itertext()) for p in paragraphs) or None
        cells.extend([value] * repeat)
        if len(cells) > MAX_COLUMNS:
            break
    return cells[: MAX_COLUMNS + 1]


def _repeat(element: etree._Element, name: str, where: tuple[Path, int]) -> int:
    """An ODS element's repeat count (``table:number-rows-repeated`` or ``-columns-``): a
    whole number (a huge one counts as huge), else a SpecError at its row."""
    text = element.get(f"{{{ODS['table']}}}{name}", "1")
    if not text.isascii() or not text.isdigit():
        raise SpecError(*where, f"{name}={text[:20]!r} is not a whole number; save it again")
    return int(text) if len(text) < 10 else 10**9


def _ods_number(text: str, where: tuple[Path, int]) -> float:
    """An ODS cell's ``office:value``: a number, else a SpecError at its row."""
    try:
        return float(text[:100])
    except ValueError:
        raise SpecError(*where, f"the cell's value {text[:20]!r} is not a number") from None
