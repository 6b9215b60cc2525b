"""A piece: one printed copy of a design, with the shape it is cut to and the keys of the art
on its two sides; what imposition places and the manifest lists."""

from __future__ import annotations

from dataclasses import dataclass

from generator.art.shapes import Shape
from generator.model.component import ComponentBase


@dataclass(frozen=True)
class Piece:
    """One printed copy of a design: what imposition places and the manifest lists. What
    output needs of its kind travels with it as data: what it is called (``noun``), whether
    its art is clipped to its shape grown by the bleed (tokens), whether its outline is its
    trim box (cards) rather than its shape, and whether its page's text flow draws it (a
    reference sheet) instead of art of its own."""

    component: str
    noun: str
    name: str
    copy: int
    shape: Shape
    bleed: float
    face: str
    back: str | None
    clipped: bool = False
    trim_outline: bool = False
    flowed: bool = False
    butt: bool = False  # laid out touching its neighbours (a deck's ``butt``)

    @classmethod
    def of(
        cls,
        spec: ComponentBase,
        component: str,
        name: str,
        copy: int,
        shape: Shape,
        bleed: float,
        face: str,
        back: str | None,
    ) -> Piece:
        """A piece of a component of ``spec``'s kind, with what its model says of it."""
        butt = bool(getattr(spec, "butt", False))  # cut straight: its art fills its box
        facts = (spec.clipped and not butt, spec.trim_outline, spec.flowed, butt)
        return cls(component, spec.noun, name, copy, shape, bleed, face, back, *facts)

    @property
    def w(self) -> float:
        return self.shape.w

    @property
    def h(self) -> float:
        return self.shape.h
