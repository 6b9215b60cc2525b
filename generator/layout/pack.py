"""The pack's data model: what a print pack holds once its pieces are laid out on sheets and
numbered. The planner (``build``) fills it in; the writers (``output``) read it."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.art.shapes import Shape
from generator.art.sheetflow import Overflow
from generator.art.store import ArtStore
from generator.layout.impose import Sheet
from generator.options import DEFAULT_OPTIONS, PrintOptions
from generator.spec.designs import Design
from generator.spec.loader import Component, Game


@dataclass
class ComponentPlan:
    """A component's designs and, once imposed, the pages its pieces are on."""

    component: Component
    designs: list[Design]
    pages: list[int] = field(default_factory=list)
    shape: Shape | None = None

    @property
    def count(self) -> int:
        return sum(d.count for d in self.designs)


@dataclass
class Section:
    """A run of sheets in the pack: one deck's, the counter sheets, or token pages."""

    title: str
    sheets: list[Sheet]
    first_page: int = 0


@dataclass
class Pack:
    """Everything a print pack holds, laid out and numbered, ready to write."""

    game: Game
    paper_name: str
    paper: tuple[float, float]
    art: ArtStore
    components: list[ComponentPlan] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    inventory_pages: int = 0
    overflows: list[Overflow] = field(default_factory=list)
    options: PrintOptions = DEFAULT_OPTIONS
    key: str = ""  # what the pack is made from (see build.cache); stored in the manifest

    @property
    def page_count(self) -> int:
        return self.inventory_pages + sum(len(s.sheets) for s in self.sections)

    def numbered_sheets(self) -> list[tuple[int, Sheet]]:
        """Every sheet with its page number, in page order."""
        return [
            (s.first_page + i, sheet) for s in self.sections for i, sheet in enumerate(s.sheets)
        ]
