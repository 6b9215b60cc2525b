"""Reference sheets (``kind: sheet``), text fitted to its box, and deck recipes.

Every game here is synthetic, written under ``tmp_path``. Expected values come from the
README (the 5 mm margin, ``fit()``'s arguments, the recipe format and what ``pnp check`` says)
and from the specs written here, never from the engine's layout code. The PDF is read back
with pdfplumber (text, character positions and sizes) and ``tests/pdfread.py`` (the paths the
page's content stream paints).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pdfplumber
import pytest
import yaml
from click.testing import Result
from pdfread import MM_PER_PT, Box, read_pages

from generator.svg.fonts import VARIANTS

REPO = Path(__file__).resolve().parent.parent
SHEET_GEO = yaml.safe_load((REPO / "generator" / "model" / "sizes.yaml").read_text("utf-8"))[
    "sheet"
]
MARGIN = float(SHEET_GEO["margin"])  # README: the 5 mm a home printer cannot print
FOOTER = float(SHEET_GEO["footer"])  # the band above the bottom margin holding the page label
A4 = (210.0, 297.0)
PT = 1 / MM_PER_PT  # points per mm

Pnp = Callable[..., Result]

GAME = """\
title: Sheet Test
players: 2-4
"""

# A club drawn to fill the whole 20 x 20 icon box (README: icon(name) draws in a 20 x 20 box),
# with curves so that it is unmistakably vector art; any other name draws nothing.
ICONS = """\
{% macro icon(name) -%}
{% if name == "club" -%}
<circle cx="0" cy="-5" r="5" fill="#1a7a3a"/>
<circle cx="-5" cy="3" r="5" fill="#1a7a3a"/>
<circle cx="5" cy="3" r="5" fill="#1a7a3a"/>
<polygon points="-2,0 2,0 4,10 -4,10" fill="#1a7a3a"/>
<rect x="-10" y="-10" width="20" height="20" fill="none" stroke="none"/>
{%- endif %}
{%- endmacro %}
"""

FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>
  <text x="4" y="8" font-family="sans-serif" font-size="4">{{ card.name }}</text>
</svg>
"""

# README: fit(text, width, height, size, min_size, box=...) gives lines, size and leading.
# The effect box is 40 x 25 mm at (5, 20) on a 50 x 50 mm card.
EFFECT_BOX = (5.0, 20.0, 40.0, 25.0)  # x, y (from the card's top-left), w, h in mm
EFFECT_SIZE = 5.0
EFFECT_MIN = 1.5
FIT_FACE = (
    """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>
{% set f = fit(card.effect, @W@, @H@, @SIZE@, @MIN@, box="effect") %}
{% for line in f.lines %}
  <text x="@X@" y="{{ @Y@ + f.size + loop.index0 * f.leading }}" font-family="sans-serif"
        font-size="{{ f.size }}">{{ line }}</text>
{% endfor %}
</svg>
""".replace("@X@", str(EFFECT_BOX[0]))
    .replace("@Y@", str(EFFECT_BOX[1]))
    .replace("@W@", str(EFFECT_BOX[2]))
    .replace("@H@", str(EFFECT_BOX[3]))
    .replace("@SIZE@", str(EFFECT_SIZE))
    .replace("@MIN@", str(EFFECT_MIN))
)


def make_game(root: Path, files: dict[str, str], game: str = GAME) -> Path:
    """Write the game ``g`` under ``root/components`` and return that components folder."""
    folder = root / "components" / "g"
    (folder / "templates").mkdir(parents=True)
    (folder / "templates" / "icons.svg.j2").write_text(ICONS, encoding="utf-8")
    (folder / "templates" / "face.svg.j2").write_text(FACE, encoding="utf-8")
    (folder / "templates" / "fit-face.svg.j2").write_text(FIT_FACE, encoding="utf-8")
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return root / "components"


def build(pnp: Pnp, components: Path, out: Path, *extra: str) -> tuple[Path, dict]:
    """Build game ``g``; return its PDF and manifest (the build must succeed)."""
    result = pnp("build", "--components", components, "--out", out, *extra)
    assert result.exit_code == 0, result.output
    pdf = out / "g" / "g.pdf"
    manifest = json.loads((out / "g" / "manifest.json").read_text("utf-8"))
    return pdf, manifest


