"""Text that lays itself out in a box: wrapped, shrunk until it fits (never below a floor),
with the sheets' inline markup: ``**bold**``, ``*italic*`` and ``:icon:``.

A template calls ``textbox(text, x, y, w, h, ...)`` and gets SVG: one ``<text>`` per run of
one style on each line, placed at the x measured with the embedded font's own metrics, and
each ``:icon:`` drawn by the icon macro it is given, one em wide, on the line. The layout is
done here, not by the renderer, so what the check measures is what prints. A paragraph with
Arabic or Hebrew has its words in bidi display order, and starts at the right when it is
right-to-left.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import Markup, escape

from generator.svg import shaping
from generator.svg.fonts import ZWSP, text_width

PT = 25.4 / 72  # one point in mm
MIN_TEXT = round(6 * PT, 4)  # 6 pt: the smallest text a pack prints
ICON_BOX = 20.0  # an icon macro draws in a 20 x 20 box centred on (0, 0)
ASCENT = 0.76  # of the font size: from the top of a line to its baseline
# markup, icons, spaces a line may break at (not a no-break space: "50 mm" stays whole), and
# zero-width spaces (fonts.ZWSP)
TOKEN = re.compile(r"(\*\*|\*|:[a-z0-9][a-z0-9-]*:|[^\S\u00a0\u2007\u202f\u2060]+|\u200b+)")
PRECISION = 0.02  # mm: how close the fitted size comes to the largest that fits


@dataclass
class Overflow:
    """Text that does not fit: which component and box, and how much is missing."""

    component: str
    piece: str
    box: str
    missing: str
    line: int | None = None
    path: Path | None = None  # where the line is, when not the component's spec (a data file)
    text: str = ""  # the text that does not fit (a translation is told by it)
    fix: str = ""  # what to do, when not "shorten the text or make the box larger"


@dataclass(frozen=True)
class Piece:
    """A fragment of a word in one style, or an icon (``icon`` set, ``text`` empty)."""

    text: str
    bold: bool = False
    italic: bool = False
    icon: str | None = None


GLUED = Piece("")  # ends a word that the next one follows without a space (a ZWSP between)
BOUND = Piece("")  # ends a part of a word whose letters run both ways: no space, no break


def gap(word: list[Piece], space: float) -> float:
    """The room after ``word`` when another follows it on its line: a space, or none when a
    zero-width space parted them or they are one word's parts."""
    return 0.0 if word and (word[-1] is GLUED or word[-1] is BOUND) else space


def _by_direction(word: list[Piece]) -> list[list[Piece]]:
    """A word whose letters run both ways ("SV:משחק") as parts of one direction each, each
    but the last ending in ``BOUND``, so that the line orders them as bidi says."""
    if not shaping.needed(_text(word)):
        return [word]
    out: list[list[Piece]] = [[]]
    last = None
    for piece in word:
        start = 0
        for i, char in enumerate(piece.text):
            way = shaping.strong(char)
            if way and last and way != last:
                if i > start:
                    out[-1].append(Piece(piece.text[start:i], piece.bold, piece.italic))
                    start = i
                if out[-1]:
                    out[-1].append(BOUND)
                    out.append([])
            last = way or last
        out[-1].append(piece if start == 0 else Piece(piece.text[start:], piece.bold, piece.italic))
    return out


@dataclass
class Line:
    """A laid-out line: its words (each a list of pieces) and its width; in a paragraph with
    right-to-left text, its direction and each word's bidi level (``shaping.word_levels``)."""

    words: list[list[Piece]] = field(default_factory=list)
    width: float = 0.0
    rtl: bool = False
    levels: list[int] | None = None


@dataclass(frozen=True)
class Look:
    """How a text box's text is set: font family, base weight, colour and line spacing (a
    multiple of the size)."""

    family: str = "sans-serif"
    weight: str = "normal"
    colour: str = "#222222"
    leading: float = 1.2


