"""Boxes for decks (``kind: box``): a tuck box's net read back from the PDF (its cut and fold
lines within 0.1 mm of the sizes worked out here by hand from the deck), its inside from the
deck and the card's thickness (the spec's, the printer profile's, or 0.3 mm), the contents
page naming what it holds and its paper, single-sided in every way of printing (the printer
simulated), the checks a net must pass, the exports that leave it out and say so, and the
mistakes a designer makes, each at its line."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pdfplumber
import pytest
from pdfread import MM_PER_PT, Box, read_pages

from generator.art.nets import inside, lid_for, net_problems, tray, tuck_box
from generator.art.shapes import Shape
from generator.check.printing import check_printing
from generator.options import PrintOptions
from generator.plan.games import load_games, plan_games

TOL = 0.1  # mm: lines read back from the PDF
DECK = """\
kind: deck
title: Harbour cards
size: poker
face: card.svg.j2
back: card-back.svg.j2
cards:
  - {name: anchor, title: Anchor, count: 30}
  - {name: boat, title: Boat, count: 24}
"""
BOX = """\
kind: box
title: Card box
boxes:
  - deck: cards
"""
# a poker deck of 54 cards, 0.3 mm each, 1 mm clearance: inside 64.5 x 89.9 x 17.2 mm; a glue
# tab of 12 mm (0.7 of the depth, at most 12), tuck flaps 13.76 mm deep (0.8 of the depth)
W, H, D, GLUE, TUCK = 64.5, 89.9, 17.2, 12.0, 13.76


def game(tmp_path: Path, box: str = BOX, deck: str = DECK) -> Path:
    root = tmp_path / "components" / "g"
    root.mkdir(parents=True)
    (root / "game.yaml").write_text("title: Harbour\nplayers: 2-4\n", encoding="utf-8")
    (root / "cards.yaml").write_text(deck, encoding="utf-8")
    (root / "box.yaml").write_text(textwrap.dedent(box), encoding="utf-8")
    return root.parent


def build(pnp, components: Path, out: Path, *options: str) -> dict:
    result = pnp("build", "--components", components, "--out", out, *options)
    assert result.exit_code == 0, result.output
    return json.loads((out / "g" / "manifest.json").read_text(encoding="utf-8"))


NAME_COLUMN = 120 / MM_PER_PT  # the contents' name column ends 120 mm from the page's left


def contents(out: Path) -> tuple[str, str]:
    """The contents' name column (the title, with what each component holds beneath it) and
    the rest of the table, each as one line of text."""
    with pdfplumber.open(out / "g" / "g.pdf") as pdf:
        found = pdf.pages[0].extract_words(keep_blank_chars=False, use_text_flow=True)
    table = [w for w in found if w["top"] > 200]  # below the notes and the square
    name = " ".join(w["text"] for w in table if w["x1"] < NAME_COLUMN)
    rest = " ".join(w["text"] for w in table if w["x0"] >= NAME_COLUMN)
    return name, rest


def test_the_tuck_box_net_is_what_the_deck_needs_read_back(pnp, tmp_path):
    out = tmp_path / "out"
    manifest = build(pnp, game(tmp_path), out)
    (item,) = [i for i in manifest["items"] if i["kind"] == "box"]
    assert (item["w_mm"], item["h_mm"]) == pytest.approx(
        (GLUE + 2 * W + 2 * D, 2 * TUCK + 2 * D + H), abs=0.01
    )
    page = read_pages(out / "g" / "g.pdf")[item["page"] - 1]
    x0, y0 = item["x_mm"], item["y_mm"]
    region = Box(x0 - 1, y0 - 1, x0 + item["w_mm"] + 1, y0 + item["h_mm"] + 1)
    net = [s for s in page.strokes if s.box.inside(region)]
    folds = [s for s in net if s.dash]
    cuts = [s for s in net if not s.dash]
    # the body's four folds, down its height, a panel's width apart: back | side | front | side
    upright = sorted({round(s.x0 - x0, 2) for s in folds if s.vertical and abs(s.length - H) < TOL})
    assert upright == pytest.approx([GLUE, GLUE + W, GLUE + W + D, GLUE + 2 * W + D], abs=TOL)
    # across: the bottom's and the lid's hinges, the tuck flaps' folds a depth beyond them
    across = sorted(
        {round(s.y0 - y0, 2) for s in folds if s.horizontal and abs(s.length - W) < TOL}
    )
    assert across == pytest.approx([TUCK, TUCK + D, TUCK + D + H, TUCK + 2 * D + H], abs=TOL)
    # the cut lines go round the whole net and no further
    xs = [v for s in cuts for v in (s.x0, s.x1)]
    ys = [v for s in cuts for v in (s.y0, s.y1)]
    assert (min(xs) - x0, max(xs) - x0) == pytest.approx((0, item["w_mm"]), abs=TOL)
    assert (min(ys) - y0, max(ys) - y0) == pytest.approx((0, item["h_mm"]), abs=TOL)
    name, rest = contents(out)
    assert "Holds Harbour cards, 54 cards (inside 64.5 × 89.9 × 17.2 mm)." in name
    assert "Print on card, 160–250 g/m²; score the dashed lines, cut, fold and glue." in name
    assert "box 64.5 × 89.9 × 17.2 mm" in rest


def test_the_card_thickness_comes_from_the_spec_or_the_printer_profile(pnp, tmp_path, monkeypatch):
    profile = tmp_path / "config.toml"
    profile.write_text("[printer]\ncard_thickness = 0.5\n", encoding="utf-8")
    monkeypatch.setenv("PNP_CONFIG", str(profile))
    components = game(tmp_path / "a")
    build(pnp, components, tmp_path / "a" / "out")
    assert "inside 64.5 × 89.9 × 28 mm" in contents(tmp_path / "a" / "out")[0]  # 54 x 0.5 + 1
    spec = BOX + "    thickness: 0.25\n    cards: 60\n    clearance: 2\n"
    build(pnp, game(tmp_path / "b", spec), tmp_path / "b" / "out")
    assert "60 cards (inside 65.5 × 90.9 × 17 mm)" in contents(tmp_path / "b" / "out")[0]


def test_a_net_folds_and_holds_the_deck():
    room = inside(63.5, 88.9, 54, 0.3, 1.0)
    assert (room.w, room.h, room.d) == (64.5, 89.9, 17.2)
    assert inside(63.5, 88.9, 3, 0.3, 0.0).d == 5.0, "never thinner than a spine can fold"
    shape, flaps = tuck_box(room)
    assert net_problems(shape, "a4", (197.0, 280.0)) == []
    assert len(flaps) == 6 and len(shape.tabs) == 1
    assert "larger than the printable area" in net_problems(shape, "a5", (140.0, 200.0))[0]
    for part in (tray(room)[0], tray(lid_for(room), "lid")[0]):
        assert len(part.tabs) == 4 and net_problems(part, "a4", (197.0, 280.0)) == []
    lid = lid_for(room)
    assert lid.w >= room.w + 2 * 0.3 and lid.h >= room.h + 2 * 0.3, "the lid slides over"
    close = Shape("net", 50, 50, cuts=((0, 0, 50, 0),), folds=((0, 2, 50, 2),))
    assert "2.0 mm from a cut edge" in net_problems(close, "a4", (197.0, 280.0))[0]


def test_a_two_part_box_is_a_tray_and_a_lid(pnp, tmp_path):
    spec = BOX + "    type: two-part\n"
    out = tmp_path / "out"
    manifest = build(pnp, game(tmp_path, spec), out)
    parts = {i["name"]: i for i in manifest["items"] if i["kind"] == "box"}
    assert set(parts) == {"cards-tray", "cards-lid"}
    tray_, lid = parts["cards-tray"], parts["cards-lid"]
    assert (tray_["w_mm"], tray_["h_mm"]) == pytest.approx((W + 2 * D, H + 2 * D), abs=0.01)
    assert lid["w_mm"] - tray_["w_mm"] == pytest.approx(1.6, abs=0.01)  # 2 walls and 1 mm play


@pytest.mark.parametrize(
    "options",
    [PrintOptions(), PrintOptions(duplex="short"), PrintOptions(layout="fold")],
    ids=["long", "short", "fold"],
)
def test_a_box_prints_single_sided_in_every_way_of_printing(tmp_path, options):
    (pack,) = plan_games(load_games(game(tmp_path), ("g",)), "a4", options)
    sheets = [s for s in pack.body if any(p.piece.noun == "box" for p in s.front.placements)]
    assert sheets and all(s.back is None and s.front.fold is None for s in sheets)
    assert all(p.outline for s in sheets for p in s.front.placements), "cut along its outline"
    assert check_printing(pack).problems == ()


@pytest.mark.acceptance  # two exports drawn at 300 dpi
def test_the_exports_leave_the_box_out_and_say_so(pnp, tmp_path):
    components = game(tmp_path)
    pad = "kind: pad\ntitle: Score\nup: 4\nelements:\n  - boxes: 5\n"
    (components / "g" / "score.yaml").write_text(pad, encoding="utf-8")
    out = tmp_path / "out"
    result = pnp("export", "--shop", "--tts", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    assert result.output.count("box 'box' left out") == 2
    shop = json.loads((out / "g" / "shop" / "shop.json").read_text(encoding="utf-8"))
    assert {f["kind"] for f in shop["files"]} == {"card", "pad"}
    assert [i["component"] for i in shop["left_out"]] == ["box"]
    assert "dielines" in shop["left_out"][0]["why"]
    tts = json.loads((out / "g" / "tts" / "tts.json").read_text(encoding="utf-8"))
    assert [p["object"] for p in tts["pieces"]] == ["Custom_Tile"]
    assert tts["pieces"][0]["copies"] == 4, "a stack of the pad's sheets"
    assert [i["component"] for i in tts["left_out"]] == ["box"]
    readme = (out / "g" / "tts" / "README.txt").read_text(encoding="utf-8")
    assert "Left out: box 'box'" in readme


TAROT = DECK.replace("size: poker", "size: tarot").replace("count: 30", "count: 54")
MISTAKES = {
    "a deck that is not there": (
        BOX.replace("deck: cards", "deck: card"),
        4,
        "did you mean 'cards'?",
    ),
    "fewer cards than the deck": (BOX + "    cards: 20\n", 5, "the deck 'cards' has 54"),
    "a misspelt type": (BOX + "    type: tuk\n", 5, "'tuck'"),
}


@pytest.mark.parametrize("case", list(MISTAKES))
def test_a_mistake_is_said_at_its_line(pnp, tmp_path, case):
    spec, line, said = MISTAKES[case]
    result = pnp("check", "--components", game(tmp_path, spec))
    assert result.exit_code == 2, result.output
    first = next(x for x in result.stderr.splitlines() if "box.yaml:" in x)
    assert f"box.yaml:{line}:" in first and said in first, first
    assert "Traceback" not in result.output


def test_a_net_larger_than_the_paper_says_what_to_do(pnp, tmp_path):
    components = game(tmp_path, BOX, TAROT)  # 78 tarot cards: a 203 x 202 mm net
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    said = next(x for x in result.stderr.splitlines() if "box.yaml:4:" in x)
    assert "larger than the printable area of a4" in said and "--paper a3" in said, said
    build(pnp, components, tmp_path / "out", "--paper", "a3")


@pytest.mark.parametrize("size", [(44, 68), (57.2, 88.9), (63.5, 88.9), (70, 120), (70, 70)])
def test_every_net_folds_whatever_the_deck(size):
    """From a single card to a thick deck, of every named size: every fold stays clear of
    the cut edges beside it, the tuck flap and glue tab fit their panels."""
    for cards in (1, 10, 54, 110):
        room = inside(*size, cards, 0.3, 1.0)
        for shape in (tuck_box(room)[0], tray(room)[0], tray(lid_for(room), "lid")[0]):
            assert net_problems(shape, "any", (1000.0, 1000.0)) == [], (size, cards, shape.kind)
            assert all(0 <= v <= max(shape.w, shape.h) + 1e-6 for c in shape.cuts for v in c)
