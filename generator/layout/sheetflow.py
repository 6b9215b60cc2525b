"""Reference sheets laid out with reportlab's flowables: headed sections, paragraphs, bullet
lists and tables flowing through columns and pages, with icons inline in the text.

An icon is written in the spec as a short code (``:club:``) and drawn by the game's icon
macro as vector art at the size and baseline of the text around it: a transparent image of
the text's size holds its place in the line, and an ``onDraw`` callback draws the icon there.
The font shrinks step by step until the sheet fits its ``pages``; if it cannot, the shortfall
is reported as an overflow rather than clipped.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    Frame,
    KeepTogether,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
    paraparser,
)
from reportlab.platypus.doctemplate import ActionFlowable

from generator.art.richtext import Overflow
from generator.art.store import Drawing
from generator.layout.shapedflow import ICON_DROP, ShapedParagraph, draw_icon, escape, wide_words
from generator.model.kinds.sheet import SheetBlock, SheetSpec, SheetTable
from generator.model.yamlsource import Path_
from generator.svg import canvas as rl
from generator.svg import shaping
from generator.svg.fonts import BOLD, REGULAR, register_fonts
from generator.svg.raster import open_image

ICON_CODE = re.compile(r":([a-z0-9][a-z0-9-]*):")
BOLD_ITALIC_CODE = re.compile(r"\*\*\*(.+?)\*\*\*")
BOLD_CODE = re.compile(r"\*\*(.+?)\*\*")
ITALIC_CODE = re.compile(r"(?<!\*)\*(?![\s*])(.+?)(?<![\s*])\*(?!\*)")  # not "5 * 3 * 2"
SHRINK_STEP = 0.5
MAX_PAGES = 60
TITLE_SPACE = 14 * mm
COLUMN_GAP = 6 * mm
CELL_PAD = 2.5  # points each side of a table cell's text
CALLBACK = "pnpicon"
# a bullet at BULLET_AT font sizes from the column's edge, its text at BULLET_TEXT: reportlab
# pushes a first line right when the bullet (0.59 sizes wide) and its 0.6 sizes of space end
# past the text's indent, so BULLET_AT + 1.19 must stay under BULLET_TEXT
BULLET_AT = 0.2
BULLET_TEXT = 1.4
HEADING_SCALE = 1.3  # a section heading's size, in body sizes
HEADING_INK = "#ffffff"  # a section heading's text, on the section's colour
BLANK_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c"
    "6360606060000000050001a5f645400000000049454e44ae426082"
)


BLANK_SRC = "pnp-blank-icon"  # the <img src> of an icon's placeholder: no file, held in memory


@cache
def _blank_reader() -> ImageReader:
    """The 1 x 1 transparent PNG that holds an icon's place in a line of text, decoded from
    memory once."""
    return ImageReader(open_image(BLANK_PNG))


def _paragraph_image(src: str) -> ImageReader:
    """reportlab's reader of a paragraph's ``<img>``: only the icon placeholder, from memory
    (reportlab takes images in paragraphs by file name only; the placeholder was a file of a
    predictable name in /tmp, which another user could plant first). Spec text is escaped,
    so no other ``<img>`` reaches a paragraph."""
    if src != BLANK_SRC:
        raise ValueError(f"a paragraph draws no image file ({src!r})")
    return _blank_reader()


paraparser.ImageReader = _paragraph_image


@dataclass
class FlowLayout:
    """A sheet's story, the frames it flows through, and the font size that made it fit."""

    spec: SheetSpec
    area: tuple[float, float, float, float]  # printable x, y, w, h in mm
    icon: Callable[[str, Path_ | None], Drawing]
    rows_from: Callable[[SheetTable, Path_], list[list[str]]]
    size: float = 0.0
    pages: int = 0
    overflow: Overflow | None = None
    _drawing: Iterator[None] | None = field(default=None, repr=False)
    _wide: dict[float, bool] = field(default_factory=dict, repr=False)  # a word too wide, by size

    @property
    def column_width(self) -> float:
        """A column's width in points."""
        cols = self.spec.columns
        return (self.area[2] * mm - COLUMN_GAP * (cols - 1)) / cols

    def frames(self, first: bool) -> list[Frame]:
        """The columns of a page (the first page leaves room for the title)."""
        x, y, w, h = (v * mm for v in self.area)
        if first:
            h -= TITLE_SPACE
        gap = COLUMN_GAP
        cols = self.spec.columns
        width = self.column_width
        order = range(cols - 1, -1, -1) if self.rtl else range(cols)  # the first column first
        return [
            Frame(x + i * (width + gap), y, width, h, 0, 0, 0, 0, showBoundary=0) for i in order
        ]

    @property
    def rtl(self) -> bool:
        """Whether the sheet reads right to left (its title does): its columns then run from
        the right, and its tables' first column is their rightmost."""
        return shaping.base_rtl(self.spec.title)

    def story(self, size: float) -> list[Flowable]:
        """The sheet's flowables at body font ``size``."""
        return Story(self, size).build()

    def split_words(self) -> list[tuple[Path_, str, str, float]]:
        """The words of the sheet, at the size it is set in, too wide for their column or
        table cell (a line would split them with no hyphen): where each is in the spec, its
        text, the word and how much wider (points)."""
        story = Story(self, self.size)
        story.build()
        return story.wide

    def count(self, size: float) -> tuple[int, float]:
        """Pages the story takes at ``size``, and the height (mm) left over after
        ``spec.pages`` pages (0 when it fits)."""
        register_fonts()
        canvas = Canvas(io.BytesIO())
        canvas.setNamedCB(CALLBACK, lambda *_: None)
        built = Story(self, size)
        story = built.build()
        self._wide[size] = bool(built.wide)
        pages = 0
        while story:
            pages += 1
            before = len(story)
            for frame in self.frames(pages == 1):
                fill(frame, story, canvas)
            stuck = len(story) == before and pages > 1
            if story and (stuck or pages >= (self.spec.pages or MAX_PAGES)):
                return pages + 1, self._height(story, canvas)
        return pages, 0.0

    def _height(self, story: list[Flowable], canvas: Canvas) -> float:
        """How tall (mm) the flowables not yet placed are, in one column."""
        return sum(f.wrapOn(canvas, self.column_width, 10**6)[1] for f in story) / mm

    def fit(self, component: str) -> None:
        """Choose the largest font size (down to the minimum, in steps of half a point) at
        which the sheet fits its pages with every word within its column or cell (as a text
        box shrinks its text): the given size first, then by halving the range of sizes left
        (a smaller font never needs more room), so a long sheet is laid out a few times, not
        once a step."""
        sizes = [self.spec.font_size]
        while sizes[-1] > self.spec.min_font_size + 1e-9:
            sizes.append(max(sizes[-1] - SHRINK_STEP, self.spec.min_font_size))
        pages, left = self.count(sizes[0])
        if not left and not self._wide[sizes[0]]:
            self.size, self.pages = sizes[0], pages
            return
        low, high = 1, len(sizes) - 1  # the answer is the first size that fits, if any
        fitting: tuple[float, int] | None = None
        while low <= high:
            middle = (low + high) // 2
            pages, left = self.count(sizes[middle])
            if left or self._wide[sizes[middle]]:  # a word wider than its column: smaller
                low = middle + 1
            else:
                fitting, high = (sizes[middle], pages), middle - 1
        if fitting is not None:
            self.size, self.pages = fitting
            return
        size = sizes[-1]
        pages, left = self.count(size)
        self.size, self.pages = size, self.spec.pages or pages
        if not left:  # the pages hold it: only words too wide, which split_words() names
            return
        allowed = self.spec.pages or MAX_PAGES
        self.overflow = Overflow(
            component,
            component,
            f"{allowed} page(s) of {self.spec.columns} column(s)",
            self._lacking(left, size),
        )

    def _lacking(self, left: float, size: float) -> str:
        """What does not fit, in pages a reader can picture ('about 3 more pages of text at
        6 pt'), never only as a height of many metres in one column."""
        page = self.area[3] * self.spec.columns  # mm of column a full page holds
        more = math.ceil(left / page) if page > 0 else 0
        if more > MAX_PAGES:
            return f"more than {MAX_PAGES} more pages of text at {size:g} pt"
        if more <= 1:
            return f"{left:.0f} mm of text at {size:g} pt (less than one more page)"
        return f"about {more} more pages of text at {size:g} pt ({left:.0f} mm of column)"

    def draw_page(self, canvas: Canvas, title: str) -> None:
        """Draw the next page of the sheet (pages are drawn in order)."""
        if self._drawing is None:
            self._drawing = self._pages(canvas, title)
        next(self._drawing, None)

    def _pages(self, canvas: Canvas, title: str) -> Iterator[None]:
        canvas.setNamedCB(CALLBACK, self._draw_icon)
        story = self.story(self.size)
        for page in range(1, self.pages + 1):
            self._page(canvas, title, story, page)
            yield

    def _page(self, canvas: Canvas, title: str, story: list[Flowable], page: int) -> None:
        """Page ``page`` of the sheet, from the front of ``story``: its title (on the first)
        and its columns filled."""
        if page == 1:
            x, y, w, h = self.area
            canvas.setFont(BOLD, 16)
            canvas.setFillGray(0)
            if shaping.base_rtl(title):  # a right-to-left title from the right
                rl.draw_string(canvas, (x + w) * mm, (y + h) * mm - 16, title, "end")
            else:
                rl.draw_string(canvas, x * mm, (y + h) * mm - 16, title)
        for frame in self.frames(page == 1):
            fill(frame, story, canvas)

    def draw_page_at(self, canvas: Canvas, title: str, number: int) -> None:
        """Draw page ``number`` (from 1) of the sheet alone: the pages before it are laid out
        on a canvas of their own, which nobody sees (a print shop's file draws each page of a
        sheet by itself, more than once)."""
        register_fonts()
        unseen = Canvas(io.BytesIO())
        unseen.setNamedCB(CALLBACK, lambda *_: None)
        canvas.setNamedCB(CALLBACK, self._draw_icon)
        story = self.story(self.size)
        for page in range(1, number + 1):
            self._page(canvas if page == number else unseen, title, story, page)

    def _draw_icon(self, canvas: Canvas, kind: str, label: str) -> None:
        """onDraw callback: the icon in the placeholder just before it ('name@size')."""
        x, y = rl.text_cursor(canvas)
        name, size_text = label.rsplit("@", 1)
        size = float(size_text)
        draw_icon(canvas, self.icon(name, None), x - size, y, size)


