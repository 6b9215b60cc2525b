"""The pack's data model: a stack of sheets of paper, once its pieces are laid out and its pages
numbered. The planner (``plan``) fills it in; the writers (``output``) read it.

The first sheets hold what nobody cuts: the inventory page(s), then the notes (the boards'
assembly maps, reference sheets printed once), front and back, a document of two pages never
split across two sheets. The body follows in the order of the specs. Printed double-sided,
every sheet is two pages of the PDF, its front and its back (a blank page when nothing
belongs behind the front), so a printer given the whole PDF puts every back behind its own
front; printed single-sided (the gutter fold), every sheet is one page.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from generator.art.richtext import Overflow
from generator.art.shapes import Shape
from generator.art.store import ArtStore
from generator.i18n.strings import Words
from generator.layout.sheets import BoardMap, Page, Sheet
from generator.model.designs import Design
from generator.model.loader import Component, Game
from generator.options import DEFAULT_OPTIONS, PrintOptions


@dataclass
class ComponentPlan:
    """A component's designs and, once imposed, the pages its pieces are on."""

    component: Component
    designs: list[Design]
    pages: list[int] = field(default_factory=list)
    shape: Shape | None = None
    note: str = ""  # what the contents say of it beneath its name (a pad, a box)

    @property
    def count(self) -> int:
        return sum(d.count for d in self.designs)


@dataclass
class Pack:
    """Everything a print pack holds, laid out and numbered, ready to write."""

    game: Game
    paper_name: str
    paper: tuple[float, float]
    art: ArtStore
    components: list[ComponentPlan] = field(default_factory=list)
    body: list[Sheet] = field(default_factory=list)  # every sheet after the uncut ones
    notes: list[list[Page]] = field(default_factory=list)  # uncut documents after the inventory
    inventory_pages: int = 0
    inventory_map: BoardMap | None = None  # an assembly map drawn under the inventory's text
    overflows: list[Overflow] = field(default_factory=list)
    options: PrintOptions = DEFAULT_OPTIONS
    key: str = ""  # what the pack is made from (see build.cache); stored in the manifest
    plain_backs: frozenset[str] | None = None  # backs the ink saver outlines (see inksaver)

    @property
    def words(self) -> Words:
        """The engine's words in the pack's language: its labels, notes and contents page."""
        return self.game.words

    @property
    def duplex(self) -> bool:
        """Whether the pack is printed double-sided (else single-sided, folding)."""
        return self.options.layout == "duplex"

    @property
    def sheets(self) -> list[Sheet]:
        """Every sheet of paper in order: the inventory and notes, then the body."""
        inventory = [
            Page("", "notes", n + 1, self.inventory_pages, label=False, inventory=n)
            for n in range(self.inventory_pages)
        ]
        if inventory and self.inventory_map is not None:
            inventory[-1].assembly = self.inventory_map
        if not self.duplex:
            return [Sheet(page) for doc in (inventory, *self.notes) for page in doc] + self.body
        return [Sheet(*pair) for pair in _paired([inventory, *self.notes])] + self.body

    def pages(self) -> Iterator[tuple[int, Page | None, int]]:
        """Every page of the PDF with its number and the number of its sheet: each sheet's
        front and, printed double-sided, its back (None: a blank page)."""
        number = 0
        for index, sheet in enumerate(self.sheets, start=1):
            sides = (sheet.front, sheet.back) if self.duplex else (sheet.front,)
            for page in sides:
                number += 1
                yield number, page, index

    def numbered_pages(self) -> list[tuple[int, Page]]:
        """Every page with something printed on it, with its page number, in order."""
        return [(n, page) for n, page, _ in self.pages() if page is not None]

    @property
    def page_count(self) -> int:
        return sum(1 for _ in self.pages())

    @property
    def sheet_count(self) -> int:
        return len(self.sheets)


def _paired(documents: list[list[Page]]) -> list[tuple[Page, Page | None]]:
    """The pages of uncut documents as the fronts and backs of sheets, in order, except that
    a document of several pages starts on a front: the front left over before it takes the
    next one-page document, or stays blank on its back."""
    pages: list[Page | None] = []
    waiting = list(documents)
    while waiting:
        doc = waiting.pop(0)
        if len(pages) % 2 and len(doc) > 1:
            single = next((d for d in waiting if len(d) == 1), None)
            if single is not None:
                waiting.remove(single)
            pages += single or [None]
        pages += doc
    if len(pages) % 2:
        pages.append(None)
    sheets = zip(pages[::2], pages[1::2], strict=True)
    return [(front, back) for front, back in sheets if front is not None]
