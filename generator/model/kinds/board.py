"""``kind: board``: a board, player display or tray described by its regions, spaces, rows,
tracks, tables, icons, labels and connections, in millimetres from its top-left corner."""

from __future__ import annotations

import fnmatch
import math
import re
from collections import Counter
from typing import ClassVar, Literal

from pydantic import ConfigDict, Field, model_validator

from generator.model.component import ComponentBase
from generator.model.entries import DesignRow
from generator.model.fields import (
    CardSize,
    Colour,
    LineStyle,
    Point,
    Series,
    Size,
    Slug,
    StrictModel,
    TemplateName,
    Text,
)
from generator.model.game import PlayerColour
from generator.model.gridplan import plan
from generator.model.grids import Grid

LABEL_ICON = re.compile(r":([a-z0-9][a-z0-9-]*):")  # an icon code in a label's text
MAX_BOARD_ITEMS = 5000  # places, connections, labels and icons drawn on one board
STOCK_ICONS = "icons.svg.j2"  # the icons a grid's terrains are drawn with if a board names none

# --- boards ---------------------------------------------------------------------------------
# Board coordinates are millimetres from the board's top-left corner, x right and y down, as
# in SVG and as a designer measures a board lying in front of them.


class BoardGroup(StrictModel):
    """An area: regions shaded alike (e.g. the three regions that share a Support circle)."""

    name: Slug
    label: Text | None = Field(default=None, description="the name printed on the board's legend")
    fill: Colour = Field(default="#eeeeee", description="the shade of its regions")


class BoardRegion(StrictModel):
    """A named region of the map: a polygon, shaded by its group."""

    name: Slug
    label: Text | None = Field(default=None, description="text printed in the region")
    group: Slug | None = Field(default=None, description="the group (area) it belongs to")
    polygon: list[Point] = Field(
        min_length=3, description="its corners, [x, y] mm from the board's top-left corner"
    )
    label_at: Point | None = Field(default=None, description="default: the polygon's centre")
    anchor: Point | None = Field(
        default=None, description="where lines and arrows meet the region; default: label_at"
    )
    label_size: float = Field(default=4.2, gt=0, le=60, description="font size in mm")
    label_colour: Colour = Field(default="#333333", description="colour of its label")
    fill: Colour | None = Field(default=None, description="its shade; default: its group's")
    tags: list[Slug] = Field(default_factory=list, description="e.g. dock, workshop")


class BoardSpace(StrictModel):
    """A space pieces are placed on: a circle or square at a point."""

    name: Slug
    shape: Literal["circle", "square"] = Field(default="circle", description="circle or square")
    at: Point
    size: float = Field(default=12.0, gt=0, le=200, description="diameter or side in mm")
    h: float | None = Field(
        default=None, gt=0, le=400, description="a square's height: a rectangle"
    )
    style: LineStyle = Field(
        default="solid", description="its outline: solid, dashed, dotted or double"
    )
    label: Text | None = Field(default=None, description="text printed with the space")
    label_pos: Literal["inside", "above", "below"] = Field(
        default="inside", description="where the label goes: inside, above or below the space"
    )
    label_size: float | None = Field(default=None, gt=0, le=60, description="mm")
    fill: Colour = Field(default="#ffffff", description="its colour")
    icon: str | None = Field(default=None, description="an icon drawn in it, by the icons macro")
    group: Slug | None = Field(default=None, description="the group it is counted under")


class SpaceRow(StrictModel):
    """Spaces placed evenly along a straight line or a polyline path."""

    name: Slug = Field(description="each space is named '{name}-{n}' with n from 1")
    path: list[Point] = Field(min_length=2, description="the line's points, [x, y] mm")
    count: int = Field(ge=1, le=500, description="how many spaces along it")
    shape: Literal["circle", "square"] = Field(default="square", description="circle or square")
    size: float = Field(default=12.0, gt=0, le=200, description="diameter or side in mm")
    style: LineStyle = Field(
        default="solid", description="their outline: solid, dashed, dotted or double"
    )
    labels: list[Text] | None = Field(default=None, description="one label per space")
    fill: Colour = Field(default="#ffffff", description="their colour")
    group: Slug | None = Field(default=None, description="the group its spaces are counted under")


