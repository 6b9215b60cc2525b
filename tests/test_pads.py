"""Roll-and-write pads (``kind: pad``): how many sheets go on a page and exactly where, on A4,
US Letter and A3 (the numbers here worked out by hand from the sheet geometry: a 5 mm margin,
a 4 mm footer band, 3.25 mm for crop marks); what the contents page says, read back from the
PDF; a pad prints single-sided unless it has a back, in every way of printing (the printer
simulated); the elements as drawn; and the mistakes a designer makes, each at its line."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pdfplumber
import pytest
from pdfread import read_pages

from generator.art.pads import BoxRow, Look, PadTooFull, die_icon, draw_side
from generator.check.printing import check_printing
from generator.i18n.strings import words
from generator.model.kinds.pad import PadElement
from generator.options import PrintOptions
from generator.plan.games import load_games, plan_games

EPS = 0.01  # mm: positions the engine computes
TOL = 0.1  # mm: boxes read back from the PDF
SCORE = """\
    kind: pad
    title: Score sheet
    {size}
    elements:
      - write: [Name, Score]
      - boxes: 11
        label: Red
        numbers: 2-12
        size: 5
        total: true
      - track: 1-10
        label: Fame
        numbers_at: under
        size: 5
      - dice: [1, 6]
        label: Once
        ticks: 1
        size: 5
      - text: "A :die-6: crosses off **any** box."
