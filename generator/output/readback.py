"""The written pack checked against itself: once its PDF is written, the pages are read back
(pypdfium2's text and outline) and every number the pack prints about itself is compared with
the pages as written, so that a stale number is an error, never a silent wrong page.

Compared: the PDF's page count; every page label (its component, 'sheet N of M' counted per
title, and its page number); the contents' pages of each component against the pages its
pieces are drawn on, and the contents row as read back; the printing notes (sheets, pages,
which to print on card); and each component's bookmark against its first page. A text that
needs shaping (Arabic, Hebrew) reads back in another order and is left out of the text
comparison; its numbers are still compared through the record.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

from generator.errors import SpecError, SpecFailure, ctrl_c_held
from generator.layout.furniture import counted_as, label_text
from generator.layout.pack import Pack
from generator.output import inventory
from generator.svg import shaping

MAX_SAID = 12  # disagreements listed before the rest are counted
REPORT = "this is a mistake of pnp, not of the game: the pack was not written; please report it"


HYPHENS = str.maketrans(
    "", "", "-\u00ad\u2010\u2011"
)  # a hyphen at a line's end reads back as none


def _squeezed(text: str) -> str:
    """``text`` without white space or hyphens, in compatibility form: how it is compared, so
    that a line wrapped anywhere reads the same (PDFium drops a hyphen that ends a line, as
    in "SOLO-" / "Plättchen")."""
    return "".join(unicodedata.normalize("NFKC", text).split()).translate(HYPHENS)


def read_pages(path: Path) -> list[str]:
    """The text of every page of the PDF at ``path``, as pypdfium2 reads it."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(path))
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def read_bookmarks(path: Path) -> list[tuple[str, int]]:
    """Each top-level bookmark's title and the page (from 1) it opens, in order."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(path))
    try:
        out: list[tuple[str, int]] = []
        for item in document.get_toc(max_depth=1):
            dest = item.get_dest()
            index = dest.get_index() if dest is not None else None
            if index is not None:
                out.append((item.get_title(), index + 1))
        return out
    finally:
        document.close()


def drawn_pages(pack: Pack) -> dict[str, list[int]]:
    """The pages each component's pieces (or its assembly map) are drawn on, in order, as
    the writer goes through them."""
    out: dict[str, list[int]] = {plan.component.id: [] for plan in pack.components}
    for number, page, _ in pack.pages():
        if page is None:
            continue
        for owner in page.components:
            if owner in out and (not out[owner] or out[owner][-1] != number):
                out[owner].append(number)
    return out


def listed_pages(pack: Pack) -> list[str]:
    """Components whose pages the contents (and ``pnp list``) give wrong."""
    drawn = drawn_pages(pack)
    return [
        f"the contents give {plan.component.spec.title!r} pages "
        f"{inventory.page_ranges(plan.pages)}, but its pieces are on pages "
        f"{inventory.page_ranges(drawn[plan.component.id])}"
        for plan in pack.components
        if plan.pages != drawn[plan.component.id]
    ]


def sheet_counts(pack: Pack) -> list[str]:
    """Page labels whose 'sheet N of M' is not the sheet's place among the sheets it is
    counted with (its component's, its board's tiles, the counter sheets)."""
    fronts = [(counted_as(pack, s.front), s.front) for s in pack.body if s.front.label]
    total = Counter(key for key, _ in fronts if key is not None)
    seen: Counter[tuple[bool, str]] = Counter()
    out = []
    for key, page in fronts:
        if key is None:
            continue
        seen[key] += 1
        if (page.number, page.of) != (seen[key], total[key]):
            out.append(
                f"the label of {page.title!r} says sheet {page.number} of {page.of}, "
                f"but it is sheet {seen[key]} of {total[key]} of {key[1]!r}"
            )
    return out


def _expected_texts(pack: Pack) -> list[tuple[int, str, str]]:
    """What each page must read back: (page number, what it is, its text)."""
    out = []
    for number, page, _ in pack.pages():
        if page is not None and page.label:
            out.append((number, "its label", label_text(pack, page, number)))
    first = next((n for n, page, _ in pack.pages() if page and page.inventory == 0), None)
    if first is not None:
        for note in inventory.printing_notes(pack):
            out.append((first, "the printing notes", note))
    return out


def _contents_rows(pack: Pack) -> list[str]:
    """The contents' rows as they read back: name, kinds, count, size and pages."""
    return [_squeezed(row) for row in inventory.row_texts(pack)]


def read_back(pack: Pack, path: Path) -> list[str]:
    """Every way the PDF at ``path`` disagrees with the record it was written from."""
    texts = read_pages(path)
    problems = listed_pages(pack) + sheet_counts(pack)
    if len(texts) != pack.page_count:
        problems.append(f"the PDF has {len(texts)} pages, the pack says {pack.page_count}")
        return problems
    pages = [_squeezed(text) for text in texts]
    for number, what, text in _expected_texts(pack):
        if not shaping.needed(text) and _squeezed(text) not in pages[number - 1]:
            problems.append(f"page {number}: {what} should read {text!r}")
    contents = "".join(
        pages[n - 1] for n, page, _ in pack.pages() if page and page.inventory is not None
    )
    for row in _contents_rows(pack):
        if not shaping.needed(row) and row not in contents:
            problems.append(f"the contents should have the row {row!r}")
    problems += _bookmarks(pack, path)
    return problems


def _bookmarks(pack: Pack, path: Path) -> list[str]:
    """Components whose bookmark does not open their first page (two components may share a
    title: each needs its own bookmark at its own page)."""
    marks = read_bookmarks(path)
    titles = {title for title, _ in marks}
    drawn = drawn_pages(pack)
    out = []
    for plan in pack.components:
        title, pages = plan.component.spec.title, drawn[plan.component.id]
        if pages and title in titles and (title, pages[0]) not in marks:
            opens = ", ".join(str(page) for t, page in marks if t == title)
            out.append(f"the bookmark {title!r} opens page {opens}, not {pages[0]}")
    return out


def check(pack: Pack, path: Path) -> None:
    """Raise ``SpecFailure`` (at the game's game.yaml) when the PDF at ``path`` disagrees
    with its own pack: the pack is then not put in place. A Ctrl-C while pdfium reads it is
    held to the end of the reading (``ctrl_c_held``)."""
    with ctrl_c_held():
        problems = read_back(pack, path)
    if problems:
        shown = problems[:MAX_SAID]
        more = [f"... and {len(problems) - MAX_SAID} more"] if len(problems) > MAX_SAID else []
        errors = [
            SpecError(pack.game.doc.path, None, f"the written pack disagrees with itself: {p}")
            for p in [*shown, *more]
        ]
        errors[-1].message += f"; {REPORT}"
        raise SpecFailure(errors)
