"""The mistakes a new designer makes (issue 26), each on the game ``pnp new`` writes: the exit
code, and a message that names the file and its line or row and says how to fix it. Warnings
(exit 0) are said at their row too; none of these is silent, none is an internal error."""

from __future__ import annotations

import datetime
import io
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pixels import png_header_only

HEADER = "title,type,text,flavor,cost,value,icons,art,count"
ROWS = [
    'First Light,Action,"Draw **two** cards, then discard one.",'
    "Every journey starts somewhere.,1,,card,,2",
    "Lucky Coin,Treasure,Gain :coin: :coin:.,,,2,coin,,2",
    'Storm,Event,"Every player passes a card to the left. *Nobody* draws this turn.",,,,bolt,,1',
]


def csv(header: str = HEADER, rows: list[str] | None = None) -> str:
    return "\n".join([header, *(ROWS if rows is None else rows)]) + "\n"


def row(n: int, **cells: str) -> list[str]:
    """The sample rows with row ``n`` (0-based) given new cells by column name."""
    import csv as csvlib

    names = HEADER.split(",")
    rows = [next(csvlib.reader([r])) for r in ROWS]
    for key, value in cells.items():
        rows[n][names.index(key)] = value
    out = io.StringIO()
    csvlib.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().splitlines()


def png(size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 60, 40)).save(out, "PNG")
    return out.getvalue()


DROP_SHADOW = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20">
  <filter id="s"><feGaussianBlur stdDeviation="1"/><feOffset dx="1" dy="1"/></filter>
  <circle cx="10" cy="10" r="8" fill="#c33" style="filter:url(#s)"/>
</svg>"""
BOMB_PNG = png_header_only(30_000, 30_000)  # says 900 megapixels in a few bytes


def workbook(make: Callable[[Any], None]) -> bytes:
    """An .xlsx made by openpyxl (which saves no calculated values), ``make`` given it."""
    from openpyxl import Workbook

    book = Workbook()
    make(book)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


XHEAD = ["title", "type", "text", "cost", "count"]
XROWS = [["First Light", "Action", "Draw two.", 1, 2], ["Storm", "Event", "Rain.", 2, 1]]


def _sheet(book: Any, name: str, rows: list[list[Any]], first: bool = False) -> Any:
    sheet = book.active if first else book.create_sheet(name)
    sheet.title = name
    for cells in rows:
        sheet.append(cells)
    return sheet


def _hidden_first(book: Any) -> None:
    _sheet(book, "Notes", [["just notes"]], first=True).sheet_state = "hidden"
    _sheet(book, "Cards", [XHEAD, *XROWS])


def _merged(book: Any) -> None:
    _sheet(book, "Cards", [XHEAD, *XROWS], first=True).merge_cells("C1:D1")


TO_XLSX = {"cards.yaml": lambda t: t.replace("cards.csv", "cards.xlsx")}

SUM_FACE = """<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <text x="5" y="10" font-size="4">{{ card.title }}</text>
  <text x="5" y="20" font-size="4">{{ card.cost + 1 }}</text>
