"""``kind: tokens``: tokens and counters of one shape and size (circles, squares, rounded
rectangles, hexagons), each kind with its count, or one kind per value of a numbered series."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    ValidationInfo,
    field_validator,
    model_validator,
)

from generator.model.component import ComponentBase, unique_names
from generator.model.entries import CountedEntry, entry_schema
from generator.model.fields import (
    _SIZE_RE,
    MAX_COPIES,
    MAX_SIZE_MM,
    Count,
    NumberText,
    Series,
    Size,
    SizeText,
    TemplateName,
    TwoNumbers,
    _parse_size,
)


class TokenEntry(CountedEntry):
    """One kind of token; a numbered ``series`` makes one kind per value."""

    model_config = ConfigDict(json_schema_extra=lambda schema, cls: _token_schema(schema, cls))
    given_one: ClassVar[tuple[str, ...]] = ("count", "per_player", "counts")
    series: Series | None = Field(
        default=None, description="values such as 1-9: one kind per value, with token.value"
    )
    counts: list[Count] | None = Field(
        default=None, description="one count per value of the series, in order"
    )

    def series_values(self) -> list[int]:
        """The values of its numbered series, if it has one."""
        return list(self.series or [])

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


def _token_schema(schema: dict[str, Any], cls: type) -> None:
    """An entry's schema, and its counts given only with a series (as ``_counts`` says)."""
    entry_schema(schema, cls)
    schema["dependentRequired"] = {"counts": ["series"]}


Shape = Literal["circle", "square", "rounded", "hex-flat", "hex-pointy"]
UNCUT = ("circle", "hex-flat", "hex-pointy")  # shapes no straight cut right across frees


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
    BeforeValidator(
        _parse_token_size,
        json_schema_input_type=Annotated[float, Strict(), Field(gt=0, le=MAX_SIZE_MM)]
        | SizeText
        | NumberText
        | TwoNumbers
        | Size,
    ),
    Field(
        description="mm: a circle's diameter, a square's side, a hexagon's width across the "
        "flats, or 'W x H' for a rounded rectangle"
    ),
]


class TokenSpec(ComponentBase):
    """Tokens and counters: a shape and size, and the kinds with their counts."""

    kind: Literal["tokens"] = Field(description="what this file describes: tokens")
    face: TemplateName
    shape: Shape = Field(description="circle, square, rounded, hex-flat or hex-pointy")
    size: TokenSize
    corner: float = Field(default=2.0, ge=0, le=50, description="corner radius of 'rounded'")
    bleed: float = Field(default=1.0, ge=0, le=5, description="bleed in mm beyond the cut line")
    back: TemplateName | None = Field(default=None, description="omit for single-sided tokens")
    butt: bool = Field(
        default=False,
        description="gang-cut: square or rounded counters touch in one block, bleed only round "
        "it and crop marks at every cut, freed by straight cuts right across (no cut lines; "
        "circles and hexagons cannot be cut so)",
    )
    tokens: list[TokenEntry] = Field(
        min_length=1,
        max_length=MAX_COPIES,
        description="the kinds of token, each with its count, or {from: a data file}",
    )

    noun: ClassVar[str] = "token"
    shop: ClassVar[bool] = True
    clipped: ClassVar[bool] = True
    entries_key: ClassVar[str] = "tokens"
    _unique_names = field_validator("tokens")(unique_names)

    def footprint(self) -> tuple[Size, bool] | None:
        """A token covers its own size."""
        return self.size, self.shape == "circle"

    @field_validator("size")
    @classmethod
    def _shape_size(cls, size: Size, info: ValidationInfo) -> Size:
        shape = info.data.get("shape")
        if shape in ("circle", "square", "hex-flat", "hex-pointy") and size.w != size.h:
            raise ValueError(f"a {shape} token takes one size in mm, not 'W x H'")
        return size

    @field_validator("butt")
    @classmethod
    def _straight_cuts(cls, butt: bool, info: ValidationInfo) -> bool:
        shape = info.data.get("shape")
        if butt and shape in UNCUT:
            raise ValueError(
                f"only square and rounded tokens can be gang-cut: {shape} tokens cannot be "
                "parted by straight cuts right across the sheet (touching, they would leave no "
                "room to cut round each); leave butt out and they are cut along their shape"
            )
        return butt
