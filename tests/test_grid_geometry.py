"""Grids' geometry and names, one stage at a time (``model/gridgeometry``, ``gridcells``,
``gridplan``).

The expected centres come from an independent derivation, not from the engine's layout:
the cube coordinates of Amit Patel's "Hexagonal Grids" (redblobgames.com: offset rows or
columns to cube, cube to pixel), placed by what the docs promise (``origin`` is the top-left
corner of the box of an unpushed cell in the first column and row, ``size`` a hex's width
across its flats, ``even`` pushes the 2nd, 4th ... column or row); and a few hand-computed
numbers of a 3/4-inch hex."""

from __future__ import annotations

import math

import pytest

from generator.model.gridcells import CellError, Naming
from generator.model.gridgeometry import DIRECTIONS, Geometry
from generator.model.gridplan import plan
from generator.model.grids import Grid

TOL = 0.01  # mm
SHAPES = [(s, o) for s in ("hex-flat", "hex-pointy") for o in ("even", "odd")]


def cube(shape: str, offset: str, col: int, row: int) -> tuple[int, int]:
    """Axial (q, r) of a 0-based offset cell. The docs' 'even' (the 2nd column or row,
    index 1, pushed) is redblob's odd-q / odd-r, 'odd' is even-q / even-r."""
    sign = -1 if offset == "even" else 1
    if shape == "hex-flat":
        return col, row - (col + sign * (col & 1)) // 2
    return col - (row + sign * (row & 1)) // 2, row


def expected_centre(shape: str, offset: str, size: float, origin, col: int, row: int):
    """The centre of 1-based ``(col, row)`` by the cube derivation, anchored at cell (1, 1)."""
    side = size / math.sqrt(3)

    def pixel(c: int, r: int) -> tuple[float, float]:
        q, ar = cube(shape, offset, c, r)
        if shape == "hex-flat":
            return 1.5 * side * q, math.sqrt(3) * side * (ar + q / 2)
        return math.sqrt(3) * side * (q + ar / 2), 1.5 * side * ar

    first_pushed = offset == "odd"
    if shape == "hex-flat":
        anchor = (origin[0] + side, origin[1] + size / 2 + (size / 2 if first_pushed else 0))
    else:
        anchor = (origin[0] + size / 2 + (size / 2 if first_pushed else 0), origin[1] + side)
    (x, y), (x0, y0) = pixel(col - 1, row - 1), pixel(0, 0)
    return anchor[0] + x - x0, anchor[1] + y - y0


def cube_distance(shape: str, offset: str, one, other) -> int:
    q1, r1 = cube(shape, offset, one[0] - 1, one[1] - 1)
    q2, r2 = cube(shape, offset, other[0] - 1, other[1] - 1)
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


@pytest.mark.parametrize("shape, offset", SHAPES)
def test_hex_centres_and_corners_are_where_the_cube_coordinates_put_them(shape, offset):
    geometry = Geometry(shape, 19.05, 7, 6, (12.5, 30.0), offset)
    side = 19.05 / math.sqrt(3)
    for cell in geometry.cells():
        want = expected_centre(shape, offset, 19.05, (12.5, 30.0), *cell)
        got = geometry.centre(cell)
        assert math.dist(got, want) < TOL, (cell, got, want)
        corners = geometry.corners(cell)
        assert len(corners) == 6
        start = 0 if shape == "hex-flat" else 30
        for k, (x, y) in enumerate(corners):
            angle = math.radians(start + 60 * k)
            assert abs(x - (want[0] + side * math.cos(angle))) < TOL
            assert abs(y - (want[1] + side * math.sin(angle))) < TOL


def test_a_three_quarter_inch_flat_hex_by_hand():
    """19.05 mm across the flats: side 10.9985 mm; column 2 pushed half a hex down."""
    geometry = Geometry("hex-flat", 19.05, 3, 3, (10.0, 20.0), "even")
    assert geometry.centre((1, 1)) == pytest.approx((20.9985, 29.525), abs=TOL)
    assert geometry.centre((2, 1)) == pytest.approx((37.4963, 39.05), abs=TOL)
    assert geometry.centre((3, 2)) == pytest.approx((53.9941, 48.575), abs=TOL)
    assert geometry.box() == pytest.approx((10.0, 20.0, 64.9926, 86.675), abs=TOL)  # 5 sides
    pointy = Geometry("hex-pointy", 19.05, 3, 3, (10.0, 20.0), "odd")
    assert pointy.centre((1, 1)) == pytest.approx((29.05, 30.9985), abs=TOL)
    assert pointy.centre((1, 2)) == pytest.approx((19.525, 47.4963), abs=TOL)


