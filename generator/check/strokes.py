"""Thin lines: every stroke a pack prints thinner than ``MIN_LINE_PT`` (0.25 pt), measured from
what is drawn: each stroke's width through every transform above it (a ``scale()`` in a
template, an icon's picture drawn small), as ``legibility`` measures text. Print shops warn
below 0.25 pt and presses lose lines under 0.1 pt; the shop export thickens them to 0.25 pt,
the home pack prints them as they are. Each is reported once per template line, as a warning.

The line is found the way the art's other warnings are, by what the template says: the
stroke width as it is written (``stroke-width="0.3"``), in the template or a file beside it
(a macro it imports, a picture it draws); a width the template works out has no line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.art.store import template_line
from generator.check.legibility import walk_art
from generator.check.printed import pieces
from generator.layout.pack import Pack
from generator.output.colour import MIN_LINE_PT
from generator.paths import read_text
from generator.svg.pdf import GROUP, PAINT, RESTORE, SAVE, STROKING, TRANSFORM
from generator.svg.values import IDENTITY, Matrix, multiply, thinnest_scale

LITERALS_KEPT = 4096  # literals whose line widths and strokes are kept read
STROKES = "|".join(re.escape(op) for op in sorted(STROKING, key=len, reverse=True))
# a width set (its operand, then ``w``) or a stroking operator, each a whole token
LINE_EVENT = re.compile(rf"(?<!\S)(?:(\S+)\s+w|({STROKES}))(?!\S)")
NAMED = re.compile(r"[\"']([\w./-]+\.(?:j2|svg))[\"']")  # a file a template names


@dataclass(frozen=True)
class ThinStroke:
    """A stroke width a template draws, printed under ``MIN_LINE_PT``: where (the template
    and its line), as written, how thin it prints at the thinnest and on which pieces."""

    path: Path
    line: int | None
    written: str  # the width as the drawing writes it, in its own units
    pt: float
    component: str
    piece: str
    more: int = 0  # other pieces drawing it

    def message(self) -> str:
        """'warning: a line 0.13 pt wide (tokens 'coin' and 3 more): ...'."""
        return (
            f"warning: a line {math.floor(self.pt * 100) / 100:.2f} pt wide "
            f"({pieces(self.component, self.piece, self.more)}): "
            f"print shops warn under {MIN_LINE_PT:g} pt and presses lose lines under 0.1 pt "
            f"(the shop export thickens it to {MIN_LINE_PT:g} pt); draw it wider"
        )


def stroke_widths(ops: tuple, ctm: Matrix = IDENTITY) -> Iterator[tuple[str, float]]:
    """Every stroke a drawing's operations paint: its width as written and as printed (in
    the units ``ctm`` maps to, points from a viewport, at its thinnest)."""
    width, stack = "1", []
    for op in ops:
        if op.__class__ is str:
            for written in _line_events(op):
                if written is None:
                    yield width, float(width) * thinnest_scale(ctm)
                else:
                    width = written
            continue
        code = op[0]
        if code == SAVE:
            stack.append((ctm, width))
        elif code == RESTORE and stack:
            ctm, width = stack.pop()
        elif code == TRANSFORM:
            ctm = multiply(ctm, op[1])
        elif code == GROUP:
            yield from stroke_widths(op[3], ctm)
        elif code == PAINT:
            yield from stroke_widths(op[6], ctm)


@lru_cache(maxsize=LITERALS_KEPT)
def _line_events(literal: str) -> tuple[str | None, ...]:
    """A literal's line widths set (the width as written) and strokes painted (None), in
    order: read once per literal by one scan, as a deck repeats its frames."""
    return tuple(width if width else None for width, _ in LINE_EVENT.findall(literal))


def thin_strokes(pack: Pack) -> tuple[ThinStroke, ...]:
    """Every template line whose strokes the pack's pieces print under ``MIN_LINE_PT``, once,
    at its thinnest, with the first piece that draws it and how many more do; the thinnest
    first."""
    thin: dict[str, dict[str, float]] = {}  # art key -> width written -> thinnest printed
    drawn: dict[tuple[Path, str], tuple[float, list[tuple[str, str]]]] = {}
    for sheet in pack.sheets:
        for page in (sheet.front, sheet.back):
            for placement in page.placements if page else ():
                piece = placement.piece
                key = piece.face if placement.side == "front" else piece.back
                if not key or piece.flowed:
                    continue
                if key not in thin:
                    thin[key] = _thin(pack.art.drawing(key))
                source = pack.art.art[key].source
                for written, pt in thin[key].items():
                    least, pieces = drawn.get((source, written), (pt, []))
                    if (piece.component, piece.name) not in pieces:
                        pieces.append((piece.component, piece.name))
                    drawn[(source, written)] = (min(least, pt), pieces)
    lines: dict[tuple[Path, int | None], tuple[float, str, list[tuple[str, str]]]] = {}
    for (source, written), (pt, pieces) in drawn.items():
        where = _where(source, written)
        least, thinnest, named = lines.get(where, (pt, written, []))
        named += [p for p in pieces if p not in named]
        lines[where] = (pt, written, named) if pt < least else (least, thinnest, named)
    found = [
        ThinStroke(path, line, written, pt, *pieces[0], len(pieces) - 1)
        for (path, line), (pt, written, pieces) in lines.items()
    ]
    return tuple(sorted(found, key=lambda s: (s.pt, str(s.path), s.line or 0)))


def _thin(artwork: object) -> dict[str, float]:
    """The widths a drawing strokes under ``MIN_LINE_PT``, each at its thinnest."""
    out: dict[str, float] = {}
    for written, pt in walk_art(artwork, stroke_widths):
        if pt < MIN_LINE_PT - 1e-6 and math.isfinite(pt):
            out[written] = min(pt, out.get(written, pt))
    return out


def _where(source: Path, written: str) -> tuple[Path, int | None]:
    """The template and line that set the stroke width ``written``: where the template writes
    that width, else a file it names (a macro it imports, a picture it draws), else another
    file beside it; else the template alone (the width is worked out, the line unknown)."""
    for path in _files_of(source):
        for needle in (f'stroke-width="{written}"', f"stroke-width:{written}"):
            line = template_line(path, needle)
            if line is not None:
                return path, line
    return source, None


def _files_of(source: Path) -> list[Path]:
    """A template, the files it names (in the order it names them), then the rest of its
    folder."""
    try:
        text = read_text(source.parent, source, "template")
    except (OSError, ValueError):
        return [source]
    named = [source.parent / name for name in NAMED.findall(text)]
    rest = sorted(p for p in source.parent.iterdir() if p.is_file())
    return list(dict.fromkeys([source, *(p for p in named if p.is_file()), *rest]))
