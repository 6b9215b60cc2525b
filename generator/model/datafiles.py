"""Lists of cards and tokens kept in a spreadsheet: CSV, Excel (.xlsx), OpenDocument (.ods),
JSON, or a YAML list, named in a spec as ``cards: {from: cards.csv}``.

A table is one entry per row. The first row names the columns; a column's name becomes the
entry's field (``Flavor text`` → ``flavor_text``), an empty cell an empty text, a number a
number. ``count`` defaults to 1, ``name`` comes from a ``name`` column or is made from
``title``. Every value keeps the row it came from, so a mistake in it is reported as
``cards.csv:ROW: column 'count': ...``, like a mistake in a spec. The file must lie inside the
game folder, and is refused past ``MAX_DATA_BYTES``, ``MAX_ROWS`` or ``MAX_COLUMNS``.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from generator.errors import SpecError
from generator.limits import FILE_BYTES, MAX_COLUMNS, MAX_ROWS
from generator.model import spreadsheets
from generator.model.workbooks import merged_hint
from generator.model.yamlsource import LONE_SURROGATE, YamlDoc, parse_yaml
from generator.paths import PathRefused, TooLarge, read_bytes, within

MAX_DATA_BYTES = FILE_BYTES["data"]  # a data file's size

MAX_CELL = 5_000  # characters in one cell
MAX_DIGITS = 4_300  # digits of an integer (Python's own limit for converting text)
FORMATS = (".csv", ".tsv", ".xlsx", ".ods", ".json", ".yaml", ".yml")
RESERVED = ("name", "count", "per_player", "series", "counts", "group")


@dataclass
class Table:
    """A data file's entries and where each came from: ``lines[(i,)]`` is entry ``i``'s line
    or row, ``lines[(i, field)]`` the same; ``columns[field]`` the heading as written."""

    path: Path
    rows: list[dict[str, Any]]
    lines: dict[tuple, int] = field(default_factory=dict)
    columns: dict[str, str] = field(default_factory=dict)
    parked: list[tuple[str, int]] = field(default_factory=list)  # count 0: name, row
    header: int = 1  # the line of the headings (or of the first entry)


def read_table(root: Path, name: str, sheet: str | None = None) -> Table:
    """The entries of data file ``name`` (relative to the game folder ``root``); raises
    SpecError at the file (and row) for a file that cannot be used."""
    raw = read_rows(root, name, sheet)
    headings = dict(raw.columns)
    alias = _count_key(headings)
    if alias and alias != "count":
        headings["count"] = headings.pop(alias)
    table = _entries_from_records(raw.path, raw.rows, raw.lines, headings)
    return replace(table, header=raw.header)


def read_rows(root: Path, name: str, sheet: str | None = None) -> Table:
    """The rows of data file ``name`` as written, each a mapping of its columns, for a table
    that is no list of pieces (a map's terrain): no count, no name made. SpecError as above."""
    path = root / name
    if not (path.exists() or path.is_symlink()):
        fix = "name the data file by its path in the game folder, e.g. cards.csv or data/cards.csv"
        raise SpecError(path, None, f"no such file; {fix}")
    try:
        data = read_bytes(root, path, "data")
    except TooLarge as exc:
        limit = f"the file is {exc.size:,} bytes; data files are limited to {exc.limit:,}"
        raise SpecError(path, None, limit) from None
    except PathRefused as exc:
        refused = f"{exc}; a data file is a file inside the game folder"
        raise SpecError(path, None, refused) from None
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        message = f"cannot read '{path.suffix}' files; save the table as {', '.join(FORMATS)}"
        raise SpecError(path, None, message)
    if suffix in (".yaml", ".yml", ".json"):
        records, lines = _records(path, within(root, path), data, suffix)
        return Table(path, records, lines)
    if suffix in (".csv", ".tsv"):
        grid = _csv_rows(path, data)
    else:
        grid = spreadsheets.rows(path, data, suffix, sheet)
    return _rows_from_grid(path, grid)


# --- reading each format into rows of cells -------------------------------------------------


def _csv_rows(path: Path, data: bytes) -> list[tuple[int, list[Any]]]:
    """(line, cells) of every row of a CSV file, the delimiter found from the first line."""
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))  # Excel's "Unicode"
    try:
        text = data.decode("utf-16" if utf16 else "utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SpecError(path, line, "not UTF-8 text; save the file as CSV UTF-8") from None
    first = text.split("\n", 1)[0]
    delimiter = "\t" if path.suffix.lower() == ".tsv" else max(",;\t", key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows = []
    start = 1
    try:
        for cells in reader:
            rows.append((start, [_number(c) for c in cells]))
            start = reader.line_num + 1
            if len(rows) > MAX_ROWS + 1:
                break
    except csv.Error as exc:
        raise SpecError(path, reader.line_num, f"broken CSV: {exc}; check the quotes") from None
    return rows


def _number(cell: str) -> Any:
    """A CSV cell as a spreadsheet shows it: whole and decimal numbers as numbers."""
    text = cell.strip()
    if re.fullmatch(r"-?(0|[1-9]\d{0,14})", text):
        return int(text)
    if re.fullmatch(r"-?\d{1,15}\.\d{1,15}", text):
        return float(text)
    return cell


def _records(
    path: Path, real: Path, data: bytes, suffix: str
) -> tuple[list[Any], dict[tuple, int]]:
    """The items of a JSON array or YAML list, with the line of each item and its keys."""
    if suffix != ".json":
        try:
            source = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            message = f"not UTF-8 text ({exc.reason}); save it as UTF-8"
            raise SpecError(real, None, message) from None
        doc: YamlDoc = parse_yaml(real, source)
        if not isinstance(doc.data, list):
            raise SpecError(path, 1, "a YAML data file is a list of entries, one per '- '")
        return doc.data, {k: v for k, v in doc.lines.items() if k}
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SpecError(path, None, "not UTF-8 text; save the file as UTF-8") from None
    decoder = json.JSONDecoder(parse_int=_json_int)
    at = len(text) - len(text.lstrip())
    if not text[at:].startswith("["):
        raise SpecError(path, 1, "a JSON data file is an array of objects: [{...}, {...}]")
    records: list[Any] = []
    lines: dict[tuple, int] = {}
    at += 1
    while True:
        at = _skip(text, at)
        if at < len(text) and text[at] == "]":
            break
        line = text.count("\n", 0, at) + 1
        try:
            record, at = decoder.raw_decode(text, at)
        except (json.JSONDecodeError, RecursionError) as exc:
            where = text.count("\n", 0, getattr(exc, "pos", at)) + 1
            raise SpecError(path, where, f"broken JSON: {getattr(exc, 'msg', exc)}") from None
        except ValueError as exc:  # _json_int's refusal
            raise SpecError(path, line, str(exc)) from None
        if not _encodable(record):  # "\ud800": a string Python holds but no file can
            raise SpecError(path, line, LONE_SURROGATE)
        lines[(len(records),)] = line
        records.append(record)
        if len(records) > MAX_ROWS:
            break
        at = _skip(text, at)
        if at < len(text) and text[at] == ",":
            at += 1
        elif at >= len(text) or text[at] != "]":
            raise SpecError(path, text.count("\n", 0, at) + 1, "broken JSON: expected ',' or ']'")
    return records, lines


def _encodable(record: Any) -> bool:
    """Whether every text in a decoded JSON record can be written (no lone surrogate)."""
    stack = [record]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def _json_int(digits: str) -> int:
    """A JSON integer, refused past ``MAX_DIGITS`` digits (Python's own limit, which would
    raise deep inside the decoder)."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise ValueError(
            f"a number of more than {MAX_DIGITS:,} digits ({len(digits):,}); write a smaller number"
        )
    return int(digits)


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


# --- rows into entries ----------------------------------------------------------------------


def column_name(heading: str) -> str:
    """The field a column heading names: ``Flavor text`` → ``flavor_text``."""
    ascii_text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "_", ascii_text.strip().lower()).strip("_")


def _rows_from_grid(path: Path, grid: list[tuple[int, list[Any]]]) -> Table:
    """Rows of cells as records, the first non-empty row naming the columns."""
    grid = [(n, _trimmed(cells)) for n, cells in grid if any(_filled(c) for c in cells)]
    if not grid:
        return Table(path, [])
    header_line, header = grid[0]
    columns = _columns(path, header_line, header)
    records: list[dict[str, Any]] = []
    lines: dict[tuple, int] = {}
    for line, cells in grid[1:]:
        record: dict[str, Any] = {}
        for index, value in enumerate(cells):
            if index not in columns:
                if _filled(value):
                    raise SpecError(
                        path,
                        line,
                        f"a value in column {index + 1}, which has no "
                        f"heading; give the column a heading or clear it{merged_hint(path)}",
                    )
                continue
            record[columns[index]] = value
        if not _encodable(record):  # "\ud800": a string Python holds but no file can
            raise SpecError(path, line, LONE_SURROGATE)
        for name in columns.values():  # blank cells a spreadsheet left off the row's end
            record.setdefault(name, None)
        lines[(len(records),)] = line
        records.append(record)
    headings = {name: str(header[i]).strip() for i, name in columns.items()}
    return Table(path, records, lines, headings, header=header_line)


def _columns(path: Path, line: int, header: list[Any]) -> dict[int, str]:
    """Column index → field name, from the heading row."""
    if len(header) > MAX_COLUMNS:
        raise SpecError(
            path, line, f"more than {MAX_COLUMNS} columns; keep the ones the cards print"
        )
    columns: dict[int, str] = {}
    for index, heading in enumerate(header):
        if not _filled(heading):
            continue
        name = column_name(str(heading))
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise SpecError(
                path,
                line,
                f"column heading '{heading}' cannot be a field name; start it with a letter",
            )
        if name in columns.values():
            raise SpecError(path, line, f"two columns are named '{name}'; rename one")
        columns[index] = name
    return columns


def _trimmed(cells: list[Any]) -> list[Any]:
    """A row without its trailing blank cells (spreadsheets store runs of them)."""
    end = len(cells)
    while end and not _filled(cells[end - 1]):
        end -= 1
    return cells[:end]


def _filled(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


def _entries_from_records(
    path: Path, records: list[Any], lines: dict[tuple, int], headings: dict[str, str] | None = None
) -> Table:
    """Entries from records (mappings): empty values cleared, ``count`` defaulted (or taken
    from an alias such as ``qty``), ``name`` made from ``title`` where missing, every value's
    line kept; rows of ``count: 0`` parked (kept aside, not printed). A row that cannot be a
    piece (a total, an empty count, a control character, a display name as ``name``) is an
    error at its row."""
    if len(records) > MAX_ROWS:
        raise SpecError(
            path,
            lines.get((MAX_ROWS,)),
            f"more than {MAX_ROWS:,} rows; split the list into several components",
        )
    taken: set[str] = {str(r["name"]) for r in records if isinstance(r, dict) and "name" in r}
    table = Table(path, [], columns=headings or {})
    for index, record in enumerate(records):
        line = lines.get((index,), 1)
        if not isinstance(record, dict):
            raise SpecError(path, line, "each entry is a mapping of fields to values")
        row = _row(path, line, record)
        if "name" not in row:
            row["name"] = _name_from_title(path, line, row, taken)
        if row.get("count") == 0 and not isinstance(row["count"], bool):
            table.parked.append((str(row["name"]), line))
            continue
        at = len(table.rows)
        table.lines[(at,)] = line
        for key in row:
            table.lines[(at, key)] = lines.get((index, key), line)
        table.rows.append(row)
    _check_names(path, table)
    return table


COUNT_ALIASES = ("qty", "quantity", "copies", "amount", "number_of_copies")  # other tools' count
TOTALS = re.compile(r"(grand\s+)?(totals?|sum|summe|gesamt|total\s+count)\s*:?", re.IGNORECASE)
FORMULA = re.compile(r"=\s*[A-Za-z][A-Za-z.]*\s*\(")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _count_key(record: dict[Any, Any]) -> str | None:
    """The key a record's copies are given under: ``count``, or an alias other tools use."""
    for key in ("count", *COUNT_ALIASES):
        if key in record:
            return key
    return None


def _row(path: Path, line: int, record: dict[Any, Any]) -> dict[str, Any]:
    """One record as an entry: its cells checked, empty reserved cells dropped, ``qty`` (or
    another alias) as ``count``, ``count`` 1 when the record has no count at all (an empty
    count cell is an error)."""
    alias = _count_key(record)
    row: dict[str, Any] = {}
    for key, value in record.items():
        check_cell(path, line, key, value)
        key = "count" if key == alias and "count" not in record else key
        if key in RESERVED and not _filled(value):
            continue
        row[key] = "" if value is None else value
    if _is_total(row):
        raise SpecError(
            path,
            line,
            f"this row looks like a total ('{_first_text(row)}'), not a card; delete the row "
            "(or keep totals on another sheet): the pack counts its pieces itself",
        )
    if not any(k in row for k in ("count", "per_player", "counts")):
        if alias is not None:
            raise SpecError(
                path,
                line,
                f"column '{alias or 'count'}' is empty in this row; give how many copies to "
                "print (0 keeps the row out of the pack)",
            )
        row["count"] = 1
    return row


def check_cell(path: Path, line: int, key: Any, value: Any) -> None:
    """A cell is a value, not a formula, of at most ``MAX_CELL`` characters and no control
    characters."""
    if not isinstance(value, str):
        return
    if len(value) > MAX_CELL:
        message = f"'{key}' holds {len(value):,} characters; a cell is limited to {MAX_CELL:,}"
        raise SpecError(path, line, message)
    bad = CONTROL.search(value)
    if bad:
        code = bad[0].encode("unicode_escape").decode()
        raise SpecError(
            path,
            line,
            f"column '{key}' holds the control character {code}, which prints as nothing; "
            "type the cell again",
        )
    if FORMULA.match(value.strip()):
        raise SpecError(
            path,
            line,
            f"column '{key}' holds the formula '{value.strip()[:40]}', not its value; "
            + (
                "a total row is not a card: delete it"
                if "SUM" in value.upper()
                else "save the file with values (xlsx, ods, or CSV saved by the spreadsheet)"
            ),
        )


def _first_text(row: dict[str, Any]) -> str:
    return next((str(v) for k, v in row.items() if k in ("title", "name") and _filled(v)), "")


def _is_total(row: dict[str, Any]) -> bool:
    """A row a spreadsheet adds to sum a column: its title 'Total' (or 'Sum' ...) and no
    fields but a count."""
    title = _first_text(row)
    others = [k for k, v in row.items() if _filled(v) and k not in ("title", "name", "count")]
    return bool(title) and TOTALS.fullmatch(title.strip()) is not None and not others


SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")


def _check_names(path: Path, table: Table) -> None:
    """A ``name`` column holds ids; printed names in it are one error, at the first, saying
    where the printed name goes."""
    for index, row in enumerate(table.rows):
        name = row["name"]
        if isinstance(name, str) and not SLUG.fullmatch(name):
            heading = table.columns.get("name", "name")
            raise SpecError(
                path,
                table.lines[(index, "name")],
                f"column '{heading}' holds '{name[:40]}', but 'name' is an id (lower-case "
                "letters, digits and dashes, as in expect:); the printed name is 'title': "
                f"rename the column '{heading}' to 'title' and the ids are made from it",
            )


def _name_from_title(path: Path, line: int, row: dict[str, Any], taken: set[str]) -> str:
    """A unique slug made from the row's title: 'Lucky Draw' → 'lucky-draw' (-2, -3 ...)."""
    title = row.get("title")
    if not _filled(title):
        raise SpecError(
            path, line, "the row has no name and no title; add a 'name' or a 'title' column"
        )
    ascii_text = unicodedata.normalize("NFKD", str(title)).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:60].strip("-") or "card"
    name, number = base, 1
    while name in taken:
        number += 1
        name = f"{base}-{number}"
    taken.add(name)
    return name