"""


def game(tmp_path: Path, *specs: tuple[str, str]) -> Path:
    """A game folder ``g`` holding ``specs`` (file name, YAML); its components folder."""
    root = tmp_path / "components" / "g"
    root.mkdir(parents=True)
    (root / "game.yaml").write_text("title: Tally\nplayers: 1-4\n", encoding="utf-8")
    for name, text in specs:
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root.parent


def score(size: str = "size: 95 x 135") -> tuple[str, str]:
    return "score.yaml", textwrap.dedent(SCORE).format(size=size)


def built(pnp, components: Path, out: Path, *options: str) -> dict:
    result = pnp("build", "--components", components, "--out", out, *options)
    assert result.exit_code == 0, result.output
    return json.loads((out / "g" / "manifest.json").read_text(encoding="utf-8"))


def trims(manifest: dict, side: str = "front") -> list[tuple[int, float, float, float, float, int]]:
    return [
        (i["page"], i["x_mm"], i["y_mm"], i["w_mm"], i["h_mm"], i["rotation"])
        for i in manifest["items"]
        if i["kind"] == "pad" and i["side"] == side
    ]


# the trim boxes (x, y) of a 95 x 135 mm sheet on each paper, worked out by hand: the block of
# sheets hangs from the top of the printable area less the crop marks' room, centred across
PLACES = {
    # A4: 193.5 x 276.5 mm for sheets: 2 x 2; the block 190 x 270 from x 5 + 3.25 + 1.75
    "a4": [(10.0, 153.75), (105.0, 153.75), (10.0, 18.75), (105.0, 18.75)],
    # Letter: 199.4 x 258.9 mm: 2 x 1 (two rows need 270); x 5 + 3.25 + 4.7, y 274.4 - 3.25 - 135
    "letter": [(12.95, 136.15), (107.95, 136.15)],
}


@pytest.mark.parametrize("paper", list(PLACES))
def test_a_sized_sheet_goes_as_many_to_a_page_as_fit_exactly_there(pnp, tmp_path, paper):
    manifest = built(pnp, game(tmp_path, score()), tmp_path / "out", "--paper", paper)
    found = trims(manifest)
    flat = [v for _, x, y, *_ in found for v in (x, y)]
    assert flat == pytest.approx([v for xy in PLACES[paper] for v in xy], abs=EPS)
    assert all((w, h, turn) == (95.0, 135.0, 0) for *_, w, h, turn in found)
    assert len({page for page, *_ in found}) == 1, "one page of the pad"
    # read back: each sheet's art is placed on its trim box, and the crop marks cut it out
    page = read_pages(tmp_path / "out" / "g" / "g.pdf")[found[0][0] - 1]
    placed = [f.box for f in page.forms]
    for _, x, y, w, h, _ in found:
        assert any(
            abs(b.x0 - x) < TOL
            and abs(b.y0 - y) < TOL
            and abs(b.w - w) < TOL
            and abs(b.h - h) < TOL
            for b in placed
        ), (x, y)
    marks_x = {round(s.x0, 2) for s in page.strokes if s.vertical and s.length < 6}
    assert {round(x, 2) for _, x, *_ in found} | {round(found[-1][1] + 95, 2)} <= marks_x


def test_a3_turns_the_sheets_to_fit_eight(pnp, tmp_path):
    manifest = built(pnp, game(tmp_path, score()), tmp_path / "out", "--paper", "a3")
    found = trims(manifest)
    # A3: 280.5 x 399.5 mm for sheets: upright 2 x 2, turned (135 wide) 2 x 4
    assert len(found) == 8 and all(turn == 90 for *_, turn in found)
    assert all((w, h) == (135.0, 95.0) for *_, w, h, _ in found)
    xs, ys = sorted({x for _, x, *_ in found}), sorted({y for _, _, y, *_ in found})
    assert xs == pytest.approx([13.5, 148.5], abs=EPS)  # 5 + 3.25 + (280.5 - 270) / 2
    assert ys == pytest.approx([31.75, 126.75, 221.75, 316.75], abs=EPS)  # 415 - 3.25 - 380


@pytest.mark.parametrize(
    ("paper", "size"), [("a4", (96.7, 138.2)), ("letter", (99.7, 129.4)), ("a3", (140.2, 199.7))]
)
def test_up_without_a_size_shares_the_page(pnp, tmp_path, paper, size):
    """4-up: a 2 x 2 grid of the printable area less the crop marks' room, rounded down to
    0.1 mm (A4: 193.5 / 2, 276.5 / 2)."""
    components = game(tmp_path, score("up: 4"))
    found = trims(built(pnp, components, tmp_path / "out", "--paper", paper))
    assert len(found) == 4
    assert {(w, h) for *_, w, h, _ in found} == {size}
    assert len({x for _, x, *_ in found}) == 2 and len({y for _, _, y, *_ in found}) == 2


def test_two_up_is_a_page_cut_in_half_across(pnp, tmp_path):
    found = trims(built(pnp, game(tmp_path, score("up: 2")), tmp_path / "out"))
    assert [(w, h) for *_, w, h, _ in found] == [(193.5, 138.2)] * 2
    assert [x for _, x, *_ in found] == pytest.approx([8.25, 8.25], abs=EPS)


def test_the_contents_say_to_print_the_page_as_often_as_needed(pnp, tmp_path):
    out = tmp_path / "out"
    built(pnp, game(tmp_path, score()), out)
    with pdfplumber.open(out / "g" / "g.pdf") as pdf:
        contents = " ".join((pdf.pages[0].extract_text() or "").split())
    assert "Score sheet" in contents
    assert "4 sheets to a page: print the page again as often as you need." in contents
    assert "95 × 135 mm" in contents


def test_every_shipped_language_says_it_in_its_own_words():
    english = words("en").text("pad_contents", up=4)
    for language in ("de", "es", "fr", "it", "nl", "pl", "pt"):
        said = words(language).text("pad_contents", up=4)
        assert said != english and "4" in said, language
    assert words("de").text("pad_contents", up=1).startswith("1 Blatt")


def _pack(components: Path, options: PrintOptions, paper: str = "a4"):
    (pack,) = plan_games(load_games(components, ("g",)), paper, options)
    return pack


def _pad_sheets(pack):
    return [s for s in pack.body if any(p.piece.noun == "pad" for p in s.front.placements)]


@pytest.mark.parametrize(
    "options",
    [
        PrintOptions(),
        PrintOptions(duplex="short"),
        PrintOptions(layout="fold"),
        PrintOptions(back_offset=(1.5, -0.5)),
    ],  # fmt: skip
    ids=["long", "short", "fold", "offset"],
)
def test_a_pad_prints_single_sided_unless_it_has_a_back(tmp_path, options):
    plain = _pack(game(tmp_path / "plain", score()), options)
    sheets = _pad_sheets(plain)
    assert sheets and all(s.back is None and s.front.fold is None for s in sheets)
    assert all(p.side == "front" for s in sheets for p in s.front.placements)
    assert check_printing(plain).problems == ()
    backed = score()[1] + "back:\n  - text: Notes\n  - table: {rows: [['', '']]}\n"
    pack = _pack(game(tmp_path / "backed", ("score.yaml", backed)), options)
    sheets = _pad_sheets(pack)
    fronts = [p for s in sheets for p in s.front.placements if p.side == "front"]
    backs = [
        p
        for s in sheets
        for p in (s.back.placements if s.back else s.front.placements)
        if p.side == "back"
    ]
    assert len(backs) == len(fronts) > 0, "every sheet has its back behind it"
    assert check_printing(pack).problems == ()


def test_elements_take_what_they_measure_and_no_more():
    look = Look()
    row = PadElement(boxes=11, numbers="2-12", size=5, total=True)
    assert len(BoxRow(row, 5).lines(80)) == 1
    lines = BoxRow(row, 5).lines(50)
    assert [len(line) for line in lines] == [6, 6], "two even lines, the total on the last"
    assert lines[-1][-1][0] == -1
    elements = [PadElement(write="Name"), row, PadElement(dice=[1, 2])]
    svg = draw_side(elements, (5, 5, 85, 40), look, None, None)
    assert svg.count("<rect") >= 11 + 1 + 2, "the boxes, the total and two die faces"
    with pytest.raises(PadTooFull) as found:
        draw_side([*elements, PadElement(space=20)], (5, 5, 85, 40), look, None, None)
    assert found.value.loc == (3,), "the element that goes past the sheet"
    assert die_icon("die-6") is not None and die_icon("die-7") is None


def test_a_small_map_is_drawn_by_the_boards_grid_module():
    """A pad's grid with a coordinate scheme, terrain, a hexside and a path is drawn as a
    board's grid: each hex's coordinate printed, the terrain's fill, the river and the road."""
    grid = {
        "cols": 4,
        "rows": 3,
        "layout": "hex-flat",
        "cell": 12,
        "coords": "wargame",
        "terrains": [{"name": "woods", "fill": "#99cc99"}],
        "cells": [{"cell": "0201", "terrain": "woods"}],
        "hexsides": [{"cell": "0202", "side": "NE", "style": "river"}],
        "paths": [{"cells": "0101 0201 0301", "style": "road"}],
    }
    element = PadElement(grid=grid)
    assert element.grid is not None and element.grid.mapped
    svg = draw_side([element], (5, 5, 85, 60), Look(), None, None)
    for coordinate in ("0101", "0401", "0303"):
        assert f">{coordinate}<" in svg, coordinate
    assert "#99cc99" in svg.lower()
    plain = draw_side([PadElement(grid={"cols": 4, "rows": 3})], (5, 5, 85, 60), Look(), None, None)
    assert "0101" not in plain and plain.count("<polygon") == 12


