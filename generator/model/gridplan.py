"""What a grid's rows of cells, hexsides and paths mean, and what is wrong with them: every
cell's terrain, label and icon, every styled side and every path, resolved once for the
checks and the drawing alike.

A mistake is told at the row it is in (``("cells", 3, "terrain")`` inside the grid), with the
names the grid does know: a cell id that is no cell, a cell outside the grid, a terrain,
pattern or line style the grid does not have, two cells of a hexside or a path that are not
neighbours."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from itertools import pairwise

from generator.model.gridcells import EVERYTHING, CellError, Naming
from generator.model.gridgeometry import DIRECTIONS, Cell, Geometry
from generator.model.grids import MIN_TEXT, PATTERNS, Grid, HexsideRow, PathRow
from generator.svg.fonts import text_width

Loc = tuple[str | int, ...]
Problem = tuple[Loc, str]
SHOWN = 10  # names a message lists
MAX_NAMED_CELLS = 100_000  # cells the rows of one grid's cells table name in all
CENTRE_TEXT = 0.3  # a coordinate in a cell's centre: this share of its size
EDGE_TEXT = 0.13  # a coordinate at a cell's edge or corner: this share of its size
ROOM = 0.8  # the share of a cell's width a coordinate may take


@dataclass
class GridPlan:
    """A grid's cells as they are drawn: each cell's terrain, label and icon (only the
    cells that have one), its styled sides (cell, compass point, style, the neighbour or
    None) and paths (cells, style)."""

    terrain: dict[Cell, str] = field(default_factory=dict)
    labels: dict[Cell, str] = field(default_factory=dict)
    icons: dict[Cell, str] = field(default_factory=dict)
    sides: list[tuple[Cell, str, str, Cell | None]] = field(default_factory=list)
    paths: list[tuple[list[Cell], str]] = field(default_factory=list)


def _listed(names: list[str]) -> str:
    """Names for a message, the first ``SHOWN`` of them."""
    more = f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return ", ".join(names[:SHOWN]) + more if names else "none"


def _unknown(what: str, name: str, known: list[str], fix: str, whose: str = "this grid's") -> str:
    """A name that is not among ``known``, with the one it is closest to."""
    close = difflib.get_close_matches(name.lower(), [k.lower() for k in known], n=1, cutoff=0.6)
    near = next((k for k in known if close and k.lower() == close[0]), None)
    hint = f"did you mean '{near}'? Or {fix}" if near else fix
    return f"{what} '{name}' is not one of {whose}: {_listed(known)}; {hint}"


def coords_size(grid: Grid) -> float:
    """The coordinates' font size in mm: as given, else a share of the cell's size (larger
    in its centre), never under 6 pt."""
    if grid.coords.size is not None:
        return grid.coords.size
    share = CENTRE_TEXT if grid.coords.at == "centre" else EDGE_TEXT
    return max(MIN_TEXT, round(grid.across * share, 2))


def plan(grid: Grid) -> tuple[GridPlan, list[Problem]]:
    """The grid resolved, and every mistake in it (a row with a mistake is left out)."""
    out = GridPlan()
    problems = _names(grid) + _coords_fit(grid)
    if grid.terrain is not None:
        found = _terrain(grid, grid.terrain)
        if found is None:
            problems.append((("terrain",), _no_terrain(grid, grid.terrain)))
        else:
            out.terrain = dict.fromkeys(grid.geometry().cells(), found)
    problems += _cells(grid, out)
    problems += _sides(grid, out)
    problems += _paths(grid, out)
    if grid.legend is not None and not any(legend_entries(grid, out)):
        problems.append(
            (
                ("legend",),
                "the legend has nothing to show; give the terrains (and line styles) it "
                "should list a label",
            )
        )
    return out, problems


def _names(grid: Grid) -> list[Problem]:
    """Terrains and line styles named twice; patterns that are not stock ones."""
    out: list[Problem] = []
    for key in ("terrains", "lines"):
        seen: set[str] = set()
        for i, item in enumerate(getattr(grid, key)):
            if item.name in seen:
                out.append(((key, i, "name"), f"'{item.name}' is named twice in {key}; rename one"))
            seen.add(item.name)
    for i, terrain in enumerate(grid.terrains):
        if terrain.pattern is not None and terrain.pattern not in PATTERNS:
            fix = "name one of them, or leave the pattern out"
            message = _unknown(
                "pattern", terrain.pattern, list(PATTERNS), fix, "the stock patterns"
            )
            out.append((("terrains", i, "pattern"), message))
    return out


def _coords_fit(grid: Grid) -> list[Problem]:
    """Coordinates too wide for their cells."""
    if grid.coords.scheme == "none" or grid.coords.at == "none":
        return []
    size = coords_size(grid)
    widest = widest_coords(grid)
    width = text_width(widest, size, "normal")
    room = ROOM * (grid.across if grid.layout != "hex-flat" else grid.across / 3**0.5)
    if width <= room:
        return []
    return [
        (
            ("coords",),
            f"the coordinates ('{widest}', {width:.1f} mm wide at {size:g} mm) do not fit "
            f"cells {grid.across:g} mm across (room for {room:.1f} mm); make the cells "
            f"larger or the coordinates smaller (coords: {{size: ...}}, at least {MIN_TEXT:g} mm)",
        )
    ]


def widest_coords(grid: Grid) -> str:
    """The longest coordinate the grid prints (a corner cell's: the first or the last)."""
    naming = grid.naming()
    corners = [(1, 1), (grid.cols, grid.rows), (grid.cols, 1), (1, grid.rows)]
    return max((naming.label(c) for c in corners), key=len)


def _terrain(grid: Grid, written: str) -> str | None:
    """The terrain a name means (case-blind), or None."""
    found = {t.name.lower(): t.name for t in grid.terrains}
    return found.get(written.strip().lower())


def _no_terrain(grid: Grid, written: str) -> str:
    """A terrain the grid does not have, with those it does."""
    known = [t.name for t in grid.terrains]
    fix = "add it to the grid's terrains:" if known else "give the grid terrains: [{name, fill}]"
    return _unknown("terrain", written, known, fix)


def _cells(grid: Grid, out: GridPlan) -> list[Problem]:
    """The cells table: each row's cells, terrain, label and icon; a later row changes
    what an earlier one gave, but one cell named alone twice is a mistake."""
    naming = grid.naming()
    problems: list[Problem] = []
    alone: set[Cell] = set()
    everything = [i for i, row in enumerate(grid.cells) if str(row.cell).strip() == EVERYTHING]
    if grid.terrain is not None and everything:
        problems.append(
            (
                ("cells", everything[0], "cell"),
                "'*' gives every other cell a terrain, and so does the grid's 'terrain:'; keep one",
            )
        )
    named = 0
    for j in [*everything, *(i for i in range(len(grid.cells)) if i not in everything)]:
        row = grid.cells[j]
        try:
            cells = naming.cells(row.cell)
        except CellError as exc:
            problems.append((("cells", j, "cell"), str(exc)))
            continue
        named += len(cells)
        if named > MAX_NAMED_CELLS:
            message = f"the rows name more than {MAX_NAMED_CELLS:,} cells in all; name fewer"
            problems.append((("cells", j, "cell"), message + " (a range or '*' once)"))
            break
        problem = _cell_row(grid, out, j, cells, alone, naming)
        if problem:
            problems.append(problem)
    return problems


def _cell_row(
    grid: Grid, out: GridPlan, j: int, cells: list[Cell], alone: set[Cell], naming: Naming
) -> Problem | None:
    """One row of the cells table applied, or what is wrong with it."""
    row = grid.cells[j]
    if row.terrain is None and row.label is None and row.icon is None:
        return (("cells", j), "this row gives its cells no terrain, label or icon; give one")
    single = len(cells) == 1
    if single and row.terrain is not None and cells[0] in alone:
        name = naming.label(cells[0])
        return (
            ("cells", j, "cell"),
            f"cell '{name}' is given a terrain by an earlier row too; keep one of the two "
            "(a range may be changed by a row of one cell, but one cell named twice is a typo)",
        )
    if row.label is not None and len(cells) != 1:
        message = f"a label is printed in one cell, and this row names {len(cells)}"
        return (("cells", j, "label"), message)
    terrain = None
    if row.terrain is not None:
        terrain = _terrain(grid, row.terrain)
        if terrain is None:
            return (("cells", j, "terrain"), _no_terrain(grid, row.terrain))
    if single and terrain is not None:
        alone.add(cells[0])
    for cell in cells:
        if terrain is not None:
            out.terrain[cell] = terrain
        if row.label is not None:
            out.labels[cell] = row.label
        if row.icon is not None:
            out.icons[cell] = row.icon
    return None


class _Wrong(Exception):
    """A row's mistake: the key it is at and what is wrong."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


def _sides(grid: Grid, out: GridPlan) -> list[Problem]:
    """The hexsides: each a cell's side towards a neighbour or a compass point."""
    problems: list[Problem] = []
    for j, row in enumerate(grid.hexsides):
        try:
            out.sides += _side_row(grid, row)
        except _Wrong as exc:
            problems.append(((("hexsides", j, exc.key) if exc.key else ("hexsides", j)), str(exc)))
    return problems


def _side_row(grid: Grid, row: HexsideRow) -> list[tuple[Cell, str, str, Cell | None]]:
    """The sides one hexside row names, or a _Wrong."""
    naming, geometry = grid.naming(), grid.geometry()
    try:
        cells = naming.cells(row.cell)
    except CellError as exc:
        raise _Wrong("cell", str(exc)) from None
    if len(cells) != 1:
        message = "a hexside is a side of one cell, and this names {}; write one cell, and its "
        raise _Wrong("cell", message.format(len(cells)) + "neighbours in 'to'")
    style = _style(grid, row.style)
    if (row.to is None) == (row.side is None):
        message = "give 'to' (the neighbour across the side) or 'side' (a compass point), one"
        raise _Wrong("", message + " of them")
    cell = cells[0]
    if row.to is not None:
        try:
            others = naming.cells(row.to)
        except CellError as exc:
            raise _Wrong("to", str(exc)) from None
        for other in others:
            if not geometry.adjacent(cell, other):
                message = _not_neighbours(geometry, naming, cell, other)
                raise _Wrong("to", f"{message}; a hexside lies between neighbours")
        return [(cell, geometry.direction(cell, o), style, o) for o in others]
    points = list(DIRECTIONS[geometry.shape])
    found = []
    for point in str(row.side).replace(",", " ").split():
        if point.upper() not in points:
            whose = f"the sides of a {geometry.shape} cell"
            fix = "write the sides separated by spaces, e.g. 'NE SE'"
            raise _Wrong("side", _unknown("side", point, points, fix, whose))
        found.append((cell, point.upper(), style, geometry.neighbour(cell, point.upper())))
    return found


def _style(grid: Grid, written: str) -> str:
    """The line style a name means, or a _Wrong."""
    looks = grid.line_looks()
    name = written.strip().lower()
    if name not in looks:
        fix = "add it to the grid's lines: [{name, colour, width}]"
        raise _Wrong("style", _unknown("line style", written, sorted(looks), fix))
    return name


def _not_neighbours(geometry: Geometry, naming: Naming, one: Cell, other: Cell) -> str:
    """Two cells that are not neighbours, with the neighbours the first has."""
    near = [naming.label(c) for c in geometry.neighbours(one).values()]
    return (
        f"'{naming.label(one)}' and '{naming.label(other)}' are not neighbours (the "
        f"neighbours of {naming.label(one)}: {', '.join(near)})"
    )


def _paths(grid: Grid, out: GridPlan) -> list[Problem]:
    """The paths: cells in order, each a neighbour of the one before."""
    problems: list[Problem] = []
    for j, row in enumerate(grid.paths):
        try:
            out.paths.append(_path_row(grid, row))
        except _Wrong as exc:
            problems.append((("paths", j, exc.key), str(exc)))
    return problems


def _path_row(grid: Grid, row: PathRow) -> tuple[list[Cell], str]:
    """The cells and style of one path, or a _Wrong."""
    naming, geometry = grid.naming(), grid.geometry()
    try:
        cells = naming.cells(row.cells)
    except CellError as exc:
        raise _Wrong("cells", str(exc)) from None
    style = _style(grid, row.style)
    if len(cells) < 2:
        raise _Wrong("cells", "a path runs through two cells at least; list them in order")
    jump = next(((a, b) for a, b in pairwise(cells) if not geometry.adjacent(a, b)), None)
    if jump is not None:
        message = _not_neighbours(geometry, naming, *jump)
        raise _Wrong("cells", f"the path jumps: {message}; list every cell it runs through")
    return cells, style


def legend_entries(grid: Grid, resolved: GridPlan) -> tuple[list[str], list[str]]:
    """(terrains, line styles) the legend lists, each with a label, in the spec's order."""
    looks = grid.line_looks()
    used = {s for _, _, s, _ in resolved.sides} | {s for _, s in resolved.paths}
    terrains = [t.name for t in grid.terrains if t.label]
    return terrains, [name for name, look in looks.items() if look.label and name in used]
