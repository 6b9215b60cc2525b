"""``kind: token-pages``: whole pages of round tokens, every page a shuffled set of its own
under a title band."""

from __future__ import annotations

from dataclasses import replace

from generator.art.shapes import token_shape
from generator.art.templates import Subject, card_box
from generator.errors import display_path
from generator.layout.impose import impose_token_pages, shuffled
from generator.layout.pieces import Piece
from generator.model.designs import Design
from generator.model.game import merged_style
from generator.model.kinds.token_pages import TokenPagesSpec
from generator.model.loader import Component
from generator.model.sizes import sheet_geometry
from generator.plan.planner import Planner, Step


def plan(
    planner: Planner, component: Component, spec: TokenPagesSpec, designs: list[Design]
) -> None:
    """Each page's tokens, shuffled, under the page's header band."""
    shape = token_shape("circle", spec.size, spec.size)
    by_value: dict[int, Piece] = {}
    for design in designs:
        face, back = planner.sides(design, spec, shape)
        planner.pack.components[-1].shape = shape
        by_value[design.extra["value"]] = Piece.of(
            spec, component.id, design.name, 0, shape, spec.bleed, face, back
        )
    copies = dict.fromkeys(by_value, 0)
    pages = []
    for n in range(1, spec.pages + 1):
        pieces = []
        for v in shuffled(list(spec.values), spec.each, f"{component.id}-{n}"):
            copies[v] += 1
            pieces.append(replace(by_value[v], copy=copies[v]))

        def header(width: float, height: float, n: int = n) -> str:
            return _header(planner, component, spec, n, width, height)

        pages.append((header, pieces))
    sheets = impose_token_pages(
        pages, spec.header_height, planner.pack.paper, sheet_geometry(), planner.pack.options
    )
    for sheet in sheets:
        for page in (sheet.front, sheet.back):
            if page is not None:  # the back's label names the component too
                page.title = spec.title
    planner.slots.append(sheets)


def _header(
    planner: Planner,
    component: Component,
    spec: TokenPagesSpec,
    n: int,
    width: float,
    height: float,
) -> str:
    """A token page's title band, drawn by the component's header template."""
    game = planner.game.spec
    context = {
        "page": {"n": n, "title": spec.page_title.text(n, planner.game.language)},
        "component": {"id": component.id, "title": spec.title},
        "game": {"title": game.title, "players": game.players},
        "fields": spec.fields,
        "style": merged_style(game.style, spec.style),
        "box": card_box(width, height, 0.0),
    }
    line = component.doc.line_of(("header",))
    where = f"page {n} header of {display_path(component.path)}:{line}"
    subject = Subject(component.id, f"page {n} header", component.path, line)
    locate = lambda _v: (component.path, line)  # noqa: E731 - every value is the spec's
    svg = planner.renderer.render(spec.header, context, where, locate, subject)
    return planner.store(spec.header, svg, where)


STEP = Step(TokenPagesSpec, plan)
