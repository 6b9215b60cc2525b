"""What every component has, and what each kind of component states about itself once, on its
model: its ``kind`` in the spec, what one printed piece is called, the key of its entries,
whether print shops get it, how its designs are made and what it counts."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from pydantic import Field

from generator.model.entries import DesignRow, Entry
from generator.model.fields import Slug, StrictModel, Text
from generator.model.game import PlayerColour, Style


class ComponentBase(StrictModel):
    """What every component has: an id, a printed title, templates and shared fields."""

    id: Slug | None = Field(default=None, description="component id; default: the file name")
    title: Text = Field(min_length=1, description="the component's name as printed")
    authored: Text | None = Field(
        default=None,
        min_length=1,
        description="what of this component the edition made up where the rulebook is silent, "
        "and why; printed in the pack's 'About this edition'",
    )
    fields: dict[str, Any] = Field(
        default_factory=dict, description="fields shared by every piece (a piece's own win)"
    )
    style: Style = Field(
        default_factory=Style,
        description="how the stock templates draw it; what is not set comes from game.yaml",
    )

    # What each kind states about itself: what one printed piece is called (in templates,
    # ``card.title``, and in messages); the key of its entries (``cards``: they may come from
    # a data file, and their fields are offered to translators; none for a component printed
    # whole); whether a print shop's export holds its pieces; and how its pieces print:
    # art clipped to the shape grown by the bleed, an outline that is the trim box, text
    # flowed through its pages instead of art of its own.
    noun: ClassVar[str]
    entries_key: ClassVar[str] = ""
    shop: ClassVar[bool]
    clipped: ClassVar[bool] = False
    trim_outline: ClassVar[bool] = False
    flowed: ClassVar[bool] = False

    @property
    def entries(self) -> list[Entry]:
        """The component's entries, whatever the kind calls them."""
        return list(getattr(self, self.entries_key, []))

    def design_rows(self, name: str, colours: list[PlayerColour]) -> list[DesignRow]:
        """Its designs as the spec states them (``name``: the component's id), in order."""
        return [
            row
            for index, entry in enumerate(self.entries)
            for row in entry.design_rows(index, colours)
        ]

    def problems(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Mistakes validation cannot see in one field, each with where it is in the spec."""
        return []

    def counts(self) -> Counter[str]:
        """What it holds besides its pieces, for the rulebook's counts (``id/what``)."""
        return Counter()

    def templates(self) -> dict[str, str]:
        """Spec key → template name, for every template this component uses."""
        keys = ("face", "back", "header", "icons")
        return {k: getattr(self, k) for k in keys if getattr(self, k, None)}


def unique_names(cls: type, entries: list[Entry]) -> list[Entry]:
    """A validator: no two entries of a component share a name."""
    seen: set[str] = set()
    for entry in entries:
        if entry.name in seen:
            raise ValueError(f"two entries are named '{entry.name}'; names must differ")
        seen.add(entry.name)
    return entries
