"""How the user prints (duplex edge, back offset, fold, ink saving): the options every stage
from imposition to the PDF follows, in a module of their own so the command line can read
them without loading the engine."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PrintOptions:
    """How the user prints: duplex flip edge, the back offset that corrects their printer,
    gutter-fold instead of duplex, ink saving, and how thick their card stock is (mm a card
    adds to a deck, for its box; None: the box's own default)."""

    duplex: str = "long"  # "long" or "short" edge flip
    back_offset: tuple[float, float] = (0.0, 0.0)  # mm added to every back's position
    layout: str = "duplex"  # "duplex" or "fold"
    ink_saver: bool = False
    card_thickness: float | None = None


DEFAULT_OPTIONS = PrintOptions()
