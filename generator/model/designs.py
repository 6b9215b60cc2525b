"""What a game prints, apart from how it looks: its designs and their counts.

A ``Design`` is one distinct piece (drawn once): a card, a token kind, a value of a numbered
series, one player colour's set, a die. The rules validator counts designs; the art stage
draws each once; imposition places its printed copies (``layout.pieces.Piece``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.model.entries import Entry
from generator.model.game import PlayerColour
from generator.model.kinds.deck import DeckSpec
from generator.model.loader import Component, Game


@dataclass(frozen=True)
class Design:
    """One distinct piece: its entry in the spec, its expanded name, count and fields."""

    component: Component
    entry: Entry | None
    index: int
    name: str
    count: int
    extra: dict[str, Any] = field(default_factory=dict)
    groups: tuple[str, ...] = ()

    @property
    def where(self) -> tuple[Path, int]:
        """The file and line of the entry this design comes from (a data file's row, for
        entries read from one)."""
        if self.entry is None:
            return self.component.doc.where(("values",))
        return self.component.doc.where((self.component.spec.entries_key, self.index))

    @property
    def line(self) -> int:
        """The line of the entry this design comes from, in the file ``where`` names."""
        return self.where[1]

    def locate(self, value: Any) -> tuple[Path, int]:
        """The file and line of the field holding ``value`` (the entry's own, then the
        shared)."""
        doc = self.component.doc
        own = self.entry.fields() if self.entry else {}
        for key, given in own.items():
            if given == value:
                return doc.where((self.component.spec.entries_key, self.index, key))
        for key, shared in self.component.spec.fields.items():
            if shared == value:
                return doc.path, doc.line_of(("fields", key))
        return self.where

    def fields(self) -> dict[str, Any]:
        """Template fields: shared fields, then the entry's own, then its value or player."""
        own = self.entry.fields() if self.entry else {}
        return {**self.component.spec.fields, **own, **self.extra, "name": self.name}

    def label(self) -> str | None:
        """What the piece is called in print: its ``title`` (or ``label``), with its player
        colour's name or its value; None when the spec gives it no printed name."""
        fields = self.fields()
        base = next(
            (fields[k].strip() for k in ("title", "label") if isinstance(fields.get(k), str)),
            "",
        )
        player, value = self.extra.get("player"), self.extra.get("value")
        if player:
            return f"{base} ({player['label']})" if base else player["label"]
        if value is not None and not (base and str(value) in base):
            return f"{base} {value}".strip()
        return base or None


def designs(component: Component, colours: list[PlayerColour]) -> list[Design]:
    """The distinct pieces of a component, in spec order."""
    return [
        Design(component, row.entry, row.index, row.name, row.count, row.extra, row.groups)
        for row in component.spec.design_rows(component.id, colours)
    ]


def generated_counts(game: Game) -> Counter[str]:
    """What the specs generate, keyed like ``expect:`` (``id``, ``id/name``, ``id/group``)."""
    counts: Counter[str] = Counter()
    for component in game.components:
        for design in designs(component, game.spec.colours):
            counts[component.id] += design.count
            for key in dict.fromkeys((design.name, *design.groups)):
                if key != component.id:
                    counts[f"{component.id}/{key}"] += design.count
        counts.update({f"{component.id}/{k}": n for k, n in component.spec.counts().items()})
    return counts


def tally(component: Component) -> dict[str, int]:
    """A deck's tally: how often each symbol appears over all its printed copies."""
    spec = component.spec
    if not isinstance(spec, DeckSpec) or spec.tally is None:
        return {}
    totals = dict.fromkeys(spec.tally.symbols.values(), 0)
    for design in designs(component, []):
        value = design.fields().get(spec.tally.field, "")
        text = "".join(map(str, value)) if isinstance(value, list) else str(value)
        for symbol, name in spec.tally.symbols.items():
            totals[name] += text.count(symbol) * design.count
    return totals