class Track(StrictModel):
    """Numbered spaces along a line (or around the board's edge with ``around``)."""

    name: Slug
    values: Series
    path: list[Point] | None = Field(
        default=None, min_length=2, description="the line its spaces follow, [x, y] mm"
    )
    around: float | None = Field(default=None, ge=0, description="inset from the board edge")
    size: float = Field(default=12.0, gt=0, le=100, description="a space's diameter or side, mm")
    shape: Literal["circle", "square"] = Field(default="square", description="circle or square")
    fill: Colour = Field(default="#ffffff", description="the spaces' colour")
    count: int | None = Field(default=None, description="how many spaces the track must have")
    marks: dict[int, str] = Field(default_factory=dict, description="value → icon name")

    @model_validator(mode="after")
    def _placed(self) -> Track:
        if (self.path is None) == (self.around is None):
            raise ValueError(f"track '{self.name}' needs either a path or 'around'")
        if self.count is not None and self.count != len(self.values):
            raise ValueError(
                f"track '{self.name}' claims {self.count} spaces but its values make "
                f"{len(self.values)}"
            )
        missing = [v for v in self.marks if v not in self.values]
        if missing:
            raise ValueError(f"track '{self.name}' marks values it does not have: {missing}")
        return self


class BoardTable(StrictModel):
    """A table printed on the board: a header row and rows of text cells."""

    name: Slug
    at: Point
    widths: list[float] = Field(min_length=1, description="column widths in mm")
    row_height: float = Field(default=8.0, gt=0, description="mm")
    header: list[Text] | None = Field(default=None, description="the header row's cells")
    rows: list[list[Text]] = Field(min_length=1, description="the rows, one text per cell")
    font_size: float = Field(default=3.0, gt=0, le=30, description="mm")
    align: Literal["start", "middle"] = Field(
        default="middle", description="cell text at the start (left) or in the middle"
    )
    fill: Colour = Field(default="#ffffff", description="the cells' colour")
    header_fill: Colour = Field(default="#dddddd", description="the header row's colour")

    @model_validator(mode="after")
    def _columns(self) -> BoardTable:
        for i, row in enumerate([*(r for r in [self.header] if r), *self.rows]):
            if len(row) != len(self.widths):
                raise ValueError(
                    f"table '{self.name}' row {i + 1} has {len(row)} cells for "
                    f"{len(self.widths)} columns"
                )
        return self


class BoardIcon(StrictModel):
    """An icon from the game's icon macros, optionally with an arrow to a region."""

    icon: str = Field(description="the icon's name, drawn by the board's icons macro")
    at: Point
    size: float = Field(default=10.0, gt=0, le=200, description="mm")
    points_to: Slug | None = Field(default=None, description="a region an arrow points to")


class BoardLabel(StrictModel):
    """Free text on the board."""

    text: Text = Field(description="the words printed")
    at: Point
    size: float = Field(default=4.0, gt=0, le=60, description="font size in mm")
    anchor: Literal["start", "middle", "end"] = Field(
        default="middle", description="which part of the text stands at 'at': start, middle, end"
    )
    bold: bool = Field(default=False, description="bold type")
    rotate: float = Field(default=0.0, description="degrees clockwise about 'at'")
    colour: Colour = Field(default="#222222", description="the text's colour")
    width: float | None = Field(default=None, gt=0, description="wrap lines to this width, mm")