def fill(frame: Frame, story: list[Flowable], canvas: Canvas) -> None:
    """Fill ``frame`` from the front of ``story``, splitting what can be split (paragraphs,
    tables, kept-together groups) as a document template would; what is placed leaves the
    story."""
    while story:
        flowable = story[0]
        if isinstance(flowable, ActionFlowable):
            story.pop(0)
            continue
        if isinstance(flowable, KeepTogether):
            # reportlab splits these only inside a document template; do it here: the group
            # goes on in this column if it fits (or the column is empty), else in the next.
            content = list(flowable._content)
            height = sum(
                f.wrapOn(canvas, frame._aW, 10**6)[1] + f.getSpaceBefore() + f.getSpaceAfter()
                for f in content
            )
            if height > frame._y - frame._y1p and not frame._atTop:
                return
            story[0:1] = content
            continue
        if frame.add(flowable, canvas, trySplit=1):
            story.pop(0)
            continue
        parts = frame.split(flowable, canvas)
        if not parts or parts[0] is flowable:
            return
        story[0:1] = parts


def _keep_headings_with_next(parts: list[Flowable]) -> list[Flowable]:
    """Each heading joined with the flowable after it, so a column break cannot part them."""
    out: list[Flowable] = []
    i = 0
    while i < len(parts):
        part = parts[i]
        is_heading = isinstance(part, Paragraph | ShapedParagraph) and part.style.name in (
            "head",
            "sub",
        )
        if is_heading and i + 1 < len(parts):
            out.append(KeepTogether([part, parts[i + 1]]))
            i += 2
        else:
            out.append(part)
            i += 1
    return out


