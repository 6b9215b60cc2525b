"""Page numbers: the pages each component is on, once the inventory's own pages (which list
those pages, so their count is settled first) are known."""

from __future__ import annotations

from generator.layout.pack import Pack
from generator.output import inventory


def number(pack: Pack) -> None:
    """Each component's pages (after moving a board's assembly map under the inventory's
    text when it fits there, instead of onto a page of its own)."""
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
    """Each component's pages; again if the inventory, now listing them, needs another page."""
    for _ in range(3):
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