class Connection(StrictModel):
    """A line between two spaces or regions (or off the board to a point)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: Slug = Field(alias="from")
    to: Slug | None = Field(default=None, description="the space or region it leads to")
    to_point: Point | None = Field(default=None, description="or a point it leads to, [x, y] mm")
    via: list[Point] = Field(default_factory=list, description="points it bends through")
    style: LineStyle = Field(default="dashed", description="solid, dashed, dotted or double")
    end: Literal["none", "square", "arrow"] = Field(
        default="none", description="what its far end carries: none, square or arrow"
    )

    @model_validator(mode="after")
    def _target(self) -> Connection:
        if (self.to is None) == (self.to_point is None):
            raise ValueError("a connection needs either 'to' (a name) or 'to_point'")
        return self


class BoardSpec(ComponentBase):
    """A board, player display or tray described by its spaces, drawn with svgwrite and
    tiled across pages when it is larger than the paper."""

    kind: Literal["board"] = Field(description="what this file describes: board")
    size: CardSize
    bleed: float = Field(default=0.0, ge=0, le=10, description="bleed in mm (art beyond trim)")
    background: Colour = Field(default="#ffffff", description="the board's colour")
    border: float = Field(default=0.6, ge=0, le=5, description="outline width in mm")
    copies: int = Field(default=1, ge=1, le=20, description="identical boards to print")
    icons: TemplateName | None = Field(
        default=None, description="template with a macro icon(name) drawing a 20 x 20 icon"
    )
    groups: list[BoardGroup] = Field(
        default_factory=list, description="areas: regions shaded alike"
    )
    regions: list[BoardRegion] = Field(default_factory=list, description="named polygons")
    grids: list[Grid] = Field(
        default_factory=list,
        description="square or hex grids of cells: maps with coordinates, terrain, hexsides, "
        "paths and a legend, or tracks of numbered cells",
    )
    spaces: list[BoardSpace] = Field(
        default_factory=list, description="circles or squares at points"
    )
    rows: list[SpaceRow] = Field(default_factory=list, description="spaces spread along a path")
    tracks: list[Track] = Field(default_factory=list, description="numbered spaces along a path")
    tables: list[BoardTable] = Field(default_factory=list, description="tables of text")
    icons_at: list[BoardIcon] = Field(default_factory=list, description="icons placed on it")
    labels: list[BoardLabel] = Field(default_factory=list, description="free text")
    connections: list[Connection] = Field(
        default_factory=list, description="lines between spaces and regions"
    )

    noun: ClassVar[str] = "board"
    default_stock: ClassVar[str] = "paper"
    shop: ClassVar[bool] = True

    def icon_template(self) -> str | None:
        """The template that draws the board's icons: its own, else the stock icons when
        anything on it names an icon (a grid's terrains or cells, a space, a track's marks,
        an icon placed on it, or a label's ``:icon:`` code, which would else print as text)."""
        named = [t.icon for g in self.grids for t in g.terrains] + [
            c.icon for g in self.grids for c in g.cells
        ]
        named += [s.icon for s in self.spaces] + [i.icon for i in self.icons_at]
        named += [m for t in self.tracks for m in t.marks.values()]
        named += [c for label in self.labels for c in LABEL_ICON.findall(label.text)]
        return self.icons or (STOCK_ICONS if any(named) else None)

    def footprint(self) -> tuple[Size, bool] | None:
        """A small board (a tile, a tray) covers its size."""
        return self.size, False

    def resolve(self, ref: str) -> list[str]:
        """The places a reference names: a place itself; every space of a row, track or grid
        by its name; every member of a group by the group's name; names matching a pattern
        with ``*``. None when it names nothing."""
        names = self.names()
        if "*" in ref:
            return [n for n in names if fnmatch.fnmatchcase(n, ref.lower())]
        if ref not in names and ref.lower() in names:  # a cell as its grid prints it: map-A1
            ref = ref.lower()
        if ref in names:
            return [ref]
        for row in self.rows:
            if row.name == ref:
                return [f"{row.name}-{n}" for n in range(1, row.count + 1)]
        for track in self.tracks:
            if track.name == ref:
                return [f"{track.name}-{v}" for v in track.values]
        for grid in self.grids:
            if grid.prefix == ref:
                return grid.place_names()
        return self._members(ref)

    def _members(self, group: str) -> list[str]:
        """The places of a group: its regions and spaces, and the spaces of its rows and
        grids."""
        found = [r.name for r in self.regions if r.group == group]
        found += [s.name for s in self.spaces if s.group == group]
        for row in self.rows:
            if row.group == group:
                found += [f"{row.name}-{n}" for n in range(1, row.count + 1)]
        for grid in self.grids:
            if grid.group == group:
                found += grid.place_names()
        return found

    def design_rows(self, name: str, colours: list[PlayerColour]) -> list[DesignRow]:
        """One design, the whole board, printed ``copies`` times."""
        return [DesignRow(None, 0, name, self.copies, {}, ())]

    def counts(self) -> Counter[str]:
        """What a board holds, for ``expect:``: its regions, the members of each group, the
        spaces of each row and track, the cells of each grid (``map``) and of each of its
        terrains (``map-forest``), and its spaces, tables and connections."""
        counts: Counter[str] = Counter()
        counts["regions"] = len(self.regions) + sum(g.cols * g.rows for g in self.grids)
        grouped: list[BoardRegion | BoardSpace] = [*self.regions, *self.spaces]
        for item in grouped:
            if item.group:
                counts[item.group] += 1
        for grid in self.grids:
            if grid.group:
                counts[grid.group] += grid.cols * grid.rows
            counts[grid.prefix] += grid.cols * grid.rows
            for terrain in plan(grid)[0].terrain.values():
                counts[f"{grid.prefix}-{terrain}"] += 1
        for row in self.rows:
            counts[row.name] += row.count
            if row.group:
                counts[row.group] += row.count
        for track in self.tracks:
            counts[track.name] += len(track.values)
        counts["spaces"] = len(self.spaces)
        counts["tables"] = len(self.tables)
        counts["connections"] = len(self.connections)
        return +counts

    def problems(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Structural mistakes, each with where it is in the spec: a name used twice, a
        reference to something not on the board, a group that does not exist.

        Places (regions, spaces, and the spaces grids, rows and tracks make) share one set of
        names; groups, rows and tables are named apart. A track may be given in segments under
        one name as long as their values do not repeat."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        places = sum(g.cols * g.rows for g in self.grids) + len(self.regions) + len(self.spaces)
        places += sum(r.count for r in self.rows) + sum(len(t.values) for t in self.tracks)
        drawn = places + len(self.connections) + len(self.labels) + len(self.icons_at)
        drawn += sum(len(g.hexsides) + len(g.paths) for g in self.grids)
        if drawn > MAX_BOARD_ITEMS:
            key = "grids" if self.grids else "regions"
            return [
                (
                    (key,),
                    f"the board holds {drawn:,} places, connections, labels and icons; a board "
                    f"may hold {MAX_BOARD_ITEMS:,} (split it into several boards)",
                )
            ]
        for named in (self._named(), *self._lists("groups", "rows", "tables")):
            seen: set[str] = set()
            for loc, name in named:
                if name in seen:
                    out.append((loc, f"the name '{name}' is used twice on this board; rename one"))
                seen.add(name)
        groups = {g.name for g in self.groups}
        for key in ("regions", "grids", "spaces", "rows"):
            for i, item in enumerate(getattr(self, key)):
                if item.group and item.group not in groups:
                    out.append(
                        (
                            (key, i, "group"),
                            f"group '{item.group}' is not among the "
                            f"board's groups: {', '.join(sorted(groups)) or 'none'}",
                        )
                    )
        names = set(self.names())
        for i, c in enumerate(self.connections):
            for end, key in ((c.from_, "from"), (c.to, "to")):
                if end and end not in names:
                    out.append(
                        (("connections", i, key), f"no space or region named '{end}' on this board")
                    )
        out += self._around_problems()
        out += self._grid_problems()
        for i, icon in enumerate(self.icons_at):
            if icon.points_to and icon.points_to not in names:
                out.append(
                    (
                        ("icons_at", i, "points_to"),
                        f"icon '{icon.icon}' points to "
                        f"'{icon.points_to}', which is not on this board",
                    )
                )
        return out

    def _grid_problems(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Each grid's own mistakes: its cells, terrains, hexsides and paths, at their rows.
        (A grid may reach past the board's edge: a map's hexes cut by its edge.)"""
        out: list[tuple[tuple[str | int, ...], str]] = []
        for i, grid in enumerate(self.grids):
            out += [(("grids", i, *loc), message) for loc, message in plan(grid)[1]]
        return out

    def _around_problems(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Tracks around the edge whose spaces would overlap (the board too small for them)."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        for i, track in enumerate(self.tracks):
            if track.around is None:
                continue
            gap = around_gap(self.size.w, self.size.h, track.around + track.size / 2, track)
            if gap < track.size - 1e-6:
                out.append(
                    (
                        ("tracks", i, "size"),
                        f"track '{track.name}': {len(track.values)} spaces of {track.size:g} mm "
                        f"around a {self.size.w:g} x {self.size.h:g} mm board are only "
                        f"{gap:.1f} mm apart, so they overlap; make them at most "
                        f"{math.floor(gap * 10) / 10:g} mm (size:), fewer, or the board larger",
                    )
                )
        return out

    def _named(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every place on the board, with where it is given: regions, spaces, and the spaces
        that grids, rows and tracks make."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        for key in ("regions", "spaces"):
            out += [((key, i, "name"), item.name) for i, item in enumerate(getattr(self, key))]
        for i, grid in enumerate(self.grids):
            out += [(("grids", i), n) for n in grid.place_names()]
        for i, row in enumerate(self.rows):
            out += [(("rows", i), f"{row.name}-{n}") for n in range(1, row.count + 1)]
        for i, track in enumerate(self.tracks):
            out += [(("tracks", i), f"{track.name}-{v}") for v in track.values]
        return out

    def _lists(self, *keys: str) -> list[list[tuple[tuple[str | int, ...], str]]]:
        return [
            [((key, i, "name"), item.name) for i, item in enumerate(getattr(self, key))]
            for key in keys
        ]

    def names(self) -> list[str]:
        """Every named thing on the board: regions, spaces, row and track spaces."""
        out = [r.name for r in self.regions] + [s.name for s in self.spaces]
        for grid in self.grids:
            out += grid.place_names()
        for row in self.rows:
            out += [f"{row.name}-{n}" for n in range(1, row.count + 1)]
        for track in self.tracks:
            out += [f"{track.name}-{v}" for v in track.values]
        return out


def around_sides(w: float, h: float, inset: float, count: int) -> list[int]:
    """How many steps of a track ``count`` spaces long each side of the loop ``inset`` in
    from a ``w`` x ``h`` board takes (top, right, bottom, left): a space on every corner, the
    steps shared by the sides' lengths (largest remainder), at least one each."""
    sides = [w - 2 * inset, h - 2 * inset] * 2
    total = sum(sides)
    if count < 4 or total <= 0:
        return []
    shares = [count * side / total for side in sides]
    steps = [max(1, math.floor(share)) for share in shares]
    by_remainder = sorted(range(4), key=lambda i: shares[i] - math.floor(shares[i]), reverse=True)
    for i in by_remainder[: max(0, count - sum(steps))]:
        steps[i] += 1
    while sum(steps) > count:  # sides that took their one step past their share
        steps[max(range(4), key=lambda i: steps[i])] -= 1
    return steps


def around_gap(w: float, h: float, inset: float, track: Track) -> float:
    """The shortest distance between two neighbouring spaces of a track around the edge."""
    count = len(track.values)
    steps = around_sides(w, h, inset, count)
    if not steps:
        return 2 * (w + h - 4 * inset) / max(count, 1)
    sides = [w - 2 * inset, h - 2 * inset] * 2
    return min(side / n for side, n in zip(sides, steps, strict=True))
