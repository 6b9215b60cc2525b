"""``kind: deck``: a deck's cards, on the run of sheets of every deck of its size and bleed."""

from __future__ import annotations

from generator.art.shapes import Shape
from generator.layout.pieces import Piece
from generator.model.designs import Design
from generator.model.kinds.deck import DeckSpec
from generator.model.loader import Component
from generator.plan.planner import Planner, Step


def plan(planner: Planner, component: Component, spec: DeckSpec, designs: list[Design]) -> None:
    """Every card of the deck, with the cards of its size."""
    shape = Shape("rect", spec.size.w, spec.size.h)

    def make(design: Design) -> list[Piece]:
        return planner.pieces(design, shape, spec.bleed, *planner.sides(design, spec, shape))

    planner.cards(planner.each(designs, make))


STEP = Step(DeckSpec, plan)