def sheet_pages(manifest: dict, component: str) -> list[int]:
    """The pages the manifest lists for ``component``'s sheet items."""
    items = [i for i in manifest["items"] if i["component"] == component]
    assert items and all(i["kind"] == "sheet" for i in items), items
    return [i["page"] for i in items]


def line_no(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def in_order(text: str, needles: list[str]) -> list[str]:
    """The needles that are not found in ``text`` one after the other (empty: all in order)."""
    lost, at = [], 0
    for needle in needles:
        found = text.find(needle, at)
        if found < 0:
            lost.append(needle)
        else:
            at = found + len(needle)
    return lost


def column_text(page: pdfplumber.page.Page) -> list[str]:
    """A two-column page's text, left column then right (split at the page's middle)."""
    mid = float(page.width) / 2
    return [
        page.crop((0, 0, mid, page.height)).extract_text(),
        page.crop((mid, 0, page.width, page.height)).extract_text(),
    ]


def chars_with(page: pdfplumber.page.Page, word: str) -> list[dict]:
    """The characters of the first occurrence of ``word`` on one line of ``page``."""
    for line in page.extract_text_lines(return_chars=True):
        at = line["text"].find(word)
        if at >= 0:
            chars = [c for c in line["chars"] if c["text"] != " "]
            text = "".join(c["text"] for c in chars)
            start = text.find(word.replace(" ", ""))
            return chars[start : start + len(word.replace(" ", ""))]
    raise AssertionError(f"{word!r} not on page {page.page_number}")


def baseline_mm(char: dict) -> float:
    """A character's baseline, mm from the page's bottom (from its text matrix)."""
    return char["matrix"][5] * MM_PER_PT


def char_box(char: dict, page_h: float) -> Box:
    """A character's box in mm from the page's lower-left corner."""
    return Box(
        char["x0"] * MM_PER_PT,
        page_h - char["bottom"] * MM_PER_PT,
        char["x1"] * MM_PER_PT,
        page_h - char["top"] * MM_PER_PT,
    )


def sheet(body: str, **head: object) -> str:
    """A sheet spec: ``head`` keys (title, columns, ...) then ``body`` (the sections)."""
    head = {"kind": "sheet", "title": "Quick Reference", **head}
    return yaml.safe_dump(head, sort_keys=False) + body


def paragraphs(prefix: str, n: int) -> str:
    return "".join(f'      - text: "{prefix} {i:03d} ends here."\n' for i in range(1, n + 1))


# --- flowing through columns and pages ------------------------------------------------------

FLOW_BODY = (
    """\
sections:
  - heading: Section One Rules
    colour: "#224466"
    blocks:
"""
    + paragraphs("One para", 60)
    + """\
  - heading: Section Two Extras
    blocks:
      - heading: Two subheading
      - text: "Two paragraph with **bold** and *slanted* words, ***both*** at 5 * 3 * 2."
      - bullets: [Two bullet alpha, Two bullet beta]
      - table:
          header: [Cost, Reward]
          widths: [1, 2]
          rows:
            - ["1 coin", "Draw a card"]
            - ["3 coins", "Score a point"]
  - heading: Section Three Tail
    blocks:
"""
    + paragraphs("Three para", 80)
)
FLOW_ORDER = (
    ["Section One Rules"]
    + [f"One para {i:03d} ends here." for i in range(1, 61)]
    + [
        "Section Two Extras",
        "Two subheading",
        "Two paragraph with bold and slanted words, both at 5 * 3 * 2.",
        "Two bullet alpha",
        "Two bullet beta",
        "Cost Reward",
        "1 coin Draw a card",
        "3 coins Score a point",
        "Section Three Tail",
    ]
    + [f"Three para {i:03d} ends here." for i in range(1, 81)]
)


@pytest.fixture(scope="module")
def flow_pack(pnp: Pnp, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """A two-column sheet long enough for two pages, with every kind of block."""
    root = tmp_path_factory.mktemp("flow")
    components = make_game(root, {"rules.yaml": sheet(FLOW_BODY, columns=2, font_size=10)})
    return build(pnp, components, root / "out")


def test_sheet_text_is_all_there_in_reading_order(flow_pack):
    pdf, manifest = flow_pack
    pages = sheet_pages(manifest, "rules")
    with pdfplumber.open(pdf) as doc:
        text = squash(" ".join(t for n in pages for t in column_text(doc.pages[n - 1])))
    assert in_order(text, FLOW_ORDER) == []


def test_sheet_title_heads_the_first_page_only(flow_pack):
    pdf, manifest = flow_pack
    first, *rest = sheet_pages(manifest, "rules")
    assert rest, "the flow sheet was meant to take two pages"
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[first - 1]
        title = chars_with(page, "Quick Reference")
        heading = chars_with(page, "Section One Rules")
        body = chars_with(page, "One para 001")
        assert title[0]["top"] < heading[0]["top"], "the title stands above the first section"
        assert min(c["size"] for c in title) > max(c["size"] for c in body)
        for n in rest:  # later pages: no title at the top (the footer label may name it)
            later = doc.pages[n - 1]
            top = later.crop((0, 0, later.width, later.height / 2)).extract_text()
            assert "Quick Reference" not in top


def test_sheet_columns_continue_to_the_right(flow_pack):
    pdf, manifest = flow_pack
    first = sheet_pages(manifest, "rules")[0]
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[first - 1]
        page_h = float(page.height) * MM_PER_PT
        mid = float(page.width) / 2
        one = [
            c
            for c in page.chars
            if c["x1"] < mid
            and c["text"].strip()
            and char_box(c, page_h).y1 > MARGIN + FOOTER  # not the page label
        ]
        assert "One para 001" in squash(page.crop((0, 0, mid, page.height)).extract_text())
        two_heading = chars_with(page, "Section Two Extras")
        spill = chars_with(page, "One para 060")
    # the first column is full: its text reaches down to the bottom of the printable area
    lowest = min(char_box(c, page_h).y0 for c in one)
    assert lowest < MARGIN + FOOTER + 3 * 10 / PT, f"first column ends {lowest:.1f} mm up"
    # section one runs on at the top of the second column, and section two follows it there
    right_of_one = max(c["x1"] for c in one)
    assert spill[0]["x0"] > right_of_one
    assert two_heading[0]["x0"] > right_of_one
    assert two_heading[0]["top"] > spill[0]["top"]
    assert two_heading[0]["top"] < max(c["top"] for c in one), "side by side, not below"


def test_sheet_manifest_lists_one_sheet_item_per_page(flow_pack):
    pdf, manifest = flow_pack
    items = [i for i in manifest["items"] if i["component"] == "rules"]
    pages = [i["page"] for i in items]
    assert {i["kind"] for i in items} == {"sheet"}
    assert len(pages) == 2 and pages[1] == pages[0] + 1
    with pdfplumber.open(pdf) as doc:
        holding = [
            p.page_number
            for p in doc.pages
            if "One para" in (p.extract_text() or "") or "Three para" in (p.extract_text() or "")
        ]
    assert holding == pages


def test_sheet_stays_inside_the_margin(flow_pack):
    pdf, manifest = flow_pack
    pages = sheet_pages(manifest, "rules")
    w, h = A4
    printable = Box(MARGIN, MARGIN, w - MARGIN, h - MARGIN)
    outside: list[str] = []
    with pdfplumber.open(pdf) as doc:
        for n in pages:
            page_h = float(doc.pages[n - 1].height) * MM_PER_PT
            for c in doc.pages[n - 1].chars:
                if c["text"].strip() and not char_box(c, page_h).inside(printable, 0.01):
                    outside.append(f"page {n}: char {c['text']!r} at {char_box(c, page_h)}")
    for content in read_pages(pdf):
        if content.number in pages:
            for path in content.paths:
                if not path.clip and path.op != "n" and not path.box.inside(printable, 0.01):
                    outside.append(f"page {content.number}: painted {path.op} {path.box}")
    assert outside == [], "\n".join(outside[:8])


def test_sheet_bullets_are_text_in_the_embedded_font(flow_pack):
    """Bullet marks are text like the rest: extracted as '•' and set in the embedded family."""
    pdf, manifest = flow_pack
    page_no = sheet_pages(manifest, "rules")[0]
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[page_no - 1]
        lines = [squash(t) for t in page.extract_text().splitlines()]
        fonts = {c["fontname"].split("+")[-1] for c in page.chars}
    assert "• Two bullet alpha" in lines, [ln for ln in lines if "bullet" in ln]
    family = Path(VARIANTS[("normal", "normal")][1]).stem  # the embedded family's file name
    assert all(f.startswith(family) for f in fonts), fonts


def test_sheet_text_marks_bold_and_italic_and_prints_no_asterisk_it_reads(flow_pack):
    """**bold**, *italic* and ***both*** print in those faces, their asterisks gone; a lone
    asterisk (a product) prints as written."""
    pdf, manifest = flow_pack
    pages = sheet_pages(manifest, "rules")
    with pdfplumber.open(pdf) as doc:
        page = next(doc.pages[n - 1] for n in pages if "slanted" in doc.pages[n - 1].extract_text())
        faces = {
            word: {c["fontname"].split("+")[-1] for c in chars_with(page, word)}
            for word in ("paragraph", "bold", "slanted", "both", "5 * 3 * 2")
        }
    for word, variant in [
        ("paragraph", ("normal", "normal")),
        ("bold", ("bold", "normal")),
        ("slanted", ("normal", "italic")),
        ("both", ("bold", "italic")),
        ("5 * 3 * 2", ("normal", "normal")),
    ]:
        stem = Path(VARIANTS[variant][1]).stem
        assert faces[word] == {stem}, (word, faces[word], stem)


# --- inline icons ---------------------------------------------------------------------------

ICON_SHEET = """\
sections:
  - heading: "Clubs :club: heading"
    blocks:
      - text: "Pay :club: then draw two cards."
      - table: {font_size: 7, rows: [["Spend :club: then score", "Tail"]]}
"""


def icon_boxes(pdf: Path, page_no: int, line: Box) -> list[Box]:
    """Boxes of the painted vector paths on ``page_no`` whose centre lies in ``line`` (a heading's
    background band, wider than the gap, is not one of them)."""
    content = read_pages(pdf)[page_no - 1]
    return [p.box for p in content.paths if not p.clip and p.op != "n" and p.box.centre_in(line)]


@pytest.mark.parametrize(
    ("before", "after"),
    [("Pay", "then draw"), ("Clubs", "heading"), ("Spend", "then score")],
    ids=["text", "heading", "table-cell"],
)
def test_inline_icon_is_vector_art_at_the_text_size_and_baseline(pnp, tmp_path, before, after):
    components = make_game(
        tmp_path, {"rules.yaml": sheet(ICON_SHEET, columns=1, font_size=10, icons="icons.svg.j2")}
    )
    pdf, manifest = build(pnp, components, tmp_path / "out")
    page_no = sheet_pages(manifest, "rules")[0]
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[page_no - 1]
        page_h = float(page.height) * MM_PER_PT
        left = chars_with(page, before)
        right = chars_with(page, after)
    size = left[-1]["size"] / PT  # the font size of the text around the icon, mm
    base = baseline_mm(left[-1])
    assert abs(baseline_mm(right[0]) - base) < 0.01, "one line"
    # where the icon belongs: between the two words, from below the baseline to above the
    # letters (not reaching the lines above and below)
    gap = Box(
        char_box(left[-1], page_h).x1,
        base - 0.5 * size,
        char_box(right[0], page_h).x0,
        base + 1.2 * size,
    )
    drawn = icon_boxes(pdf, page_no, gap)
    assert drawn, f"no vector path painted between {before!r} and {after!r}"
    icon = Box.around([(b.x0, b.y0) for b in drawn] + [(b.x1, b.y1) for b in drawn])
    # the club fills its 20 x 20 box, so it is as wide and as tall as the font size
    assert icon.w == pytest.approx(size, rel=0.15), (icon, size)
    assert icon.h == pytest.approx(size, rel=0.15), (icon, size)
    assert abs(icon.y0 - base) <= 0.25 * size, f"bottom {icon.y0:.2f} vs baseline {base:.2f}"
    # it sits in the line between the words, overlapping neither
    space_before = icon.x0 - char_box(left[-1], page_h).x1
    space_after = char_box(right[0], page_h).x0 - icon.x1
    assert space_before >= -0.05 and space_after >= -0.05, (space_before, space_after)
    # ... and like a word: the spaces around it are alike (one space each side in the spec)
    assert space_after == pytest.approx(space_before, rel=0.25, abs=0.1), (
        space_before,
        space_after,
    )


def test_unknown_icon_code_is_a_spec_error(pnp, tmp_path):
    body = ICON_SHEET.replace("Pay :club:", "Pay :nope:")
    components = make_game(tmp_path, {"rules.yaml": sheet(body, icons="icons.svg.j2")})
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert re.search(r"rules\.yaml:\d+: .*:nope:", result.stderr), result.stderr
    assert not (tmp_path / "out" / "g" / "g.pdf").exists()
    check = pnp("check", "--components", components)
    assert check.exit_code == 2, check.output
    assert ":nope:" in check.stderr


def test_icon_code_in_a_sheet_without_icons_is_a_spec_error(pnp, tmp_path):
    components = make_game(tmp_path, {"rules.yaml": sheet(ICON_SHEET)})
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    assert re.search(r"rules\.yaml:\d+: .*:club:.*'icons'", result.stderr), result.stderr


# --- tables from a deck ---------------------------------------------------------------------

EVENT_DECK = """\
kind: deck
title: Events
size: 50 x 50
bleed: 0
face: face.svg.j2
cards:
  - {name: e1, count: 1, rank: "2", effect: Gain one coin}
  - {name: e2, count: 3, rank: "7", effect: Lose two coins}
  - {name: e3, count: 1, rank: Q, effect: Swap hands}
"""
TABLE_SHEET = """\
sections:
  - heading: Events
    blocks:
      - table: {header: [Rank, Effect], from: %s, columns: [%s]}
"""


def test_table_from_a_deck_has_a_row_per_card_design(pnp, tmp_path):
    body = TABLE_SHEET % ("events", "rank, effect")
    components = make_game(
        tmp_path, {"events.yaml": EVENT_DECK, "rules.yaml": sheet(body, columns=1)}
    )
    pdf, manifest = build(pnp, components, tmp_path / "out")
    page_no = sheet_pages(manifest, "rules")[0]
    with pdfplumber.open(pdf) as doc:
        table = doc.pages[page_no - 1].extract_table()
    assert ["Rank", "Effect"] in table, table
    assert table[table.index(["Rank", "Effect"]) :] == [
        ["Rank", "Effect"],
        ["2", "Gain one coin"],
        ["7", "Lose two coins"],
        ["Q", "Swap hands"],
    ]


@pytest.mark.parametrize(
    ("source", "columns", "named"),
    [("nowhere", "rank, effect", "nowhere"), ("events", "rank, colour", "colour")],
    ids=["missing-deck", "missing-field"],
)
def test_table_from_a_missing_deck_or_field_is_a_spec_error(pnp, tmp_path, source, columns, named):
    body = TABLE_SHEET % (source, columns)
    components = make_game(tmp_path, {"events.yaml": EVENT_DECK, "rules.yaml": sheet(body)})
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    assert re.search(rf"rules\.yaml:\d+: .*{named}", result.stderr), result.stderr


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (ICON_SHEET.replace("Pay :club:", "Pay :nope:"), ":nope:"),
        (TABLE_SHEET % ("nowhere", "rank, effect"), "from: nowhere"),
        (TABLE_SHEET % ("events", "rank, colour"), "colour"),
    ],
    ids=["unknown-icon", "missing-deck", "missing-field"],
)
def test_sheet_errors_point_at_the_line_that_is_wrong(pnp, tmp_path, body, needle):
    """README: every mistake is listed as file:LINE: the line of the text or table at fault,
    not the line of ``sections:``."""
    text = sheet(body, icons="icons.svg.j2")
    components = make_game(tmp_path, {"events.yaml": EVENT_DECK, "rules.yaml": text})
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    assert f"rules.yaml:{line_no(text, needle)}:" in result.stderr, result.stderr


