"""``kind: box``: a box for a deck of the game, sized from the deck's card size, its count and
the thickness of the card stock, printed as a net to cut, score, fold and glue: a tuck box, or
a two-part box (a tray and a lid over it)."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from generator.model.component import ComponentBase, unique_names
from generator.model.entries import DesignRow, Entry
from generator.model.fields import MAX_COPIES, Count, Slug, TemplateName
from generator.model.game import PlayerColour
from generator.model.kinds.deck import DeckSpec

CARD_THICKNESS = 0.3  # mm a card adds to the stack: home-printed card stock, sleeveless
PARTS = {"tuck": ("box",), "two-part": ("tray", "lid")}


class BoxEntry(Entry):
    """One box: the deck it holds, its type and how many to print. Its other keys are fields
    for the box's template (``title``: what its faces say, default the deck's title)."""

    name: Slug = Field(default="", description="the box's id (default: the deck's id)")
    deck: Slug = Field(description="the id of the deck it holds")
    type: Literal["tuck", "two-part"] = Field(
        default="tuck", description="a tuck box, or a two-part box: a tray and a lid over it"
    )
    count: Count = Field(default=1, description="boxes to print")
    cards: int | None = Field(
        default=None,
        ge=1,
        le=10_000,
        description="cards it holds (default: the deck's count; more leaves room for more)",
    )
    thickness: float | None = Field(
        default=None,
        ge=0.05,
        le=2,
        description=f"mm one card adds to the stack (default: the printer profile's "
        f"card_thickness, else {CARD_THICKNESS:g})",
    )
    clearance: float = Field(
        default=1.0, ge=0, le=10, description="mm added to each inside size, so the deck slides in"
    )
    deck_art: bool = Field(
        default=True, description="the deck's back art on the box's front (a lid's top)"
    )

    @model_validator(mode="before")
    @classmethod
    def _named(cls, data: Any) -> Any:
        """A box is named after its deck unless it says otherwise."""
        if isinstance(data, dict) and "name" not in data and isinstance(data.get("deck"), str):
            return {**data, "name": data["deck"]}
        return data

    def fields(self) -> dict[str, Any]:
        """Its template fields (its own keys besides those the engine reads)."""
        return dict(self.model_extra or {})


class BoxSpec(ComponentBase):
    """Boxes for the game's decks, each a net to fold, drawn by the face template on its
    faces over the deck's back art."""

    kind: Literal["box"] = Field(description="what this file describes: box")
    face: TemplateName = Field(
        default="box.svg.j2", description="template of the box's faces (front, back, sides, lid)"
    )
    boxes: list[BoxEntry] = Field(
        min_length=1, max_length=MAX_COPIES, description="the boxes, one per deck it holds"
    )

    noun: ClassVar[str] = "box"
    shop: ClassVar[bool] = False
    shop_note: ClassVar[str] = (
        "a box to print, cut and fold at home: print shops make boxes on their own dielines "
        "(pnp export --shop VENDOR names the vendor's tuck box for each deck)"
    )
    tts_note: ClassVar[str] = "a box to fold for the printed game; Tabletop Simulator needs none"
    entries_key: ClassVar[str] = "boxes"
    _unique_names = field_validator("boxes")(unique_names)

    def design_rows(self, name: str, colours: list[PlayerColour]) -> list[DesignRow]:
        """One design per part of each box: a tuck box's net, or a tray's and a lid's."""
        rows = []
        for index, entry in enumerate(self.boxes):
            parts = PARTS[entry.type]
            for part in parts:
                named = entry.name if len(parts) == 1 else f"{entry.name}-{part}"
                rows.append(DesignRow(entry, index, named, entry.count, {"part": part}, ()))
        return rows

    def problems_among(
        self, specs: Mapping[str, ComponentBase], unloaded: frozenset[str] = frozenset()
    ) -> list[tuple[tuple[str | int, ...], str]]:
        """A box for a deck the game does not have (``specs``: every component's by id;
        ``unloaded``: those whose own errors are said), with the decks it does have."""
        decks = [name for name, spec in specs.items() if isinstance(spec, DeckSpec)]
        out: list[tuple[tuple[str | int, ...], str]] = []
        for index, entry in enumerate(self.boxes):
            if entry.deck in decks or entry.deck in unloaded:
                continue
            near = difflib.get_close_matches(entry.deck, decks, n=1)
            hint = f"; did you mean '{near[0]}'?" if near else ""
            known = ", ".join(decks) or "none"
            out.append(
                (
                    ("boxes", index, "deck"),
                    f"'{entry.deck}' is not a deck of this game{hint} (its decks: {known})",
                )
            )
        return out
