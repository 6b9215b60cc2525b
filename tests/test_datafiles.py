"""Card and token lists from spreadsheets: every format reads the same cards, a mistake is
reported at its file and row, and a data file is held to the game folder and its limits."""

from __future__ import annotations

import io
import json
import re
import struct
import zipfile
from pathlib import Path

import openpyxl
import pypdf
import pytest

from generator.errors import SpecError
from generator.limits import FILE_BYTES
from generator.model import datafiles

FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>
  <text x="4" y="10" font-family="sans-serif" font-size="4">{{ card.title }}</text>
  <text x="4" y="30" font-family="sans-serif" font-size="3">{{ card.text }}</text>
</svg>
"""
ROWS = [
    ("Title", "Text", "Count"),
    ("Lucky Draw", "Draw two cards, keep one.", 3),
    ("Storm", "Everyone discards a card.", 1),
    ("Lucky Draw", "Take a coin.", 2),
]
# what each format must read from ROWS
EXPECTED = [
    {"title": "Lucky Draw", "text": "Draw two cards, keep one.", "count": 3, "name": "lucky-draw"},
    {"title": "Storm", "text": "Everyone discards a card.", "count": 1, "name": "storm"},
    {"title": "Lucky Draw", "text": "Take a coin.", "count": 2, "name": "lucky-draw-2"},
]


def _csv(rows, delimiter=",") -> bytes:
    def cell(value):
        text = "" if value is None else str(value)
        return f'"{text}"' if delimiter in text or "\n" in text else text

    return ("\n".join(delimiter.join(map(cell, row)) for row in rows) + "\n").encode()


def _xlsx(rows) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in rows:
        sheet.append(list(row))
    book.create_sheet("Other").append(["title", "count"])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _ods(rows) -> bytes:
    """A minimal OpenDocument spreadsheet, as LibreOffice writes one (blank runs repeated)."""
    cells = []
    for row in rows:
        parts = []
        for value in row:
            if value is None:
                parts.append("<table:table-cell/>")
            elif isinstance(value, int):
                parts.append(
                    f'<table:table-cell office:value-type="float" office:value="{value}">'
                    f"<text:p>{value}</text:p></table:table-cell>"
                )
            else:
                parts.append(
                    f'<table:table-cell office:value-type="string"><text:p>{value}</text:p>'
                    "</table:table-cell>"
                )
        parts.append('<table:table-cell table:number-columns-repeated="16381"/>')
        cells.append(f"<table:table-row>{''.join(parts)}</table:table-row>")
    cells.append(
        '<table:table-row table:number-rows-repeated="1048570"><table:table-cell '
        'table:number-columns-repeated="16384"/></table:table-row>'
    )
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
        f'<office:spreadsheet><table:table table:name="Cards">{"".join(cells)}</table:table>'
        "</office:spreadsheet></office:body></office:document-content>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", content)
    return out.getvalue()


def _ods_changed(old: str, new: str) -> bytes:
    """The ODS of ``ROWS`` with ``old`` in its content.xml made ``new`` (once)."""
    with zipfile.ZipFile(io.BytesIO(_ods(ROWS))) as archive:
        content = archive.read("content.xml").decode()
    assert old in content
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", content.replace(old, new, 1))
    return out.getvalue()


def _zip_pointing_before_itself(data: bytes) -> bytes:
    """A zip whose end record places its directory 5,000 bytes further than it is: its
    members' offsets come out negative (zipfile: ValueError 'negative seek value')."""
    at = data.rindex(b"PK\x05\x06")
    size, offset = struct.unpack("<II", data[at + 12 : at + 20])
    return data[: at + 12] + struct.pack("<II", size, offset + 5000) + data[at + 20 :]


def _json(rows) -> bytes:
    keys = [k.lower() for k in rows[0]]
    items = [{k: v for k, v in zip(keys, row, strict=True) if v is not None} for row in rows[1:]]
    return json.dumps(items, indent=2).encode()


def _yaml(rows) -> bytes:
    keys = [k.lower() for k in rows[0]]
    lines = []
    for row in rows[1:]:
        pairs = [f"{k}: {json.dumps(v)}" for k, v in zip(keys, row, strict=True) if v is not None]
        lines.append("- " + "\n  ".join(pairs))
    return ("\n".join(lines) + "\n").encode()


FORMATS = {
    "cards.csv": lambda: _csv(ROWS),
    "semicolons.csv": lambda: b"\xef\xbb\xbf" + _csv(ROWS, ";"),  # Excel's CSV: BOM, ';'
    "cards.tsv": lambda: _csv(ROWS, "\t"),
    # Excel's "Unicode text": UTF-16 with its byte-order mark, tab-separated
    "unicode.csv": lambda: _csv(ROWS, "\t").decode().encode("utf-16"),
    "cards.xlsx": lambda: _xlsx(ROWS),
    "cards.ods": lambda: _ods(ROWS),
    "cards.json": lambda: _json(ROWS),
    "cards-list.yaml": lambda: _yaml(ROWS),
}


