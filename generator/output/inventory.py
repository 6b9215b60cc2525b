"""The inventory page that opens every pack: contents with counts and pages, a 50 mm
calibration square and the printing instructions."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from generator.art.richtext import Overflow
from generator.layout.pack import ComponentPlan, Pack
from generator.layout.shapedflow import WORD_BREAK, escape, paragraph, wide_words
from generator.layout.sheets import BoardMap
from generator.model.designs import Design
from generator.model.sizes import sheet_geometry
from generator.svg import canvas as rl
from generator.svg import shaping
from generator.svg.fonts import BOLD, REGULAR, register_fonts, text_width

SIDE = 15.0  # mm: the inventory's own side margin, well inside the printable area
SQUARE = 50.0  # mm: the calibration square
MAX_KINDS_LISTED = 16  # a component with more kinds gives their number instead
ABOUT_GAP = 8.0  # mm between the contents and 'About this edition' on one page
MAP_TITLE = 25.0  # mm an assembly map's title and help take above it
MAP_GAP = 6.0  # mm between the last inventory text and an assembly map under it
MAP_SHARE = 0.8  # the least size of a map under the text, against a page of its own


def _styles(rtl: bool = False) -> dict[str, ParagraphStyle]:
    """The inventory's paragraph styles (``rtl``: set against the right, for a table read
    from the right)."""
    register_fonts()
    if rtl:
        return {k: ParagraphStyle(k, v, alignment=TA_RIGHT) for k, v in _styles().items()}
    styles = {
        "title": ParagraphStyle("title", fontName=BOLD, fontSize=22, leading=26),
        "sub": ParagraphStyle("sub", fontName=REGULAR, fontSize=11, leading=14),
        "note": ParagraphStyle("note", fontName=REGULAR, fontSize=9.5, leading=12.5),
        "cell": ParagraphStyle("cell", fontName=REGULAR, fontSize=9, leading=11),
        "small": ParagraphStyle(
            "small", fontName=REGULAR, fontSize=7.5, leading=9, textColor=colors.HexColor("#555555")
        ),
        "head": ParagraphStyle("head", fontName=BOLD, fontSize=9, leading=11),
        "heading": ParagraphStyle("heading", fontName=BOLD, fontSize=12, leading=15, spaceAfter=4),
    }
    for style in styles.values():
        style.embeddedHyphenation = 1  # a word with hyphens ends a line after one, if it must
    return styles


def page_ranges(pages: list[int]) -> str:
    """'2–5, 9' for pages [2, 3, 4, 5, 9]; '–' for none."""
    runs: list[list[int]] = []
    for page in pages:
        if runs and page == runs[-1][1] + 1:
            runs[-1][1] = page
        else:
            runs.append([page, page])
    return ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs) or "–"


HEADS = ("inventory_component", "inventory_count", "inventory_size", "inventory_pages")
CELL_PAD = 6.0  # pt: the padding reportlab's table gives each side of a cell
HEAD_ROOM = 30 * mm  # a column header this wide or less stays on one line
COLUMN_SHARE = 0.25  # the most of the table's width the count, size or pages column takes


@dataclass(frozen=True)
class _Row:
    """A component's line of the contents, as text: its name (and its kinds, when it has
    several), its count, size and pages."""

    component: str
    title: str
    kinds: str | None
    cells: tuple[str, str, str]
    making: str | None = None


def _rows(pack: Pack) -> list[_Row]:
    """The contents' lines, one per component."""
    rows = []
    for plan in pack.components:
        labels = _labels(plan.designs)
        if labels is None or len(plan.designs) > MAX_KINDS_LISTED:
            kinds = pack.words.text("inventory_kinds", count=len(plan.designs))
        else:
            kinds = " · ".join(  # 'First wave 2 × 1': a kind's name may end in a number
                f"{label}\u00a0×\u00a0{pack.words.number(d.count)}"
                for label, d in zip(labels, plan.designs, strict=True)
            )
        size = plan.shape.label(pack.words) if plan.shape else ""
        count = pack.words.number(plan.count)
        below = [kinds] if len(plan.designs) > 1 else []  # one kind: the count says it all
        below += [plan.note] if plan.note else []  # how to print it (a pad, a box)
        several = " · ".join(below) or None
        title = plan.component.spec.title
        cells = (count, size, page_ranges(plan.pages))
        rows.append(_Row(plan.component.id, title, several, cells, _making(pack, plan)))
    return rows


