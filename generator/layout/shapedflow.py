"""Paragraphs in scripts that need shaping (Arabic and Hebrew, right to left; Devanagari and
Thai, their vowel signs placed by the font) on reportlab's pages: a reference sheet's, the
contents and 'About this edition'. reportlab's ``Paragraph`` sets words left to right, each
drawn in one face; ``ShapedParagraph`` takes its place for such text, laid out by
``art.richtext`` (the words in bidi display order, lines starting at the right in a
right-to-left paragraph, breaks at spaces and zero-width spaces) and drawn glyph by glyph as
HarfBuzz shapes it (``svg.canvas.draw_run``). Any other text keeps reportlab's paragraph."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from reportlab.lib.enums import TA_CENTER, TA_RIGHT
from reportlab.lib.geomutils import normalizeTRBL
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph

from generator.art import richtext
from generator.art.richtext import ICON_BOX, Line, Look
from generator.art.store import Drawing
from generator.svg import canvas as rl
from generator.svg import shaping
from generator.svg.fonts import drawing_font, text_width, variant_of

ICON_DROP = 0.18  # an icon's bottom sits this many font sizes below the baseline
Icon = Callable[[str], Drawing]
WORD_BREAK = re.compile(r"[^\S\u00a0\u2060]+|\u200b")  # where lines break: no no-break space
MARKUP = re.compile(r"\*\*|(?<!\*)\*(?!\*)")
ICON_CODE = re.compile(r":[a-z0-9][a-z0-9-]*:")


def escape(text: str) -> str:
    """Text as paragraph markup: ``&``, ``<`` and ``>`` as entities, as xml.sax.saxutils'
    ``escape`` writes them, without the urllib.request, http.client and ssl that module
    imports (~13 ms of every build)."""
    return html.escape(text, quote=False)


def wide_words(
    text: str, room: float, size: float, weight: str = "normal"
) -> list[tuple[str, float]]:
    """The words of ``text`` wider than ``room`` (points, at font ``size``; an icon one em),
    each with how much wider: a paragraph would split such a word across lines with no
    hyphen (reportlab's, even one with hyphens of its own: it parts a word at one only to
    fill a line's end) or run it past its edge (pnp's). A text with bold in it is measured
    bold throughout, the wider."""
    weight = "bold" if "**" in text else weight
    out = []
    for word in WORD_BREAK.split(str(text)):
        icons = len(ICON_CODE.findall(word)) * size  # an icon is one em wide
        bare = MARKUP.sub("", ICON_CODE.sub("", word))
        width = (text_width(bare, size, weight) if bare else 0.0) + icons
        if width > room + 0.01:
            out.append((bare or word, width - room))
    return out


def draw_icon(canvas: Canvas, drawing: Drawing, left: float, baseline: float, size: float) -> None:
    """An icon inline in a line of text: the font ``size`` square from ``left``, its bottom
    ``ICON_DROP`` sizes below the ``baseline`` (reportlab's space, y up)."""
    canvas.saveState()
    canvas.translate(left, baseline - ICON_DROP * size)
    canvas.scale(size / ICON_BOX, size / ICON_BOX)
    drawing.draw(canvas)
    canvas.restoreState()


def paragraph(
    text: str, style: ParagraphStyle, markup: str | None = None, icon: Icon | None = None
) -> Flowable:
    """A paragraph of ``text`` (with ``**bold**`` and, given ``icon``, ``:icon:`` codes): a
    ``ShapedParagraph`` when it needs shaping, else reportlab's of ``markup`` (the text
    escaped when none is given)."""
    if shaping.needed(text):
        return ShapedParagraph(text, style, icon)
    return Paragraph(escape(text) if markup is None else markup, style)


class ShapedParagraph(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """A paragraph laid out and drawn by pnp (see the module): its lines split between
    columns and pages like reportlab's paragraphs, a bullet at its start side."""

    def __init__(
        self,
        text: str,
        style: ParagraphStyle,
        icon: Icon | None = None,
        bullet: str | None = None,
        lines: list[Line] | None = None,
    ) -> None:
        super().__init__()
        self.text, self.style, self.icon, self.bullet = text, style, icon, bullet
        family, weight, _ = variant_of(style.fontName)
        self.look = Look(family, weight, "#000000", style.leading / style.fontSize)
        self.lines = lines
        self.laid_at: float | None = None  # the width the lines were broken to (None: given)
        self.width = self.height = 0.0

    def _inner(self, width: float) -> float:
        return max(width - self.style.leftIndent - self.style.rightIndent, 1.0)

    def _laid(self, width: float) -> list[Line]:
        """The paragraph's lines broken to ``width`` (once per width; the lines a split gave
        this part are its own)."""
        if self.lines is None or (self.laid_at is not None and self.laid_at != width):
            parts = richtext.paragraphs(self.text, self.icon is not None)
            size = self.style.fontSize
            self.lines = richtext.layout(parts, self._inner(width), 1e9, size, self.look).lines
            self.laid_at = width
        return self.lines

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        """reportlab's question: the room the paragraph takes in a column this wide."""
        self.width = availWidth
        self.height = len(self._laid(availWidth)) * self.style.leading
        return availWidth, self.height

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        """The lines that fit in ``availHeight`` and the rest, as two paragraphs (none when
        not one line fits, or all do)."""
        lines = self._laid(availWidth)
        fit = int(availHeight // self.style.leading)
        if fit < 1 or fit >= len(lines):
            return []
        first = ShapedParagraph(self.text, self.style, self.icon, self.bullet, lines[:fit])
        rest = ShapedParagraph(self.text, self.style, self.icon, None, lines[fit:])
        return [first, rest]

    def draw(self) -> None:
        """The background, bullet and lines, each piece in its place."""
        canvas, style = self.canv, self.style
        if style.backColor is not None:
            top, right, bottom, left = normalizeTRBL(style.borderPadding)
            canvas.saveState()
            canvas.setFillColor(style.backColor)
            x, w = style.leftIndent - left, self.width - style.leftIndent - style.rightIndent
            canvas.rect(x, -bottom, w + left + right, self.height + top + bottom, 0, 1)
            canvas.restoreState()
        canvas.saveState()
        canvas.setFillColor(style.textColor)
        lines = self._laid(self.width)
        rtl = bool(lines) and lines[0].rtl
        if self.bullet:
            self._bullet(self.bullet, rtl)
        layout = richtext.Layout(style.fontSize, lines, self.height, self.width, True)
        # reportlab's right is the right edge whichever way the text runs; its left (the
        # default) the paragraph's start: the right edge of a right-to-left one
        right = "start" if rtl else "end"
        align = {TA_CENTER: "middle", TA_RIGHT: right}.get(style.alignment, "start")
        x = style.rightIndent if rtl else style.leftIndent
        # the first baseline a font size below the top, as reportlab's paragraphs set it
        box = (x, style.fontSize * (1 - richtext.ASCENT), self._inner(self.width), self.height)
        for at in richtext.placed(layout, box, self.look, align):
            self._piece(at)
        canvas.restoreState()

    def _bullet(self, bullet: str, rtl: bool) -> None:
        """The bullet, at its indent from the paragraph's start side."""
        style, size = self.style, self.style.bulletFontSize
        canvas = self.canv
        canvas.setFont(style.bulletFontName, size)
        baseline = self.height - style.fontSize
        if rtl:
            rl.draw_string(canvas, self.width - style.bulletIndent, baseline, bullet, "end")
        else:
            rl.draw_string(canvas, style.bulletIndent, baseline, bullet)

    def _piece(self, at: richtext.Placed) -> None:
        """One placed piece: text in the face that draws it, or an icon the text's size."""
        size, canvas = self.style.fontSize, self.canv
        baseline = self.height - at.baseline  # placed from the top, y down; drawn y up
        if at.piece.icon:
            if self.icon is not None:
                draw_icon(canvas, self.icon(at.piece.icon), at.x, baseline, size)
            return
        style = "italic" if at.piece.italic else "normal"
        font = drawing_font(at.piece.text, at.weight, style, self.look.family)
        text = at.piece.text
        rl.draw_run(canvas, font, size, at.x, baseline, text, rtl=at.rtl, down=False, hooked=True)
