"""Backs alike: the cards of a deck are drawn and held face down, so a back that differs from
card to card tells players which card it is. A deck's backs are compared as they print (their
art); unless the deck says its backs are meant to differ (``backs: differ``: a player's own
cards, two decks in one), backs that differ are a warning at the deck's ``back:`` line, with
how many looks there are and a card of each."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.layout.pack import Pack

SHOWN = 3  # cards named in a message, one of each look


@dataclass(frozen=True)
class BacksDiffer:
    """A deck whose backs do not all look the same: where its ``back:`` is, how many looks
    its backs have, and a card of each of the first few."""

    path: Path
    line: int | None
    component: str
    looks: int
    cards: tuple[str, ...]

    def message(self) -> str:
        """'warning: the backs of deck 'x' differ ...'."""
        named = ", ".join(f"'{c}'" for c in self.cards)
        more = " ..." if self.looks > len(self.cards) else ""
        return (
            f"warning: the backs of deck '{self.component}' differ ({self.looks} looks: "
            f"{named}{more}), so players can tell its cards apart face down; draw every back "
            "alike (a back that reads a card's fields differs), or say 'backs: differ' when "
            "they are meant to"
        )


def differing_backs(pack: Pack) -> tuple[BacksDiffer, ...]:
    """Every deck of the pack whose printed backs are not all alike, but those whose spec
    says they differ."""
    looks: dict[str, dict[str, str]] = {}  # component -> back art -> first card
    for sheet in pack.sheets:
        for page in (sheet.front, sheet.back):
            for placed in page.placements if page else ():
                piece = placed.piece
                if placed.side == "back" and piece.back:
                    looks.setdefault(piece.component, {}).setdefault(piece.back, piece.name)
    found = []
    for component in pack.game.components:
        spec = component.spec
        drawn = looks.get(component.id, {})
        if getattr(spec, "backs", None) != "alike" or len(drawn) < 2:
            continue
        line = component.doc.line_of(("back",))
        cards = tuple(list(drawn.values())[:SHOWN])
        found.append(BacksDiffer(component.path, line, component.id, len(drawn), cards))
    return tuple(found)
