"""``game.yaml``: what a game is, the counts and recipes its rulebook states, its player
colours, fonts and the style the stock templates draw it in."""

from __future__ import annotations

import re
from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import Discriminator, Field, StringConstraints, Tag, WithJsonSchema, field_validator

from generator.model.fields import (
    ExpectCount,
    ExpectKey,
    FileName,
    Hex,
    Slug,
    StrictModel,
    Text,
)
from generator.model.sizes import paper_sizes

PLAYERS = r"^\d+(\s*[-–]\s*\d+|\+)?$"  # 3, 2-4, 1+


class PlayerColour(StrictModel):
    """A player colour: its id, printed name and colour, and the mark (a letter or a
    symbol) its pieces carry besides the colour, so that no player needs to tell colours
    apart."""

    name: Slug
    label: Text = Field(min_length=1, description="the colour's printed name")
    colour: Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")] = Field(
        description="'#rrggbb'"
    )
    mark: str | None = Field(
        default=None,
        min_length=1,
        max_length=3,
        description="a letter or symbol the player's pieces print besides their colour "
        "(templates: token.player.mark), so players who see colours alike tell them apart",
    )


class Recipe(StrictModel):
    """A deck's composition as the rulebook states it, and how it is split for setup."""

    identify: list[str] = Field(
        min_length=1, description="the card fields that tell cards apart, e.g. [rank, suit]"
    )
    cards: list[dict[str, list[str | int]]] = Field(
        min_length=1,
        description="lines of the recipe; each line is every combination of its lists, "
        "e.g. {rank: [2, 3, 4], suit: [clubs, hearts]}",
    )
    piles: list[Annotated[int, Field(ge=1)]] | None = Field(
        default=None, description="setup piles that must add up to one line of the recipe"
    )
    piles_from: int = Field(default=0, ge=0, description="the recipe line the piles split")

    def problems(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Mistakes in the recipe, each with where it is (relative to the recipe)."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        for i, line in enumerate(self.cards):
            if set(line) != set(self.identify):
                out.append(
                    (
                        ("cards", i),
                        f"recipe line {i + 1} gives {sorted(line)}, not the "
                        f"identifying fields {sorted(self.identify)}",
                    )
                )
        if self.piles and self.piles_from >= len(self.cards):
            out.append(
                (("piles_from",), f"piles_from {self.piles_from} is not a line of the recipe")
            )
        return out


class GameFont(StrictModel):
    """One face of a game's own font: a TrueType or OpenType file (.ttf, .otf, .ttc, .woff,
    .woff2) in the game folder, used in templates and sheets by its family name."""

    family: Annotated[str, StringConstraints(min_length=1, max_length=80)] = Field(
        description='the name templates use: font-family="..."'
    )
    file: FileName
    weight: Literal["normal", "bold"] = Field(default="normal", description="normal or bold")
    style: Literal["normal", "italic"] = Field(default="normal", description="normal or italic")
    face: Annotated[str, StringConstraints(min_length=1, max_length=120)] | None = Field(
        None, description="the font of a collection (.ttc) to use, by its name"
    )


T = TypeVar("T")


class StyleMap(StrictModel, Generic[T]):
    """A style value per piece, looked up from one of its fields:
    ``accent: {by: suit, map: {Lanterns: "#b8322a", Teas: "#2f6b3a"}, default: "#555555"}``."""

    by: Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")] = Field(
        description="the field (a column of a card list) whose value picks the style"
    )
    map: dict[str | int, T] = Field(min_length=1, description="the field's value → the style")
    default: T | None = Field(
        default=None, description="for a value the map does not list (else that is an error)"
    )


def _form(value: Any) -> str:
    """Which form a style value is written in: a value, or a map by a field."""
    return "by" if isinstance(value, dict | StyleMap) else "value"


def _styled(kind: Any) -> Any:
    """A style key's type: a value of ``kind``, or a ``StyleMap`` of them."""
    return Annotated[
        Annotated[kind, Tag("value")] | Annotated[StyleMap[kind], Tag("by")],
        Discriminator(_form),
    ]


FontName = Annotated[str, StringConstraints(min_length=1, max_length=64)]
Frame = Literal["rounded", "square", "double", "none"]
Pattern = Literal["diamonds", "dots", "stripes", "plain"]
ArtFit = Literal["cover", "contain"]
STYLE_TAGS = ("value", "by")  # in a validation error's location: the form, not a key


