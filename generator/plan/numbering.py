"""Page numbers: the pages each component is on, once the inventory's own pages (which list
those pages, so their count is settled first) are known."""

from __future__ import annotations

from generator.layout.pack import Pack
from generator.output import inventory


def number(pack: Pack) -> None:
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