# --- shrinking to fit -----------------------------------------------------------------------


def fit_sheet(n: int, **head: object) -> str:
    body = "sections:\n  - heading: Fitting\n    blocks:\n" + paragraphs("Fit line", n)
    return sheet(body, columns=1, font_size=10, min_font_size=6, **head)


def body_sizes(pdf: Path, pages: list[int]) -> set[float]:
    with pdfplumber.open(pdf) as doc:
        return {
            round(c["size"], 2)
            for n in pages
            for line in doc.pages[n - 1].extract_text_lines(return_chars=True)
            if line["text"].startswith("Fit line")
            for c in line["chars"]
        }


def test_sheet_shrinks_to_fit_its_pages(pnp, tmp_path):
    # 54 one-line paragraphs: at 10 pt they need a second page ...
    loose, loose_manifest = build(
        pnp, make_game(tmp_path / "loose", {"rules.yaml": fit_sheet(54)}), tmp_path / "o1"
    )
    assert len(sheet_pages(loose_manifest, "rules")) == 2
    assert body_sizes(loose, sheet_pages(loose_manifest, "rules")) == {10.0}
    # ... so with pages: 1 they are set smaller, all on one page
    pdf, manifest = build(
        pnp, make_game(tmp_path / "tight", {"rules.yaml": fit_sheet(54, pages=1)}), tmp_path / "o2"
    )
    pages = sheet_pages(manifest, "rules")
    assert len(pages) == 1
    sizes = body_sizes(pdf, pages)
    assert len(sizes) == 1, sizes
    size = sizes.pop()
    assert 6 <= size < 10
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[pages[0] - 1]
        text = squash(page.extract_text())
        last = page.extract_text_lines(return_chars=True)
        lowest = max(ln["bottom"] for ln in last if ln["text"].startswith("Fit line")) * MM_PER_PT
    assert in_order(text, [f"Fit line {i:03d} ends here." for i in range(1, 55)]) == []
    # shrunk no further than needed: the text still fills most of the page's height
    assert lowest > 0.8 * (A4[1] - 2 * MARGIN), f"text ends {lowest:.0f} mm from the top"