def row_texts(pack: Pack) -> list[str]:
    """Each component's row of the contents as text, in the order it is drawn (its name,
    kinds and making notes, then its count, size and pages), to be read back."""
    return [
        " ".join([r.title, *(n for n in (r.kinds, r.making) if n), *r.cells]) for r in _rows(pack)
    ]


def _widths(pack: Pack, rows: list[_Row], width: float) -> list[float]:
    """The contents' column widths (points): the count, size and pages each as wide as its
    widest cell, and its header on one line (a long header at least as wide as its longest
    word), up to a share of the table; the component's name takes the rest."""
    out = []
    for column, key in enumerate(HEADS[1:]):
        head = pack.words.text(key)
        words = max((text_width(w, 9, "bold") for w in WORD_BREAK.split(head) if w), default=0)
        whole = text_width(head, 9, "bold")
        cells = max((text_width(r.cells[column], 9) for r in rows), default=0.0)
        wanted = max(cells, words, min(whole, HEAD_ROOM)) + 2 * CELL_PAD + 1
        out.append(min(wanted, COLUMN_SHARE * width))
    return [max(width - sum(out), 0.0), *out]


def _table(pack: Pack, width: float) -> Table:
    """The contents table: one row per component, its kinds and counts beneath its name;
    its columns from the right when the pack's words read right to left."""
    rtl = _reads_from_right(pack)
    st = _styles(rtl)
    rows: list[list[Flowable | list[Flowable]]] = [
        [paragraph(pack.words.text(k), st["head"], escape(pack.words.text(k))) for k in HEADS]
    ]
    found = _rows(pack)
    for row in found:
        cells = [paragraph(cell, st["cell"]) for cell in row.cells]
        rows.append([_name_cell(row.title, row.kinds, st, row.making), *cells])
    widths = _widths(pack, found, width)
    if rtl:
        rows, widths = [row[::-1] for row in rows], widths[::-1]
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


def split_words(pack: Pack) -> list[Overflow]:
    """The words of the contents page too wide for where they are set, which a line would
    split with no hyphen: each at its engine catalog's line (the engine's words) or as the
    component's or game's text (the check puts a translation at its catalog line)."""
    width = pack.paper[0] * mm - 2 * SIDE * mm
    rows = _rows(pack)
    widths = _widths(pack, rows, width)
    out = []
    for key, room in zip(HEADS, widths, strict=True):
        for word, excess in wide_words(pack.words.text(key), room - 2 * CELL_PAD, 9, "bold"):
            out.append(_engine_split(pack, key, word, excess, room))
    for row in rows:
        for text, size in ((row.title, 9.0), (row.kinds or "", 7.5)):
            for word, excess in wide_words(text, widths[0] - 2 * CELL_PAD, size):
                out.append(_game_split(pack, row.component, text, word, excess, widths[0]))
    return out


def _engine_split(pack: Pack, key: str, word: str, excess: float, room: float) -> Overflow:
    """An engine word split on the contents page, at its line of the catalog it is from."""
    path, line = pack.words.place(key)
    return Overflow(
        "",
        "the contents page",
        f"column '{pack.words.text(key)}' ({room / mm:.1f} mm)",
        f"{excess / mm:.1f} mm of width for the word '{word}', which a line would split",
        line,
        path,
        word,
        fix=f"give a shorter word for '{key}' in locale/engine-{pack.words.language}.po "
        "(its entries win over pnp's own)",
    )


