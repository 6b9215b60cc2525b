"""``kind: pad``: a roll-and-write sheet drawn from its elements in the frame of its face
template, printed ``up`` to a page (as many as fit, or as the spec says), single-sided unless
it has a back; the contents say to print the page as often as the game needs."""

from __future__ import annotations

import difflib
from dataclasses import replace

from lxml import etree

from generator.art.pads import Look, PadTooFull, draw_side
from generator.art.shapes import Shape
from generator.art.templates import card_box
from generator.errors import SpecError
from generator.layout.pads import capacity, pad_sheets, sheet_size
from generator.model.columns import ICON_CODE
from generator.model.designs import Design
from generator.model.game import merged_style
from generator.model.kinds.pad import PadElement, PadSpec
from generator.model.loader import Component
from generator.model.sizes import sheet_geometry
from generator.model.templatefields import declared_icons
from generator.plan.planner import Planner, Step
from generator.svg.safexml import SAFE_PARSER

DEFAULT_UP = 4  # sheets to a page when the spec gives neither a size nor 'up'
BAND_GAP = 2.0  # mm between the title band and the first element
SVG_NS = "http://www.w3.org/2000/svg"


def plan(planner: Planner, component: Component, spec: PadSpec, designs: list[Design]) -> None:
    """The sheet's art (its sides), then its pages: ``up`` to a page, ``pages`` pages."""
    w, h, up = _size(planner, component, spec)
    design = replace(designs[0], count=up * spec.pages)
    plan_of = planner.pack.components[-1]
    plan_of.designs = [design]
    plan_of.note = planner.pack.words.text("pad_contents", up=up)
    _check_icons(planner, component, spec)
    shape = Shape("rect", w, h)
    skipped: tuple[str, str | None] = ("", None)  # another worker's share
    sides = planner.make(lambda: _art(planner, component, spec, design, shape, up), skipped)
    pieces = planner.pieces(design, shape, spec.bleed, *sides)
    options, geo = planner.pack.options, sheet_geometry()
    planner.slots.append(pad_sheets(pieces, up, planner.pack.paper, geo, planner.titles, options))


def _size(planner: Planner, component: Component, spec: PadSpec) -> tuple[float, float, int]:
    """A sheet's width and height, and how many go on a page: the spec's size, as many as
    fit (or ``up``, if that many fit); or the page shared by ``up`` sheets."""
    paper, geo, options = planner.pack.paper, sheet_geometry(), planner.pack.options
    backed = spec.back is not None
    if spec.size is None:
        up = spec.up or DEFAULT_UP
        w, h = sheet_size(paper, geo, up, backed, options)
        return w, h, up
    w, h = spec.size.w, spec.size.h
    fits = capacity(paper, geo, w, h, spec.bleed, backed, options)
    name = planner.pack.paper_name
    if fits == 0:
        raise SpecError(
            component.path,
            component.doc.line_of(("size",)),
            f"a {w:g} x {h:g} mm sheet does not fit on {name} inside the margins; choose a "
            "smaller 'size', or leave it out and give 'up' (sheets to a page)",
        )
    if spec.up is not None and spec.up > fits:
        raise SpecError(
            component.path,
            component.doc.line_of(("up",)),
            f"up: {spec.up} sheets of {w:g} x {h:g} mm do not fit on {name}: {fits} do; "
            f"give up: {fits} or less, or a smaller 'size'",
        )
    return w, h, spec.up or fits


def _look(planner: Planner, spec: PadSpec) -> Look:
    style = merged_style(planner.game.spec.style, spec.style)
    return Look(style["ink"], style["accent"], style["font"], style["title_font"])


def _icons_template(planner: Planner, spec: PadSpec) -> str:
    return spec.icons or str(merged_style(planner.game.spec.style, spec.style)["icons"])