def test_sheet_shrinks_as_far_as_min_font_size(pnp, tmp_path):
    """min_font_size is the last size tried, also when it is not a whole number of steps
    below font_size: 78 lines that fit at 6.2 pt but not at 6.5 pt."""

    def check(size: float, least: float) -> Result:
        body = "sections:\n  - heading: Fitting\n    blocks:\n" + paragraphs("Fit line", 78)
        text = sheet(body, columns=1, font_size=size, min_font_size=least, pages=1)
        return pnp(
            "check", "--components", make_game(tmp_path / f"{size}-{least}", {"r.yaml": text})
        )

    assert check(6.2, 6.2).exit_code == 0, "precondition: they fit at 6.2 pt"
    assert check(6.5, 6.5).exit_code == 1, "precondition: they do not fit at 6.5 pt"
    result = check(10, 6.2)
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    "lines, said", [(300, "about 3 more pages"), (2500, "about 28 more pages")]
)
def test_a_sheet_far_too_long_says_how_many_pages_are_missing(pnp, tmp_path, lines, said):
    """Text far beyond its page is said in pages ('about 30 more pages of text at 6 pt'),
    never as an absurd height in one column ('5918629 mm of text missing', issue 37)."""
    components = make_game(tmp_path, {"rules.yaml": fit_sheet(lines, pages=1)})
    check = pnp("check", "--components", components)
    assert check.exit_code == 1, check.output
    problem = next(ln for ln in check.stderr.splitlines() if "does not fit" in ln)
    assert said in problem, problem


