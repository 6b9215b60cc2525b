"""Tracks around a board's edge (issue 26): spaces turn the corners without overlapping, one on
each corner; a track too long for its board is an error at its ``size``; a marked space keeps
its number and its mark's icon inside it."""

from __future__ import annotations

import itertools

import pytest
from lxml import etree

from generator.art.boards import BoardPainter, places
from generator.model.kinds.board import BoardSpec

pytestmark = pytest.mark.unit


def _board(count: int, size: float, marks: dict[int, str] | None = None) -> BoardSpec:
    return BoardSpec.model_validate(
        {
            "kind": "board",
            "title": "Score",
            "size": "200 x 150",
            "tracks": [
                {
                    "name": "score",
                    "values": f"1-{count}",
                    "around": 4,
                    "size": size,
                    "marks": marks or {},
                }
            ],
        }
    )


@pytest.mark.parametrize("count", [4, 5, 20, 27, 40])
def test_spaces_around_the_edge_turn_the_corners_without_overlapping(count):
    size = 10.0
    spec = _board(count, size)
    assert spec.problems() == []
    spaces = [p for name, p in places(spec).items() if name.startswith("score-")]
    assert len(spaces) == count
    for a, b in itertools.combinations(spaces, 2):
        apart = max(abs(a.centre[0] - b.centre[0]), abs(a.centre[1] - b.centre[1]))
        assert apart >= size - 1e-6, (a, b)
    centres = {(round(p.centre[0], 6), round(p.centre[1], 6)) for p in spaces}
    inset = 4 + size / 2
    for corner in itertools.product((inset, 200 - inset), (inset, 150 - inset)):
        assert corner in centres, corner  # a space on each corner


def test_a_track_too_long_for_its_board_is_an_error_at_its_size():
    problems = _board(40, 20).problems()
    assert [loc for loc, _ in problems] == [("tracks", 0, "size")], problems
    (message,) = [m for _, m in problems]
    assert "40 spaces of 20 mm around a 200 x 150 mm board" in message
    assert "so they overlap; make them at most" in message


def test_a_marked_space_holds_its_number_and_its_icon_inside_it():
    size = 14.0
    spec = _board(20, size, {1: "star", 8: "coin", 20: "heart"})
    painter = BoardPainter(spec, lambda name: '<circle r="10"/>')
    svg = painter.paint()
    where = places(spec)
    texts = {
        t.text: t for t in etree.fromstring(svg.encode()).iter("{http://www.w3.org/2000/svg}text")
    }
    for value in (1, 8, 20):
        cx, cy = where[f"score-{value}"].centre
        text = texts[str(value)]
        font, x, y = (float(text.get(k)) for k in ("font-size", "x", "y"))
        assert abs(x - cx) < 1e-3
        assert cy - size / 2 < y - 0.72 * font and y < cy + size / 2, (value, y, cy)
        (icon,) = [i for i in painter.icons if i[1] == f"score-{value}"]
        (ix, iy), icon_size = icon[2], icon[3]
        assert abs(ix - cx) < 1e-3
        assert cy - size / 2 < iy - icon_size / 2 and iy + icon_size / 2 < cy + size / 2
        assert y < iy - icon_size / 2 + 0.5, "the number above the icon"


def test_icons_in_a_board_label_are_drawn_in_the_run_of_its_words():
    spec = BoardSpec.model_validate(
        {
            "kind": "board",
            "title": "Labels",
            "size": "200 x 150",
            "labels": [{"text": "Gain :coin: each turn", "at": [100, 50], "size": 6}],
        }
    )
    painter = BoardPainter(spec, lambda name: f'<circle r="10" class="{name}"/>')
    svg = painter.paint()
    texts = [t for t in etree.fromstring(svg.encode()).iter("{http://www.w3.org/2000/svg}text")]
    words = {t.text: float(t.get("x")) for t in texts}
    assert set(words) == {"Gain", "each turn"}, words  # no ':coin:' printed as text
    (icon,) = [i for i in painter.icons if i[0] == "coin"]
    (ix, iy), icon_size = icon[2], icon[3]
    assert icon_size == 6 and abs(iy - 50) < 1e-6
    assert words["Gain"] < ix - icon_size / 2 and ix + icon_size / 2 <= words["each turn"]
    assert 'class="coin"' in svg
