"""The whole spec format in one place: typed models that validate and explain themselves.

``game.yaml`` is a ``GameSpec``; every other YAML file in a game folder is a component whose
``kind`` picks its model from ``COMPONENT_KINDS``. Field descriptions become the JSON Schema
that ``pnp schema`` writes for editors.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)

from generator.model.sizes import card_sizes, paper_sizes
from generator.paths import relative_problem

MAX_COPIES = 1000
MAX_SIZE_MM = 1000.0
MAX_BOARD_ITEMS = 5000  # places, connections, labels and icons drawn on one board
MAX_SHEET_TEXT = 100_000  # characters of a reference sheet: about thirty pages

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


def _relative(what: str) -> Callable[[str], str]:
    """A validator: a name (of a ``what``) must stay inside the folders it is looked up in."""

    def check(value: str) -> str:
        problem = relative_problem(value)
        if problem:
            raise ValueError(f"{what} '{value}' {problem}")
        return value

    return check


TemplateName = Annotated[
    str,
    StringConstraints(max_length=200),
    AfterValidator(_relative("template name")),
    Field(description="a template file under the game's templates/ or the shared templates/"),
]
FileName = Annotated[
    str,
    StringConstraints(max_length=200),
    AfterValidator(_relative("file name")),
    Field(description="a file in the game folder, e.g. fonts/MyFace-Regular.ttf"),
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


class PlayerColour(StrictModel):
    """A player colour: its id, printed name and colour."""

    name: Slug
    label: str = Field(min_length=1, description="the colour's printed name")
    colour: Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")] = Field(
        description="'#rrggbb'"
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
    """One face of a game's own font: a TrueType file in the game folder, used in templates
    and sheets by its family name."""

    family: Annotated[str, StringConstraints(min_length=1, max_length=80)] = Field(
        description='the name templates use: font-family="..."'
    )
    file: FileName
    weight: Literal["normal", "bold"] = "normal"
    style: Literal["normal", "italic"] = "normal"


Hex = Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")]


class Style(StrictModel):
    """How the stock templates draw a component: colours, fonts, frame and back pattern. Set
    in ``game.yaml`` for the whole game and in a component to differ from it; unset keys keep
    the defaults, so two games look alike only if they say so."""

    accent: Hex = Field(default="#2f4f7f", description="frame, title band and value marks")
    paper: Hex = Field(default="#fbf7ee", description="the piece's background")
    ink: Hex = Field(default="#222222", description="text")
    light: Hex = Field(default="#ffffff", description="text on the accent colour")
    font: str = Field(default="sans-serif", min_length=1, max_length=64, description="text font")
    title_font: str | None = Field(
        default=None, max_length=64, description="title font (default: the text font)"
    )
    frame: Literal["rounded", "square", "double", "none"] = Field(
        default="rounded", description="the border inside the cut line"
    )
    pattern: Literal["diamonds", "dots", "stripes", "plain"] = Field(
        default="diamonds", description="the pattern of card backs"
    )
    art_fit: Literal["cover", "contain"] = Field(
        default="cover", description="art fills its frame, cropped (cover) or whole (contain)"
    )
    icons: str = Field(
        default="icons.svg.j2",
        description="the template whose macro icon(name) draws :name: in texts",
    )


class GameSpec(StrictModel):
    """``game.yaml``: what the game is and the counts its rulebook states."""

    title: str = Field(min_length=1, description="the game's title, printed on every pack")
    players: str | int = Field(description="number of players, e.g. '2-4'")
    designer: str | None = Field(default=None, description="the game's designer (PDF author)")
    rulebook: str | None = Field(default=None, description="where the counts come from")
    authored: str | None = Field(
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
        if not re.fullmatch(r"\d+(\s*[-–]\s*\d+|\+)?", text):
            raise ValueError("give a number, a range such as '2-4', or '1+'")
        return text


def merged_style(game: Style, component: Style) -> dict[str, Any]:
    """The style a stock template gets: the defaults, then what the game sets, then what the
    component sets."""
    merged = {**game.model_dump(), **component.model_dump(exclude_unset=True)}
    merged["title_font"] = merged["title_font"] or merged["font"]
    return merged


class Entry(BaseModel):
    """One kind of piece in a component. Keys besides the reserved ones are the piece's own
    fields, passed to the templates (``card.<key>``, ``token.<key>``)."""

    model_config = ConfigDict(extra="allow")

    name: Slug

    @model_validator(mode="after")
    def _field_names(self) -> Entry:
        for key in self.model_extra or {}:
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
                raise ValueError(
                    f"field '{key}' cannot be used in a template; "
                    "use letters, digits and underscores"
                )
        return self

    def fields(self) -> dict[str, Any]:
        """The entry's own fields (everything that is not a reserved key)."""
        return dict(self.model_extra or {})


