"""Entries: the kinds of piece a component lists (its cards, tokens, dice or standees), each
with its own fields for the templates, and how one entry becomes designs: one, one per value
of a series, or one per player colour."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from generator.model.fields import MAX_COPIES, Count, Slug, one_given
from generator.model.game import PlayerColour


@dataclass(frozen=True)
class DesignRow:
    """One distinct piece as its spec states it: its entry (None for a component printed
    whole), the entry's index, its name and count, the fields it adds (a value, a player
    colour) and the groups it is also counted under (a dataclass, not a NamedTuple, whose
    ``index`` and ``count`` would hide the tuple's methods)."""

    entry: Entry | None
    index: int
    name: str
    count: int
    extra: dict[str, Any]
    groups: tuple[str, ...]


FIELD_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"  # a field a template can use: card.<name>


def entry_schema(schema: dict[str, Any], cls: type) -> None:
    """What ``pnp schema`` says of an entry besides its fields: its own fields' names, and
    the one of its counts it must give (``given_one``)."""
    schema["propertyNames"] = {"pattern": FIELD_NAME}
    keys = getattr(cls, "given_one", ())
    if keys:
        schema.update(one_given(*keys))


class Entry(BaseModel):
    """One kind of piece in a component. Keys besides the reserved ones are the piece's own
    fields, passed to the templates (``card.<key>``, ``token.<key>``)."""

    model_config = ConfigDict(extra="allow", json_schema_extra=entry_schema, defer_build=True)

    name: Slug

    @model_validator(mode="after")
    def _field_names(self) -> Entry:
        for key in self.model_extra or {}:
            if not re.fullmatch(FIELD_NAME, key):
                raise ValueError(
                    f"field '{key}' cannot be used in a template; "
                    "use letters, digits and underscores"
                )
        return self

    def fields(self) -> dict[str, Any]:
        """The entry's own fields (everything that is not a reserved key)."""
        return dict(self.model_extra or {})

    def design_rows(self, index: int, colours: list[PlayerColour]) -> list[DesignRow]:
        """The entry's designs: one, printed ``count`` times."""
        group = getattr(self, "group", None)
        return [
            DesignRow(
                self, index, self.name, getattr(self, "count", 0), {}, (group,) if group else ()
            )
        ]


class CountedEntry(Entry):
    """An entry printed ``count`` times, or ``per_player`` times in every player colour."""

    given_one: ClassVar[tuple[str, ...]] = ("count", "per_player")  # exactly one of them

    count: Count | None = Field(
        default=None, description=f"copies to print, 1 to {MAX_COPIES} (or per_player)"
    )
    per_player: Count | None = Field(
        default=None, description="copies in each player colour of game.yaml's 'colours'"
    )
    group: Slug | None = Field(
        default=None, description="also count this entry under '<component>/<group>'"
    )

    def _one_count(self, allowed: int) -> None:
        given = [k for k in self.given_one if getattr(self, k, None)]
        if len(given) != allowed:
            raise ValueError(
                f"'{self.name}' needs exactly one of count, per_player"
                + (" or counts (with series)" if hasattr(self, "counts") else "")
                + (f"; it has {', '.join(given)}" if given else "")
            )

    def series_values(self) -> list[int]:
        """The values of a numbered series (none but a token's has one)."""
        return []

    def design_rows(self, index: int, colours: list[PlayerColour]) -> list[DesignRow]:
        """One design, one per value of a series, or one per player colour."""
        if self.count and not self.series_values():
            return super().design_rows(index, colours)
        groups = tuple(g for g in (self.name, self.group) if g)
        if self.per_player:
            return [
                DesignRow(
                    self,
                    index,
                    f"{self.name}-{colour.name}",
                    self.per_player,
                    {"player": colour.model_dump()},
                    groups,
                )
                for colour in colours
            ]
        values = self.series_values()
        counts = getattr(self, "counts", None) or [self.count] * len(values)
        return [
            DesignRow(self, index, f"{self.name}-{v}", n, {"value": v}, groups)
            for v, n in zip(values, counts, strict=True)
        ]