@dataclass
class Layout:
    """Text laid out at ``size``: its lines, the height they take and whether they fit."""

    size: float
    lines: list[Line]
    height: float
    widest: float
    fits: bool


def paragraphs(text: str, icons: bool) -> list[list[list[Piece]]]:
    """The text as paragraphs of words of styled pieces; ``:name:`` is an icon when icons
    can be drawn (else it stays text)."""
    out = []
    bold = italic = False
    for paragraph in str(text).split("\n"):
        words: list[list[Piece]] = []
        word: list[Piece] = []
        for token in TOKEN.split(paragraph):
            if not token:
                continue
            if token == "**":
                bold = not bold
            elif token == "*":
                italic = not italic
            elif token.isspace() and TOKEN.fullmatch(token):
                words += _by_direction(word) if word else []
                word = []
            elif token.startswith(ZWSP):
                if word:
                    words += _by_direction([*word, GLUED])
                word = []
            elif icons and token.startswith(":") and token.endswith(":") and len(token) > 2:
                word.append(Piece("", icon=token[1:-1]))
            else:
                word.append(Piece(token, bold, italic))
        if word:
            words += _by_direction(word)
        out.append(words)
    return out


def _width(pieces: list[Piece], size: float, family: str, weight: str) -> float:
    return sum(
        size if p.icon else text_width(p.text, size, _weight(p, weight), _style(p), family)
        for p in pieces
    )


def _weight(piece: Piece, base: str) -> str:
    return "bold" if piece.bold or base == "bold" else "normal"


def _style(piece: Piece) -> str:
    return "italic" if piece.italic else "normal"


def layout(
    parts: list[list[list[Piece]]], width: float, height: float, size: float, look: Look
) -> Layout:
    """Lines of ``parts`` broken to ``width`` at ``size``; an empty paragraph is a half-line
    gap."""
    family, weight, leading = look.family, look.weight, look.leading
    space = text_width(" ", size, weight, "normal", family)
    lines: list[Line] = []
    gaps = 0
    for words in parts:
        if not words:
            gaps += 1
            continue
        first = len(lines)
        line = Line()
        for word in words:
            w = _width(word, size, family, weight)
            room = gap(line.words[-1], space) if line.words else 0.0
            parted = line.words and line.words[-1][-1] is not BOUND  # a word's parts stay
            if parted and line.width + room + w > width:
                lines.append(line)
                line = Line()
                room = 0.0
            line.width += room + w
            line.words.append(word)
        lines.append(line)
        _directions(words, lines[first:])
    used = (len(lines) + gaps * 0.5) * size * leading - size * (leading - 1)
    widest = max((line.width for line in lines), default=0.0)
    fits = used <= height + 1e-6 and widest <= width + 1e-6
    return Layout(size, lines, max(used, 0.0), widest, fits)


def _text(word: list[Piece]) -> str:
    """A word's text (an icon counts as a neutral character)."""
    return "".join(p.text if not p.icon else "\u2022" for p in word)


def _directions(words: list[list[Piece]], lines: list[Line]) -> None:
    """The direction of a paragraph's lines and their words' levels, when the paragraph has
    right-to-left text (lines in other text keep none: laid out left to right, as before)."""
    if not shaping.needed(" ".join(_text(w) for w in words)):
        return
    rtl = shaping.base_rtl(" ".join(_text(w) for w in words))
    for line in lines:
        line.rtl = rtl
        line.levels = shaping.word_levels([_text(w) for w in line.words], rtl)


def fitted(
    text: str,
    width: float,
    height: float,
    size: float,
    min_size: float,
    look: Look = Look(),  # noqa: B008 - frozen, shared safely
    icons: bool = False,
) -> Layout:
    """The layout at the largest size from ``size`` down to ``min_size`` that fits the box
    (found by bisection); at ``min_size`` when nothing does (``fits`` is then False)."""
    parts = paragraphs(text, icons)
    best = layout(parts, width, height, size, look)
    if best.fits:
        return best
    low = layout(parts, width, height, min_size, look)
    if not low.fits:
        return low
    lo, hi = min_size, size
    while hi - lo > PRECISION:
        mid = (lo + hi) / 2
        trial = layout(parts, width, height, mid, look)
        if trial.fits:
            lo, low = mid, trial
        else:
            hi = mid
    return low


