"""Grids as data: a square or hex grid of cells with coordinates, terrain per cell, hexsides
(rivers, walls: a styled side between two cells), paths (roads, railways: lines through cell
centres) and a legend, as a designer writes them in a spec or a spreadsheet.

The model knows nothing of boards: a board holds grids (``grids:``), and another kind may
hold one too. Where the cells lie is ``gridgeometry``, how they are named ``gridcells``, what
the rows of cells, hexsides and paths mean and what is wrong with them ``gridplan``; the art
stage draws a grid (``art/hexgrid``)."""

from __future__ import annotations

import difflib
from typing import Annotated, Any, Literal, get_args

from pydantic import BeforeValidator, ConfigDict, Field, model_validator

from generator.model.fields import Colour, Hex, Point, Slug, StrictModel, TemplateName, Text
from generator.model.gridcells import Naming, Scheme
from generator.model.gridgeometry import Cell, Geometry

PT = 25.4 / 72  # one point in mm
MIN_TEXT = round(6 * PT, 4)  # 6 pt: no text of a grid is smaller
MAX_CELLS = 99  # columns or rows of a grid
# the stock fill patterns a terrain may name (drawn once each by art/hexgrid)
PATTERNS = ("dots", "hatching", "lines", "crosshatch", "waves", "grass")


def _choice(what: str, values: tuple[str, ...]) -> BeforeValidator:
    """A validator: a word that must be one of ``values``, refused with the one it is
    closest to (a typo of a Literal gets no hint from pydantic)."""

    def check(value: Any) -> Any:
        if isinstance(value, str) and value not in values:
            close = difflib.get_close_matches(value.lower(), values, n=1, cutoff=0.6)
            hint = f"did you mean '{close[0]}'? " if close else ""
            raise ValueError(f"'{value}' is not a {what}; {hint}write one of: {', '.join(values)}")
        return value

    return BeforeValidator(check)


SCHEMES: tuple[str, ...] = get_args(Scheme)
Place = Literal[
    "top",
    "bottom",
    "centre",
    "left",
    "right",
    "top-left",
    "top-right",
    "bottom-left",
    "bottom-right",
    "none",
]
POSITIONS: tuple[str, ...] = get_args(Place)
Position = Annotated[Place, _choice("position in a cell", POSITIONS)]
Layout = Annotated[
    Literal["square", "hex-flat", "hex-pointy"],
    _choice("layout", ("square", "hex-flat", "hex-pointy")),
]
Offset = Annotated[Literal["even", "odd"], _choice("offset", ("even", "odd"))]