def write_game(tmp_path: Path, data_name: str, data: bytes, spec_extra: str = "") -> Path:
    root = tmp_path / "components" / "g"
    (root / "templates").mkdir(parents=True)
    (root / "game.yaml").write_text("title: Data\nplayers: 2\n", encoding="utf-8")
    (root / "templates" / "face.svg.j2").write_text(FACE, encoding="utf-8")
    (root / "deck.yaml").write_text(
        f"kind: deck\ntitle: Cards\nsize: poker\nface: face.svg.j2\n"
        f"cards: {{from: {data_name}{spec_extra}}}\n",
        encoding="utf-8",
    )
    (root / data_name).parent.mkdir(parents=True, exist_ok=True)
    (root / data_name).write_bytes(data)
    return root


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_reads_the_same_cards(tmp_path, name):
    root = write_game(tmp_path, name, FORMATS[name]())
    table = datafiles.read_table(root, name)
    assert table.rows == EXPECTED
    if name.endswith((".csv", ".tsv", ".xlsx", ".ods")):
        assert [table.lines[(i,)] for i in range(3)] == [2, 3, 4]  # the spreadsheet's rows


@pytest.mark.parametrize("name", ["cards.csv", "cards.xlsx", "cards.ods", "cards-list.yaml"])
def test_a_deck_from_a_data_file_builds_and_prints_its_cards(tmp_path, pnp, name):
    root = write_game(tmp_path, name, FORMATS[name]())
    result = pnp("build", "--components", root.parent, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "out" / "g" / "g.pdf")
    printed = " ".join(page.extract_text() for page in reader.pages[1:])
    assert printed.count("Lucky Draw") == 5 and printed.count("Storm") == 1, printed
    assert "Everyone discards a card." in printed
    contents = reader.pages[0].extract_text().replace("\u00a0", " ")
    assert "Lucky Draw × 3" in contents and "Storm × 1" in contents


def test_another_sheet_of_a_workbook_is_named_by_sheet(tmp_path):
    root = write_game(tmp_path, "cards.xlsx", _xlsx(ROWS))
    assert datafiles.read_table(root, "cards.xlsx", "Cards").rows == EXPECTED
    with pytest.raises(SpecError, match="no sheet named 'Nope'; it has: Cards, Other"):
        datafiles.read_table(root, "cards.xlsx", "Nope")


MISTAKES = {
    "a count that is no number": (
        "cards.csv",
        _csv([*ROWS[:2], ("Storm", "x", "many")]),
        "cards.csv:3: column 'count': input should be a valid integer, got 'many'",
    ),
    "a row with neither name nor title": (
        "cards.csv",
        _csv([*ROWS[:2], (None, "text only", 2)]),
        "cards.csv:3: the row has no name and no title; add a 'name' or a 'title' column",
    ),
    "a value under no heading": (
        "cards.csv",
        _csv([ROWS[0], ("Storm", "x", 1, "stray")]),
        "cards.csv:2: a value in column 4, which has no heading",
    ),
    "an unclosed quote": (
        "cards.csv",
        b'title,text\nStorm,"never closed\n',
        "cards.csv:",
    ),
    "two columns of one name": (
        "cards.csv",
        b"Title,title\nA,B\n",
        "cards.csv:1: two columns are named 'title'; rename one",
    ),
    "a mistake in the middle of a JSON list": (
        "cards.json",
        b'[\n  {"title": "A"},\n  {"title": "B", "count": 1,,}\n]\n',
        "cards.json:3: broken JSON",
    ),
    "a JSON integer of 5,000 digits": (
        "cards.json",
        b'[\n  {"title": "A"},\n  {"title": "B", "count": ' + b"9" * 5000 + b"}\n]\n",
        "cards.json:3: a number of more than 4,300 digits",
    ),
    "a JSON object, not a list": ("cards.json", b'{"title": "A"}', "cards.json:1: a JSON data"),
    "a NUL byte in a cell": (
        "cards.csv",
        _csv(ROWS).replace(b"Storm", b"St\0orm"),
        "cards.csv:3: column 'title' holds the control character \\x00, which prints as nothing",
    ),
    "a count that is no number in a workbook": (
        "cards.xlsx",
        _xlsx([*ROWS[:3], ("Storm", "x", "three")]),
        "cards.xlsx:4: column 'count': input should be a valid integer, got 'three'",
    ),
    "a text file named .xlsx": (
        "cards.xlsx",
        b"title,count\nA,1\n",
        "cards.xlsx: not a spreadsheet file (it is no zip archive)",
    ),
    "a format it cannot read": ("cards.numbers", b"\0", "cannot read '.numbers' files"),
    # each was exit 4 (issue 25): the counts and values LibreOffice writes, written by hand
    "rows repeated 'abc' times in an ODS": (
        "cards.ods",
        _ods_changed('number-rows-repeated="1048570"', 'number-rows-repeated="abc"'),
        "cards.ods:5: number-rows-repeated='abc' is not a whole number",
    ),
    "columns repeated '1e3' times in an ODS": (
        "cards.ods",
        _ods_changed('number-columns-repeated="16381"', 'number-columns-repeated="1e3"'),
        "cards.ods:1: number-columns-repeated='1e3' is not a whole number",
    ),
    "an ODS whose zip points before itself": (
        "cards.ods",
        _zip_pointing_before_itself(_ods(ROWS)),
        "cards.ods: not a spreadsheet file (it is no zip archive)",
    ),
    "a number cell of value 'one' in an ODS": (
        "cards.ods",
        _ods_changed('office:value="3"', 'office:value="one"'),
        "cards.ods:2: the cell's value 'one' is not a number",
    ),
    "no rows": ("cards.csv", b"title,count\n", "no rows below the headings"),
    "a data file that is missing": (
        "nothing.csv",
        None,
        "deck.yaml:5: data file 'nothing.csv' not found in the game folder; name it by its path",
    ),
}


