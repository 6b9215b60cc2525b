"""What every component has, and what each kind of component states about itself once, on its
model: its ``kind`` in the spec, what one printed piece is called, the key of its entries,
whether print shops get it, how its designs are made and what it counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from generator.model.entries import DesignRow, Entry
from generator.model.fields import CardSize, Size, Slug, StrictModel, Text
from generator.model.game import PlayerColour, Style

MAX_TOGETHER = 50  # pieces said to share one place
MAX_MINUTES = 6000  # minutes said to make one component (100 hours)


class StandsOn(StrictModel):
    """Where a component's pieces stand during play, so that ``pnp check`` can see that they
    fit: on which board (or tray, or player display), on which of its places, how many of
    them share one place at once, and what they cover there."""

    board: Slug = Field(description="the id of the board, tray or display they stand on")
    places: list[str] = Field(
        min_length=1,
        description="places of that board: a space, region or grid cell by its name; every "
        "space of a row, track or grid by the row's, track's or grid's name; every member of "
        "a group by the group's name; or names with * standing for any characters",
    )
    pieces: list[Slug] | None = Field(
        default=None, description="which of the component's entries stand there (default: all)"
    )
    together: int = Field(
        default=1,
        ge=1,
        le=MAX_TOGETHER,
        description="how many of these pieces share one place at once, side by side (default 1)",
    )
    stack: bool | Annotated[int, Field(ge=2, le=MAX_TOGETHER)] = Field(
        default=False,
        description="pieces that share a place pile up on it (flat tokens): true, all in one "
        "pile, so one must fit; a number, piles of at most that many, which must fit side by "
        "side (print the rule where players see it)",
    )

    @property
    def piles(self) -> int:
        """How many piles (or single pieces) the pieces on one place take side by side."""
        if self.stack is True:
            return 1
        if self.stack is False:
            return self.together
        return -(-self.together // self.stack)

    footprint: CardSize | None = Field(
        default=None,
        description="'W x H' mm a piece covers where it stands, when that is not its printed "
        "size (default: a card's or token's size, a die's face, a standee's width by its two "
        "base tabs folded out)",
    )


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
    stands_on: list[StandsOn] = Field(
        default_factory=list,
        description="where its pieces stand on the game's boards, for the fit check",
    )
    optional: Text | None = Field(
        default=None,
        min_length=1,
        description="the game can be played without it: what serves instead (real dice, "
        "cubes ...); the contents mark it optional and say this",
    )
    minutes_to_make: int | None = Field(
        default=None,
        ge=1,
        le=MAX_MINUTES,
        description="about how long making all of it takes once printed (cutting, folding, "
        "gluing), in minutes; the contents say so",
    )
    stock: Literal["card", "paper"] | None = Field(
        default=None,
        description="what its sheets are best printed on, for the contents page's advice "
        "(default: card for cards, tokens, dice and standees; paper for boards and sheets)",
    )

    # What each kind states about itself: what one printed piece is called (in templates,
    # ``card.title``, and in messages); the key of its entries (``cards``: they may come from
    # a data file, and their fields are offered to translators; none for a component printed
    # whole); whether a print shop's export holds its pieces, and why not, and why Tabletop
    # Simulator's does not, if it does not; and how its pieces print:
    # art clipped to the shape grown by the bleed, an outline that is the trim box, text
    # flowed through its pages instead of art of its own.
    noun: ClassVar[str]
    entries_key: ClassVar[str] = ""
    default_stock: ClassVar[str] = "card"
    shop: ClassVar[bool]
    shop_note: ClassVar[str] = ""  # why shops do not get it (a kind with shop False)
    tts_note: ClassVar[str] = ""  # why Tabletop Simulator does not get it (none: it does)
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

    def problems_among(
        self, specs: Mapping[str, ComponentBase], unloaded: frozenset[str] = frozenset()
    ) -> list[tuple[tuple[str | int, ...], str]]:
        """Mistakes in what it says of the game's other components (``specs``: every
        component's spec by its id; ``unloaded``: the ids of specs whose own errors are said,
        not missing), each with where it is in the spec."""
        return []

    @property
    def paper(self) -> str:
        """What its sheets are best printed on: 'card' or 'paper'."""
        return self.stock or self.default_stock

    def footprint(self) -> tuple[Size, bool] | None:
        """What one piece covers where it stands (and whether it is round), or None for a
        kind that does not stand on a board."""
        return None

    def standing(self, stand: StandsOn) -> tuple[Size, bool] | None:
        """What a piece covers on the places of ``stand``: its given footprint (round if the
        piece is round and the footprint square), else the kind's own."""
        own = self.footprint()
        if stand.footprint is None:
            return own
        round_ = own is not None and own[1] and stand.footprint.w == stand.footprint.h
        return stand.footprint, round_

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