class CardSpec(Entry):
    """One kind of card in a deck."""

    count: Count
    group: Slug | None = Field(
        default=None, description="also count this card under '<deck>/<group>'"
    )


def _parse_series(value: Any) -> Any:
    """'1-9' → [1, ..., 9]; '2,4,6' → [2, 4, 6]; a list stays as it is."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(\d+)\s*[-–]\s*(\d+)\s*", value)
        if match:
            low, high = int(match[1]), int(match[2])
            if high < low or high - low >= MAX_COPIES:
                raise ValueError(f"'{value}' is not a rising range such as '1-9'")
            return list(range(low, high + 1))
        try:
            return [int(v) for v in value.split(",")]
        except ValueError:
            raise ValueError(f"'{value}' is not a series; write '1-9' or '1,2,5'") from None
    return value


Series = Annotated[
    list[int],
    BeforeValidator(_parse_series, json_schema_input_type=str | list[int]),
    Field(min_length=1, description="numbered values: '1-9', '2,4,6' or a list"),
]


class CountedEntry(Entry):
    """An entry printed ``count`` times, or ``per_player`` times in every player colour."""

    count: Count | None = None
    per_player: Count | None = Field(
        default=None, description="copies in each player colour of game.yaml's 'colours'"
    )
    group: Slug | None = Field(
        default=None, description="also count this entry under '<component>/<group>'"
    )

    def _one_count(self, allowed: int) -> None:
        given = [k for k in ("count", "per_player", "counts") if getattr(self, k, None)]
        if len(given) != allowed:
            raise ValueError(
                f"'{self.name}' needs exactly one of count, per_player"
                + (" or counts (with series)" if hasattr(self, "counts") else "")
                + (f"; it has {', '.join(given)}" if given else "")
            )


class TokenEntry(CountedEntry):
    """One kind of token; a numbered ``series`` makes one kind per value."""

    series: Series | None = None
    counts: list[Count] | None = Field(
        default=None, description="one count per value of the series, in order"
    )

    @model_validator(mode="after")
    def _counts(self) -> TokenEntry:
        self._one_count(1)
        if self.counts is not None:
            if self.series is None:
                raise ValueError(f"'{self.name}' has counts but no series to give them to")
            if len(self.counts) != len(self.series):
                raise ValueError(
                    f"'{self.name}' has {len(self.counts)} counts for {len(self.series)} values"
                )
        return self


class DieEntry(CountedEntry):
    """One kind of printed die: six faces, each a value or a mapping of fields."""

    faces: list[Any] = Field(default=[1, 2, 3, 4, 5, 6], min_length=6, max_length=6)

    @model_validator(mode="after")
    def _counts(self) -> DieEntry:
        self._one_count(1)
        return self


class StandeeEntry(CountedEntry):
    """One standee, printed ``count`` times or ``per_player`` times in every colour."""

    @model_validator(mode="after")
    def _counts(self) -> StandeeEntry:
        self._one_count(1)
        return self


class ComponentBase(StrictModel):
    """What every component has: an id, a printed title, templates and shared fields."""

    id: Slug | None = Field(default=None, description="component id; default: the file name")
    title: str = Field(min_length=1, description="the component's name as printed")
    authored: str | None = Field(
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

    kind_key: ClassVar[str] = ""

    @property
    def entries(self) -> list[Entry]:
        """The component's entries, whatever the kind calls them."""
        return list(getattr(self, self.kind_key, []))

    def templates(self) -> dict[str, str]:
        """Spec key → template name, for every template this component uses."""
        keys = ("face", "back", "header", "icons")
        return {k: getattr(self, k) for k in keys if getattr(self, k, None)}