def test_sheet_that_cannot_fit_fails_the_check_and_the_build(pnp, tmp_path):
    n = 200
    components = make_game(tmp_path, {"rules.yaml": fit_sheet(n, pages=1)})
    check = pnp("check", "--components", components)
    assert check.exit_code == 1, check.output
    problem = [ln for ln in check.stderr.splitlines() if "does not fit" in ln]
    assert len(problem) == 1, check.stderr
    assert "rules" in problem[0] and "1 page(s)" in problem[0], problem
    missing = re.search(r"(\d+(?:\.\d+)?) mm of (?:text|column)", problem[0])
    assert missing, problem

    refused = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert refused.exit_code == 1, refused.output
    assert "does not fit" in refused.stderr
    assert not (tmp_path / "out" / "g").exists()

    pdf, manifest = build(pnp, components, tmp_path / "forced", "--force")
    pages = sheet_pages(manifest, "rules")
    assert len(pages) == 1
    assert body_sizes(pdf, pages) == {6.0}, "printed at min_font_size"
    # how much is missing, checked against what the page holds: the lines left off, each
    # taking the distance between two printed lines
    with pdfplumber.open(pdf) as doc:
        lines = [
            ln
            for ln in doc.pages[pages[0] - 1].extract_text_lines(return_chars=True)
            if ln["text"].startswith("Fit line")
        ]
    pitch = (lines[-1]["chars"][0]["top"] - lines[0]["chars"][0]["top"]) / (len(lines) - 1)
    left_off = (n - len(lines)) * pitch * MM_PER_PT
    assert float(missing[1]) == pytest.approx(left_off, rel=0.05, abs=2), (missing[1], left_off)