def _check_icons(planner: Planner, component: Component, spec: PadSpec) -> None:
    """Every ``:icon:`` the elements name is a die face or one its icon template draws; an
    unknown one is an error at its line, with the name meant."""
    known = declared_icons(planner.game.root, _icons_template(planner, spec))
    if known is None:
        return  # the template does not list its icons: whatever it draws is drawn
    names = sorted({*known, *(f"die-{n}" for n in range(1, 7))})
    for key, elements in spec.sides:
        for loc, text in _texts(elements, (key,)):
            for name in ICON_CODE.findall(text):
                if name in names:
                    continue
                near = difflib.get_close_matches(name, names, n=1)
                hint = f"; did you mean :{near[0]}:?" if near else ""
                raise SpecError(
                    component.path,
                    component.doc.line_of(loc),
                    f"unknown icon :{name}:{hint} (known: {', '.join(names)})",
                )


Loc = tuple[str | int, ...]


def _texts(elements: list[PadElement], loc: Loc) -> list[tuple[Loc, str]]:
    """Every printed text of ``elements`` with its place in the spec."""
    out: list[tuple[Loc, str]] = []
    for index, e in enumerate(elements):
        here = (*loc, index)
        for key in ("text", "label"):
            if getattr(e, key):
                out.append(((*here, key), getattr(e, key)))
        out += [((*here, "write"), t) for t in e.labels]
        out += [((*here, "bonus", at), t) for at, t in (e.bonus or {}).items()]
        if e.table is not None:
            cells = [*(e.table.header or []), *(c for row in e.table.rows for c in row)]
            out += [((*here, "table"), c) for c in cells]
        out += _texts(e.inner, (*here, "row" if e.row else "stack"))
    return out


def _art(
    planner: Planner,
    component: Component,
    spec: PadSpec,
    design: Design,
    shape: Shape,
    up: int,
) -> tuple[str, str | None]:
    """The art keys of the sheet's front and (if it has one) back."""
    keys = [_side(planner, component, spec, design, shape, up, key) for key, _ in spec.sides]
    return keys[0], keys[1] if len(keys) > 1 else None


def _side(
    planner: Planner,
    component: Component,
    spec: PadSpec,
    design: Design,
    shape: Shape,
    up: int,
    key: str,
) -> str:
    """One side: its frame drawn by the face template, its elements by the engine in the room
    below the title band."""
    box = card_box(shape.w, shape.h, spec.bleed)
    extra = {"sheet": {"margin": spec.margin, "header": spec.header, "up": up}}
    side = "face" if key == "elements" else "back"
    frame = planner.renderer.render_design(design, spec.face, box, side, extra)
    top = spec.margin + (spec.header + BAND_GAP if spec.header else 0.0)
    body = (spec.margin, top, shape.w - 2 * spec.margin, shape.h - spec.margin - top)
    elements = spec.elements if key == "elements" else spec.back or []
    line = component.doc.line_of((key,))

    def icon(name: str) -> str:
        template = _icons_template(planner, spec)
        return planner.renderer.macro(template, "icon", name, lambda _v: (component.path, line))

    try:
        drawn = draw_side(elements, body, _look(planner, spec), icon, spec.label_width)
    except PadTooFull as exc:
        where = component.doc.line_of((key, *exc.loc))
        raise SpecError(component.path, where, f"{exc} ({planner.pack.paper_name})") from None
    svg = _with(frame, drawn, component, line)
    return planner.store(spec.face, svg, f"{side} of {design.name}")


def _with(frame: str, drawn: str, component: Component, line: int) -> str:
    """The frame's SVG with the elements drawn over it."""
    try:
        root = etree.fromstring(frame.encode(), SAFE_PARSER)
    except etree.XMLSyntaxError as exc:
        raise SpecError(
            component.path, line, f"the sheet's frame is not well-formed SVG: {exc.msg}"
        ) from None
    try:
        group = etree.fromstring(f'<g xmlns="{SVG_NS}">{drawn}</g>'.encode(), SAFE_PARSER)
    except etree.XMLSyntaxError as exc:
        raise SpecError(
            component.path,
            line,
            f"an icon drawn on the sheet is not well-formed SVG: {exc.msg}; check the macro icon()",
        ) from None
    root.append(group)
    return str(etree.tostring(root, encoding="unicode"))


STEP = Step(PadSpec, plan)