class Story:
    """Builds a sheet's flowables at one font size."""

    def __init__(self, layout: FlowLayout, size: float):
        self.layout = layout
        self.size = size
        register_fonts()
        self.body = ParagraphStyle(
            "body", fontName=REGULAR, fontSize=size, leading=size * 1.25, embeddedHyphenation=1
        )  # a long word with hyphens ends a line after one, not split anywhere
        self.bold = ParagraphStyle("sub", parent=self.body, fontName=BOLD, spaceBefore=size * 0.4)
        self.bullet = ParagraphStyle(
            "bullet",
            parent=self.body,
            leftIndent=size * BULLET_TEXT,
            bulletIndent=size * BULLET_AT,
            bulletFontName=REGULAR,
            bulletFontSize=size,
        )
        self.where: tuple[str | int, ...] = ()
        self.wide: list[tuple[Path_, str, str, float]] = []  # words too wide for their room

    def build(self) -> list[Flowable]:
        out: list[Flowable] = []
        for index, section in enumerate(self.layout.spec.sections):
            head = ParagraphStyle(
                "head",
                parent=self.body,
                fontName=BOLD,
                fontSize=self.size * HEADING_SCALE,
                leading=self.size * 1.6,
                textColor=colors.HexColor(HEADING_INK),
                backColor=colors.HexColor(section.colour),
                borderPadding=(1.5, 3, 1.5, 3),
                leftIndent=3,
                rightIndent=3,
                spaceBefore=self.size * 0.9,
                spaceAfter=self.size * 0.45,
            )
            self.where = ("sections", index, "heading")
            heading = self.para(section.heading, head)
            parts: list[Flowable] = []
            for number, block in enumerate(section.blocks):
                self.where = ("sections", index, "blocks", number)
                parts.extend(self.block(block))
            # a heading (or sub-heading) never stands alone at the foot of a column
            parts = _keep_headings_with_next([heading, *parts])
            out.extend([KeepTogether(parts)] if section.keep_together else parts)
        return out

    def block(self, block: SheetBlock) -> list[Flowable]:
        if block.heading:
            return [self.para(block.heading, self.bold)]
        if block.text:
            return [self.para(block.text, self.body), Spacer(1, self.size * 0.25)]
        if block.bullets:
            return [self.para(item, self.bullet, "•") for item in block.bullets]
        assert block.table is not None
        return [self.table(block.table), Spacer(1, self.size * 0.5)]

    def table(self, table: SheetTable) -> Table:
        size = min(table.font_size or self.size, self.size)
        cell = ParagraphStyle("cell", parent=self.body, fontSize=size, leading=size * 1.2)
        head = ParagraphStyle("cellhead", parent=cell, fontName=BOLD)
        rows = self.layout.rows_from(table, (*self.where, "table")) if table.from_ else table.rows
        width = self.layout.column_width
        weights = table.widths or [1.0] * len(table.header or rows[0])
        widths = [width * w / sum(weights) for w in weights]
        rooms = [w - 2 * CELL_PAD for w in widths]
        data = [self.cells(table.header, head, rooms)] if table.header else []
        data += [self.cells(row, cell, rooms) for row in rows]
        if self.layout.rtl:
            data, widths = [row[::-1] for row in data], widths[::-1]
        result = Table(data, colWidths=widths, repeatRows=1 if table.header else 0)
        style = [
            ("FONTNAME", (0, 0), (-1, -1), REGULAR),  # not reportlab's unembedded Helvetica
            ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#999999")),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD),
        ]
        if table.header:
            style.append(("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e4e4e4")))
        result.setStyle(TableStyle(style))
        return result

    def cells(self, row: list[str], style: ParagraphStyle, rooms: list[float]) -> list[Flowable]:
        """A table row's paragraphs, each cell's words measured against its own width."""
        return [self.para(c, style, room=r) for c, r in zip(row, rooms, strict=False)]

    def para(
        self, text: str, style: ParagraphStyle, bullet: str | None = None, room: float = 0.0
    ) -> Flowable:
        """A paragraph of spec text in ``style``: reportlab's, or pnp's own for text that
        needs shaping (``shapedflow``); an unknown icon fails now, at its line. Its words too
        wide for ``room`` (points; the column less the style's indents when 0) are noted."""
        room = room or self.layout.column_width - style.leftIndent - style.rightIndent
        weight = "bold" if style.fontName == BOLD else "normal"
        for word, excess in wide_words(str(text), room, style.fontSize, weight):
            self.wide.append((self.where, str(text), word, excess))
        if not shaping.needed(text):
            return Paragraph(self.markup(text, style.fontSize), style, bulletText=bullet)
        for name in ICON_CODE.findall(text):
            self.layout.icon(name, self.where)
        return ShapedParagraph(text, style, lambda name: self.layout.icon(name, None), bullet)

    def markup(self, text: str, size: float) -> str:
        """Spec text as paragraph markup: XML escaped, **bold**, *italic*, and :icon: codes
        inline as a placeholder of the text's ``size`` followed by the callback that draws
        the icon."""
        escaped = BOLD_ITALIC_CODE.sub(r"<b><i>\1</i></b>", escape(str(text)))
        escaped = ITALIC_CODE.sub(r"<i>\1</i>", BOLD_CODE.sub(r"<b>\1</b>", escaped))

        def icon(match: re.Match[str]) -> str:
            self.layout.icon(match[1], self.where)  # an unknown icon fails now, at its line
            return (
                f'<img src="{BLANK_SRC}" width="{size:.2f}" height="{size:.2f}" '
                f'valign="-{ICON_DROP:.0%}"/>'
                f'<onDraw name="{CALLBACK}" label="{match[1]}@{size:.2f}"/>'
            )

        return ICON_CODE.sub(icon, escaped)
