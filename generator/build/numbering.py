"""Page numbers: each section's first page and the pages each component is on, after the
inventory pages (which list those pages, so their count is settled first)."""

from __future__ import annotations

from generator.layout.pack import Pack
from generator.output import inventory


def number(pack: Pack) -> None:
    """Page numbers for sections and each component's pages; again if the inventory, now
    listing those pages, needs another page."""
    for _ in range(3):
        count = inventory.page_count(pack)
        if count == pack.inventory_pages:
            return
        pack.inventory_pages = count
        _number_from(pack, count + 1)


def _number_from(pack: Pack, page: int) -> None:
    for section in pack.sections:
        section.first_page = page
        page += len(section.sheets)
    by_id = {plan.component.id: plan for plan in pack.components}
    for plan in pack.components:
        plan.pages.clear()
    for at, sheet in pack.numbered_sheets():
        owners = [p.piece.component for p in sheet.placements]
        if sheet.assembly:
            owners.append(sheet.assembly.component)
        for owner in owners:
            pages = by_id[owner].pages
            if not pages or pages[-1] != at:
                pages.append(at)
