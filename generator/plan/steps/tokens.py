"""``kind: tokens``: tokens cut along their shape, packed with every counter of the game."""

from __future__ import annotations

from generator.art.shapes import token_shape
from generator.layout.pieces import Piece
from generator.model.designs import Design
from generator.model.kinds.tokens import TokenSpec
from generator.model.loader import Component
from generator.plan.planner import Planner, Step


def plan(planner: Planner, component: Component, spec: TokenSpec, designs: list[Design]) -> None:
    """Every token, face and back, on the counter sheets."""
    shape = token_shape(spec.shape, spec.size.w, spec.size.h, spec.corner)
    planner.check_fits(component, shape, spec.bleed)

    def make(design: Design) -> list[Piece]:
        return planner.pieces(design, shape, spec.bleed, *planner.sides(design, spec, shape))

    planner.counter_pieces(planner.each(designs, make))


STEP = Step(TokenSpec, plan)
