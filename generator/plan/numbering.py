"""Page numbers: the pages each component is on, once the inventory's own pages (which list
those pages, so their count is settled first) are known."""

from __future__ import annotations

from generator.layout.furniture import is_tile
from generator.layout.pack import Pack
from generator.layout.sheets import Page
from generator.output import inventory

SETTLE_ROUNDS = 4  # the inventory's length and the pages it lists agree within this many


def number(pack: Pack) -> None:
    """Each component's pages (after moving a board's assembly map under the inventory's
    text when it fits there, instead of onto a page of its own), and each sheet's 'sheet N of
    M' counted among the sheets of its own component."""
    _label_sheets(pack)
    _settle(pack)
    for index, doc in enumerate(pack.notes):
        board = doc[0].assembly if len(doc) == 1 else None
        if board is not None and inventory.map_fits(pack, board):
            pack.notes.remove(doc)
            pack.inventory_map = board
            _settle(pack)
            if not inventory.map_fits(pack, board):  # the contents grew a page: put it back
                pack.inventory_map = None
                pack.notes.insert(index, doc)
                _settle(pack)
            return


def _settle(pack: Pack) -> None:
    """Each component's pages, numbered again whatever moved (the notes, the map), and again
    while the inventory, now listing them, needs another number of pages."""
    for _ in range(SETTLE_ROUNDS):
        _number(pack)
        count = inventory.page_count(pack)
        if count == pack.inventory_pages:
            return
        pack.inventory_pages = count
    _number(pack)


def _number(pack: Pack) -> None:
    by_id = {plan.component.id: plan for plan in pack.components}
    for plan in pack.components:
        plan.pages.clear()
    for at, page in pack.numbered_pages():
        for owner in page.components:
            pages = by_id[owner].pages
            if not pages or pages[-1] != at:
                pages.append(at)


def counted_as(pack: Pack, page: Page) -> tuple[bool, str] | None:
    """What a page's 'sheet N of M' counts it among: the tiles of its board, or the sheets of
    its first component (a page that ends a deck and holds the next one's first cards counts
    as the deck's: 'Event deck · Setup card · sheet 7 of 7'), or of a shared title such as
    the counter sheets; None for a page that is no numbered sheet (the contents, a map)."""
    if page.inventory is not None or page.side == "notes":
        return None
    if page.assembly is not None and not is_tile(page):
        return None
    titles = {plan.component.id: plan.component.spec.title for plan in pack.components}
    first = titles.get(page.components[0], "") if page.components else ""
    lead = first if first and page.title.startswith(first) else page.title
    return is_tile(page), lead


def _label_sheets(pack: Pack) -> None:
    """Number each sheet's label within its component (its back the same as its front); the
    uncut documents (a reference sheet's pages) are numbered as they are laid out."""
    groups: dict[tuple[bool, str], list[list[Page]]] = {}
    for sheet in pack.body:
        key = counted_as(pack, sheet.front)
        if key is not None:
            groups.setdefault(key, []).append([sheet.front, *([sheet.back] if sheet.back else [])])
    for sheets in groups.values():
        for n, sides in enumerate(sheets, start=1):
            for page in sides:
                page.number, page.of = n, len(sheets)
