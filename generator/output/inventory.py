"""The inventory page that opens every pack: contents with counts and pages, a 50 mm
calibration square and the printing instructions."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, Table, TableStyle

from generator.art.fonts import BOLD, REGULAR, register_fonts
from generator.i18n.strings import text
from generator.layout.pack import Pack
from generator.spec.designs import Design
from generator.spec.sizes import sheet_geometry

SIDE = 15.0  # mm: the inventory's own side margin, well inside the printable area
SQUARE = 50.0  # mm: the calibration square
MAX_KINDS_LISTED = 16  # a component with more kinds gives their number instead


def _styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    return {
        "title": ParagraphStyle("title", fontName=BOLD, fontSize=22, leading=26),
        "sub": ParagraphStyle("sub", fontName=REGULAR, fontSize=11, leading=14),
        "note": ParagraphStyle("note", fontName=REGULAR, fontSize=9.5, leading=12.5),
        "cell": ParagraphStyle("cell", fontName=REGULAR, fontSize=9, leading=11),
        "small": ParagraphStyle(
            "small", fontName=REGULAR, fontSize=7.5, leading=9, textColor=colors.HexColor("#555555")
        ),
        "head": ParagraphStyle("head", fontName=BOLD, fontSize=9, leading=11),
    }


def page_ranges(pages: list[int]) -> str:
    """'2–5, 9' for pages [2, 3, 4, 5, 9]; '–' for none."""
    runs: list[list[int]] = []
    for page in pages:
        if runs and page == runs[-1][1] + 1:
            runs[-1][1] = page
        else:
            runs.append([page, page])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs) or "–"


def _table(pack: Pack, width: float) -> Table:
    """The contents table: one row per component, its kinds and counts beneath its name."""
    st = _styles()
    rows = [
        [
            Paragraph(text(k), st["head"])
            for k in ("inventory_component", "inventory_count", "inventory_size", "inventory_pages")
        ]
    ]
    for plan in pack.components:
        spec = plan.component.spec
        labels = _labels(plan.designs)
        kinds = " · ".join(
            f"{escape(label)} {d.count}" for label, d in zip(labels, plan.designs, strict=True)
        )
        if len(plan.designs) > MAX_KINDS_LISTED:
            kinds = escape(text("inventory_kinds", count=len(plan.designs)))
        name = escape(spec.title)
        if len(plan.designs) > 1:  # one kind: the count column says it all
            name += f"<br/><font size='7.5' color='#555555'>{kinds}</font>"
        size = plan.shape.label if plan.shape else ""
        rows.append(
            [
                Paragraph(name, st["cell"]),
                Paragraph(str(plan.count), st["cell"]),
                Paragraph(size, st["cell"]),
                Paragraph(page_ranges(plan.pages), st["cell"]),
            ]
        )
    widths = [width - 75 * mm, 18 * mm, 32 * mm, 25 * mm]
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), REGULAR),  # not reportlab's unembedded Helvetica
                ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                ("LINEBELOW", (0, 1), (-1, -1), 0.3, colors.HexColor("#999999")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return table


def _labels(designs: list[Design]) -> list[str]:
    """What each kind is called in the contents: its title, in the pack's language, when every
    kind of the component has a title of its own; else its name in the spec."""
    titles = [d.fields().get("title") for d in designs]
    if all(isinstance(t, str) and t.strip() for t in titles) and len(set(titles)) == len(titles):
        return [str(t) for t in titles]
    return [d.name for d in designs]


def _header_parts(pack: Pack) -> list[tuple[Paragraph, float]]:
    """The title, subtitle, designer and printing notes beside the calibration square, each
    with the space above it (points)."""
    st = _styles()
    game = pack.game.spec
    parts = [
        Paragraph(escape(text("inventory_title", title=game.title)), st["title"]),
        Paragraph(escape(text("inventory_subtitle", players=game.players)), st["sub"]),
    ]
    if game.designer:
        parts.append(
            Paragraph(escape(text("inventory_designer", designer=game.designer)), st["sub"])
        )
    notes = [Paragraph(escape(note), st["note"]) for note in printing_notes(pack)]
    gaps = [0, 6, *[3] * (len(parts) - 2), 6, *[3] * (len(notes) - 1)]
    return list(zip([*parts, *notes], gaps, strict=True))


def printing_notes(pack: Pack) -> list[str]:
    """How to print the pack: at actual size, on how many sheets, on which sides."""
    sheets, pages = pack.sheet_count, pack.page_count
    if pack.duplex:
        edge = text("duplex_short" if pack.options.duplex == "short" else "duplex_long")
        sides = [
            text("inventory_duplex", edge=edge, sheets=sheets, pages=pages),
            text("inventory_fold_hint"),
        ]
    elif pack.options.layout == "fold":
        sides = [text("inventory_fold", sheets=sheets)]
    else:
        sides = [text("inventory_single", sheets=sheets)]
    return [text("inventory_print_scale"), *sides, text("inventory_square")]


def _text_width(pack: Pack) -> float:
    return pack.paper[0] * mm - 2 * SIDE * mm - SQUARE * mm - 8 * mm


def _header_height(pack: Pack) -> float:
    """How far down the header reaches: the square or the notes, whichever is longer, then
    the 'Contents' heading."""
    notes = sum(p.wrap(_text_width(pack), 10**6)[1] + gap for p, gap in _header_parts(pack))
    return max(SQUARE * mm, notes) + 22 * mm


def _chunks(pack: Pack) -> list[Table]:
    """The contents table split into the pieces that fit each inventory page."""
    pw, ph = pack.paper[0] * mm, pack.paper[1] * mm
    width = pw - 2 * SIDE * mm
    bottom = (sheet_geometry().margin + sheet_geometry().footer) * mm
    chunks: list[Table] = []
    table: Table | None = _table(pack, width)
    first = True
    while table is not None:
        avail = ph - SIDE * mm - bottom - (_header_height(pack) if first else 0)
        parts = table.split(width, avail)
        if not parts:
            parts = [table]
        chunks.append(parts[0])
        table = parts[1] if len(parts) > 1 else None
        first = False
    return chunks


def page_count(pack: Pack) -> int:
    """How many inventory pages the pack opens with."""
    return len(_chunks(pack))


def draw_page(pack: Pack, canvas: Canvas, index: int) -> None:
    """Draw inventory page ``index`` (the first has the title, notes and square)."""
    pw, ph = pack.paper[0] * mm, pack.paper[1] * mm
    width = pw - 2 * SIDE * mm
    chunk = _chunks(pack)[index]
    top = ph - SIDE * mm
    if index == 0:
        _header(pack, canvas, width, top)
        top -= _header_height(pack)
    _, height = chunk.wrapOn(canvas, width, top)
    chunk.drawOn(canvas, SIDE * mm, top - height)


def _header(pack: Pack, canvas: Canvas, width: float, top: float) -> None:
    """Title, instructions and the calibration square."""
    square_left = SIDE * mm + width - SQUARE * mm
    canvas.setLineWidth(0.5)
    canvas.setStrokeGray(0)
    canvas.rect(square_left, top - SQUARE * mm, SQUARE * mm, SQUARE * mm)
    canvas.setFont(REGULAR, 9)
    canvas.drawCentredString(
        square_left + SQUARE * mm / 2, top - SQUARE * mm / 2 - 3, text("inventory_square_label")
    )
    y = top
    for para, gap in _header_parts(pack):
        _, h = para.wrapOn(canvas, _text_width(pack), top)
        y -= h + gap
        para.drawOn(canvas, SIDE * mm, y)
    canvas.setFont(BOLD, 12)
    heading_y = top - _header_height(pack) + 10 * mm
    canvas.drawString(SIDE * mm, heading_y, text("inventory_heading"))
