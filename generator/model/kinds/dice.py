"""``kind: dice``: dice printed as cube nets to fold, each face drawn by the face template."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from generator.model.component import ComponentBase, unique_names
from generator.model.entries import CountedEntry
from generator.model.fields import MAX_COPIES, Size, TemplateName


class DieEntry(CountedEntry):
    """One kind of printed die: six faces, each a value or a mapping of fields."""

    faces: list[Any] = Field(
        default=[1, 2, 3, 4, 5, 6],
        min_length=6,
        max_length=6,
        description="the six faces: each a value or a mapping of fields for the face template",
    )

    @model_validator(mode="after")
    def _counts(self) -> DieEntry:
        self._one_count(1)
        return self


class DiceSpec(ComponentBase):
    """Dice printed as foldable cube nets: the face template is drawn on each of six faces."""

    kind: Literal["dice"] = Field(description="what this file describes: dice")
    face: TemplateName
    size: float = Field(default=16.0, ge=8, le=60, description="edge of a face in mm")
    dice: list[DieEntry] = Field(
        min_length=1,
        max_length=MAX_COPIES,
        description="the kinds of die, each with its count, or {from: a data file}",
    )

    noun: ClassVar[str] = "die"
    shop: ClassVar[bool] = True
    entries_key: ClassVar[str] = "dice"
    _unique_names = field_validator("dice")(unique_names)

    def footprint(self) -> tuple[Size, bool] | None:
        """A die covers a face."""
        return Size(w=self.size, h=self.size), False
