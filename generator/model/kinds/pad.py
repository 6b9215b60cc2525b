"""``kind: pad``: a roll-and-write score or play sheet, printed several to a page (2-up,
4-up ... as many as fit the paper, or as many as the spec says), single-sided unless it has a
``back``. Its pieces are data: rows of boxes or circles to tick, numbered tracks, dice faces,
write-in lines, text, tables and small grid maps, stacked down the sheet or side by side."""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from generator.model.component import ComponentBase
from generator.model.entries import DesignRow
from generator.model.fields import CardSize, Colour, Series, StrictModel, TemplateName, Text
from generator.model.game import PlayerColour
from generator.model.gridplan import plan
from generator.model.grids import (
    CellRow,
    Coords,
    Grid,
    HexsideRow,
    LineLook,
    Offset,
    PathRow,
    Terrain,
    coords_scheme,
)

MAX_ELEMENTS = 200  # elements of one side of a pad, rows' own included
MAX_BOXES = 200  # boxes in one row of boxes, or values of one track
MAX_UP = 32  # sheets to a page
KINDS = ("text", "write", "boxes", "track", "dice", "table", "grid", "row", "stack", "space")
MAX_NESTING = 4  # rows and stacks inside one another


def _numbers(value: Any) -> Any:
    """What the boxes show: '2-12' → ['2', ..., '12'] ('12-2' counts down); a list of numbers
    or words as text."""
    if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*[-–]\s*\d+\s*", value):
        first, last = (int(v) for v in re.split(r"[-–]", value))
        if abs(last - first) >= MAX_BOXES:
            raise ValueError(f"'{value}' gives more than {MAX_BOXES} numbers")
        step = 1 if last >= first else -1
        return [str(v) for v in range(first, last + step, step)]
    if isinstance(value, list):
        return [v if isinstance(v, str) else str(v) for v in value]
    return value


Numbers = Annotated[
    list[Text], BeforeValidator(_numbers, json_schema_input_type=str | list[str | int])
]


class PadTable(StrictModel):
    """A table to fill in: a header row and rows of cells, a blank cell for writing in."""

    header: list[Text] | None = Field(default=None, description="the header row's cells")
    rows: list[list[Text]] = Field(
        min_length=1, max_length=60, description="the rows, one text per cell ('' to write in)"
    )
    widths: list[float] | None = Field(default=None, description="relative column widths")
    row_height: float = Field(default=7.0, ge=4, le=40, description="mm")

    @model_validator(mode="after")
    def _shape(self) -> PadTable:
        width = len(self.header or self.rows[0])
        for i, row in enumerate([*(r for r in [self.header] if r), *self.rows]):
            if len(row) != width:
                raise ValueError(f"table row {i + 1} has {len(row)} cells, not {width}")
        if self.widths and (len(self.widths) != width or min(self.widths) <= 0):
            raise ValueError(f"a table with {width} columns needs {width} widths above 0")
        return self


class PadGrid(StrictModel):
    """A small map to draw on: a grid of square or hex cells, drawn by the board's grid
    module, so it takes coordinates in every scheme, terrain, hexsides and paths as a board's
    grid does (written in the spec: a pad has no data files)."""

    cols: int = Field(ge=1, le=40, description="columns")
    rows: int = Field(ge=1, le=40, description="rows")
    layout: Literal["square", "hex-flat", "hex-pointy"] = Field(
        default="square", description="square cells, or hexagons flat or pointy on top"
    )
    cell: float | None = Field(
        default=None,
        ge=3,
        le=60,
        description="a cell's side, or a hexagon's width across the flats, in mm "
        "(default: as large as the room allows)",
    )
    offset: Offset = Field(default="even", description="as a board's grid: which are pushed")
    coords: bool | Annotated[Coords, BeforeValidator(coords_scheme)] = Field(
        default=False,
        description="true: letters along the top and numbers down the left of square cells "
        "(A1); or a scheme printed in each cell as on a board (wargame, letters, numbers, "
        "or {scheme, at, size})",
    )
    terrain: str | None = Field(default=None, description="as a board's grid")
    terrains: list[Terrain] = Field(default_factory=list, description="as a board's grid")
    cells: list[CellRow] = Field(default_factory=list, description="as a board's grid")
    hexsides: list[HexsideRow] = Field(default_factory=list, description="as a board's grid")
    paths: list[PathRow] = Field(default_factory=list, description="as a board's grid")
    lines: list[LineLook] = Field(default_factory=list, description="as a board's grid")

    @property
    def mapped(self) -> bool:
        """Whether it is more than plain cells: drawn by the board's grid module."""
        return isinstance(self.coords, Coords) or bool(
            self.terrain or self.terrains or self.cells or self.hexsides or self.paths
        )

    def as_grid(
        self, origin: tuple[float, float], cell: float, ink: str, fill: str, line: float = 0.3
    ) -> Grid:
        """The board grid it is, at ``origin`` with cells of ``cell`` mm, outlined ``line``
        mm wide in ``ink``."""
        coords = self.coords if isinstance(self.coords, Coords) else Coords(scheme="none")
        return Grid(
            prefix="pad",
            layout=self.layout,
            origin=origin,
            size=cell,
            cols=self.cols,
            rows=self.rows,
            offset=self.offset,
            coords=coords,
            fill=fill,
            line_colour=ink if ink != "none" else "#333333",  # a style's ink may be 'none'
            line_width=line,
            terrain=self.terrain,
            terrains=self.terrains,
            cells=self.cells,
            hexsides=self.hexsides,
            paths=self.paths,
            lines=self.lines,
        )

    @model_validator(mode="after")
    def _planned(self) -> PadGrid:
        if self.mapped:
            # cells of the largest size when not given: the drawing measures the fit at its size
            largest = self.cell or 60.0
            problems = plan(self.as_grid((0.0, 0.0), largest, "#333333", "#ffffff"))[1]
            if problems:
                raise ValueError(problems[0][1])
        return self