def _game_split(
    pack: Pack, component: str, text: str, word: str, excess: float, room: float
) -> Overflow:
    """A word of the game's own split on the contents page (a component's name or kinds)."""
    return Overflow(
        component,
        "the contents page",
        f"the component column ({room / mm:.1f} mm)",
        f"{excess / mm:.1f} mm of width for the word '{word}', which a line would split",
        text=text,
    )


def _name_cell(
    title: str, kinds: str | None, st: dict[str, ParagraphStyle], making: str | None = None
) -> Flowable | list[Flowable]:
    """A component's name in the contents, with its kinds and counts beneath it in small
    grey type when it has more than one (``kinds``: None for one), and whether it is
    optional and how long it takes to make (``making``)."""
    notes = [note for note in (kinds, making) if note is not None]
    if not shaping.needed(title + "".join(notes)):
        name = escape(title)
        for note in notes:  # one kind: the count column says it all
            name += f"<br/><font size='7.5' color='#555555'>{escape(note)}</font>"
        return Paragraph(name, st["cell"])
    return [paragraph(title, st["cell"]), *(paragraph(note, st["small"]) for note in notes)]


def _making(pack: Pack, plan: ComponentPlan) -> str | None:
    """'optional: real dice do as well · about 25 min to make', as the spec says; None when
    it says neither."""
    spec, words = plan.component.spec, pack.words
    notes = [words.text("inventory_optional", instead=spec.optional)] if spec.optional else []
    if spec.minutes_to_make:
        notes.append(words.text("inventory_minutes", minutes=words.number(spec.minutes_to_make)))
    return " · ".join(notes) or None


def _labels(designs: list[Design]) -> list[str] | None:
    """What each kind is called in the contents: its printed name, in the pack's language;
    None when a kind has none (the contents then give the number of kinds, never ids)."""
    labels = [d.label() for d in designs]
    return None if None in labels else [str(label) for label in labels]


def _header_parts(pack: Pack) -> list[tuple[Paragraph, float]]:
    """The title, subtitle, designer and printing notes beside the calibration square, each
    with the space above it (points)."""
    st = _styles()
    game = pack.game.spec
    parts = [
        paragraph(pack.words.text("inventory_title", title=game.title), st["title"]),
        paragraph(pack.words.text("inventory_subtitle", players=game.players), st["sub"]),
    ]
    if game.designer:
        parts.append(
            paragraph(pack.words.text("inventory_designer", designer=game.designer), st["sub"])
        )
    notes = [paragraph(note, st["note"]) for note in printing_notes(pack)]
    gaps = [0, 6, *[3] * (len(parts) - 2), 6, *[3] * (len(notes) - 1)]
    return list(zip([*parts, *notes], gaps, strict=True))


def printing_notes(pack: Pack) -> list[str]:
    """How to print the pack: at actual size, on how many sheets, on which sides."""
    words = pack.words
    paper = words.text("count_sheets", sheets=pack.sheet_count)
    if pack.duplex:
        edge = words.text("duplex_short" if pack.options.duplex == "short" else "duplex_long")
        pages = words.text("count_pages", pages=pack.page_count)
        sides = [
            words.text("inventory_duplex", edge=edge, paper=paper, pages=pages),
            words.text("inventory_manual_duplex"),
        ]
    elif pack.options.layout == "fold":
        sides = [words.text("inventory_fold", paper=paper)]
    else:
        sides = [words.text("inventory_single", paper=paper)]
    notes = [words.text("inventory_print_scale"), *sides, _paper_note(pack)]
    return [*notes, words.text("inventory_square")]


def card_sheets(pack: Pack) -> list[int]:
    """The sheets best printed on card: those with a piece of a component printed on card
    (cards, tokens, dice, standees, unless its spec says ``stock: paper``)."""
    card = {p.component.id for p in pack.components if p.component.spec.paper == "card"}
    return [
        number
        for number, sheet in enumerate(pack.sheets, start=1)
        if any(p.piece.component in card for p in sheet.front.placements)
    ]


