"""Packing pieces of mixed sizes onto as few pages as possible (MaxRects, best short side fit).

Every piece is a rectangle (its bleed box plus the cutting gap); pages are filled one at a
time, largest pieces first, and nothing ever leaves the printable area or overlaps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
EPS = 1e-9


class PackingError(ValueError):
    """A piece larger than a page."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in mm, lower-left corner and size."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def intersects(self, other: Rect) -> bool:
        return (
            self.x < other.right - EPS
            and other.x < self.right - EPS
            and self.y < other.top - EPS
            and other.y < self.top - EPS
        )

    def contains(self, other: Rect) -> bool:
        return (
            other.x >= self.x - EPS
            and other.y >= self.y - EPS
            and other.right <= self.right + EPS
            and other.top <= self.top + EPS
        )


@dataclass(frozen=True)
class Packed(Generic[T]):
    """An item and the rectangle it was given on its page."""

    item: T
    rect: Rect


class _Page:
    """Free space of one page, kept as maximal free rectangles."""

    def __init__(self, area: Rect):
        self.free = [area]

    def place(self, w: float, h: float) -> Rect | None:
        """The best spot for a w x h rectangle (top-left first on ties), taken from free space."""
        best: tuple[float, float, float, float] | None = None
        spot: Rect | None = None
        for free in self.free:
            if w <= free.w + EPS and h <= free.h + EPS:
                short = min(free.w - w, free.h - h)
                long_ = max(free.w - w, free.h - h)
                score = (short, long_, -(free.top), free.x)
                if best is None or score < best:
                    best, spot = score, Rect(free.x, free.top - h, w, h)
        if spot is not None:
            self._split(spot)
        return spot

    def _split(self, used: Rect) -> None:
        pieces: list[Rect] = []
        for free in self.free:
            if not free.intersects(used):
                pieces.append(free)
                continue
            if used.x > free.x + EPS:
                pieces.append(Rect(free.x, free.y, used.x - free.x, free.h))
            if used.right < free.right - EPS:
                pieces.append(Rect(used.right, free.y, free.right - used.right, free.h))
            if used.y > free.y + EPS:
                pieces.append(Rect(free.x, free.y, free.w, used.y - free.y))
            if used.top < free.top - EPS:
                pieces.append(Rect(free.x, used.top, free.w, free.top - used.top))
        self.free = [
            r
            for i, r in enumerate(pieces)
            if r.w > EPS
            and r.h > EPS
            and not any(
                j != i and o.contains(r) and (o != r or j < i) for j, o in enumerate(pieces)
            )
        ]


def _maximal(index: int, rects: list[Rect]) -> bool:
    """Whether ``rects[index]`` has an area and lies inside no other rectangle (first of equals)."""
    r = rects[index]
    if r.w <= EPS or r.h <= EPS:
        return False
    return not any(
        j != index and o.contains(r) and (o != r or j < index) for j, o in enumerate(rects)
    )


def pack(
    items: list[tuple[T, float, float]], area: Rect, first: Callable[[T], bool] = lambda _: False
) -> list[list[Packed[T]]]:
    """Pack ``(item, w, h)`` rectangles into pages of ``area``; a page list of placements.

    Items for which ``first`` is true go first (so they share the fewest pages), then the
    tallest (then widest), keeping the given order among equals, so the same input always
    packs the same way. Raises ``ValueError`` for an item larger than a page.
    """
    order = sorted(
        range(len(items)),
        key=lambda i: (not first(items[i][0]), -items[i][2], -items[i][1], i),
    )
    pages: list[tuple[_Page, list[Packed[T]]]] = []
    for index in order:
        item, w, h = items[index]
        if w > area.w + EPS or h > area.h + EPS:
            raise PackingError(f"a {w:g} x {h:g} mm piece is larger than the printable area")
        for page, placed in pages:
            rect = page.place(w, h)
            if rect is not None:
                placed.append(Packed(item, rect))
                break
        else:
            page = _Page(area)
            rect = page.place(w, h)
            assert rect is not None
            pages.append((page, [Packed(item, rect)]))
    return [placed for _, placed in pages]
