"""Where the tiles of a board meet: seams kept out of places (then words and icons) where the
paper leaves a choice, each row of tiles split on its own; ``pnp check`` warns of a seam
through a place it could not avoid, and the bundled boards have none on any paper."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.check.seams import seam_cuts
from generator.layout.tiles import MARK, PLACE, Keep, Span, split_board, tile_spans
from generator.plan.games import load_games, plan_games

REPO = Path(__file__).resolve().parent.parent
OVERLAP = 10.0

# 400 x 100 mm: on A4 (193.5 mm of art across a page turned) three tiles across, one row.
BOARD = """\
kind: board
title: Strip
size: 400 x 100
rows:
  - {{name: stall, path: [[{first}, 50], [{last}, 50]], count: {count}, size: 15, style: dashed}}
"""


def game(root: Path, board: str) -> Path:
    """A game ``g`` with one board."""
    folder = root / "g"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("title: Seams\nplayers: 2\n", encoding="utf-8")
    (folder / "board.yaml").write_text(board, encoding="utf-8")
    return folder


@pytest.mark.unit
def test_a_seam_moves_out_of_a_place_within_what_the_page_holds():
    even = tile_spans(400, 193.5, OVERLAP)
    assert [round(size, 3) for _, size in even] == [140.0] * 3  # nothing to avoid: even tiles
    seam = even[1][0]  # 130 mm: put a place on it, and a word just beside
    moved = tile_spans(400, 193.5, OVERLAP, avoid=[Span(seam - 8, seam + 8, PLACE)])
    starts = [start for start, _ in moved]
    assert not any(seam - 8 < s < seam + 8 for s in starts[1:]), starts
    assert all(size <= 193.5 for _, size in moved) and moved[-1][0] + moved[-1][1] == 400


@pytest.mark.unit
def test_a_place_outranks_a_word_when_one_must_be_cut():
    """Where the first seam may fall (86.75 to 183.5 mm), it cuts a place or a word: the
    word is cut."""
    avoid = [Span(80, 150, PLACE), Span(149, 190, MARK)]
    starts = [s for s, _ in tile_spans(400, 193.5, OVERLAP, avoid=avoid)]
    assert 150 < starts[1] < 190 and not any(80 < s < 150 for s in starts), starts


@pytest.mark.unit
def test_each_row_of_tiles_is_split_where_its_own_seams_cut_least():
    """A place on the even seam of the bottom row only: that row splits elsewhere, the top
    row evenly, and nothing is cut."""
    keep = [Keep(135, 0, 155, 20, PLACE)]
    (rows, cols), cost = split_board(300, 400, (193.5, 280.5), OVERLAP, 0.0, keep)
    assert len(rows) == 2 and cost[PLACE] == 0
    bottom, top = (cols[0][1][0], cols[1][1][0])
    assert top == 145 and not 135 < bottom < 155, (bottom, top)


def test_the_check_warns_of_a_seam_through_a_place_it_cannot_avoid(pnp, tmp_path):
    """28 stalls 15 mm wide, 14.2 mm apart, across the board: every seam cuts one."""
    game(tmp_path, BOARD.format(first=8, last=392, count=28))
    result = pnp("check", "g", "--components", tmp_path, "--json")
    assert result.exit_code == 0  # a warning: the pack prints as it should
    found = json.loads(result.stdout)["games"][0]["printing"]["seams"]
    assert len(found) == 1 and found[0]["line"] == 5, found  # the row's line
    assert [p[:6] for p in found[0]["places"]] == ["stall-"]  # two tiles, one seam
    warned = pnp("check", "g", "--components", tmp_path)
    assert "board.yaml:5: warning: a seam of board 'board' printed on a4 runs through 'stall-" in (
        warned.output
    )
    # on A3 the board prints whole: no seam, no warning
    assert "seam" not in pnp("check", "g", "--components", tmp_path, "--paper", "a3").output


def test_a_seam_that_can_pass_between_places_does(pnp, tmp_path):
    """The same stalls with room between them (20 mm apart): the seams fall in the gaps."""
    game(tmp_path, BOARD.format(first=15, last=385, count=19))
    result = pnp("check", "g", "--components", tmp_path, "--json")
    assert json.loads(result.stdout)["games"][0]["printing"]["seams"] == []
    assert "seam" not in pnp("check", "g", "--components", tmp_path).output


@pytest.mark.acceptance
@pytest.mark.parametrize("paper", ["a4", "letter", "a3"])
def test_the_bundled_boards_have_no_seam_through_a_place(paper):
    loaded = load_games(REPO / "components", ())
    packs = plan_games(loaded, paper)
    tiled = [
        p.piece.component
        for pack in packs
        for sheet in pack.sheets
        for p in sheet.front.placements
        if p.tile and p.tile != "whole"
    ]
    assert tiled  # Chaos Cove's board is tiled even on A3
    for pack in packs:
        assert seam_cuts(pack) == [], (pack.game.name, paper, seam_cuts(pack))