def _written(value: Any) -> Any:
    """A cell id as a spreadsheet or YAML gives it: a number (``0101`` saved as 101) as its
    digits, a list of them as a list of texts."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return [str(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in value]
    return value


CellList = Annotated[
    str | list[str],
    BeforeValidator(_written, json_schema_input_type=str | int | list[str | int]),
    Field(
        description="cells: an id ('0101', 'A1'), a range ('0101-0105': the rectangle between "
        "two corners), 'row 3', 'col 2', 'rows 2-4', '*' for every cell; several separated by "
        "spaces or commas"
    ),
]


class Coords(StrictModel):
    """How each cell is named and what coordinate it prints."""

    scheme: Annotated[Scheme, _choice("coordinate scheme", SCHEMES)] = Field(
        default="wargame",
        description="wargame (0101: column then row, leading zeros), letters (A1: column "
        "letters, row number), numbers (1, 2, 3 ... row by row), none (cells named col-row, "
        "e.g. 3-2, nothing printed)",
    )
    at: Position = Field(
        default="top",
        description="where in the cell it prints: top, bottom, centre, left, right, top-left, "
        "top-right, bottom-left, bottom-right, or none (named, not printed)",
    )
    size: float | None = Field(
        default=None,
        ge=MIN_TEXT,
        le=60,
        description=f"font size in mm, at least {MIN_TEXT:g} (6 pt); default: from the cell's size",
    )
    colour: Hex | None = Field(
        default=None, description="the text's colour; default: dark or light, to stand out"
    )
    start: int = Field(
        default=1, ge=0, le=999, description="the first column's and row's number (or cell's)"
    )


def coords_scheme(value: Any) -> Any:
    """``coords: wargame`` is ``coords: {scheme: wargame}``."""
    return {"scheme": value} if isinstance(value, str) else value


class Terrain(StrictModel):
    """A kind of cell and how it looks: a fill colour, a pattern over it, an icon in it, or
    a template that draws it."""

    name: Slug
    label: Text | None = Field(default=None, description="its name in the legend")
    fill: Colour = Field(default="#ffffff", description="the cells' colour")
    pattern: str | None = Field(
        default=None, description=f"a stock pattern over the fill: {', '.join(PATTERNS)}"
    )
    pattern_colour: Hex | None = Field(
        default=None, description="the pattern's colour; default: the fill, darker"
    )
    icon: str | None = Field(
        default=None, description="an icon in each cell, by the board's icons template"
    )
    icon_size: float | None = Field(
        default=None, gt=0, le=200, description="the icon's size in mm; default: from the cell"
    )
    template: TemplateName | None = Field(
        default=None,
        description="a template whose macro cell(c) draws the cell's art centred on (0, 0) "
        "(c.terrain, c.w, c.h in mm, c.shape), clipped to the cell",
    )


class LineLook(StrictModel):
    """How a hexside or path is drawn: a stock style changed, or a style of its own."""

    name: Slug = Field(
        description="the style's name; a stock one (river, stream, wall, cliff, border, road, "
        "rail, trail) keeps what is not given here"
    )
    label: Text | None = Field(default=None, description="its name in the legend")
    colour: Hex = Field(default="#333333", description="the line's colour")
    width: float = Field(default=1.0, gt=0, le=10, description="the line's width in mm")
    casing: Hex | None = Field(
        default=None, description="a darker edge along both sides (a road's), its colour"
    )
    dash: Literal["solid", "dashed", "dotted"] = Field(
        default="solid", description="solid, dashed or dotted"
    )
    ticks: Literal["none", "ties", "teeth"] = Field(
        default="none",
        description="ties across it (a railway), or teeth on one side (a cliff: towards the "
        "second cell)",
    )


STOCK_LINES = {
    "river": LineLook(name="river", colour="#2f6fb3", width=1.6),
    "stream": LineLook(name="stream", colour="#4a8fd0", width=0.8),
    "wall": LineLook(name="wall", colour="#4a4a4a", width=1.2),
    "cliff": LineLook(name="cliff", colour="#6b4423", width=0.8, ticks="teeth"),
    "border": LineLook(name="border", colour="#b0302c", width=0.7, dash="dashed"),
    "road": LineLook(name="road", colour="#e9c98a", width=1.1, casing="#7a5524"),
    "rail": LineLook(name="rail", colour="#222222", width=0.45, ticks="ties"),
    "trail": LineLook(name="trail", colour="#7a5524", width=0.6, dash="dashed"),
}


class CellRow(StrictModel):
    """A row of the cells table: what terrain some cells are, or what one cell prints."""

    cell: CellList
    terrain: str | None = Field(default=None, description="the terrain of these cells")
    label: Text | None = Field(default=None, description="a name printed in the cell (a town)")
    icon: str | None = Field(default=None, description="an icon drawn in the cell")


class HexsideRow(StrictModel):
    """A styled side of a cell (a river, a wall): between a cell and a neighbour (``to``),
    or on the side of the cell that faces a compass point (``side``)."""

    cell: CellList = Field(description="the cell, e.g. '0304'")
    to: CellList | None = Field(
        default=None, description="its neighbour(s) across the side, e.g. '0404 0405'"
    )
    side: str | None = Field(
        default=None,
        description="or compass points: N NE SE S SW NW (flat-top), NE E SE SW W NW "
        "(pointy-top), N E S W (squares); several separated by spaces",
    )
    style: str = Field(description="a line style: river, stream, wall, cliff, border ...")


class PathRow(StrictModel):
    """A line through the centres of neighbouring cells: a road, a railway."""

    cells: CellList = Field(description="the cells it runs through, in order")
    style: str = Field(description="a line style: road, rail, trail ...")


class Legend(StrictModel):
    """A key to the map: each terrain and line style that has a label, with its look."""

    at: Point = Field(description="its top-left corner, [x, y] mm")
    title: Text | None = Field(default=None, description="a heading above it")
    size: float = Field(default=3.2, ge=MIN_TEXT, le=20, description="font size in mm")
    swatch: float = Field(default=8.0, gt=0, le=60, description="a swatch's size in mm")
    columns: int = Field(default=1, ge=1, le=10, description="entries side by side")


class DataFile(StrictModel):
    """Rows read from a data file (``{from: terrain.csv}``): CSV, TSV, Excel .xlsx,
    OpenDocument .ods, JSON or YAML; what the spec holds once the loader has read it is the
    rows (``griddata``). Named as ``pnp schema`` names the entries' data files."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: str = Field(alias="from", min_length=1, description="the data file, in the game")
    sheet: str | None = Field(default=None, description="the sheet of a workbook (default: first)")


def _same(rows: Any) -> Any:
    """Rows as they are: ``{from: file}`` was read before validation (``griddata``), so only
    the schema sees that form."""
    return rows