@pytest.mark.parametrize("case", list(MISTAKES))
def test_a_mistake_in_a_data_file_is_an_error_at_its_row(tmp_path, pnp, case):
    name, data, message = MISTAKES[case]
    root = write_game(tmp_path, name, data or b"")
    if data is None:
        (root / name).unlink()
    result = pnp("check", "--components", root.parent)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert message in result.stderr, result.stderr


def test_a_data_file_outside_the_game_folder_is_refused(tmp_path, pnp):
    outside = tmp_path / "secret.csv"
    outside.write_bytes(_csv(ROWS))
    root = write_game(tmp_path, "cards.csv", b"")
    (root / "cards.csv").unlink()
    (root / "cards.csv").symlink_to(outside)
    result = pnp("check", "--components", root.parent)
    assert result.exit_code == 2 and "leads outside its folder" in result.stderr, result.stderr
    (root / "deck.yaml").write_text(
        (root / "deck.yaml").read_text().replace("cards.csv", "../../secret.csv")
    )
    result = pnp("check", "--components", root.parent)
    assert result.exit_code == 2 and "outside" in result.stderr, result.stderr


def test_limits_stop_a_huge_table_before_it_is_read(tmp_path, monkeypatch):
    root = write_game(tmp_path, "cards.csv", _csv([ROWS[0]] + [ROWS[1]] * 50))
    monkeypatch.setattr(datafiles, "MAX_ROWS", 20)
    with pytest.raises(SpecError, match="more than 20 rows"):
        datafiles.read_table(root, "cards.csv")
    monkeypatch.setitem(FILE_BYTES, "data", 100)
    with pytest.raises(SpecError, match="data files are limited to 100"):
        datafiles.read_table(root, "cards.csv")
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/sharedStrings.xml", b" " * 60_000_000)
    (root / "bomb.xlsx").write_bytes(bomb.read_bytes())
    monkeypatch.setitem(FILE_BYTES, "data", 5_000_000)
    with pytest.raises(SpecError, match="unpacks to 60,000,000 bytes"):
        datafiles.read_table(root, "bomb.xlsx")


def test_translation_catalogs_pick_up_the_data_and_point_at_its_rows(tmp_path, pnp):
    root = write_game(tmp_path, "cards.csv", _csv(ROWS))
    game = (root / "game.yaml").read_text() + "languages: [en, de]\n"
    (root / "game.yaml").write_text(game)
    result = pnp("i18n", "extract", "g", "--components", root.parent)
    assert result.exit_code == 0, result.output
    pot = (root / "locale" / "g.pot").read_text(encoding="utf-8")
    entry = '#: cards.csv:3\nmsgctxt "deck: cards.text"\nmsgid "Everyone discards a card."'
    assert entry in pot, pot
    result = pnp("check", "--components", root.parent, "--lang", "de")
    assert result.exit_code == 1
    assert "cards.csv:3" in result.output, result.output


def test_tokens_read_a_data_file_too(tmp_path, pnp):
    root = write_game(tmp_path, "cards.csv", _csv(ROWS))
    (root / "tokens.yaml").write_text(
        "kind: tokens\ntitle: Coins\nshape: circle\nsize: 16\nface: face.svg.j2\n"
        "tokens: {from: coins.csv}\n"
    )
    (root / "coins.csv").write_text(
        "name,title,text,count\ngold,Gold,Worth 5,4\nsilver,Silver,1,6\n"
    )
    (root / "templates" / "token.svg.j2").write_text(FACE.replace("card.", "piece."))
    (root / "tokens.yaml").write_text(
        (root / "tokens.yaml").read_text().replace("face.svg.j2", "token.svg.j2")
    )
    result = pnp("check", "--components", root.parent)
    assert result.exit_code == 0, result.output
    assert re.search(r"tokens +– +10", result.output), result.output