def test_numbers_count_up_or_down_and_must_match_the_boxes():
    assert PadElement(boxes=3, numbers="12-10").shown == ["12", "11", "10"]
    with pytest.raises(ValueError, match="2 numbers for 3 boxes"):
        PadElement(boxes=3, numbers=[1, 2])
    with pytest.raises(ValueError, match="exactly one of"):
        PadElement(boxes=3, text="both")


MISTAKES = {
    "a misspelt element": (
        "elements:\n  - boxs: 5\n",
        4,
        "unknown key 'boxs'; did you mean 'boxes'?",
    ),
    "two in one": ("elements:\n  - boxes: 5\n    dice: [1]\n", 4, "exactly one of"),
    "a bonus past the row": ("elements:\n  - boxes: 3\n    bonus: {5: '+1'}\n", 4, "boxes 1 to 3"),
    "an unknown icon": (
        "elements:\n  - text: 'Gain :stat:'\n",
        4,
        "unknown icon :stat:; did you mean :star:?",
    ),
    "an unknown die deep in a column": (
        "elements:\n  - row:\n      - stack:\n          - boxes: 2\n            label: ':die-7:'\n",
        7,
        "unknown icon :die-7:; did you mean :die-6:?",
    ),
    "too much": ("elements:\n  - space: 100\n  - boxes: 5\n    size: 40\n", 5, "take"),
    "a sheet larger than the page": ("size: 300 x 200\nelements:\n  - text: Hi\n", 3, "smaller"),
    "more up than fit": ("size: 95 x 135\nup: 6\nelements:\n  - text: Hi\n", 4, "4 do"),
    "a map's cell off the grid": (
        "elements:\n  - grid:\n      cols: 3\n      rows: 2\n      coords: wargame\n"
        "      terrains: [{name: woods, fill: '#99cc99'}]\n"
        "      cells: [{cell: '0405', terrain: woods}]\n",
        4,
        "0405",
    ),
    "a map's unknown terrain": (
        "elements:\n  - grid:\n      cols: 3\n      rows: 2\n      coords: wargame\n"
        "      terrains: [{name: woods, fill: '#99cc99'}]\n"
        "      cells: [{cell: '0101', terrain: wood}]\n",
        4,
        "woods",
    ),
}