def _paper_note(pack: Pack) -> str:
    """What to print on: which sheets on card, which on plain paper."""
    card = card_sheets(pack)
    if not card:
        return pack.words.text("inventory_paper_plain")
    if len(card) == pack.sheet_count:
        return pack.words.text("inventory_paper_all_card")
    pages = [
        number
        for number, _, sheet in pack.pages()
        if sheet in card  # every page of those sheets, blank backs too
    ]
    return pack.words.text(
        "inventory_paper_card", sheets=page_ranges(card), pages=page_ranges(pages)
    )


def _text_width(pack: Pack) -> float:
    return pack.paper[0] * mm - 2 * SIDE * mm - SQUARE * mm - 8 * mm


def _header_height(pack: Pack) -> float:
    """How far down the header reaches: the square or the notes, whichever is longer, then
    the 'Contents' heading."""
    notes = sum(p.wrap(_text_width(pack), 10**6)[1] + gap for p, gap in _header_parts(pack))
    return max(SQUARE * mm, notes) + 22 * mm


def _about(pack: Pack) -> list[Flowable]:
    """'About this edition': what the edition made up where the rulebook is silent, for the
    game and then component by component; nothing when it made up nothing."""
    st = _styles()
    game = pack.game.spec
    specs = [p.component.spec for p in pack.components]
    items = [(spec.title, spec.authored) for spec in specs if spec.authored]
    if not game.authored and not items:
        return []
    story: list[Flowable] = [
        paragraph(pack.words.text("about_heading"), st["heading"]),
        paragraph(pack.words.text("about_intro", title=game.title), st["note"]),
        Spacer(1, 3 * mm),
    ]
    if game.authored:
        story += [paragraph(game.authored, st["cell"]), Spacer(1, 2 * mm)]
    for title, note in items:
        markup = f"<b>{escape(title)}</b>: {escape(note)}"
        story += [paragraph(f"**{title}**: {note}", st["cell"], markup), Spacer(1, 1.5 * mm)]
    return story


def _story(pack: Pack, width: float) -> list[Flowable | None]:
    """What the inventory pages hold after the first page's header: the contents, then
    'About this edition', below them if all of it fits there, else from a page of its own.
    None stands for that choice."""
    about = _about(pack)
    return [_table(pack, width), *([None, *about] if about else [])]


def _chunks(pack: Pack) -> tuple[list[list[Flowable]], float]:
    """The inventory's flowables, page by page: each page takes what fits below its top (the
    first below the header), splitting a table or paragraph that does not; and the room
    (points) left at the foot of the last page."""
    pw, ph = pack.paper[0] * mm, pack.paper[1] * mm
    width = pw - 2 * SIDE * mm
    bottom = (sheet_geometry().margin + sheet_geometry().footer) * mm
    story = _story(pack, width)
    pages: list[list[Flowable]] = [[]]
    room = ph - SIDE * mm - bottom - _header_height(pack)
    while story:
        flowable = story.pop(0)
        if flowable is None:  # 'About this edition': here if all of it fits, else overleaf
            rest = [f for f in story if f is not None]
            needed = sum(f.wrap(width, 10**6)[1] for f in rest) + ABOUT_GAP * mm
            flowable = Spacer(1, ABOUT_GAP * mm)
            if needed > room:
                pages.append([])
                room = ph - SIDE * mm - bottom
                continue
        if room <= 0:
            pages.append([])
            room = ph - SIDE * mm - bottom
        height = flowable.wrap(width, room)[1]
        if height <= room:
            pages[-1].append(flowable)
            room -= height
            continue
        parts = flowable.split(width, room)
        if len(parts) > 1 or not pages[-1]:
            parts = parts or [flowable]  # too tall for an empty page: drawn as it is
            pages[-1].append(parts[0])
            story[:0] = parts[1:]
        else:
            story.insert(0, flowable)
        room = 0
    return pages, room