# --- fit() in card templates ----------------------------------------------------------------

LONG_EFFECT = (
    "When you play this card, every other player gives you one coin from their supply, "
    "then you may trade two of your cards with any opponent who agrees, and finally you "
    "draw until you hold five cards in your hand again."
)
FIT_DECK = """\
kind: deck
title: Fit deck
size: 50 x 50
bleed: 0
face: fit-face.svg.j2
cards:
  - {name: brief, count: 1, effect: Gain one coin.}
  - name: long
    count: 1
    effect: "%s"
"""


def card_chars(pdf: Path, manifest: dict, name: str) -> tuple[Box, list[dict], float]:
    """The card's trim box on its page (mm), the characters inside it and the page height."""
    item = next(i for i in manifest["items"] if i["name"] == name and i["side"] == "front")
    assert item["rotation"] == 0, "square cards are printed upright"
    trim = Box(item["x_mm"], item["y_mm"], item["x_mm"] + item["w_mm"], item["y_mm"] + item["h_mm"])
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[item["page"] - 1]
        page_h = float(page.height) * MM_PER_PT
        chars = [c for c in page.chars if c["text"].strip() and char_box(c, page_h).centre_in(trim)]
    return trim, chars, page_h


def test_fit_shrinks_card_text_into_its_box(pnp, tmp_path):
    components = make_game(tmp_path, {"deck.yaml": FIT_DECK % LONG_EFFECT}, GAME)
    pdf, manifest = build(pnp, components, tmp_path / "out")
    size_pt = EFFECT_SIZE * PT

    _, brief, _ = card_chars(pdf, manifest, "brief")
    assert "".join(c["text"] for c in brief) == "Gainonecoin."
    assert {round(c["size"], 2) for c in brief} == {round(size_pt, 2)}, "fits at size"

    trim, chars, page_h = card_chars(pdf, manifest, "long")
    assert "".join(c["text"] for c in chars) == LONG_EFFECT.replace(" ", "")
    sizes = {round(c["size"], 2) for c in chars}
    assert len(sizes) == 1 and EFFECT_MIN * PT <= sizes.pop() < size_pt
    x, y, w, h = EFFECT_BOX
    effect = Box(trim.x0 + x, trim.y1 - y - h, trim.x0 + x + w, trim.y1 - y)
    outside = [c["text"] for c in chars if not char_box(c, page_h).inside(effect, 0.2)]
    assert outside == []


