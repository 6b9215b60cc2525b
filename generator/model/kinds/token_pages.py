"""``kind: token-pages``: whole pages of numbered round tokens, every page a set of its own
under a title band, for games that draw tokens blind."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from generator.model.component import ComponentBase
from generator.model.entries import DesignRow
from generator.model.fields import CountedText, Series, Size, Slug, TemplateName
from generator.model.game import PlayerColour


class TokenPagesSpec(ComponentBase):
    """Whole pages of numbered round tokens, each page titled and holding its own set."""

    kind: Literal["token-pages"] = Field(description="what this file describes: token-pages")
    face: TemplateName
    back: TemplateName | None = Field(
        default=None,
        description="template of every token's back: one back for all, so tokens drawn blind "
        "do not show their faces through the paper",
    )
    size: float = Field(default=24.0, ge=8, le=100, description="diameter of a token in mm")
    bleed: float = Field(default=0.0, ge=0, le=5, description="bleed in mm beyond the cut line")
    header: TemplateName = Field(description="template of a page's title band (title, legend)")
    header_height: float = Field(default=18.0, ge=5, le=60, description="mm")
    page_title: CountedText = Field(description="a page's title; {n} is the page number")
    pages: Annotated[int, Field(strict=True, ge=1, le=200)] = Field(
        description="how many pages, each a whole set"
    )
    values: Series
    each: Annotated[int, Field(strict=True, ge=1, le=100)] = Field(
        description="tokens of each value on every page"
    )
    name: Slug = Field(default="token", description="kind name; a value's kind is name-value")

    noun: ClassVar[str] = "token"
    shop: ClassVar[bool] = True
    clipped: ClassVar[bool] = True

    def footprint(self) -> tuple[Size, bool] | None:
        """A token covers its diameter."""
        return Size(w=self.size, h=self.size), True

    def design_rows(self, name: str, colours: list[PlayerColour]) -> list[DesignRow]:
        """One design per value, printed ``each`` times on every page."""
        total = self.pages * self.each
        return [
            DesignRow(None, 0, f"{self.name}-{v}", total, {"value": v}, (self.name,))
            for v in self.values
        ]