class Style(StrictModel):
    """How the stock templates draw a component: colours, fonts, frame and back pattern. Set
    in ``game.yaml`` for the whole game and in a component to differ from it; unset keys keep
    the defaults, so two games look alike only if they say so. Any key may differ per piece:
    a field of the piece of the same name (a column ``accent``), or ``{by: FIELD, map: ...}``."""

    accent: _styled(Hex) = Field(  # type: ignore[valid-type]
        default="#2f4f7f", description="frame, title band and value marks"
    )
    paper: _styled(Hex) = Field(  # type: ignore[valid-type]
        default="#fbf7ee", description="the piece's background"
    )
    ink: _styled(Hex) = Field(default="#222222", description="text")  # type: ignore[valid-type]
    light: _styled(Hex) = Field(  # type: ignore[valid-type]
        default="#ffffff", description="text on the accent colour"
    )
    font: _styled(FontName) = Field(  # type: ignore[valid-type]
        default="sans-serif", description="text font"
    )
    title_font: _styled(FontName) | None = Field(  # type: ignore[valid-type]
        default=None, description="title font (default: the text font)"
    )
    frame: _styled(Frame) = Field(  # type: ignore[valid-type]
        default="rounded", description="the border inside the cut line"
    )
    pattern: _styled(Pattern) = Field(  # type: ignore[valid-type]
        default="diamonds", description="the pattern of card backs"
    )
    art_fit: _styled(ArtFit) = Field(  # type: ignore[valid-type]
        default="cover", description="art fills its frame, cropped (cover) or whole (contain)"
    )
    icons: _styled(FontName) = Field(  # type: ignore[valid-type]
        default="icons.svg.j2",
        description="the template whose macro icon(name) draws :name: in texts",
    )


# the type of one value of each style key (a piece's own, or one of a map)
STYLE_VALUES: dict[str, Any] = {
    "accent": Hex,
    "paper": Hex,
    "ink": Hex,
    "light": Hex,
    "font": FontName,
    "title_font": FontName,
    "frame": Frame,
    "pattern": Pattern,
    "art_fit": ArtFit,
    "icons": FontName,
}
PER_PIECE = tuple(k for k in Style.model_fields if k != "icons")  # also a card's own field
# (not ``icons``: a card's ``icons`` field lists the icons it shows)


class GameSpec(StrictModel):
    """``game.yaml``: what the game is and the counts its rulebook states."""

    title: Text = Field(min_length=1, description="the game's title, printed on every pack")
    players: Annotated[
        str | int,
        WithJsonSchema(
            {"anyOf": [{"type": "string", "pattern": PLAYERS}, {"type": "integer", "minimum": 0}]}
        ),
    ] = Field(description="number of players, e.g. '2-4'")
    designer: str | None = Field(default=None, description="the game's designer (PDF author)")
    rulebook: str | None = Field(default=None, description="where the counts come from")
    authored: Text | None = Field(
        default=None,
        min_length=1,
        description="what the edition made up for the whole game (rules the rulebook leaves "
        "out), printed first in the pack's 'About this edition'",
    )
    paper: Literal[tuple(paper_sizes())] = Field(  # type: ignore[valid-type]
        default="a4", description="default paper: " + ", ".join(paper_sizes())
    )
    languages: list[Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(_[A-Z]{2})?$")]] = Field(
        default=["en"],
        min_length=1,
        description="languages the game prints in; the first is the source language",
    )
    colours: list[PlayerColour] = Field(
        default_factory=list, description="player colours, for entries given 'per_player'"
    )
    fonts: list[GameFont] = Field(
        default_factory=list,
        description="the game's own fonts (TrueType files in the game folder), by family",
        max_length=64,
    )
    expect: dict[ExpectKey, ExpectCount] = Field(
        default_factory=dict,
        description="counts from the rulebook: 'component-id: total' and "
        "'component-id/name: count of one kind'",
    )
    recipes: dict[Slug, Recipe] = Field(
        default_factory=dict, description="deck compositions from the rulebook, by deck id"
    )
    style: Style = Field(
        default_factory=Style, description="how the stock templates draw the game's pieces"
    )
    min_text_pt: float = Field(
        default=6.0,
        ge=4,
        le=12,
        description="the smallest text the pack may print, pt (pnp check measures every text "
        "against it; lower it only for a good reason, and pnp check says it is lowered)",
    )

    @field_validator("players")
    @classmethod
    def _players(cls, value: str | int) -> str:
        text = str(value)
        if not re.fullmatch(PLAYERS, text):
            raise ValueError("give a number, a range such as '2-4', or '1+'")
        return text


def style_base(game: Style, component: Style) -> dict[str, Any]:
    """The defaults, then what the game sets, then what the component sets: the style each
    piece of the component starts from (``merged_style``)."""
    return {**game.model_dump(), **component.model_dump(exclude_unset=True)}


def merged_style(
    game: Style,
    component: Style,
    own: dict[str, Any] | None = None,
    base: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The style a stock template gets: ``style_base`` (or ``base``, made by it once for a
    component's pieces), then the piece's ``own`` fields of a style key's name; a key mapped
    by a field takes the value the piece's field picks (or the map's default, or the
    default)."""
    merged = dict(base) if base is not None else style_base(game, component)
    own = own or {}
    for key, value in merged.items():
        if key in PER_PIECE and key in own and own[key] not in (None, ""):
            merged[key] = own[key]
        elif isinstance(value, dict):
            merged[key] = mapped(value, own)
            if merged[key] is None:
                merged[key] = Style.model_fields[key].default
    merged["title_font"] = merged["title_font"] or merged["font"]
    return merged


def mapped(rule: dict[str, Any], own: dict[str, Any]) -> Any:
    """The value a ``StyleMap`` (as a dict) gives a piece of fields ``own``: the map's entry
    for the piece's field, else the default (None when there is none)."""
    key = own.get(rule["by"])
    for given, value in rule["map"].items():
        if key is not None and str(given) == str(key):
            return value
    return rule.get("default")