@dataclass(frozen=True)
class Placed:
    """A piece of a laid-out line where it goes: its left end, its baseline, and whether it
    is written right to left (its glyphs then run from its right end)."""

    x: float
    baseline: float
    piece: Piece
    weight: str
    rtl: bool = False


def placed(
    laid: Layout,
    box: tuple[float, float, float, float],
    look: Look,
    align: str = "start",
    valign: str = "top",
) -> list[Placed]:
    """Where each piece of a layout goes in ``box`` (x, y, width, height; y running down):
    lines aligned (a right-to-left paragraph's start is at the right), words in display
    order."""
    x, y, width, height = box
    size = laid.size
    offset = {"top": 0.0, "middle": (height - laid.height) / 2, "bottom": height - laid.height}
    baseline = y + offset[valign] + size * ASCENT
    out: list[Placed] = []
    for line in laid.lines:
        where = {"start": 0.0, "middle": (width - line.width) / 2, "end": width - line.width}
        if line.rtl:  # a right-to-left paragraph starts at the right
            where["start"], where["end"] = where["end"], where["start"]
        _place_line(out, line, x + where[align], baseline, size, look)
        baseline += size * look.leading
    return out


def _place_line(
    out: list[Placed], line: Line, left: float, baseline: float, size: float, look: Look
) -> None:
    """A line's pieces from ``left``: its words in display order (``shaping.visual_order`` of
    their levels, for a line with right-to-left text), left to right, as PDF readers expect
    text (they put right-to-left text back in reading order); a right-to-left word's pieces
    from its left end, last piece first."""
    family, weight = look.family, look.weight
    space = text_width(" ", size, weight, "normal", family)
    order = range(len(line.words)) if line.levels is None else shaping.visual_order(line.levels)
    for k in order:
        word = line.words[k]
        rtl = line.levels is not None and line.levels[k] % 2 == 1
        for piece in reversed(word) if rtl else word:
            if piece is GLUED or piece is BOUND:
                continue
            bold = _weight(piece, weight)
            out.append(Placed(left, baseline, piece, bold, rtl))
            left += (
                size if piece.icon else text_width(piece.text, size, bold, _style(piece), family)
            )
        left += gap(word, space)


def svg(
    laid: Layout,
    box: tuple[float, float, float, float],
    look: Look,
    align: str = "start",
    valign: str = "top",
    icon: Callable[[str], str] | None = None,
) -> Markup:
    """SVG for a layout in ``box`` (x, y, width, height): a ``<text>`` per run of one style,
    icons from ``icon`` scaled to the font size."""
    size, family, colour = laid.size, look.family, look.colour
    out: list[str] = []
    for at in placed(laid, box, look, align, valign):
        piece = at.piece
        if piece.icon:
            if icon is not None:
                middle = at.baseline - size * ASCENT + size / 2
                out.append(
                    f'<g transform="translate({at.x + size / 2:.3f} {middle:.3f}) '
                    f'scale({size / ICON_BOX:.4f})">'
                    f"{icon(piece.icon)}</g>"
                )
            continue
        italic = _style(piece)
        attrs = f' font-weight="{at.weight}"' if at.weight == "bold" else ""
        attrs += ' font-style="italic"' if italic == "italic" else ""
        x = at.x
        if at.rtl:  # written as right-to-left text: its x is its right end
            attrs += ' direction="rtl"'
            x += text_width(piece.text, size, at.weight, italic, family)
        out.append(
            f'<text x="{x:.3f}" y="{at.baseline:.3f}" font-family="{escape(family)}" '
            f'font-size="{size:.3f}" fill="{escape(colour)}"{attrs}>{escape(piece.text)}</text>'
        )
    return Markup("\n".join(out))