</svg>
"""

Edit = Callable[[str], str] | str | bytes | None
# name: ({file: new content, or a function of the old text; None deletes}, command, exit, said)
CASES: dict[str, tuple[dict[str, Edit], tuple[str, ...], int, tuple[str, ...]]] = {
    # --- columns of the card list ------------------------------------------------------------
    "a British spelling of a column": (
        {"cards.csv": csv(HEADER.replace("flavor", "Flavour"))},
        ("check",),
        0,
        ("cards.csv:1: warning: column 'Flavour' is used by no field", "did you mean 'flavor'?"),
    ),
    "a column no field uses": (
        {"cards.csv": csv(HEADER + ",Suit", [r + ",Lanterns" for r in ROWS])},
        ("check",),
        0,
        ("cards.csv:1: warning: column 'Suit' is used by no field", "style: {accent: {by: suit"),
    ),
    "a column no field uses, with --strict": (
        {"cards.csv": csv(HEADER + ",Suit", [r + ",Lanterns" for r in ROWS])},
        ("check", "--strict"),
        1,
        ("cards.csv:1: warning: column 'Suit'",),
    ),
    "Squib's Qty column": (
        {"cards.csv": csv(HEADER.replace("count", "Qty"))},
        ("list",),
        0,
        ("5 pieces", "first-light 2, lucky-coin 2, storm 1"),
    ),
    "a Colour column": (
        {"cards.csv": csv(HEADER + ",Colour", [r + ",#b8322a" for r in ROWS])},
        ("check",),
        0,
        ("cards.csv:1: warning: column 'Colour'", "did you mean 'accent'?"),
    ),
    "an empty count cell": (
        {"cards.csv": csv(rows=row(1, count=""))},
        ("check",),
        2,
        ("cards.csv:3:", "count"),
    ),
    "a total row summing the counts": (
        {"cards.csv": csv(rows=[*ROWS, "Total,,,,,,,,=SUM(I2:I4)"])},
        ("check",),
        2,
        ("cards.csv:5:", "total"),
    ),
    "a Total row with only a number": (
        {"cards.csv": csv(rows=[*ROWS, "Total,,,,,,,,5"])},
        ("check",),
        2,
        ("cards.csv:5:", "total"),
    ),
    "count as a word": (
        {"cards.csv": csv(rows=row(2, count="two"))},
        ("check",),
        2,
        ("cards.csv:4: column 'count'", "'two'"),
    ),
    "count not whole": (
        {"cards.csv": csv(rows=row(2, count="2.5"))},
        ("check",),
        2,
        ("cards.csv:4:", "whole number"),
    ),
    "a negative count": (
        {"cards.csv": csv(rows=row(2, count="-1"))},
        ("check",),
        2,
        ("cards.csv:4:", "count"),
    ),
    "count 0 parks a row": (
        {"cards.csv": csv(rows=row(2, count="0"))},
        ("list",),
        0,
        ("cards.csv:4", "parked"),
    ),
    "display names in a name column": (
        {"cards.csv": csv("name," + HEADER, ["First Light!," + r for r in ROWS])},
        ("check",),
        2,
        ("cards.csv:2:", "title"),
    ),
    "a value under no heading": (
        {"cards.csv": csv(rows=[ROWS[0] + ",stray", *ROWS[1:]])},
        ("check",),
        2,
        ("cards.csv:2: a value in column 10, which has no heading",),
    ),
    "two columns of one name": (
        {"cards.csv": csv(HEADER + ",Title", [r + ",x" for r in ROWS])},
        ("check",),
        2,
        ("cards.csv:1: two columns are named 'title'",),
    ),
    "an unclosed quote": (
        {"cards.csv": csv(rows=[*ROWS[:2], 'Storm,Event,"never closed,,,,,,1'])},
        ("check",),
        2,
        ("cards.csv:", "quote"),
    ),
    "a NUL byte in a cell": (
        {"cards.csv": csv(rows=row(1, title="Lucky\0Coin"))},
        ("check",),
        2,
        ("cards.csv:3: column 'title' holds the control character",),
    ),
    "a CSV in Latin-1": (
        {"cards.csv": csv(rows=row(1, title="Caf\u00e9")).encode("latin-1")},
        ("check",),
        2,
        ("cards.csv:3: not UTF-8 text; save the file as CSV UTF-8",),
    ),
    "no rows below the headings": (
        {"cards.csv": HEADER + "\n"},
        ("check",),
        2,
        ("cards.csv", "no rows below the headings"),
    ),
    "two cards of one name": (
        {
            "cards.csv": csv(
                "name," + HEADER, [f"{n}," + r for n, r in zip("aab", ROWS, strict=True)]
            )
        },
        ("check",),
        2,
        ("cards.csv:3:", "'a'"),
    ),
    "a data file that is missing": (
        {"cards.csv": None, "Cards.csv": csv()},
        ("check",),
        2,
        (
            "cards.yaml:7: data file 'cards.csv' not found in the game folder; "
            "did you mean 'Cards.csv'?",
        ),
    ),
    "a data file of a format it cannot read": (
        {"cards.yaml": lambda t: t.replace("cards.csv", "cards.numbers"), "cards.numbers": b"\0"},
        ("check",),
        2,
        ("cannot read '.numbers' files",),
    ),
    "from misspelt": (
        {"cards.yaml": lambda t: t.replace("{from:", "{form:")},
        ("check",),
        2,
        ("cards.yaml:", "'form' is not a key here"),
    ),
    "a workbook saved while open (cut short)": (
        {
            "cards.yaml": lambda t: t.replace("cards.csv", "cards.xlsx"),
            "cards.xlsx": b"PK\x03\x04" + b"\0" * 40,
        },
        ("check",),
        2,
        ("cards.xlsx", "save it again"),
    ),
    "a JSON card list that is an object": (
        {
            "cards.yaml": lambda t: t.replace("cards.csv", "cards.json"),
            "cards.json": '{"cards": []}',
        },
        ("check",),
        2,
        ("cards.json:1: a JSON data file is an array of objects",),
    ),
    # --- the specs -----------------------------------------------------------------------------
    "a tab in the YAML": (
        {"game.yaml": lambda t: t.replace("  accent:", "\taccent:")},
        ("check",),
        2,
        ("game.yaml:", "tab"),
    ),
    "a misspelt key": (
        {"cards.yaml": lambda t: t.replace("title: Cards", "tittle: Cards")},
        ("check",),
        2,
        ("cards.yaml:", "did you mean 'title'?"),
    ),
    "a size that does not exist": (
        {"cards.yaml": lambda t: t.replace("size: poker", "size: pokr")},
        ("check",),
        2,
        ("cards.yaml:", "pokr"),
    ),
    "a face template that does not exist": (
        {"cards.yaml": lambda t: t.replace("face: card.svg.j2", "face: cards.svg.j2")},
        ("check",),
        2,
        ("cards.yaml:", "cards.svg.j2"),
    ),
    "a paper that does not exist": (
        {"game.yaml": lambda t: t + "paper: a5\n"},
        ("check",),
        2,
        ("game.yaml:", "a5"),
    ),
    "game.yaml without a title": (
        {"game.yaml": lambda t: t.replace("title: Mine\n", "")},
        ("check",),
        2,
        ("game.yaml:", "missing required key 'title'"),
    ),
    "a colour name misspelt": (
        {"game.yaml": lambda t: t.replace('accent: "#2f4f7f"', "accent: redd")},
        ("check",),
        2,
        ("game.yaml:", "did you mean 'red'"),
    ),
    "a frame that does not exist": (
        {"game.yaml": lambda t: t.replace("frame: rounded ", "frame: roundd ")},
        ("check",),
        2,
        ("game.yaml:", "roundd"),
    ),
    "a font family the game does not have": (
        {"game.yaml": lambda t: t.replace("font: sans-serif ", "font: Garamond ")},
        ("check",),
        0,
        ("warning:", "no font 'Garamond'", "sans-serif is used"),
    ),
    "the rulebook disagrees": (
        {"game.yaml": lambda t: t + "expect:\n  cards: 9\n"},
        ("check",),
        1,
        ("game.yaml:", "the rulebook count is 9 but the specs generate 5"),
    ),
    # --- per-card looks ------------------------------------------------------------------------
    "an accent that is no colour in a row": (
        {
            "cards.csv": csv(
                HEADER + ",accent", [r + ",#b8322a" for r in ROWS[:2]] + [ROWS[2] + ",blurple"]
            )
        },
        ("check",),
        2,
        ("cards.csv:4:", "accent", "blurple"),
    ),
    "a suit the colour map does not list": (
        {
            "cards.csv": csv(
                HEADER + ",suit", [r + ",Lanterns" for r in ROWS[:2]] + [ROWS[2] + ",Teas"]
            ),
            "game.yaml": lambda t: t.replace(
                'accent: "#2f4f7f"', 'accent: {by: suit, map: {Lanterns: "#b8322a"}}'
            ),
        },
        ("check",),
        2,
        ("cards.csv:4:", "Teas"),
    ),
    "pale ink on pale paper in a row": (
        {
            "cards.csv": csv(
                HEADER + ",ink", [r + "," for r in ROWS[:1]] + [ROWS[1] + ",#f4f0e6", ROWS[2] + ","]
            )
        },
        ("check",),
        1,
        ("cards.csv:3: low contrast: cards 'lucky-coin'",),
    ),
    # --- pictures --------------------------------------------------------------------------------
    "a picture that is missing": (
        {"cards.csv": csv(rows=row(0, art="art/dragon.png")), "art/Dragon.png": png()},
        ("check",),
        2,
        ("cards.csv:2: asset 'art/dragon.png' not found", "did you mean 'art/Dragon.png'?"),
    ),
    "a Windows path to a picture": (
        {"cards.csv": csv(rows=row(0, art="art\\dragon.png")), "art/dragon.png": png()},
        ("check",),
        2,
        ("cards.csv:2: asset 'art\\dragon.png' not found", "did you mean 'art/dragon.png'?"),
    ),
    "a web address for a picture": (
        {"cards.csv": csv(rows=row(0, art="https://example.com/dragon.png"))},
        ("check",),
        2,
        (
            "cards.csv:2: asset 'https://example.com/dragon.png' is a web address",
            "save it in the game folder (e.g. art/) and name it by its path there "
            "(drawn by template card.svg.j2)",
        ),
    ),
    "a picture named by its place on the designer's disk": (
        {"cards.csv": csv(rows=row(0, art="C:\\Users\\me\\dragon.png"))},
        ("check",),
        2,
        ("cards.csv:2: asset 'C:\\Users\\me\\dragon.png' is an absolute path",),
    ),
    "a picture outside the game folder": (
        {"cards.csv": csv(rows=row(0, art="../dragon.png"))},
        ("check",),
        2,
        ("cards.csv:2", "'..'"),
    ),
    "a text file named .png": (
        {"cards.csv": csv(rows=row(0, art="art/dragon.png")), "art/dragon.png": b"not a picture"},
        ("check",),
        2,
        ("cards.csv:2", "cannot be read as an image"),
    ),
    "a broken SVG picture": (
        {
            "cards.csv": csv(rows=row(0, art="art/logo.svg")),
            "art/logo.svg": '<svg xmlns="http://www.w3.org/2000/svg"><circle r="5"',
        },
        ("check",),
        0,
        (
            "warning: 'art/logo.svg'",
            "is not well-formed SVG",
            "line 1 of the picture",
            "save it as SVG again",
            "cards.csv:2",
        ),
    ),
    "a picture of 900 megapixels": (
        {"cards.csv": csv(rows=row(0, art="art/huge.png")), "art/huge.png": BOMB_PNG},
        ("check",),
        2,
        ("'art/huge.png' is 30000 x 30000 pixels", "cards.csv:2"),
    ),
    "an SVG logo with a drop shadow": (
        {"cards.csv": csv(rows=row(0, art="art/logo.svg")), "art/logo.svg": DROP_SHADOW},
        ("check",),
        0,
        (
            "card.svg.j2:55: warning: 'art/logo.svg': filter on <circle>",
            "PDF has no filters",
            "(on the face of card 'first-light' of ",
        ),
    ),
    "an SVG logo with a drop shadow on every card": (
        {
            "cards.csv": csv(
                HEADER.replace(",art,", ",logo,") + ",art", [r + ",art/logo.svg" for r in ROWS]
            ),
            "art/logo.svg": DROP_SHADOW,
        },
        ("check",),
        0,
        ("card.svg.j2:55: warning: 'art/logo.svg': filter", "cards.csv:2 and 2 more)"),
    ),
    # --- icons and text --------------------------------------------------------------------------
    "an unknown icon in a text": (
        {"cards.csv": csv(rows=row(1, text="Gain :lanternx:."))},
        ("check",),
        0,
        ("cards.csv:3: warning: column 'text': icon 'lanternx' is not one of icons.svg.j2's",),
    ),
    "an icon misspelt": (
        {"cards.csv": csv(rows=row(1, icons="coinn"))},
        ("check",),
        0,
        ("cards.csv:3: warning: column 'icons': icon 'coinn'", "did you mean 'coin'?"),
    ),
    "a character no font has": (
        {"cards.csv": csv(rows=row(1, title="Lucky \u2603\ufe0e\U0001d11e"))},
        ("check",),
        2,
        ("cards.csv:3:", "has a glyph for"),
    ),
    "a text far too long for its card": (
        {"cards.csv": csv(rows=row(1, text=" ".join(["word"] * 600)))},
        ("check",),
        1,
        ("lucky-coin",),
    ),
    "a text many times too long for its card": (  # not thousands of mm (issue 37)
        {"cards.csv": csv(rows=row(1, text=" ".join(["word"] * 990)))},
        ("check",),
        1,
        ("cards.csv:3: text does not fit: lucky-coin", "times the box's height at 6.0 pt"),
    ),
    # --- fonts -----------------------------------------------------------------------------------
    "a font file that is not there": (
        {"game.yaml": lambda t: t + "fonts:\n  - {family: Quill, file: fonts/Quill.otf}\n"},
        ("check",),
        2,
        ("game.yaml:19: font 'fonts/Quill.otf' not found", "put the font file in the game"),
    ),
    "a font file named in another case": (
        {
            "game.yaml": lambda t: t + "fonts:\n  - {family: Quill, file: fonts/quill.ttf}\n",
            "fonts/Quill.TTF": b"\0",
        },
        ("check",),
        2,
        ("game.yaml:19: font 'fonts/quill.ttf' not found; did you mean 'fonts/Quill.TTF'?",),
    ),
    "a file that is no font": (
        {
            "game.yaml": lambda t: t + "fonts:\n  - {family: Quill, file: fonts/Quill.ttf}\n",
            "fonts/Quill.ttf": b"<html>404 not found</html>",
        },
        ("check",),
        2,
        ("game.yaml:19: font 'fonts/Quill.ttf' is not a font file",),
    ),
    "a font written without its family": (
        {"game.yaml": lambda t: t + "fonts:\n  - {file: fonts/Quill.ttf}\n"},
        ("check",),
        2,
        ("game.yaml:", "family"),
    ),
    # --- printing what failed --------------------------------------------------------------------
    "build refuses what the check fails": (
        {"game.yaml": lambda t: t + "expect:\n  cards: 9\n"},
        ("build",),
        1,
        ("not built (--force builds anyway)",),
    ),
    "preview refuses what the check fails": (
        {"game.yaml": lambda t: t + "expect:\n  cards: 9\n"},
        ("preview",),
        1,
        ("not built (--force builds anyway)",),
    ),
    # --- issue 37: what was silent or unclear ----------------------------------------------
    "--lang all with a mistake in the specs": (
        {
            "game.yaml": lambda t: t + "languages: [en, de]\n",
            "cards.yaml": lambda t: t.replace("size: poker ", "size: pokr "),
        },
        ("check", "--lang", "all"),
        2,
        ("cards.yaml:4: size: unknown card size 'pokr'; use one of poker",),
    ),
    "a workbook whose first sheet is hidden": (
        {**TO_XLSX, "cards.xlsx": workbook(_hidden_first)},
        ("check",),
        2,
        ("cards.xlsx: the first sheet, 'Notes', is hidden", "{from: cards.xlsx, sheet: Cards}"),
    ),
    "a workbook with its cards on another sheet": (
        {
            **TO_XLSX,
            "cards.xlsx": workbook(
                lambda b: (
                    _sheet(b, "Readme", [["About these cards"]], first=True),
                    _sheet(b, "Cards", [XHEAD, *XROWS]),
                )
            ),
        },
        ("check",),
        2,
        ("cards.xlsx:1: sheet 'Readme' has no rows below", "{from: cards.xlsx, sheet: Cards}"),
    ),
    "a formula with no saved value": (
        {
            **TO_XLSX,
            "cards.xlsx": workbook(
                lambda b: _sheet(b, "Cards", [XHEAD, [*XROWS[0][:3], "=1+1", 2]], first=True)
            ),
        },
        ("check",),
        2,
        ("cards.xlsx:2: column 'cost': the formula =1+1 has no saved value", "save it"),
    ),
    "an Excel date in a number column": (
        {
            **TO_XLSX,
            "cards.xlsx": workbook(
                lambda b: _sheet(
                    b, "Cards", [XHEAD, [*XROWS[0][:3], datetime.date(2024, 3, 1), 2]], first=True
                )
            ),
        },
        ("check",),
        2,
        ("cards.xlsx:2: column 'cost': 2024-03-01 is a date", "format the column as Text"),
    ),
    "merged heading cells": (
        {**TO_XLSX, "cards.xlsx": workbook(_merged)},
        ("check",),
        2,
        ("cards.xlsx:2: a value in column 4, which has no heading", "unmerge them"),
    ),
    "a template adding a number to an empty cell, on every card": (
        {
            "templates/face.svg.j2": SUM_FACE,
            "cards.yaml": lambda t: t.replace("face: card.svg.j2", "face: face.svg.j2"),
            "cards.csv": csv(rows=[r.replace(",1,,card,", ",,,card,") for r in ROWS]),
        },
        ("check",),
        2,
        (
            "face.svg.j2:3: the template does arithmetic with a text (an empty cell is a text, "
            "not 0): write (value or 0)|float",
            "(the same for 3 pieces: card 'first-light' of ",
            "mine/cards.csv:2; card 'lucky-coin' of ",
            "1 error in the specs",
        ),
    ),
    "a template reading a field no row has": (
        {
            "templates/face.svg.j2": SUM_FACE.replace("card.cost + 1", "card.nope.x"),
            "cards.yaml": lambda t: t.replace("face: card.svg.j2", "face: face.svg.j2"),
        },
        ("check",),
        2,
        (
            "face.svg.j2:3: the template reads a field 'nope' that this piece does not have",
            "write .get('nope', '')",
            "(the same for 3 pieces",
        ),
    ),
    "two rows with one title": (
        {"cards.csv": csv(rows=[*ROWS, "Storm,Event,Another storm.,,,,bolt,,1"])},
        ("check",),
        0,
        (
            "cards.csv:5: warning: a second card titled 'Storm' (as row 4): it gets the id "
            "'storm-2' beside 'storm'",
            "delete this row and give row 4 the count of both",
            "add a 'name' column",
        ),
    ),
    "an expect: key that names no component": (
        {"game.yaml": lambda t: t + "expect:\n  card: 5\n"},
        ("check",),
        0,
        ("game.yaml:19: card: no component has the id 'card' yet (the components: cards)",),
    ),
    "an expect: key that names no kind of a component": (
        {"game.yaml": lambda t: t + "expect:\n  cards/stormy: 1\n"},
        ("check",),
        1,
        (
            "game.yaml:19: cards/stormy: the rulebook count is 1 but the specs generate 0; "
            "no piece or group of 'cards' is called 'stormy'; it has: first-light, "
            "lucky-coin, storm",
        ),
    ),
}


@pytest.fixture(scope="module")
def starter(tmp_path_factory, pnp) -> Path:
    """The game ``pnp new mine`` writes, once for the module."""
    base = tmp_path_factory.mktemp("starter")
    result = pnp("new", "mine", "--components", base)
    assert result.exit_code == 0, result.output
    return base / "mine"


def test_there_are_at_least_fifty_mistakes():
    assert len(CASES) >= 50


@pytest.mark.parametrize("case", list(CASES))
def test_a_designer_mistake_is_said_at_its_file_and_row(starter, pnp, tmp_path, case):
    edits, command, status, said = CASES[case]
    components = tmp_path / "components"
    root = components / "mine"
    shutil.copytree(starter, root)
    for name, edit in edits.items():
        path = root / name
        if edit is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(edit):
            edit = edit(path.read_text(encoding="utf-8"))
        if isinstance(edit, str):
            edit = edit.encode("utf-8")
        path.write_bytes(edit)
    out = ("--out", str(tmp_path / "out")) if command[0] in ("build", "preview") else ()
    before = b"earlier pack"
    if command[0] == "preview":
        (tmp_path / "out" / "mine").mkdir(parents=True)
        (tmp_path / "out" / "mine" / "mine.pdf").write_bytes(before)
    result = pnp(*command, "mine", "--components", components, *out)
    text = result.stdout + result.stderr
    assert "Traceback" not in text and "this is a bug" not in text, text
    assert result.exit_code == status, text
    for words in said:
        assert words in text, f"{words!r} not in:\n{text}"
    if command[0] in ("build", "preview") and status:
        pdf = tmp_path / "out" / "mine" / "mine.pdf"
        assert not pdf.exists() or pdf.read_bytes() == before, "a pack printed that failed"


TRANSLATED = {"Action": "Aktion", "Treasure": "Schatz", "Event": "Ereignis"}


@pytest.mark.parametrize(
    "recipe, status",
    [("Action, Action, Treasure, Treasure, Event", 0), ("Action, Treasure, Treasure, Event", 1)],
)
def test_a_recipe_compares_what_the_designer_wrote_in_every_language(
    starter, pnp, tmp_path, recipe, status
):
    """A recipe keyed on a printed, translated field passes in German when it passes in
    English, and fails the same way, in the designer's words (issue 37)."""
    components = tmp_path / "components"
    root = components / "mine"
    shutil.copytree(starter, root)
    game = root / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8")
        + f"languages: [en, de]\nrecipes:\n  cards:\n    identify: [type]\n"
        f"    cards:\n      - {{type: [{recipe}]}}\n",
        encoding="utf-8",
    )
    assert pnp("i18n", "init", "mine", "de", "--components", components).exit_code == 0
    po = root / "locale" / "de.po"
    text = po.read_text(encoding="utf-8")
    for source, german in TRANSLATED.items():
        text = text.replace(f'msgid "{source}"\nmsgstr ""', f'msgid "{source}"\nmsgstr "{german}"')
    po.write_text(text, encoding="utf-8")
    said = {}
    for language in ("en", "de"):
        result = pnp("check", "mine", "--components", components, "--lang", language)
        said[language] = result.stdout + result.stderr
        assert (
            "recipes ok: cards" in said[language] if status == 0 else "too many" in said[language]
        )
        assert not any(german in said[language] for german in TRANSLATED.values()), said[language]
    if status:
        assert "game.yaml:20: cards: 1 x Action too many (type)" in said["de"]