def page_count(pack: Pack) -> int:
    """How many inventory pages the pack opens with."""
    return len(_chunks(pack)[0])


def room_left(pack: Pack) -> tuple[float, float, float, float]:
    """The box (x, y, w, h mm) left empty at the foot of the last inventory page."""
    _, room = _chunks(pack)
    bottom = sheet_geometry().margin + sheet_geometry().footer
    return SIDE, bottom, pack.paper[0] - 2 * SIDE, max(0.0, room / mm - MAP_GAP)


def map_page_box(paper: tuple[float, float]) -> tuple[float, float, float, float]:
    """Where an assembly map on a page of its own goes (x, y, w, h mm): its title at the
    top, the map below."""
    margin = sheet_geometry().margin
    left, bottom = margin + 10, margin + 15
    return left, bottom, paper[0] - 2 * left, paper[1] - bottom - margin - 15


def map_scale(board: BoardMap, box: tuple[float, float, float, float]) -> float:
    """How small the board is drawn in ``box``, below its title."""
    _, _, width, height = box
    return min(width / board.w, max(0.0, height - MAP_TITLE) / board.h)


def map_fits(pack: Pack, board: BoardMap) -> bool:
    """Whether a board's assembly map fits under the last inventory page's text at
    ``MAP_SHARE`` of the size it would have on a page of its own."""
    own = map_scale(board, map_page_box(pack.paper))
    return map_scale(board, room_left(pack)) >= MAP_SHARE * own


def draw_page(pack: Pack, canvas: Canvas, index: int) -> None:
    """Draw inventory page ``index`` (the first has the title, notes and square)."""
    pw, ph = pack.paper[0] * mm, pack.paper[1] * mm
    width = pw - 2 * SIDE * mm
    top = ph - SIDE * mm
    if index == 0:
        _header(pack, canvas, width, top)
        top -= _header_height(pack)
    for flowable in _chunks(pack)[0][index]:
        _, height = flowable.wrapOn(canvas, width, top)
        flowable.drawOn(canvas, SIDE * mm, top - height)
        top -= height


def _header(pack: Pack, canvas: Canvas, width: float, top: float) -> None:
    """Title, instructions and the calibration square (the square at the left and the
    'Contents' heading at the right when the pack's words read right to left)."""
    rtl = _reads_from_right(pack)
    square_left = SIDE * mm if rtl else SIDE * mm + width - SQUARE * mm
    text_left = SIDE * mm + width - _text_width(pack) if rtl else SIDE * mm
    canvas.setLineWidth(0.5)
    canvas.setStrokeGray(0)
    canvas.rect(square_left, top - SQUARE * mm, SQUARE * mm, SQUARE * mm)
    canvas.setFont(REGULAR, 9)
    rl.draw_string(
        canvas,
        square_left + SQUARE * mm / 2,
        top - SQUARE * mm / 2 - 3,
        pack.words.text("inventory_square_label"),
        "middle",
    )
    y = top
    for para, gap in _header_parts(pack):
        _, h = para.wrapOn(canvas, _text_width(pack), top)
        y -= h + gap
        para.drawOn(canvas, text_left, y)
    canvas.setFont(BOLD, 12)
    heading_y = top - _header_height(pack) + 10 * mm
    heading = pack.words.text("inventory_heading")
    if rtl:
        rl.draw_string(canvas, SIDE * mm + width, heading_y, heading, "end")
    else:
        rl.draw_string(canvas, SIDE * mm, heading_y, heading)


def _reads_from_right(pack: Pack) -> bool:
    """Whether the pack's own words read right to left (its contents are then laid out from
    the right)."""
    return shaping.base_rtl(pack.words.text("inventory_component"))