def test_square_cells_by_hand():
    geometry = Geometry("square", 12.0, 4, 2, (5.0, 7.0))
    assert geometry.centre((4, 2)) == pytest.approx((47.0, 25.0), abs=TOL)
    corners = [v for point in geometry.corners((1, 1)) for v in point]
    assert corners == pytest.approx([17, 19, 5, 19, 5, 7, 17, 7], abs=TOL)
    assert geometry.neighbours((2, 1)) == {"E": (3, 1), "S": (2, 2), "W": (1, 1)}
    assert not geometry.adjacent((1, 1), (2, 2))  # diagonal: no side shared


@pytest.mark.parametrize("shape, offset", SHAPES)
def test_neighbours_are_the_cells_one_step_away_in_cube_coordinates(shape, offset):
    geometry = Geometry(shape, 16.0, 6, 5, (0.0, 0.0), offset)
    cells = geometry.cells()
    for one in cells:
        found = geometry.neighbours(one)
        want = {c for c in cells if cube_distance(shape, offset, one, c) == 1}
        assert set(found.values()) == want, one
        assert set(found) <= set(DIRECTIONS[shape])
        for direction, other in found.items():
            back = geometry.neighbours(other)
            assert back[_opposite(shape, direction)] == one
            shared = {(round(x, 2), round(y, 2)) for x, y in geometry.corners(one)}
            shared &= {(round(x, 2), round(y, 2)) for x, y in geometry.corners(other)}
            side = {(round(x, 2), round(y, 2)) for x, y in geometry.side(one, direction)}
            assert side == shared and len(shared) == 2  # the side they share, and no other


def _opposite(shape: str, direction: str) -> str:
    angle = DIRECTIONS[shape][direction] + 180
    return next(d for d, a in DIRECTIONS[shape].items() if (a - angle) % 360 == 0)


def test_an_interior_hex_has_six_neighbours_and_a_corner_two_or_three():
    geometry = Geometry("hex-flat", 16.0, 5, 5)
    assert len(geometry.neighbours((3, 3))) == 6
    assert sorted(geometry.neighbours((1, 1))) == ["S", "SE"]
    assert geometry.neighbour((1, 1), "N") is None


# --- names -----------------------------------------------------------------------------------


def test_wargame_ids_have_leading_zeros_two_digits_or_three_past_99():
    assert Naming("wargame", 12, 9).label((3, 7)) == "0307"
    assert Naming("wargame", 120, 9).label((3, 7)) == "00307"  # column of three digits
    assert Naming("wargame", 12, 9, start=0).label((1, 1)) == "0000"
    naming = Naming("wargame", 12, 9)
    assert naming.cell("0307") == (3, 7)
    assert naming.cell("307") == (3, 7)  # a spreadsheet stored 0307 as the number 307


def test_letters_and_numbers_and_column_row():
    assert Naming("letters", 30, 9).label((27, 4)) == "AA4"
    assert Naming("letters", 30, 9).cell("aa4") == (27, 4)
    numbers = Naming("numbers", 10, 3, start=0)
    assert [numbers.label((c, 1)) for c in (1, 10)] == ["0", "9"]
    assert numbers.cell("12") == (3, 2)
    assert Naming("none", 5, 5).cell("3-2") == (3, 2)


def test_cell_lists_take_ranges_rows_columns_and_everything():
    naming = Naming("wargame", 10, 8)
    assert naming.cells("0101-0303") == [(c, r) for r in (1, 2, 3) for c in (1, 2, 3)]
    assert naming.cells("0105-0101") == [(1, r) for r in range(1, 6)]  # either order
    assert naming.cells("row 2") == [(c, 2) for c in range(1, 11)]
    assert naming.cells("cols 9-10") == [(c, r) for r in range(1, 9) for c in (9, 10)]
    assert naming.cells("0101, 0202 0303") == [(1, 1), (2, 2), (3, 3)]
    assert len(naming.cells("*")) == 80
    assert Naming("letters", 5, 5).cells("col B") == [(2, r) for r in range(1, 6)]
    assert Naming("numbers", 4, 3).cells("3-6") == [(3, 1), (4, 1), (1, 2), (2, 2)]
    assert Naming("none", 5, 5).cells("1-1-2-2") == [(1, 1), (2, 1), (1, 2), (2, 2)]