def test_values_yaml_would_read_as_something_else_print_as_written(starter, pnp, tmp_path):
    """'1:2' (YAML 1.1's base-60 number 62), 'no' (false) and '1e3' on a card print as the
    designer wrote them (issue 37); quoted or not, true stays a yes and 12 a number."""
    from pypdf import PdfReader

    from generator.model.yamlsource import parse_yaml

    read = parse_yaml(Path("x.yaml"), "a: 1:2\nb: no\nc: 1e3\nd: Off\ne: true\nf: 12\ng: '7'\n")
    assert read.data == {
        "a": "1:2",
        "b": "no",
        "c": "1e3",
        "d": "Off",
        "e": True,
        "f": 12,
        "g": "7",
    }
    components = tmp_path / "components"
    root = components / "mine"
    shutil.copytree(starter, root)
    spec = root / "cards.yaml"
    spec.write_text(
        spec.read_text(encoding="utf-8").replace(
            "cards: {from: cards.csv}",
            "cards:\n  - {name: odds, title: Odds, type: no, value: 1:2, cost: 1e3, count: 1}",
        ),
        encoding="utf-8",
    )
    result = pnp("build", "mine", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    text = " ".join(p.extract_text() for p in PdfReader(tmp_path / "out/mine/mine.pdf").pages)
    words = text.split()
    assert "1:2" in words and "no" in words and "1e3" in words, text
    assert "62" not in words and "False" not in words, text


@pytest.mark.parametrize("command", [("extract",), ("update",), ("init", "de")])
def test_pnp_i18n_inside_the_folder_of_games_names_them(
    starter, pnp, tmp_path, monkeypatch, command
):
    """``pnp i18n`` run inside components/ (a folder of games, not a game): it says which
    games are there and the command with one (issue 37)."""
    shutil.copytree(starter, tmp_path / "mine")
    monkeypatch.chdir(tmp_path)
    result = pnp("i18n", *command)
    assert result.exit_code == 2
    text = result.stdout + result.stderr
    assert "Traceback" not in text
    assert "this folder holds games (mine), not one game" in text, text
    assert f"(pnp i18n {' '.join([command[0], 'mine', *command[1:]])} --components .)" in text


def test_a_board_label_icon_with_no_icons_template_is_drawn_not_printed_as_text(pnp, tmp_path):
    """A board label's ':drop:' on a board that names no icons template is drawn by the stock
    icons, never printed as the text ':drop:' (issue 37)."""
    from pypdf import PdfReader

    harbour = Path(__file__).resolve().parent.parent / "docs" / "examples" / "harbour"
    root = tmp_path / "components" / "harbour"
    shutil.copytree(harbour, root)
    board = root / "board.yaml"
    text = board.read_text(encoding="utf-8")
    dropped = ("icons:", "icons_at:", "  - {icon: coin")  # no icons template, no icon placed
    text = "\n".join(ln for ln in text.splitlines() if not ln.startswith(dropped))
    text = text.replace(", icon: star}", "}").replace(", marks: {6: drop}}", "}")
    text = text.replace("{text: The tide rises", '{text: "The tide :drop: rises')
    text = text.replace("each round, at:", 'each round", at:')
    board.write_text(text + "\n", encoding="utf-8")
    assert ":drop:" in board.read_text(encoding="utf-8") and "\nicons" not in text
    result = pnp("build", "harbour", "--components", root.parent, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pages = PdfReader(tmp_path / "out" / "harbour" / "harbour.pdf").pages
    words = " ".join(page.extract_text() for page in pages)
    assert "The tide" in words and "rises each round" in words, words
    assert ":drop:" not in words


def test_a_spec_pnp_does_not_read_is_a_warning_naming_how_to_have_it_read(pnp, tmp_path):
    """A spec saved as .yml or .YAML, or kept in a sub-folder, was skipped without a word:
    the pack came out without it and the check passed. A YAML card list a spec names (in a
    sub-folder) is read, and nothing is said of it."""
    pnp("new", "mine", "--components", tmp_path)
    game = tmp_path / "mine"
    (game / "cards.yaml").rename(game / "cards.yml")
    (game / "specs").mkdir()
    (game / "specs" / "tokens.yaml").write_text("kind: tokens\ntitle: T\n")
    (game / "Dice.YAML").write_text("kind: dice\n")
    (game / "data").mkdir()
    (game / "data" / "list.yaml").write_text("- {title: Listed, type: Action, count: 1}\n")
    (game / "deck.yaml").write_text(
        "kind: deck\ntitle: D\nsize: poker\nface: card.svg.j2\ncards: {from: data/list.yaml}\n"
    )
    result = pnp("check", "--components", tmp_path, "--strict")
    assert result.exit_code == 1, result.output
    said = {line.split(": warning: ")[0]: line for line in result.stderr.splitlines()}
    assert "rename it cards.yaml" in said[f"{tmp_path}/mine/cards.yml"], result.stderr
    assert "rename it Dice.yaml" in said[f"{tmp_path}/mine/Dice.YAML"], result.stderr
    assert "beside game.yaml only" in said[f"{tmp_path}/mine/specs/tokens.yaml"], result.stderr
    assert not [line for line in said if "list.yaml" in line], result.stderr
    (game / "game.yaml").rename(game / "game.yml")
    result = pnp("check", "--components", tmp_path)
    assert result.exit_code == 2 and "game.yml is not read: rename it game.yaml" in result.stderr


def test_a_board_with_errors_is_not_also_said_to_be_missing(pnp, tmp_path):
    """A mistake in the map's terrain table stops the map loading; the counters that stand
    on it were also told 'no board map in this game (its boards: none)', which was false.
    A board that is truly not there (a typo) is still said."""
    pnp("new", "war", "--from", "ridge", "--components", tmp_path)
    game = tmp_path / "war"
    with (game / "terrain.csv").open("a") as table:
        table.write("1510,woods,\n")
    result = pnp("check", "--components", tmp_path)
    assert result.exit_code == 2, result.output
    assert "terrain.csv:14: cell '1510' is outside the grid" in result.stderr, result.stderr
    assert "stands_on" not in result.stderr and "1 error in the specs" in result.stderr
    units = game / "units.yaml"
    units.write_text(units.read_text().replace("board: map", "board: mapp"))
    result = pnp("check", "--components", tmp_path)
    assert "stands_on: no board 'mapp' in this game" in result.stderr, result.stderr


def test_a_deck_with_errors_is_not_also_said_to_be_missing_from_a_sheets_table(pnp, tmp_path):
    """Harbour's reference sheet shows a table of its cargo deck: a wrong card size stopped
    the deck, and the sheet was also told its table was from 'cargo', 'not a deck of this
    game' (false). A table from a deck that truly is not there is still said."""
    pnp("new", "port", "--from", "harbour", "--components", tmp_path)
    cargo = tmp_path / "port" / "cargo.yaml"
    cargo.write_text(re.sub(r"(?m)^size: .*$", "size: giant", cargo.read_text()))
    result = pnp("check", "--components", tmp_path)
    assert result.exit_code == 2 and "cargo.yaml:3: size: unknown card size" in result.stderr
    assert "not a deck" not in result.stderr and "1 error in the specs" in result.stderr
    reference = tmp_path / "port" / "reference.yaml"
    reference.write_text(reference.read_text().replace("from: cargo", "from: cargos"))
    result = pnp("check", "--components", tmp_path)
    assert "a table is 'from' 'cargos', which is not a deck of this game" in result.stderr