def test_fit_shrinks_a_word_wider_than_the_box(pnp, tmp_path):
    """A box has a width as well as a height: a word too wide for it at ``size`` (74 mm at
    5 mm in a 40 mm box) is set smaller, like text too tall for it."""
    word = "Antidisestablishmentarianism"
    components = make_game(tmp_path, {"deck.yaml": FIT_DECK % word}, GAME)
    pdf, manifest = build(pnp, components, tmp_path / "out")
    trim, chars, page_h = card_chars(pdf, manifest, "long")
    x, y, w, h = EFFECT_BOX
    effect = Box(trim.x0 + x, trim.y1 - y - h, trim.x0 + x + w, trim.y1 - y)
    outside = [c["text"] for c in chars if not char_box(c, page_h).inside(effect, 0.2)]
    assert "".join(c["text"] for c in chars) == word, "the word is printed on its card"
    assert outside == [], f"{len(outside)} letters outside the 'effect' box"


def test_a_word_too_wide_even_at_min_size_fails_the_check(pnp, tmp_path):
    word = "Pneumonoultramicroscopicsilicovolcanoconiosis" * 2  # 72 mm wide at 1.5 mm
    components = make_game(tmp_path, {"deck.yaml": FIT_DECK % word}, GAME)
    check = pnp("check", "--components", components)
    assert check.exit_code == 1, check.output
    assert re.search(r"does not fit: long, box 'effect'", check.stderr), check.stderr


def test_card_text_that_cannot_fit_fails_the_check(pnp, tmp_path):
    impossible = " ".join([LONG_EFFECT] * 8)
    components = make_game(tmp_path, {"deck.yaml": FIT_DECK % impossible}, GAME)
    check = pnp("check", "--components", components)
    assert check.exit_code == 1, check.output
    problem = [ln for ln in check.stderr.splitlines() if "does not fit" in ln]
    assert len(problem) == 1, check.stderr
    assert "long" in problem[0] and "'effect'" in problem[0], problem
    assert "brief" not in problem[0]
    assert re.search(r"\d+(\.\d+)? mm", problem[0]), problem

    refused = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert refused.exit_code == 1, refused.output
    assert not (tmp_path / "out" / "g").exists()
    build(pnp, components, tmp_path / "forced", "--force")


