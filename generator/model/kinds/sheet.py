"""``kind: sheet``: a reference sheet of headed sections (paragraphs, bullet lists, tables,
icons inline in the text) flowing through columns and pages."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import ConfigDict, Field, model_validator

from generator.model.component import ComponentBase
from generator.model.entries import DesignRow
from generator.model.fields import Colour, Slug, StrictModel, TemplateName, Text, one_given
from generator.model.game import PlayerColour

MAX_SHEET_TEXT = 100_000  # characters of a reference sheet: about thirty pages

# --- sheets ---------------------------------------------------------------------------------
# Text in sheets may carry inline icons as short codes (":club:"), drawn by the game's icon
# macros at the size and baseline of the text around them.


class SheetTable(StrictModel):
    """A table: given rows, or one row per card of a deck (``from``), its fields as columns."""

    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, json_schema_extra=one_given("rows", "from")
    )

    header: list[Text] | None = Field(default=None, description="the header row's cells")
    rows: list[list[Text]] = Field(
        default_factory=list, description="the rows, one text per cell (or 'from' a deck)"
    )
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

    model_config = ConfigDict(
        extra="forbid", json_schema_extra=one_given("heading", "text", "bullets", "table")
    )

    heading: Text | None = Field(default=None, description="a subheading")
    text: Text | None = Field(default=None, description="a paragraph (**bold**, :icon:)")
    bullets: list[Text] | None = Field(default=None, description="a bullet list, one text each")
    table: SheetTable | None = Field(default=None, description="a table")

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

    heading: Text = Field(description="the section's heading (:icon: codes allowed)")
    colour: Colour = Field(default="#333333", description="the heading band's colour")
    blocks: list[SheetBlock] = Field(min_length=1, description="its paragraphs, lists and tables")
    keep_together: bool = Field(default=False, description="start a new column if it is split")


class SheetSpec(ComponentBase):
    """A reference sheet: headed sections of paragraphs, bullets and tables flowing through
    columns and pages, shrunk to fit ``pages`` when that is given."""

    kind: Literal["sheet"] = Field(description="what this file describes: sheet")
    columns: int = Field(default=2, ge=1, le=4, description="text columns on a page")
    font_size: float = Field(default=9.0, ge=4, le=30, description="body text, pt")
    min_font_size: float = Field(default=6.5, ge=4, le=30, description="shrink no further")
    pages: int | None = Field(default=None, ge=1, le=50, description="the most pages it may take")
    icons: TemplateName | None = Field(default=None, description="macro icon(name) for :codes:")
    sections: list[SheetSection] = Field(min_length=1, description="headed sections, in order")
    copies: int = Field(default=1, ge=1, le=20, description="how many of the sheet to print")

    noun: ClassVar[str] = "sheet"
    default_stock: ClassVar[str] = "paper"
    shop: ClassVar[bool] = True
    flowed: ClassVar[bool] = True

    def design_rows(self, name: str, colours: list[PlayerColour]) -> list[DesignRow]:
        """One design, the whole sheet, printed ``copies`` times."""
        return [DesignRow(None, 0, name, self.copies, {}, ())]

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
