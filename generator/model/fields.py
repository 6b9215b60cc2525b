"""The building blocks of the spec format: the strict base model, the limits every spec keeps,
and the value types fields are made of (ids, counts, sizes, colours, template and file names,
numbered series, points on a board)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    StringConstraints,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError

from generator.i18n.plurals import Forms
from generator.model.sizes import card_sizes
from generator.paths import RELATIVE_PATTERN, relative_problem

MAX_COPIES = 1000
MAX_SIZE_MM = 1000.0


class Printed:
    """The mark of a field whose words are printed: its text goes to translators, is checked
    for fit and glyphs, and ``pnp schema`` says so (``"x-printed": true``). Extraction finds
    the strings to translate by this mark, not by what a value looks like."""

    def __repr__(self) -> str:
        return "Printed()"


class Counted(Printed):
    """The mark of printed words that take a number (``{n}``, e.g. a token page's title):
    translators give a text for each plural form of their language (a gettext plural entry),
    and the engine prints the one the number asks for (``i18n.plurals.Forms``)."""

    def __repr__(self) -> str:
        return "Counted()"


def _forms(value: Any) -> Forms:
    """A counted field's value: the spec's one text, or the forms its translation has."""
    if isinstance(value, Forms):
        return value
    if isinstance(value, str):
        return Forms((value,))
    raise PydanticCustomError("string_type", "Input should be a valid string")


PRINTED = Printed()
Text = Annotated[str, PRINTED, Field(json_schema_extra={"x-printed": True})]
CountedText = Annotated[
    Forms,
    PlainValidator(_forms),
    WithJsonSchema({"type": "string"}),  # what a spec writes; Forms is what it is read as
    Counted(),
    Field(json_schema_extra={"x-printed": True}),
]

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
    Field(
        description="a template file under the game's templates/ or the shared templates/",
        json_schema_extra={"pattern": RELATIVE_PATTERN},
    ),
]
FileName = Annotated[
    str,
    StringConstraints(max_length=200),
    AfterValidator(_relative("file name")),
    Field(
        description="a file in the game folder, e.g. fonts/MyFace-Regular.ttf",
        json_schema_extra={"pattern": RELATIVE_PATTERN},
    ),
]


SIZE_PATTERN = r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(mm)?\s*$"
_SIZE_RE = re.compile(SIZE_PATTERN)
# what the schema says of the forms a value may be written in (``json_schema_input_type``):
# a size 'W x H', a number as Python's float() reads it, two numbers
SizeText = Annotated[str, StringConstraints(pattern=SIZE_PATTERN)]
NUMBER_PATTERN = (
    r"^\s*[-+]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][-+]?\d+)?\s*$"
)
NumberText = Annotated[str, StringConstraints(pattern=NUMBER_PATTERN)]
TwoNumbers = Annotated[list[float], Field(min_length=2, max_length=2)]


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


# in JSON Schema, a value Python would call false: what "given" is not
FALSY: dict[str, Any] = {"enum": [None, False, 0, "", [], {}]}


def one_given(*keys: str) -> dict[str, Any]:
    """JSON Schema for a rule a validator keeps: exactly one of ``keys`` is given (a true
    value), so that ``pnp schema`` says it too."""
    return {"oneOf": [{"required": [k], "properties": {k: {"not": FALSY}}} for k in keys]}


class StrictModel(BaseModel):
    """A spec model: unknown keys are mistakes, not silently ignored."""

    model_config = ConfigDict(extra="forbid", defer_build=True)


class Size(StrictModel):
    """A trim size in millimetres."""

    w: float = Field(gt=0, le=MAX_SIZE_MM, description="width in mm")
    h: float = Field(gt=0, le=MAX_SIZE_MM, description="height in mm")
    name: str | None = Field(default=None, description="the named size this came from")


CardSize = Annotated[
    Size,
    BeforeValidator(
        _parse_size,
        json_schema_input_type=Literal[tuple(card_sizes())] | SizeText | TwoNumbers | Size,
    ),
    Field(description="a named size (poker, bridge, mini-euro, ...) or 'W x H' in mm"),
]


def _hex_colour(value: Any) -> Any:
    """A colour must be '#rrggbb'; a colour name (or one close to a name) is refused with
    the hex code to write instead."""
    if not isinstance(value, str) or re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        return value
    raise ValueError(colour_hint(value))


def colour_hint(value: str) -> str:
    """Why ``value`` is no '#rrggbb' colour, and what to write instead."""
    from generator.svg.values import NAMED_COLOURS

    word = value.strip().lower().replace(" ", "")
    short = re.fullmatch(r"#?([0-9a-fA-F])([0-9a-fA-F])([0-9a-fA-F])", value.strip())
    if short:
        return f"'{value}' is not '#rrggbb'; write '#{''.join(c * 2 for c in short.groups())}'"
    if re.fullmatch(r"[0-9a-fA-F]{6}", word):
        return f"'{value}' is not '#rrggbb'; write '#{word}' (with the #)"
    if word in NAMED_COLOURS:
        return f"'{value}' is a colour name; write its code '#{NAMED_COLOURS[word]}'"
    close = difflib.get_close_matches(word, NAMED_COLOURS, n=1, cutoff=0.7)
    hint = f"; did you mean '{close[0]}' ('#{NAMED_COLOURS[close[0]]}')?" if close else ""
    return f"'{value}' is not a colour; write it as '#rrggbb', e.g. '#b8322a'{hint}"


Hex = Annotated[
    str,
    StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$"),
    BeforeValidator(_hex_colour),  # after the pattern: run first, the schema keeps the pattern
    Field(description="a colour, '#rrggbb'"),
]


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


SERIES_PATTERN = (
    r"^(?:\s*\d+\s*[-–]\s*\d+\s*|\s*[-+]?\d+(?:_\d+)*\s*(?:,\s*[-+]?\d+(?:_\d+)*\s*)*)$"
)
Series = Annotated[
    list[int],
    BeforeValidator(
        _parse_series,
        json_schema_input_type=Annotated[int, Strict()]
        | Annotated[str, StringConstraints(pattern=SERIES_PATTERN)]
        | list[int],
    ),
    Field(min_length=1, description="numbered values: '1-9', '2,4,6' or a list"),
]


Point = Annotated[tuple[float, float], Field(description="[x, y] in mm from the top-left")]
Colour = Annotated[str, StringConstraints(pattern=r"^(#[0-9a-fA-F]{6}|none)$")]
LineStyle = Literal["solid", "dashed", "dotted", "double"]
