"""Reference sheets on paper: a sheet's text, laid out once (``sheetflow.FlowLayout``), on
pages of their own, one run of pages per printed copy. A sheet printed once goes with the
other pages nobody cuts, at the front of the pack; several copies, to hand out, each on
sheets of paper of their own."""

from __future__ import annotations

from dataclasses import replace

from generator.layout.pieces import Piece
from generator.layout.sheetflow import FlowLayout
from generator.layout.sheets import Box, Page, Placement, Sheet


def copies_of(title: str, layout: FlowLayout, area: Box, pieces: list[Piece]) -> list[list[Page]]:
    """The pages of each printed copy (a piece each), every page drawn by a flow of its own
    copy, laid out as ``layout`` was."""
    copies = []
    for piece in pieces:
        flow = replace(layout, overflow=None, _drawing=None)
        pages = []
        for n in range(1, layout.pages + 1):
            page = Page(title, "front", n, layout.pages, flow=flow)
            page.placements.append(Placement(piece, "front", *area, 0))
            pages.append(page)
        copies.append(pages)
    return copies


def sheets_of(copies: list[list[Page]], duplex: bool) -> list[Sheet]:
    """Several copies, each on sheets of paper of its own (its pages two to a sheet when
    printed double-sided)."""
    return [
        Sheet(pages[i], pages[i + 1] if duplex and i + 1 < len(pages) else None)
        for pages in copies
        for i in range(0, len(pages), 2 if duplex else 1)
    ]