def _unique(cls: type, entries: list[Entry]) -> list[Entry]:
    seen: set[str] = set()
    for entry in entries:
        if entry.name in seen:
            raise ValueError(f"two entries are named '{entry.name}'; names must differ")
        seen.add(entry.name)
    return entries


class Tally(StrictModel):
    """Symbols counted over every printed copy of a deck: e.g. the chocolate pieces of each
    colour in a field that maps a card's grid as text."""

    field: str = Field(description="the card field whose text holds the symbols")
    symbols: dict[str, str] = Field(
        min_length=1, description="symbol → name, e.g. {D: dark, M: milk, W: white}"
    )


class DeckSpec(ComponentBase):
    """A deck of cards: a size, a face and back template, and the cards with their counts."""

    kind: Literal["deck"]
    face: TemplateName
    size: CardSize
    bleed: float = Field(default=3.0, ge=0, le=10, description="bleed in mm (art beyond trim)")
    back: TemplateName | None = Field(default=None, description="omit for single-sided cards")
    cards: list[CardSpec] = Field(min_length=1, max_length=MAX_COPIES)

    tally: Tally | None = Field(
        default=None, description="symbols to count over the whole deck, shown by pnp list"
    )

    kind_key: ClassVar[str] = "cards"
    _unique_names = field_validator("cards")(_unique)


Shape = Literal["circle", "square", "rounded", "hex-flat", "hex-pointy"]


