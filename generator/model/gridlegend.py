"""Where the parts of a grid's legend go: its title, and for each terrain and line style that
has a label a swatch (a cell of the grid's shape, or a stretch of the line) with the label
beside it, in columns on a plate. Laid out once here, so that a board can check that the
legend lies on it and the art stage draws it where it was measured."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from generator.model.gridplan import GridPlan, legend_entries
from generator.model.grids import Grid
from generator.svg.fonts import text_width

Box = tuple[float, float, float, float]  # x, y, w, h in mm
Kind = Literal["terrain", "line"]
TITLE = 1.2  # the title's size, in the entries' font sizes
GAP = 0.6  # between a swatch and its label, and round the plate, in font sizes
LEADING = 0.45  # between two entries, in font sizes


@dataclass(frozen=True)
class LegendEntry:
    """One line of the legend: a terrain's or line style's name, its label, the box its
    swatch fills and where its label's text begins (its left end, at its middle)."""

    kind: Kind
    name: str
    label: str
    swatch: Box
    text: tuple[float, float]


@dataclass(frozen=True)
class LegendLayout:
    """The legend as laid out: its plate, its title (text, left end of its middle, size)
    and its entries."""

    plate: Box
    title: tuple[str, tuple[float, float], float] | None
    entries: list[LegendEntry]
    size: float


def swatch_size(grid: Grid) -> tuple[float, float]:
    """The width and height of a swatch: a cell of the grid's shape, the legend's swatch
    size across its flats."""
    assert grid.legend is not None
    s = grid.legend.swatch
    if grid.layout == "hex-flat":
        return s * 2 / math.sqrt(3), s
    if grid.layout == "hex-pointy":
        return s, s * 2 / math.sqrt(3)
    return s, s


def legend_layout(grid: Grid, resolved: GridPlan) -> LegendLayout | None:
    """The legend of ``grid`` laid out, or None when it has none."""
    legend = grid.legend
    if legend is None:
        return None
    looks = grid.line_looks()
    labels = {t.name: t.label for t in grid.terrains if t.label}
    terrains, lines = legend_entries(grid, resolved)
    items: list[tuple[Kind, str, str]] = [("terrain", n, str(labels[n])) for n in terrains]
    items += [("line", n, str(looks[n].label or n)) for n in lines]
    size, (sw, sh) = legend.size, swatch_size(grid)
    pad = GAP * size
    widest = max((text_width(label, size) for _, _, label in items), default=0.0)
    col_w = sw + pad + widest + pad
    row_h = max(sh, size * 1.3) + LEADING * size
    per_col = math.ceil(len(items) / legend.columns) if items else 0
    x0, y0 = legend.at
    title = None
    top = y0 + pad
    if legend.title:
        big = size * TITLE
        title = (legend.title, (x0 + pad, top + big / 2), big)
        top += big * 1.5
        col_w = max(col_w, (text_width(legend.title, big, "bold") + pad) / legend.columns)
    entries = []
    for index, (kind, name, label) in enumerate(items):
        col, row = divmod(index, per_col)
        left, y = x0 + pad + col * col_w, top + row * row_h
        middle = y + row_h / 2 - LEADING * size / 2
        swatch = (left, middle - sh / 2, sw, sh)
        entries.append(LegendEntry(kind, name, label, swatch, (left + sw + pad, middle)))
    columns = min(legend.columns, max(1, math.ceil(len(items) / max(per_col, 1))))
    width = columns * col_w + pad
    height = top - y0 + per_col * row_h + pad - LEADING * size
    return LegendLayout((x0, y0, width, height), title, entries, size)