# --- recipes --------------------------------------------------------------------------------

RECIPE_GAME = """\
title: Recipe Test
players: 2
recipes:
  suits:
    identify: [rank, suit]
    cards:
      - {rank: [J, Q], suit: [hearts, spades]}
      - {rank: [Joker], suit: [red]}
    piles: %s
"""


def suit_deck(cards: list[tuple[str, str, int]]) -> str:
    lines = "".join(
        f"  - {{name: {r.lower()}-{s}, count: {n}, rank: {r}, suit: {s}}}\n" for r, s, n in cards
    )
    return "kind: deck\ntitle: Cards\nsize: 50 x 50\nbleed: 0\nface: face.svg.j2\ncards:\n" + lines


FULL = [("J", "hearts", 1), ("J", "spades", 1), ("Q", "hearts", 1), ("Q", "spades", 1)]
JOKER = [("Joker", "red", 1)]


def test_recipe_that_matches(pnp, tmp_path):
    components = make_game(
        tmp_path, {"suits.yaml": suit_deck(FULL + JOKER)}, RECIPE_GAME % "[3, 1]"
    )
    result = pnp("check", "--components", components)
    assert result.exit_code == 0, result.output
    assert "recipes ok" in result.stdout
    assert result.stderr == ""


def test_recipe_names_missing_and_extra_cards(pnp, tmp_path):
    cards = [c for c in FULL if c[:2] != ("Q", "hearts")] + [("K", "spades", 1)] + JOKER
    components = make_game(tmp_path, {"suits.yaml": suit_deck(cards)}, RECIPE_GAME % "[3, 1]")
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    problems = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(problems) == 2, result.stderr
    assert any("missing 1 x Q hearts" in p for p in problems), problems
    assert any("K spades" in p and "too many" in p for p in problems), problems
    assert "recipes ok" not in result.stdout
    refused = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert refused.exit_code == 1, refused.output


def test_recipe_counts_copies(pnp, tmp_path):
    cards = [("J", "hearts", 2), *FULL[1:], *JOKER]
    components = make_game(tmp_path, {"suits.yaml": suit_deck(cards)}, RECIPE_GAME % "[3, 1]")
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    assert re.search(r"1 x J hearts.*too many", result.stderr), result.stderr


def test_recipe_piles_that_do_not_add_up(pnp, tmp_path):
    components = make_game(
        tmp_path, {"suits.yaml": suit_deck(FULL + JOKER)}, RECIPE_GAME % "[2, 1]"
    )
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    problem = [ln for ln in result.stderr.splitlines() if "piles" in ln]
    assert len(problem) == 1, result.stderr
    assert re.search(r"\b3\b", problem[0]) and re.search(r"\b4\b", problem[0]), problem


def test_recipe_for_a_deck_that_does_not_exist(pnp, tmp_path):
    game = (
        RECIPE_GAME % "[3, 1]" + "  ghost:\n    identify: [rank]\n    cards:\n      - {rank: [A]}\n"
    )
    components = make_game(tmp_path, {"suits.yaml": suit_deck(FULL + JOKER)}, game)
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    assert f"game.yaml:{line_no(game, 'ghost:')}:" in result.stderr, result.stderr
    assert "ghost" in result.stderr


def test_recipe_line_without_an_identifying_field_is_a_spec_error(pnp, tmp_path):
    game = RECIPE_GAME.replace("      - {rank: [Joker], suit: [red]}", "      - {rank: [Joker]}")
    game %= "[3, 1]"
    components = make_game(tmp_path, {"suits.yaml": suit_deck(FULL + JOKER)}, game)
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    assert re.search(r"game\.yaml:\d+: .*suit", result.stderr), result.stderr


def test_recipe_spec_error_points_at_the_recipe_line(pnp, tmp_path):
    """README: every mistake is listed as file:LINE: the recipe line lacking a field."""
    game = RECIPE_GAME.replace("      - {rank: [Joker], suit: [red]}", "      - {rank: [Joker]}")
    game %= "[3, 1]"
    components = make_game(tmp_path, {"suits.yaml": suit_deck(FULL + JOKER)}, game)
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    assert f"game.yaml:{line_no(game, '{rank: [Joker]}')}:" in result.stderr, result.stderr
