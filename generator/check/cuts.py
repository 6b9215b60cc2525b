"""Butted pieces as the person cutting them meets them: a block of cards or gang-cut counters
touching at their trim lines is parted by straight cuts right across it, one at every trim
line, and each such cut needs a crop mark outside the block to lay the ruler on. A cut that
would run through a piece, or has no mark, is a problem of the sheet.
"""

from __future__ import annotations

from generator.layout.sheets import Line, Page, Placement

TOL = 0.01  # mm


def _touch(a: Placement, b: Placement) -> bool:
    """Whether two trim boxes share a stretch of edge."""
    side_by_side = abs(a.x + a.w - b.x) < TOL or abs(b.x + b.w - a.x) < TOL
    over = abs(a.y + a.h - b.y) < TOL or abs(b.y + b.h - a.y) < TOL
    rows = min(a.y + a.h, b.y + b.h) - max(a.y, b.y) > TOL
    cols = min(a.x + a.w, b.x + b.w) - max(a.x, b.x) > TOL
    return (side_by_side and rows) or (over and cols)


def blocks(page: Page) -> list[list[Placement]]:
    """The butted fronts of a page in blocks of pieces that touch, one component's at a time
    (pieces of two components never share a block)."""
    by_component: dict[str, list[Placement]] = {}
    for p in page.placements:
        if p.side != "back" and p.piece.butt:
            by_component.setdefault(p.piece.component, []).append(p)
    found: list[list[Placement]] = []
    for members in by_component.values():
        left = list(members)
        while left:
            block, todo = [left.pop()], 0
            while todo < len(block):
                keep: list[Placement] = []
                for p in left:
                    (block if _touch(block[todo], p) else keep).append(p)
                left, todo = keep, todo + 1
            found.append(block)
    return found


def _marked(
    at: float, axis: str, box: tuple[float, float, float, float], marks: list[Line]
) -> bool:
    """Whether a crop mark stands on the cut at ``at`` (``axis`` 'x': a vertical cut) outside
    the block's box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    low, high = (y0, y1) if axis == "x" else (x0, x1)  # the block's extent along the cut
    for a, b, c, d in marks:
        if axis == "y":  # a horizontal cut: the mark's x and y swap roles
            a, b, c, d = b, a, d, c
        on_line = abs(a - at) < TOL and abs(c - at) < TOL
        if on_line and (max(b, d) <= low + TOL or min(b, d) >= high - TOL):
            return True
    return False


def cut_problems(page: Page) -> list[str]:
    """Every straight cut of a page's butted blocks that runs through a piece of its block
    or has no crop mark."""
    problems = []
    for block in blocks(page):
        box = (
            min(p.x for p in block),
            min(p.y for p in block),
            max(p.x + p.w for p in block),
            max(p.y + p.h for p in block),
        )
        name = block[0].piece.component
        for axis in ("x", "y"):
            lines = sorted(
                {
                    round(getattr(p, axis) + k * (p.w if axis == "x" else p.h), 3)
                    for p in block
                    for k in (0, 1)
                }
            )
            for at in lines:
                where = f"the cut of block '{name}' at {axis} = {at:.1f} mm"
                through = [p for p in block if _inside(p, axis, at)]
                if through:
                    problems.append(f"{where} runs through '{through[0].piece.name}'")
                elif not _marked(at, axis, box, page.marks):
                    problems.append(f"{where} has no crop mark")
    return problems


def _inside(p: Placement, axis: str, at: float) -> bool:
    """Whether the line at ``at`` crosses the inside of ``p``'s trim box."""
    start, length = (p.x, p.w) if axis == "x" else (p.y, p.h)
    return start + TOL < at < start + length - TOL