def _parse_token_size(value: Any) -> Any:
    """A token size: one number (diameter, side, across the flats) or 'W x H' for rectangles."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"w": value, "h": value}
    if isinstance(value, str):
        match = _SIZE_RE.match(value)
        if match:
            return {"w": float(match[1]), "h": float(match[2])}
        try:
            return {"w": float(value), "h": float(value)}
        except ValueError:
            raise ValueError(f"token size '{value}' is not a number of mm or 'W x H'") from None
    return _parse_size(value)


TokenSize = Annotated[
    Size,
    BeforeValidator(_parse_token_size, json_schema_input_type=float | str | list[float] | Size),
    Field(
        description="mm: a circle's diameter, a square's side, a hexagon's width across the "
        "flats, or 'W x H' for a rounded rectangle"
    ),
]


class TokenSpec(ComponentBase):
    """Tokens and counters: a shape and size, and the kinds with their counts."""

    kind: Literal["tokens"]
    face: TemplateName
    shape: Shape
    size: TokenSize
    corner: float = Field(default=2.0, ge=0, le=50, description="corner radius of 'rounded'")
    bleed: float = Field(default=1.0, ge=0, le=5, description="bleed in mm beyond the cut line")
    back: TemplateName | None = Field(default=None, description="omit for single-sided tokens")
    tokens: list[TokenEntry] = Field(min_length=1, max_length=MAX_COPIES)

    kind_key: ClassVar[str] = "tokens"
    _unique_names = field_validator("tokens")(_unique)

    @field_validator("size")
    @classmethod
    def _shape_size(cls, size: Size, info: ValidationInfo) -> Size:
        shape = info.data.get("shape")
        if shape in ("circle", "square", "hex-flat", "hex-pointy") and size.w != size.h:
            raise ValueError(f"a {shape} token takes one size in mm, not 'W x H'")
        return size


class DiceSpec(ComponentBase):
    """Dice printed as foldable cube nets: the face template is drawn on each of six faces."""

    kind: Literal["dice"]
    face: TemplateName
    size: float = Field(default=16.0, ge=8, le=60, description="edge of a face in mm")
    dice: list[DieEntry] = Field(min_length=1, max_length=MAX_COPIES)

    kind_key: ClassVar[str] = "dice"
    _unique_names = field_validator("dice")(_unique)


class TokenPagesSpec(ComponentBase):
    """Whole pages of numbered round tokens, each page titled and holding its own set."""

    kind: Literal["token-pages"]
    face: TemplateName
    back: TemplateName | None = Field(
        default=None,
        description="template of every token's back: one back for all, so tokens drawn blind "
        "do not show their faces through the paper",
    )
    size: float = Field(default=24.0, ge=8, le=100, description="diameter of a token in mm")
    bleed: float = Field(default=0.0, ge=0, le=5)
    header: TemplateName = Field(description="template of a page's title band (title, legend)")
    header_height: float = Field(default=18.0, ge=5, le=60, description="mm")
    page_title: str = Field(description="a page's title; {n} is the page number")
    pages: Annotated[int, Field(strict=True, ge=1, le=200)]
    values: Series
    each: Annotated[int, Field(strict=True, ge=1, le=100)] = Field(
        description="tokens of each value on every page"
    )
    name: Slug = Field(default="token", description="kind name; a value's kind is name-value")


class StandeeSpec(ComponentBase):
    """Fold-over standees: front and back art on one strip with a fold over the top and a base
    tab at each end, printed single-sided and packed onto the counter sheets."""

    kind: Literal["standees"]
    face: TemplateName
    back: TemplateName | None = Field(
        default=None, description="the other side; default: the face template again"
    )
    size: TokenSize = Field(description="the figure's width x height in mm, e.g. '30 x 50'")
    base: float = Field(default=15.0, ge=5, le=60, description="depth of each base tab, mm")
    standees: list[StandeeEntry] = Field(min_length=1, max_length=MAX_COPIES)

    kind_key: ClassVar[str] = "standees"
    _unique_names = field_validator("standees")(_unique)


# --- boards ---------------------------------------------------------------------------------
# Board coordinates are millimetres from the board's top-left corner, x right and y down, as
# in SVG and as a designer measures a board lying in front of them.

Point = Annotated[tuple[float, float], Field(description="[x, y] in mm from the top-left")]
Colour = Annotated[str, StringConstraints(pattern=r"^(#[0-9a-fA-F]{6}|none)$")]
LineStyle = Literal["solid", "dashed", "dotted", "double"]


class BoardGroup(StrictModel):
    """An area: regions shaded alike (e.g. the three regions that share a Support circle)."""

    name: Slug
    label: str | None = None
    fill: Colour = "#eeeeee"


class BoardRegion(StrictModel):
    """A named region of the map: a polygon, shaded by its group."""

    name: Slug
    label: str | None = None
    group: Slug | None = None
    polygon: list[Point] = Field(min_length=3)
    label_at: Point | None = Field(default=None, description="default: the polygon's centre")
    anchor: Point | None = Field(
        default=None, description="where lines and arrows meet the region; default: label_at"
    )
    label_size: float = Field(default=4.2, gt=0, le=60, description="font size in mm")
    label_colour: Colour = "#333333"
    fill: Colour | None = None
    tags: list[Slug] = Field(default_factory=list, description="e.g. dock, workshop")


class RegionGrid(StrictModel):
    """Regions generated from a square or hex layout, named ``{prefix}-{col}-{row}``."""

    prefix: Slug
    layout: Literal["square", "hex-flat", "hex-pointy"]
    origin: Point
    size: float = Field(gt=0, description="cell side, or hex width across the flats")
    cols: int = Field(ge=1, le=60)
    rows: int = Field(ge=1, le=60)
    group: Slug | None = None


class BoardSpace(StrictModel):
    """A space pieces are placed on: a circle or square at a point."""

    name: Slug
    shape: Literal["circle", "square"] = "circle"
    at: Point
    size: float = Field(default=12.0, gt=0, le=200, description="diameter or side in mm")
    h: float | None = Field(
        default=None, gt=0, le=400, description="a square's height: a rectangle"
    )
    style: LineStyle = "solid"
    label: str | None = None
    label_pos: Literal["inside", "above", "below"] = "inside"
    label_size: float | None = Field(default=None, gt=0, le=60, description="mm")
    fill: Colour = "#ffffff"
    icon: str | None = None
    group: Slug | None = None


class SpaceRow(StrictModel):
    """Spaces placed evenly along a straight line or a polyline path."""

    name: Slug = Field(description="each space is named '{name}-{n}' with n from 1")
    path: list[Point] = Field(min_length=2)
    count: int = Field(ge=1, le=500)
    shape: Literal["circle", "square"] = "square"
    size: float = Field(default=12.0, gt=0, le=200)
    style: LineStyle = "solid"
    labels: list[str] | None = Field(default=None, description="one label per space")
    fill: Colour = "#ffffff"
    group: Slug | None = None


class Track(StrictModel):
    """Numbered spaces along a line (or around the board's edge with ``around``)."""

    name: Slug
    values: Series
    path: list[Point] | None = Field(default=None, min_length=2)
    around: float | None = Field(default=None, ge=0, description="inset from the board edge")
    size: float = Field(default=12.0, gt=0, le=100)
    shape: Literal["circle", "square"] = "square"
    fill: Colour = "#ffffff"
    count: int | None = Field(default=None, description="how many spaces the track must have")
    marks: dict[int, str] = Field(default_factory=dict, description="value → icon name")

    @model_validator(mode="after")
    def _placed(self) -> Track:
        if (self.path is None) == (self.around is None):
            raise ValueError(f"track '{self.name}' needs either a path or 'around'")
        if self.count is not None and self.count != len(self.values):
            raise ValueError(
                f"track '{self.name}' claims {self.count} spaces but its values make "
                f"{len(self.values)}"
            )
        missing = [v for v in self.marks if v not in self.values]
        if missing:
            raise ValueError(f"track '{self.name}' marks values it does not have: {missing}")
        return self


class BoardTable(StrictModel):
    """A table printed on the board: a header row and rows of text cells."""

    name: Slug
    at: Point
    widths: list[float] = Field(min_length=1, description="column widths in mm")
    row_height: float = Field(default=8.0, gt=0)
    header: list[str] | None = None
    rows: list[list[str]] = Field(min_length=1)
    font_size: float = Field(default=3.0, gt=0, le=30, description="mm")
    align: Literal["start", "middle"] = "middle"
    fill: Colour = "#ffffff"
    header_fill: Colour = "#dddddd"

    @model_validator(mode="after")
    def _columns(self) -> BoardTable:
        for i, row in enumerate([*(r for r in [self.header] if r), *self.rows]):
            if len(row) != len(self.widths):
                raise ValueError(
                    f"table '{self.name}' row {i + 1} has {len(row)} cells for "
                    f"{len(self.widths)} columns"
                )
        return self


class BoardIcon(StrictModel):
    """An icon from the game's icon macros, optionally with an arrow to a region."""

    icon: str
    at: Point
    size: float = Field(default=10.0, gt=0, le=200)
    points_to: Slug | None = None


class BoardLabel(StrictModel):
    """Free text on the board."""

    text: str
    at: Point
    size: float = Field(default=4.0, gt=0, le=60, description="font size in mm")
    anchor: Literal["start", "middle", "end"] = "middle"
    bold: bool = False
    rotate: float = 0.0
    colour: Colour = "#222222"
    width: float | None = Field(default=None, gt=0, description="wrap lines to this width, mm")


class Connection(StrictModel):
    """A line between two spaces or regions (or off the board to a point)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: Slug = Field(alias="from")
    to: Slug | None = None
    to_point: Point | None = None
    via: list[Point] = Field(default_factory=list)
    style: LineStyle = "dashed"
    end: Literal["none", "square", "arrow"] = "none"

    @model_validator(mode="after")
    def _target(self) -> Connection:
        if (self.to is None) == (self.to_point is None):
            raise ValueError("a connection needs either 'to' (a name) or 'to_point'")
        return self


def _grid_names(grid: RegionGrid) -> list[str]:
    return [
        f"{grid.prefix}-{c}-{r}" for c in range(1, grid.cols + 1) for r in range(1, grid.rows + 1)
    ]


class BoardSpec(ComponentBase):
    """A board, player display or tray described by its spaces, drawn with svgwrite and
    tiled across pages when it is larger than the paper."""

    kind: Literal["board"]
    size: CardSize
    bleed: float = Field(default=0.0, ge=0, le=10)
    background: Colour = "#ffffff"
    border: float = Field(default=0.6, ge=0, le=5, description="outline width in mm")
    copies: int = Field(default=1, ge=1, le=20, description="identical boards to print")
    icons: TemplateName | None = Field(
        default=None, description="template with a macro icon(name) drawing a 20 x 20 icon"
    )
    groups: list[BoardGroup] = Field(default_factory=list)
    regions: list[BoardRegion] = Field(default_factory=list)
    grids: list[RegionGrid] = Field(default_factory=list)
    spaces: list[BoardSpace] = Field(default_factory=list)
    rows: list[SpaceRow] = Field(default_factory=list)
    tracks: list[Track] = Field(default_factory=list)
    tables: list[BoardTable] = Field(default_factory=list)
    icons_at: list[BoardIcon] = Field(default_factory=list)
    labels: list[BoardLabel] = Field(default_factory=list)
    connections: list[Connection] = Field(default_factory=list)

    def problems(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Structural mistakes, each with where it is in the spec: a name used twice, a
        reference to something not on the board, a group that does not exist.

        Places (regions, spaces, and the spaces grids, rows and tracks make) share one set of
        names; groups, rows and tables are named apart. A track may be given in segments under
        one name as long as their values do not repeat."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        places = sum(g.cols * g.rows for g in self.grids) + len(self.regions) + len(self.spaces)
        places += sum(r.count for r in self.rows) + sum(len(t.values) for t in self.tracks)
        drawn = places + len(self.connections) + len(self.labels) + len(self.icons_at)
        if drawn > MAX_BOARD_ITEMS:
            key = "grids" if self.grids else "regions"
            return [
                (
                    (key,),
                    f"the board holds {drawn:,} places, connections, labels and icons; a board "
                    f"may hold {MAX_BOARD_ITEMS:,} (split it into several boards)",
                )
            ]
        for named in (self._named(), *self._lists("groups", "rows", "tables")):
            seen: set[str] = set()
            for loc, name in named:
                if name in seen:
                    out.append((loc, f"the name '{name}' is used twice on this board; rename one"))
                seen.add(name)
        groups = {g.name for g in self.groups}
        for key in ("regions", "grids", "spaces", "rows"):
            for i, item in enumerate(getattr(self, key)):
                if item.group and item.group not in groups:
                    out.append(
                        (
                            (key, i, "group"),
                            f"group '{item.group}' is not among the "
                            f"board's groups: {', '.join(sorted(groups)) or 'none'}",
                        )
                    )
        names = set(self.names())
        for i, c in enumerate(self.connections):
            for end, key in ((c.from_, "from"), (c.to, "to")):
                if end and end not in names:
                    out.append(
                        (("connections", i, key), f"no space or region named '{end}' on this board")
                    )
        for i, icon in enumerate(self.icons_at):
            if icon.points_to and icon.points_to not in names:
                out.append(
                    (
                        ("icons_at", i, "points_to"),
                        f"icon '{icon.icon}' points to "
                        f"'{icon.points_to}', which is not on this board",
                    )
                )
        return out

    def _named(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every place on the board, with where it is given: regions, spaces, and the spaces
        that grids, rows and tracks make."""
        out: list[tuple[tuple[str | int, ...], str]] = []
        for key in ("regions", "spaces"):
            out += [((key, i, "name"), item.name) for i, item in enumerate(getattr(self, key))]
        for i, grid in enumerate(self.grids):
            out += [(("grids", i), n) for n in _grid_names(grid)]
        for i, row in enumerate(self.rows):
            out += [(("rows", i), f"{row.name}-{n}") for n in range(1, row.count + 1)]
        for i, track in enumerate(self.tracks):
            out += [(("tracks", i), f"{track.name}-{v}") for v in track.values]
        return out

    def _lists(self, *keys: str) -> list[list[tuple[tuple[str | int, ...], str]]]:
        return [
            [((key, i, "name"), item.name) for i, item in enumerate(getattr(self, key))]
            for key in keys
        ]

    def names(self) -> list[str]:
        """Every named thing on the board: regions, spaces, row and track spaces."""
        out = [r.name for r in self.regions] + [s.name for s in self.spaces]
        for grid in self.grids:
            out += _grid_names(grid)
        for row in self.rows:
            out += [f"{row.name}-{n}" for n in range(1, row.count + 1)]
        for track in self.tracks:
            out += [f"{track.name}-{v}" for v in track.values]
        return out


# --- sheets ---------------------------------------------------------------------------------
# Text in sheets may carry inline icons as short codes (":club:"), drawn by the game's icon
# macros at the size and baseline of the text around them.


class SheetTable(StrictModel):
    """A table: given rows, or one row per card of a deck (``from``), its fields as columns."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    header: list[str] | None = None
    rows: list[list[str]] = Field(default_factory=list)
    widths: list[float] | None = Field(default=None, description="relative column widths")
    from_: Slug | None = Field(default=None, alias="from", description="a deck's id")
    columns: list[str] = Field(
        default_factory=list, description="with 'from': the card fields shown, in order"
    )
    font_size: float | None = Field(default=None, gt=0, le=40, description="pt")

    @model_validator(mode="after")
    def _source(self) -> SheetTable:
        if bool(self.rows) == bool(self.from_):
            raise ValueError("a table needs either 'rows' or 'from' (a deck id), not both")
        if self.from_ and not self.columns:
            raise ValueError("a table 'from' a deck needs 'columns': the card fields to show")
        width = len(self.columns) if self.from_ else len(self.rows[0])
        for i, row in enumerate([*(r for r in [self.header] if r), *self.rows]):
            if len(row) != width:
                raise ValueError(f"table row {i + 1} has {len(row)} cells, not {width}")
        if self.widths and len(self.widths) != width:
            raise ValueError(f"a table with {width} columns needs {width} widths")
        return self


class SheetBlock(StrictModel):
    """One block of a section: a subheading, a paragraph, a bullet list or a table."""

    heading: str | None = None
    text: str | None = None
    bullets: list[str] | None = None
    table: SheetTable | None = None

    @model_validator(mode="after")
    def _one(self) -> SheetBlock:
        given = [k for k in ("heading", "text", "bullets", "table") if getattr(self, k)]
        if len(given) != 1:
            raise ValueError(
                "a block is exactly one of heading, text, bullets or table"
                + (f"; this one has {', '.join(given)}" if given else "")
            )
        return self


class SheetSection(StrictModel):
    """A headed section of a sheet."""

    heading: str
    colour: Colour = "#333333"
    blocks: list[SheetBlock] = Field(min_length=1)
    keep_together: bool = Field(default=False, description="start a new column if it is split")


class SheetSpec(ComponentBase):
    """A reference sheet: headed sections of paragraphs, bullets and tables flowing through
    columns and pages, shrunk to fit ``pages`` when that is given."""

    kind: Literal["sheet"]
    columns: int = Field(default=2, ge=1, le=4)
    font_size: float = Field(default=9.0, ge=4, le=30, description="body text, pt")
    min_font_size: float = Field(default=6.5, ge=4, le=30, description="shrink no further")
    pages: int | None = Field(default=None, ge=1, le=50, description="the most pages it may take")
    icons: TemplateName | None = Field(default=None, description="macro icon(name) for :codes:")
    sections: list[SheetSection] = Field(min_length=1)
    copies: int = Field(default=1, ge=1, le=20)

    @model_validator(mode="after")
    def _sizes(self) -> SheetSpec:
        if self.min_font_size > self.font_size:
            raise ValueError("min_font_size is larger than font_size")
        text = sum(len(str(value)) for value in _leaves(self.model_dump()["sections"]))
        if text > MAX_SHEET_TEXT:
            raise ValueError(
                f"the sections hold {text:,} characters; a sheet may hold {MAX_SHEET_TEXT:,} "
                "(split it into several sheets)"
            )
        return self


def _leaves(data: Any) -> list[Any]:
    """Every value at the ends of nested lists and mappings."""
    if isinstance(data, dict):
        return [leaf for value in data.values() for leaf in _leaves(value)]
    if isinstance(data, list):
        return [leaf for value in data for leaf in _leaves(value)]
    return [data]


COMPONENT_KINDS: dict[str, type[ComponentBase]] = {
    "deck": DeckSpec,
    "tokens": TokenSpec,
    "dice": DiceSpec,
    "token-pages": TokenPagesSpec,
    "board": BoardSpec,
    "sheet": SheetSpec,
    "standees": StandeeSpec,
}
ComponentSpec = (
    DeckSpec | TokenSpec | DiceSpec | TokenPagesSpec | BoardSpec | SheetSpec | StandeeSpec
)
