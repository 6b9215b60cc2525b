"""A piece: one printed copy of a design, with the shape it is cut to and the keys of the art
on its two sides; what imposition places and the manifest lists."""

from __future__ import annotations

from dataclasses import dataclass

from generator.art.shapes import Shape


@dataclass(frozen=True)
class Piece:
    """One printed copy of a design: what imposition places and the manifest lists."""

    component: str
    kind: str
    name: str
    copy: int
    shape: Shape
    bleed: float
    face: str
    back: str | None

    @property
    def w(self) -> float:
        return self.shape.w

    @property
    def h(self) -> float:
        return self.shape.h
