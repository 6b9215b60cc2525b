"""What a game prints, apart from how it looks: card designs, their copies and their counts.

A ``CardDesign`` is one distinct card (drawn once); a ``Piece`` is one printed copy of it.
The rules validator counts designs; imposition places pieces.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.loader import Component, Game
from generator.spec import CardSpec


@dataclass(frozen=True)
class CardDesign:
    """One kind of card in a deck, with the deck's shared fields merged under its own."""

    component: Component
    card: CardSpec
    index: int

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def count(self) -> int:
        return self.card.count

    @property
    def line(self) -> int:
        return self.component.doc.line_of(("cards", self.index))

    def locate(self, value: Any) -> tuple[Path, int]:
        """The spec line of the field holding ``value`` (the card's own, then the deck's)."""
        doc = self.component.doc
        for key, own in self.card.fields().items():
            if own == value:
                return doc.path, doc.line_of(("cards", self.index, key))
        for key, shared in self.component.spec.fields.items():
            if shared == value:
                return doc.path, doc.line_of(("fields", key))
        return doc.path, self.line

    def fields(self) -> dict[str, Any]:
        """Template fields: the deck's ``fields``, then the card's own, then its name."""
        return {**self.component.spec.fields, **self.card.fields(), "name": self.card.name}


@dataclass(frozen=True)
class Piece:
    """One printed copy of a design: what imposition places and the manifest lists."""

    component: str
    kind: str
    name: str
    copy: int
    w: float
    h: float
    bleed: float
    face: str
    back: str | None


def designs(component: Component) -> list[CardDesign]:
    """The distinct cards of a deck, in spec order."""
    return [CardDesign(component, card, i) for i, card in enumerate(component.spec.cards)]


def generated_counts(game: Game) -> Counter[str]:
    """What the specs generate, keyed like ``expect:`` (``id`` and ``id/name``)."""
    counts: Counter[str] = Counter()
    for component in game.components:
        for design in designs(component):
            counts[component.id] += design.count
            counts[f"{component.id}/{design.name}"] += design.count
    return counts