class PadElement(StrictModel):
    """One piece of a pad: exactly one of text, write, boxes, track, dice, table, grid, row,
    stack or space, with how it looks."""

    text: Text | None = Field(default=None, description="a paragraph (**bold**, :icon:)")
    write: Text | list[Text] | None = Field(
        default=None,
        description="a line to write on after each label, side by side: 'Name' or [Name, Score]",
    )
    boxes: int | None = Field(
        default=None, ge=1, le=MAX_BOXES, description="a row of this many boxes to tick or fill"
    )
    track: Series | None = Field(
        default=None, description="a numbered track: a box per value, e.g. 0-30"
    )
    dice: list[Annotated[int, Field(ge=1, le=6)]] | None = Field(
        default=None, max_length=30, description="die faces drawn as pips, e.g. [1, 2, 3]"
    )
    table: PadTable | None = Field(default=None, description="a table to fill in")
    grid: PadGrid | None = Field(default=None, description="a small map of square or hex cells")
    row: list[PadElement] | None = Field(
        default=None, min_length=1, max_length=8, description="elements side by side"
    )
    stack: list[PadElement] | None = Field(
        default=None,
        min_length=1,
        max_length=60,
        description="elements one under another, as one element (a column of a row)",
    )
    space: float | None = Field(default=None, gt=0, le=200, description="empty room, mm high")

    label: Text | None = Field(
        default=None, description="boxes, track or dice: its label at the left (:icon: allowed)"
    )
    size: float | None = Field(
        default=None,
        gt=0,
        le=60,
        description="a box's, circle's or die's side in mm (default 7); text: its size in pt "
        "(default 9)",
    )
    shape: Literal["square", "circle"] = Field(default="square", description="of the boxes")
    numbers: Numbers | None = Field(
        default=None,
        description="what the boxes show, one each: '2-12' ('12-2' counts down), or a list "
        "of numbers or words",
    )
    numbers_at: Literal["inside", "under", "above"] = Field(
        default="inside", description="where the boxes' numbers go"
    )
    groups: list[Annotated[int, Field(ge=1)]] | None = Field(
        default=None, description="boxes in groups with a gap between, e.g. [3, 3, 4]"
    )
    bonus: dict[int, Text] | None = Field(
        default=None,
        description="small text or :icon: under some boxes, by position from 1: {4: '+2'}",
    )
    total: bool = Field(default=False, description="a wider box at the end for the row's total")
    join: bool = Field(default=False, description="a line through the boxes, as on a track")
    per_row: int | None = Field(
        default=None, ge=1, le=MAX_BOXES, description="start a new line after this many boxes"
    )
    ticks: int | None = Field(
        default=None, ge=1, le=12, description="dice: boxes to tick under each face"
    )
    colour: Colour | None = Field(default=None, description="lines, label and numbers")
    fill: Colour | None = Field(default=None, description="inside the boxes")
    bold: bool = Field(default=False, description="text: bold")
    align: Literal["start", "middle", "end"] = Field(default="start", description="text")
    width: float | None = Field(
        default=None, gt=0, le=1000, description="in a row: its share of the width (default 1)"
    )
    gap: float | None = Field(default=None, ge=0, le=100, description="mm below it (default 3)")

    @model_validator(mode="after")
    def _one(self) -> PadElement:
        given = [k for k in KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                f"an element is exactly one of {', '.join(KINDS)}"
                + (f"; this one has {', '.join(given)}" if given else "")
            )
        count = self.count
        if self.numbers is not None:
            if self.boxes is None:
                raise ValueError("'numbers' go with 'boxes' (a track numbers its own)")
            if len(self.numbers) != count:
                raise ValueError(f"{len(self.numbers)} numbers for {count} boxes; give one each")
        if self.groups is not None and sum(self.groups) != count:
            raise ValueError(f"the groups hold {sum(self.groups)} boxes, not {count}")
        for at in self.bonus or {}:
            if not 1 <= at <= count:
                raise ValueError(f"bonus at box {at}: the row has boxes 1 to {count}")
        if self.depth > MAX_NESTING:
            raise ValueError(f"rows and stacks go at most {MAX_NESTING} deep inside one another")
        return self

    @property
    def labels(self) -> list[str]:
        """A write-in element's labels, one per line to write on."""
        return [self.write] if isinstance(self.write, str) else list(self.write or [])

    @property
    def inner(self) -> list[PadElement]:
        """The elements of a row or a stack (none for any other element)."""
        return self.row or self.stack or []

    @property
    def depth(self) -> int:
        """How deep rows and stacks go inside it (1 for any other element)."""
        return 1 + max((e.depth for e in self.inner), default=0)

    @property
    def kind(self) -> str:
        """Which kind of element it is: 'boxes', 'text' ..."""
        return next(k for k in KINDS if getattr(self, k) is not None)

    @property
    def count(self) -> int:
        """Its boxes: a row's, a track's values, or none."""
        if self.boxes is not None:
            return self.boxes
        return len(self.track) if self.track is not None else 0

    @property
    def shown(self) -> list[str]:
        """What each box shows: its number, a track's value, or nothing."""
        if self.track is not None:
            return [str(v) for v in self.track]
        return list(self.numbers or [""] * self.count)


