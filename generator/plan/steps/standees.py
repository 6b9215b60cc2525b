"""``kind: standees``: fold-over standees, each a strip of its two sides rendered in their
panels, packed with every counter of the game."""

from __future__ import annotations

from generator.art.shapes import standee_shape
from generator.art.templates import card_box
from generator.layout.pieces import Piece
from generator.model.designs import Design
from generator.model.kinds.standees import StandeeSpec
from generator.model.loader import Component
from generator.plan.planner import Planner, Step


def plan(planner: Planner, component: Component, spec: StandeeSpec, designs: list[Design]) -> None:
    """Every standee's strip on the counter sheets (printed single-sided, folded)."""
    shape = standee_shape(spec.size.w, spec.size.h, spec.base)
    planner.check_fits(component, shape, 0.0)

    def make(design: Design) -> list[Piece]:
        face = planner.make(lambda: _strip(planner, design, spec), "")
        return planner.pieces(design, shape, 0.0, face, None)

    planner.counter_pieces(planner.each(designs, make))


def _strip(planner: Planner, design: Design, spec: StandeeSpec) -> str:
    """A standee's strip: its face and back rendered in their panels, then composed."""
    box = card_box(spec.size.w, spec.size.h, 0.0, "rect")
    sides = [(spec.face, "face"), (spec.back or spec.face, "back")]
    arts = [planner.renderer.render_design(design, t, box, side) for t, side in sides]
    shape = standee_shape(spec.size.w, spec.size.h, spec.base)
    return planner.store_composed(design, [t for t, _side in sides], shape, arts)


STEP = Step(StandeeSpec, plan)
