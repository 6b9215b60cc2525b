"""``kind: standees``: fold-over standees, front and back art on one strip with a base tab
at each end."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from generator.model.component import ComponentBase, unique_names
from generator.model.entries import CountedEntry
from generator.model.fields import MAX_COPIES, Size, TemplateName
from generator.model.kinds.tokens import TokenSize


class StandeeEntry(CountedEntry):
    """One standee, printed ``count`` times or ``per_player`` times in every colour."""

    @model_validator(mode="after")
    def _counts(self) -> StandeeEntry:
        self._one_count(1)
        return self


class StandeeSpec(ComponentBase):
    """Fold-over standees: front and back art on one strip with a fold over the top and a base
    tab at each end, printed single-sided and packed onto the counter sheets."""

    kind: Literal["standees"] = Field(description="what this file describes: standees")
    face: TemplateName
    back: TemplateName | None = Field(
        default=None, description="the other side; default: the face template again"
    )
    size: TokenSize = Field(description="the figure's width x height in mm, e.g. '30 x 50'")
    base: float = Field(default=15.0, ge=5, le=60, description="depth of each base tab, mm")
    standees: list[StandeeEntry] = Field(
        min_length=1,
        max_length=MAX_COPIES,
        description="the figures, each with its count, or {from: a data file}",
    )

    noun: ClassVar[str] = "standee"
    shop: ClassVar[bool] = True
    entries_key: ClassVar[str] = "standees"
    _unique_names = field_validator("standees")(unique_names)

    def footprint(self) -> tuple[Size, bool] | None:
        """A standee covers its width by its two base tabs, folded out one to each side."""
        return Size(w=self.size.w, h=2 * self.base), False