@pytest.mark.parametrize("case", list(MISTAKES))
def test_a_mistake_is_said_at_its_line_with_how_to_fix_it(pnp, tmp_path, case):
    body, line, said = MISTAKES[case]
    spec = f"kind: pad\ntitle: Score\n{body}"
    components = game(tmp_path, ("score.yaml", spec))
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    first = next(x for x in result.stderr.splitlines() if "score.yaml:" in x)
    assert f"score.yaml:{line}:" in first and said in first, first
    assert "Traceback" not in result.output


def test_a_pad_in_another_language_prints_its_words_and_the_engines(pnp, tmp_path):
    """Every word a pad prints is offered to translators (a bonus's too), and a German pack
    says in German how to print the pad."""
    from test_i18n import translate  # the catalog helper of the translation tests

    spec = (
        "kind: pad\ntitle: Score\nup: 4\nelements:\n  - write: Name\n  - boxes: 3\n"
        "    label: Gold\n    bonus: {3: '+2 gold'}\n  - table: {header: [Round], rows: [['']]}\n"
    )
    components = game(tmp_path, ("score.yaml", spec))
    root = components / "g"
    (root / "game.yaml").write_text(
        "title: Tally\nplayers: 1-4\nlanguages: [en, de]\n", encoding="utf-8"
    )
    result = pnp("i18n", "init", "g", "de", "--components", components)
    assert result.exit_code == 0, result.output
    german = {
        "Tally": "Zählen",
        "Score": "Punkte",
        "Name": "Spieler",
        "Gold": "Münzen",
        "+2 gold": "+2 Münzen",
        "Round": "Runde",
    }
    po = root / "locale" / "de.po"
    assert all(f'msgid "{word}"' in po.read_text("utf-8") for word in german)
    translate(po, german)
    out = tmp_path / "out"
    result = pnp("build", "g", "--components", components, "--out", out, "--lang", "de")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(out / "g" / "de" / "g.pdf") as pdf:
        text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
    assert "4 Blätter pro Seite: die Seite so oft drucken, wie ihr braucht." in text
    for word in ("Spieler", "Münzen", "+2 Münzen", "Runde", "Punkte"):
        assert word in text, word
    assert "Gold" not in text and "Round" not in text
