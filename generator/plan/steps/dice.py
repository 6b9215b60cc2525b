"""``kind: dice``: dice as cube nets to fold, each face drawn by the face template, packed
with every counter of the game."""

from __future__ import annotations

from generator.art.shapes import Shape, die_net
from generator.art.templates import card_box
from generator.layout.pieces import Piece
from generator.model.designs import Design
from generator.model.kinds.dice import DiceSpec, DieEntry
from generator.model.loader import Component
from generator.plan.planner import Planner, Step


def plan(planner: Planner, component: Component, spec: DiceSpec, designs: list[Design]) -> None:
    """Every die's net on the counter sheets (printed single-sided, folded)."""
    shape = die_net(spec.size)
    planner.check_fits(component, shape, 0.0)

    def make(design: Design) -> list[Piece]:
        face = planner.make(lambda: _net(planner, design, spec, shape), "")
        return planner.pieces(design, shape, 0.0, face, None)

    planner.counter_pieces(planner.each(designs, make))


def _net(planner: Planner, design: Design, spec: DiceSpec, shape: Shape) -> str:
    """The net art of one die: each face rendered by the face template, then composed."""
    box = card_box(spec.size, spec.size, 0.0, "square")
    faces = [
        planner.renderer.render_design(design, spec.face, box, "face", {"face": value})
        for value in _faces(design)
    ]
    return planner.store_composed(design, [spec.face] * len(faces), shape, faces)


def _faces(design: Design) -> list[object]:
    """The six faces of a die's design."""
    assert isinstance(design.entry, DieEntry)  # every design of a dice component has one
    return design.entry.faces


STEP = Step(DiceSpec, plan)