@pytest.mark.parametrize(
    "written, said",
    [
        (
            "01O1",
            "'01O1' is not a cell of this grid (columns 01 to 10, rows 01 to 08, e.g. 0101); "
            "did you mean '0101'",
        ),
        ("1101", "cell '1101' is outside the grid (columns 01 to 10, rows 01 to 08)"),
        ("row 9", "'row 9' is not a row of this grid (rows 01 to 08)"),
        ("col", "'col' needs the col it names"),
    ],
)
def test_a_cell_that_is_not_there_is_said_with_the_ids_that_are(written, said):
    with pytest.raises(CellError) as raised:
        Naming("wargame", 10, 8).cells(written)
    assert said in str(raised.value)


# --- what a grid's rows mean ---------------------------------------------------------------

TERRAINS = [{"name": "clear"}, {"name": "forest", "pattern": "dots"}, {"name": "town"}]


def grid(**extra) -> Grid:
    spec = {
        "prefix": "map",
        "layout": "hex-flat",
        "origin": [0, 0],
        "size": 19,
        "cols": 10,
        "rows": 8,
        "coords": "wargame",
        "terrains": TERRAINS,
    }
    return Grid.model_validate({**spec, **extra})


def test_later_rows_change_earlier_ones_and_the_default_fills_the_rest():
    resolved, problems = plan(
        grid(
            terrain="clear",
            cells=[
                {"cell": "0101-0303", "terrain": "forest"},
                {"cell": "0202", "terrain": "Town", "label": "Arnhem"},
            ],
        )
    )
    assert problems == []
    assert resolved.terrain[(2, 2)] == "town" and resolved.terrain[(3, 3)] == "forest"
    assert resolved.terrain[(10, 8)] == "clear" and len(resolved.terrain) == 80
    assert resolved.labels == {(2, 2): "Arnhem"}


@pytest.mark.parametrize(
    "extra, where, said",
    [
        ({"terrain": "clera"}, ("terrain",), "did you mean 'clear'?"),
        ({"cells": [{"cell": "0101", "terrain": "frost"}]}, ("cells", 0, "terrain"), "'forest'"),
        (
            {"cells": [{"cell": "0101", "terrain": "forest"}, {"cell": "0101", "terrain": "town"}]},
            ("cells", 1, "cell"),
            "given a terrain by an earlier row too",
        ),
        ({"cells": [{"cell": "0101-0102", "label": "X"}]}, ("cells", 0, "label"), "one cell"),
        (
            {"hexsides": [{"cell": "0303", "to": "0505", "style": "river"}]},
            ("hexsides", 0, "to"),
            "not neighbours (the neighbours of 0303: 0302, 0402, 0403, 0304, 0203, 0202)",
        ),
        (
            {"hexsides": [{"cell": "0303", "side": "E", "style": "river"}]},
            ("hexsides", 0, "side"),
            "not one of the sides of a hex-flat cell: N, NE, SE, S, SW, NW",
        ),
        (
            {"hexsides": [{"cell": "0303", "side": "N", "style": "rivr"}]},
            ("hexsides", 0, "style"),
            "did you mean 'river'?",
        ),
        (
            {"paths": [{"cells": "0101 0102 0104", "style": "road"}]},
            ("paths", 0, "cells"),
            "the path jumps: '0102' and '0104' are not neighbours",
        ),
        ({"legend": {"at": [0, 0]}}, ("legend",), "nothing to show"),
    ],
)
def test_each_mistake_in_a_grid_is_told_at_its_row(extra, where, said):
    _, problems = plan(grid(**extra))
    assert [loc for loc, _ in problems] == [where]
    assert said in problems[0][1]


def test_an_unknown_pattern_names_the_stock_ones():
    terrains = [{"name": "forest", "pattern": "dotz"}]
    _, problems = plan(grid(terrains=terrains))
    assert problems == [
        (
            ("terrains", 0, "pattern"),
            "pattern 'dotz' is not one of the stock patterns: dots, hatching, lines, "
            "crosshatch, waves, grass; did you mean 'dots'? Or name one of them, or leave the "
            "pattern out",
        )
    ]


def test_coordinates_too_large_for_their_cells_are_a_mistake():
    _, problems = plan(grid(size=8, coords={"scheme": "wargame", "size": 4}))
    assert problems and problems[0][0] == ("coords",) and "do not fit" in problems[0][1]
