"""``kind: box``: a box for each deck it names, sized from the deck (its card size, its count
and the card's thickness), printed as a net with its cut and fold lines and glue tabs, its
faces drawn by the face template over the deck's back art; each net on the box's own pages,
turned if that is what fits. The contents say what each box holds and what to print it on."""

from __future__ import annotations

from generator.art.nets import (
    Inside,
    Panel,
    inside,
    lid_for,
    net_problems,
    net_svg,
    tray,
    tuck_box,
)
from generator.art.shapes import Point, Shape
from generator.art.templates import card_box
from generator.errors import SpecError
from generator.layout.grids import printable_box
from generator.layout.nets import NET_BLEED, net_sheets
from generator.layout.pieces import Piece
from generator.model.designs import Design, designs
from generator.model.game import merged_style
from generator.model.kinds.box import CARD_THICKNESS, BoxEntry, BoxSpec
from generator.model.kinds.deck import DeckSpec
from generator.model.loader import Component
from generator.model.sizes import sheet_geometry
from generator.plan.planner import Planner, Step

# the faces of each part's panels, in the order its net lists them (``art.nets``)
FACES = {
    "box": ("front", "side", "back", "side", "lid", "bottom"),
    "tray": ("base", "wall", "wall", "wall", "wall"),
    "lid": ("top", "side", "side", "end", "end"),
}
UNDER = frozenset(("front", "top"))  # faces with the deck's back art under them


def plan(planner: Planner, component: Component, spec: BoxSpec, designs: list[Design]) -> None:
    """Every box's net (a tuck box's, or a tray's and a lid's), on pages of their own."""
    notes: dict[int, str] = {}
    pieces: list[Piece] = []
    first: Shape | None = None
    for design in designs:
        try:
            shape, made = _piece(planner, component, spec, design, notes)
        except SpecError as exc:
            planner.errors.append(exc)
            continue
        first = first or shape
        pieces += made
    plan_of = planner.pack.components[-1]
    plan_of.shape = first
    if notes:
        plan_of.note = " ".join([*notes.values(), planner.pack.words.text("box_paper")])
    if pieces:
        planner.slots.append(
            net_sheets(pieces, planner.pack.paper, sheet_geometry(), planner.titles)
        )


def _entry(design: Design) -> BoxEntry:
    assert isinstance(design.entry, BoxEntry)  # every design of a box has its entry
    return design.entry


def _piece(
    planner: Planner, component: Component, spec: BoxSpec, design: Design, notes: dict[int, str]
) -> tuple[Shape, list[Piece]]:
    """One part's net and its printed copies; the contents' note of its box."""
    entry, part = _entry(design), design.extra["part"]
    deck = _deck(planner, component, spec, design)
    assert isinstance(deck.spec, DeckSpec)  # _deck finds a deck or says it is not one
    held = _held(planner, component, design, deck)
    thickness = entry.thickness or planner.pack.options.card_thickness or CARD_THICKNESS
    size = deck.spec.size
    room = inside(size.w, size.h, held, thickness, entry.clearance)
    shape, flaps = _net(room, part)
    left, bottom, right, top = printable_box(planner.pack.paper, sheet_geometry())
    area = (right - left - 2 * NET_BLEED, top - bottom - 2 * NET_BLEED)
    problems = net_problems(shape, planner.pack.paper_name, area)
    if problems:
        where = component.doc.line_of(("boxes", design.index))
        raise SpecError(component.path, where, f"box '{entry.name}': {problems[0]}")
    notes[design.index] = planner.pack.words.text(
        "box_holds", deck=deck.spec.title, cards=held, w=room.w, h=room.h, d=room.d
    )

    def make() -> str:
        return _art(planner, spec, design, deck, shape, flaps, held)

    art = planner.make(make, "")
    return shape, planner.pieces(design, shape, NET_BLEED, art, None)


def _deck(planner: Planner, component: Component, spec: BoxSpec, design: Design) -> Component:
    """The deck a box holds; one the game does not have is the box's error (as loading says:
    a game loaded in part, to find every mistake, still gets here)."""
    entry = _entry(design)
    for other in planner.game.components:
        if other.id == entry.deck and isinstance(other.spec, DeckSpec):
            return other
    specs = {c.id: c.spec for c in planner.game.components}
    loc, message = next(p for p in spec.problems_among(specs) if p[0][1] == design.index)
    raise SpecError(component.path, component.doc.line_of(loc), message)


def _net(room: Inside, part: str) -> tuple[Shape, list[tuple[Point, ...]]]:
    if part == "box":
        return tuck_box(room)
    return tray(lid_for(room), "lid") if part == "lid" else tray(room)


def _held(planner: Planner, component: Component, design: Design, deck: Component) -> int:
    """How many cards the box holds: the deck's count, or more if the entry says so."""
    entry = _entry(design)
    count = sum(d.count for d in designs(deck, planner.game.spec.colours))
    if entry.cards is not None and entry.cards < count:
        raise SpecError(
            component.path,
            component.doc.line_of(("boxes", design.index, "cards")),
            f"box '{entry.name}' holds {entry.cards} cards, but the deck '{deck.id}' has "
            f"{count}; leave 'cards' out, or give {count} or more",
        )
    return entry.cards or count


def _art(
    planner: Planner,
    spec: BoxSpec,
    design: Design,
    deck: Component,
    shape: Shape,
    flaps: list[tuple[Point, ...]],
    held: int,
) -> str:
    """The net's art: each face drawn by the face template (the deck's back art under the
    front, or a lid's top), the parts coloured, the glue tabs marked."""
    entry = _entry(design)
    under = _deck_art(planner, deck) if entry.deck_art else None
    deck_spec = deck.spec
    assert isinstance(deck_spec, DeckSpec)  # checked where the box was planned
    facts = {
        "id": deck.id,
        "title": deck_spec.title,
        "cards": held,
        "size": {"w": deck_spec.size.w, "h": deck_spec.size.h},
    }
    panels: list[Panel | None] = []
    for (_, _, w, h, turn), face in zip(shape.panels, FACES[design.extra["part"]], strict=True):
        tw, th = (h, w) if turn in (90, 270) else (w, h)
        art = under if face in UNDER else None
        extra = {"panel": {"name": face, "w": tw, "h": th}, "under": art is not None}
        extra["deck"] = facts
        svg = planner.renderer.render_design(design, spec.face, card_box(tw, th, 0.0), face, extra)
        size = (deck_spec.size.w, deck_spec.size.h)
        panels.append(Panel(svg, art, size))
    style = merged_style(planner.game.spec.style, spec.style, design.fields())
    glue = planner.pack.words.text("glue")
    svg = net_svg(shape, flaps, panels, style["accent"], NET_BLEED, glue)
    return planner.store(spec.face, svg, f"box '{entry.name}'")


def _deck_art(planner: Planner, deck: Component) -> str | None:
    """The SVG of the deck's back (its first card's), drawn by its back template; None for
    a deck without backs."""
    spec = deck.spec
    assert isinstance(spec, DeckSpec)  # a box's deck
    if spec.back is None:
        return None
    first = designs(deck, planner.game.spec.colours)[0]
    box = card_box(spec.size.w, spec.size.h, spec.bleed)
    said = len(planner.renderer.overflows)
    svg = planner.renderer.render_design(first, spec.back, box, "back")
    del planner.renderer.overflows[said:]  # the deck's own: said where the deck is drawn
    return svg


STEP = Step(BoxSpec, plan)
