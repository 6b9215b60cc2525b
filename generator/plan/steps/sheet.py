"""``kind: sheet``: a reference sheet flowed through columns and pages, shrunk to fit its
pages; printed once with the pages nobody cuts, or in copies on sheets of their own."""

from __future__ import annotations

import json

from reportlab.lib.units import mm

from generator.art.richtext import Overflow
from generator.art.shapes import Shape
from generator.art.store import Artwork, Drawing
from generator.errors import SpecError, display_path
from generator.layout.grids import printable_box
from generator.layout.reference import copies_of, sheets_of
from generator.layout.sheetflow import FlowLayout
from generator.model.designs import Design, designs
from generator.model.kinds.deck import DeckSpec
from generator.model.kinds.sheet import SheetSpec, SheetTable
from generator.model.loader import Component
from generator.model.sizes import sheet_geometry
from generator.model.yamlsource import Path_
from generator.plan.planner import Planner, Step

SHEET_INSET = 1.5  # mm a sheet's text keeps inside the printable area: its bands and rules


def plan(planner: Planner, component: Component, spec: SheetSpec, designs: list[Design]) -> None:
    """The sheet's pages, laid out once and shared by its copies."""
    if planner.share is not None:
        return  # a worker makes the designs' art only; sheets are laid out by the build
    left, bottom, right, top = printable_box(planner.pack.paper, sheet_geometry())
    inset = SHEET_INSET
    area = (left + inset, bottom + inset, right - left - 2 * inset, top - bottom - 2 * inset)
    icons: dict[str, Artwork] = {}

    def icon(name: str, where: Path_ | None) -> Artwork:
        if name not in icons:
            line = component.doc.line_of(where or ("sections",))
            icons[name] = _icon(planner, component, spec, name, line)
        return icons[name]

    def rows_from(table: SheetTable, where: Path_) -> list[list[str]]:
        return _rows_from(planner, component, table, component.doc.line_of(where))

    layout = FlowLayout(spec, area, icon, rows_from)
    wide = _fitted(planner, component, layout)
    if layout.overflow:
        layout.overflow.line = component.doc.line_of(("pages",))
        planner.pack.overflows.append(layout.overflow)
    for where, text, word, excess in wide:
        path, line = component.doc.where(where)
        planner.pack.overflows.append(
            Overflow(
                component.id,
                component.id,
                f"a column of {layout.column_width / mm:.1f} mm at {layout.size:g} pt",
                f"{excess / mm:.1f} mm of width for the word '{word}', which a line would split",
                line,
                path,
                text,
            )
        )
    shape = Shape("rect", area[2], area[3])
    planner.pack.components[-1].shape = shape
    pieces = [p for d in designs for p in planner.pieces(d, shape, 0.0, "", None)]
    copies = copies_of(spec.title, layout, area, pieces)
    if len(copies) == 1:  # printed once: with the other pages nobody cuts, at the front
        planner.pack.notes.append(copies[0])
    else:
        planner.slots.append(sheets_of(copies, planner.pack.duplex))


Wide = list[tuple[Path_, str, str, float]]  # words too wide: where, text, word, excess (pt)


def _fitted(planner: Planner, component: Component, layout: FlowLayout) -> Wide:
    """Fit the sheet to its pages (``FlowLayout.fit``); the words too wide for their column.
    A preview's renderer keeps the outcome by the sheet as loaded and its area, so a save
    that leaves the sheet as it was lays it out nowhere (its icons are drawn again, from
    the renderer's memo, as the layout drew them); a sheet with a table of another
    component's rows is laid out every time (those rows change with no change to it)."""
    spec = layout.spec
    if any(b.table is not None and b.table.from_ for s in spec.sections for b in s.blocks):
        layout.fit(component.id)
        return layout.split_words()
    used: list[tuple[str, Path_ | None]] = []
    drawn = layout.icon

    def icon(name: str, where: Path_ | None) -> Drawing:
        used.append((name, where))
        return drawn(name, where)

    def make() -> str:
        layout.icon = icon
        layout.fit(component.id)
        wide = layout.split_words()
        layout.icon = drawn
        flowed = (layout.size, layout.pages, layout.overflow, wide, list(dict.fromkeys(used)))
        return json.dumps(flowed, default=lambda o: [o.box, o.missing])

    inputs = [spec.model_dump(mode="json", by_alias=True), layout.area, component.id]
    size, pages, overflow, wide, icons = json.loads(planner.renderer.made("sheet", inputs, make))
    layout.size, layout.pages = size, pages
    layout.overflow = Overflow(component.id, component.id, *overflow) if overflow else None
    for name, where in icons:  # stored with the pack's art, and checked with it
        drawn(name, None if where is None else tuple(where))
    return [(tuple(where), text, word, excess) for where, text, word, excess in wide]


def _icon(planner: Planner, component: Component, spec: SheetSpec, name: str, line: int) -> Artwork:
    """An inline icon of a sheet, drawn by the component's icon macro."""
    if not spec.icons:
        raise SpecError(
            component.path,
            line,
            f"the text uses :{name}: but the sheet has no 'icons' template to draw it",
        )
    fragment = planner.renderer.macro(spec.icons, "icon", name, lambda _v: (component.path, line))
    if not fragment.strip():
        raise SpecError(
            component.path,
            line,
            f"unknown icon :{name}:; the macro icon() in {spec.icons} draws nothing for '{name}'",
        )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="20pt" height="20pt" '
        f'viewBox="-10 -10 20 20">{fragment}</svg>'
    )
    key = planner.store(spec.icons, svg, f"icon :{name}: of {display_path(component.path)}")
    return planner.pack.art.drawing(key)


def _rows_from(
    planner: Planner, component: Component, table: SheetTable, line: int
) -> list[list[str]]:
    """Rows of a table taken from a deck: one per card design, its fields as cells."""
    deck = next((c for c in planner.game.components if c.id == table.from_), None)
    if deck is None and table.from_ in planner.game.unloaded:
        return []  # the deck's own errors are said: nothing to add of it
    if deck is None or not isinstance(deck.spec, DeckSpec):
        raise SpecError(
            component.path,
            line,
            f"a table is 'from' '{table.from_}', which is not a deck of this game",
        )
    rows = []
    for design in designs(deck, planner.game.spec.colours):
        fields = design.fields()
        missing = [c for c in table.columns if c not in fields]
        if missing:
            raise SpecError(
                component.path,
                line,
                f"the table shows field(s) "
                f"{', '.join(missing)}, which card '{design.name}' of "
                f"{table.from_} does not have",
            )
        rows.append([str(fields[c]) for c in table.columns])
    return rows


STEP = Step(SheetSpec, plan)
