"""The whole spec format in one place: typed models that validate and explain themselves.

``game.yaml`` is a ``GameSpec``; every other YAML file in a game folder is a component whose
``kind`` picks its model from ``COMPONENT_KINDS``. Field descriptions become the JSON Schema
that ``pnp schema`` writes for editors.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from generator.paths import relative_problem
from generator.sizes import card_sizes, paper_sizes

MAX_COPIES = 1000
MAX_SIZE_MM = 1000.0

Slug = Annotated[
    str,
    StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=64),
    Field(description="lower-case letters, digits and dashes, e.g. 'ingredient-cards'"),
]
Count = Annotated[
    int,
    Field(strict=True, ge=1, le=MAX_COPIES, description=f"copies to print, 1 to {MAX_COPIES}"),
]
ExpectCount = Annotated[int, Field(strict=True, ge=0, le=100_000)]
ExpectKey = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*(/[a-z0-9][a-z0-9-]*)?$")]


def _relative_name(value: str) -> str:
    """A template or asset name must stay inside the folders it is looked up in."""
    problem = relative_problem(value)
    if problem:
        raise ValueError(f"template name '{value}' {problem}")
    return value


TemplateName = Annotated[
    str,
    StringConstraints(max_length=200),
    AfterValidator(_relative_name),
    Field(description="a template file under the game's templates/ or the shared templates/"),
]

_SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm)?\s*$")


def _parse_size(value: Any) -> Any:
    """Accept a named card size, 'W x H' in mm, [W, H] or {w, h}; leave the rest to pydantic."""
    if isinstance(value, str):
        named = card_sizes()
        if value in named:
            w, h = named[value]
            return {"w": w, "h": h, "name": value}
        match = _SIZE_RE.match(value)
        if not match:
            raise ValueError(
                f"unknown card size '{value}'; use one of {', '.join(named)} or 'W x H' in mm"
            )
        return {"w": float(match[1]), "h": float(match[2])}
    if isinstance(value, list) and len(value) == 2:
        return {"w": value[0], "h": value[1]}
    return value


class StrictModel(BaseModel):
    """A spec model: unknown keys are mistakes, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


class Size(StrictModel):
    """A trim size in millimetres."""

    w: float = Field(gt=0, le=MAX_SIZE_MM, description="width in mm")
    h: float = Field(gt=0, le=MAX_SIZE_MM, description="height in mm")
    name: str | None = Field(default=None, description="the named size this came from")


CardSize = Annotated[
    Size,
    BeforeValidator(
        _parse_size, json_schema_input_type=Literal[tuple(card_sizes())] | str | list[float] | Size
    ),
    Field(description="a named size (poker, bridge, mini-euro, ...) or 'W x H' in mm"),
]


class GameSpec(StrictModel):
    """``game.yaml``: what the game is and the counts its rulebook states."""

    title: str = Field(min_length=1, description="the game's title, printed on every pack")
    players: str | int = Field(description="number of players, e.g. '2-4'")
    designer: str | None = Field(default=None, description="the game's designer (PDF author)")
    rulebook: str | None = Field(default=None, description="where the counts come from")
    paper: Literal[tuple(paper_sizes())] = Field(  # type: ignore[valid-type]
        default="a4", description="default paper: " + ", ".join(paper_sizes())
    )
    expect: dict[ExpectKey, ExpectCount] = Field(
        default_factory=dict,
        description="counts from the rulebook: 'component-id: total' and "
        "'component-id/name: count of one kind'",
    )

    @field_validator("players")
    @classmethod
    def _players(cls, value: str | int) -> str:
        text = str(value)
        if not re.fullmatch(r"\d+(\s*[-–]\s*\d+)?", text):
            raise ValueError("give a number or a range such as '2-4'")
        return text


class CardSpec(BaseModel):
    """One kind of card in a deck. Keys besides ``name`` and ``count`` are the card's own
    fields, passed to the templates as ``card.<key>``."""

    model_config = ConfigDict(extra="allow")

    name: Slug
    count: Count

    @model_validator(mode="after")
    def _field_names(self) -> CardSpec:
        for key in self.model_extra or {}:
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
                raise ValueError(
                    f"card field '{key}' cannot be used in a template; "
                    "use letters, digits and underscores"
                )
        return self

    def fields(self) -> dict[str, Any]:
        """The card's own fields (everything but name and count)."""
        return dict(self.model_extra or {})


class DeckSpec(StrictModel):
    """A deck of cards: a size, a face and back template, and the cards with their counts."""

    kind: Literal["deck"]
    id: Slug | None = Field(default=None, description="component id; default: the file name")
    title: str = Field(min_length=1, description="the deck's name as printed")
    size: CardSize
    bleed: float = Field(default=3.0, ge=0, le=10, description="bleed in mm (art beyond trim)")
    face: TemplateName
    back: TemplateName | None = Field(default=None, description="omit for single-sided cards")
    fields: dict[str, Any] = Field(
        default_factory=dict, description="fields shared by every card (a card's own win)"
    )
    cards: list[CardSpec] = Field(min_length=1, max_length=MAX_COPIES)

    @field_validator("cards")
    @classmethod
    def _unique_names(cls, cards: list[CardSpec]) -> list[CardSpec]:
        seen: set[str] = set()
        for card in cards:
            if card.name in seen:
                raise ValueError(f"two cards are named '{card.name}'; card names must differ")
            seen.add(card.name)
        return cards


COMPONENT_KINDS: dict[str, type[StrictModel]] = {"deck": DeckSpec}
ComponentSpec = DeckSpec