CellRows = Annotated[
    list[CellRow], BeforeValidator(_same, json_schema_input_type=list[CellRow] | DataFile)
]
HexsideRows = Annotated[
    list[HexsideRow], BeforeValidator(_same, json_schema_input_type=list[HexsideRow] | DataFile)
]
PathRows = Annotated[
    list[PathRow], BeforeValidator(_same, json_schema_input_type=list[PathRow] | DataFile)
]


class Grid(StrictModel):
    """Cells in a square or hex layout, named ``{prefix}-{id}`` as places of the board."""

    prefix: Slug = Field(description="the name of the grid; its cells are '{prefix}-{id}'")
    layout: Layout = Field(
        description="the cells' shape: square, hex-flat (flat top) or hex-pointy (pointy top)"
    )
    origin: Point = Field(description="the top-left corner of the first cell's box, [x, y] mm")
    size: float | None = Field(
        default=None, gt=0, le=300, description="a square's side, or a hex's width across flats"
    )
    side: float | None = Field(
        default=None, gt=0, le=200, description="or a hex's side (centre to corner), mm"
    )
    cols: int = Field(ge=1, le=MAX_CELLS, description="cells across")
    rows: int = Field(ge=1, le=MAX_CELLS, description="cells down")
    offset: Offset = Field(
        default="even",
        description="which columns (flat-top) or rows (pointy-top) are pushed half a hex: "
        "even (the 2nd, 4th ...) or odd (the 1st, 3rd ...)",
    )
    group: Slug | None = Field(default=None, description="the group its cells belong to")
    coords: Annotated[
        Coords, BeforeValidator(coords_scheme, json_schema_input_type=Scheme | Coords)
    ] = Field(
        default_factory=lambda: Coords(scheme="none"),
        description="the cells' names and printed coordinates: a scheme, or {scheme, at, "
        "size, colour, start}",
    )
    fill: Colour | None = Field(
        default=None, description="the colour of cells without a terrain; default: its group's"
    )
    line_colour: Hex = Field(default="#333333", description="the colour of the cells' outlines")
    line_width: float = Field(
        default=0.35, ge=0, le=3, description="the outlines' width in mm (0: none)"
    )
    terrain: str | None = Field(
        default=None, description="the terrain of every cell the cells table does not list"
    )
    terrains: list[Terrain] = Field(default_factory=list, description="the kinds of cell")
    cells: CellRows = Field(
        default_factory=list,
        description="terrain, labels and icons of cells: a list, or {from: file.csv} with "
        "columns cell, terrain, label, icon",
    )
    hexsides: HexsideRows = Field(
        default_factory=list,
        description="styled sides: a list, or {from: file.csv} with columns cell, to, side, style",
    )
    paths: PathRows = Field(
        default_factory=list,
        description="lines through cell centres: a list, or {from: file.csv} with columns "
        "cells, style",
    )
    lines: list[LineLook] = Field(
        default_factory=list, description="line styles of hexsides and paths, or changes to stock"
    )
    legend: Legend | None = Field(default=None, description="a key to the terrains and lines")

    @model_validator(mode="after")
    def _sized(self) -> Grid:
        if (self.size is None) == (self.side is None):
            raise ValueError(
                f"grid '{self.prefix}' needs its cells' size: 'size' (a square's side or a "
                "hex's width across flats) or 'side' (a hex's side), one of them"
            )
        if self.side is not None and self.layout == "square":
            raise ValueError(f"grid '{self.prefix}' is square: give 'size' (its side), not 'side'")
        return self

    @property
    def across(self) -> float:
        """A cell's width across its flats (a square's side)."""
        return self.size if self.size is not None else (self.side or 0.0) * 3**0.5

    def geometry(self) -> Geometry:
        """Where its cells lie."""
        return Geometry(self.layout, self.across, self.cols, self.rows, self.origin, self.offset)

    def naming(self) -> Naming:
        """How its cells are named."""
        return Naming(self.coords.scheme, self.cols, self.rows, self.coords.start)

    def place_names(self) -> list[str]:
        """Every cell's place name, row by row."""
        naming = self.naming()
        return [naming.place(self.prefix, cell) for cell in self.geometry().cells()]

    def places(self) -> dict[str, Cell]:
        """Every cell by its place name."""
        naming = self.naming()
        return {naming.place(self.prefix, cell): cell for cell in self.geometry().cells()}

    def line_looks(self) -> dict[str, LineLook]:
        """The line styles hexsides and paths may name: the stock ones, as changed here, and
        the grid's own."""
        looks = dict(STOCK_LINES)
        for look in self.lines:
            stock = looks.get(look.name)
            changed = {k: getattr(look, k) for k in look.model_fields_set}
            looks[look.name] = stock.model_copy(update=changed) if stock else look
        return looks