def flat(elements: list[PadElement]) -> list[PadElement]:
    """The elements and those inside their rows and stacks, in order."""
    return [e for element in elements for e in (element, *flat(element.inner))]


class PadSpec(ComponentBase):
    """A roll-and-write pad: one sheet, printed ``up`` to a page on ``pages`` pages (print
    the page again as often as the game needs), drawn from its elements; its title band by
    the face template."""

    kind: Literal["pad"] = Field(description="what this file describes: pad")
    size: CardSize | None = Field(
        default=None,
        description="a sheet's 'W x H' in mm; as many as fit go on a page (default: the page "
        "shared by 'up' sheets)",
    )
    up: int | None = Field(
        default=None,
        ge=1,
        le=MAX_UP,
        description="sheets to a page (default: as many of 'size' as fit; 4 without a size)",
    )
    pages: int = Field(default=1, ge=1, le=50, description="pages of the pad in the pack")
    bleed: float = Field(default=0.0, ge=0, le=5, description="bleed in mm beyond the cut")
    face: TemplateName = Field(
        default="pad.svg.j2", description="template of the sheet's frame and title band"
    )
    header: float = Field(
        default=12.0, ge=0, le=60, description="mm the title band takes at the top (0: none)"
    )
    margin: float = Field(default=5.0, ge=2, le=30, description="mm of the sheet kept empty")
    icons: TemplateName | None = Field(
        default=None, description="macro icon(name) for :codes: (default: the style's icons)"
    )
    label_width: float | None = Field(
        default=None,
        ge=0,
        le=200,
        description="mm of the labels left of rows of boxes (default: the widest label)",
    )
    elements: list[PadElement] = Field(
        min_length=1, description="what the sheet holds, from the top down"
    )
    back: list[PadElement] | None = Field(
        default=None,
        description="what its back holds: printed double-sided only when it is given",
    )

    noun: ClassVar[str] = "pad"
    default_stock: ClassVar[str] = "paper"
    shop: ClassVar[bool] = True

    @field_validator("elements", "back")
    @classmethod
    def _not_too_many(cls, value: list[PadElement] | None) -> list[PadElement] | None:
        if value is not None and len(flat(value)) > MAX_ELEMENTS:
            raise ValueError(f"a side holds at most {MAX_ELEMENTS} elements")
        return value

    @property
    def sides(self) -> list[tuple[str, list[PadElement]]]:
        """Its sides and their elements: the front, and the back if it has one."""
        return [("elements", self.elements), *([("back", self.back)] if self.back else [])]

    def design_rows(self, name: str, colours: list[PlayerColour]) -> list[DesignRow]:
        """One design, the sheet; how many print follows from the paper (``up``)."""
        return [DesignRow(None, 0, name, self.pages * (self.up or 1), {}, ())]

    def templates(self) -> dict[str, str]:
        """Its frame template, and its icons' if it names one (its ``header`` is a height)."""
        return {"face": self.face, **({"icons": self.icons} if self.icons else {})}
