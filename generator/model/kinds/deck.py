"""``kind: deck``: cards of one size, each kind of card with its count, drawn by a face and
an optional back template."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, field_validator

from generator.model.component import ComponentBase, unique_names
from generator.model.entries import Entry
from generator.model.fields import (
    MAX_COPIES,
    CardSize,
    Count,
    Size,
    Slug,
    StrictModel,
    TemplateName,
)


class CardSpec(Entry):
    """One kind of card in a deck."""

    count: Count
    group: Slug | None = Field(
        default=None, description="also count this card under '<deck>/<group>'"
    )


class Tally(StrictModel):
    """Symbols counted over every printed copy of a deck: e.g. the chocolate pieces of each
    colour in a field that maps a card's grid as text."""

    field: str = Field(description="the card field whose text holds the symbols")
    symbols: dict[str, str] = Field(
        min_length=1, description="symbol → name, e.g. {D: dark, M: milk, W: white}"
    )


class DeckSpec(ComponentBase):
    """A deck of cards: a size, a face and back template, and the cards with their counts."""

    kind: Literal["deck"] = Field(description="what this file describes: deck")
    face: TemplateName
    size: CardSize
    bleed: float = Field(default=3.0, ge=0, le=10, description="bleed in mm (art beyond trim)")
    back: TemplateName | None = Field(default=None, description="omit for single-sided cards")
    backs: Literal["alike", "differ"] = Field(
        default="alike",
        description="alike: every back looks the same, so no card can be told face down (a "
        "card's own style changes its face only, and pnp check reports backs that differ); "
        "differ: the backs are meant to differ (a player's cards, two decks in one), and "
        "take each card's own style",
    )
    butt: bool = Field(
        default=False,
        description="cards touch, one cut between neighbours, bleed only round the sheet's "
        "block: more cards per sheet (best when every card has the same back)",
    )
    cards: list[CardSpec] = Field(
        min_length=1,
        max_length=MAX_COPIES,
        description="the kinds of card, each with its count, or {from: a data file}",
    )

    tally: Tally | None = Field(
        default=None, description="symbols to count over the whole deck, shown by pnp list"
    )

    noun: ClassVar[str] = "card"
    shop: ClassVar[bool] = True
    trim_outline: ClassVar[bool] = True
    entries_key: ClassVar[str] = "cards"
    _unique_names = field_validator("cards")(unique_names)

    def footprint(self) -> tuple[Size, bool] | None:
        """A card covers its size."""
        return self.size, False
