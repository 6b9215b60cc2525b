"""Contrast: every text a pack prints against what is printed behind it, as WCAG 2 measures
it (relative luminance, (L1 + 0.05) / (L2 + 0.05)): at least 4.5:1 for text under 14 pt,
3:1 from 14 pt.

The text comes from the compiled art: each text operation's colour (the fill in force, its
alpha), font, size and box through every transform above it. What lies behind it comes from
the art as printed: each piece of art is drawn without its text into a PDF (once for the
pieces whose art differs only in its words), rendered by pdfium at ``DPI`` where its texts lie
(once for the texts with the same scene behind them, ``scenes``), and the pixels under each
text's box are read, so backgrounds of images, gradients and bands
count as they print (in ink-saver mode, the lightened art). A text passes
when all but ``SHARE`` of the pixels behind it reach the ratio. Punctuation alone (an
ornamental quotation mark) is decoration and not measured. Reference sheets' headings are
measured from their colours.
"""

from __future__ import annotations

import ctypes
import io
import math
import re
import unicodedata
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from generator.art.inks import linear, relative_luminance
from generator.art.layers import Layered
from generator.check import groundpdf, scenes
from generator.check.printed import PrintedText, Tally
from generator.errors import ctrl_c_held
from generator.layout.inksaver import outlined
from generator.layout.pack import ComponentPlan, Pack
from generator.layout.sheetflow import HEADING_INK, HEADING_SCALE
from generator.model.designs import Design
from generator.model.kinds.sheet import SheetSpec
from generator.model.yamlsource import Path_, YamlDoc
from generator.svg import canvas as rl
from generator.svg.fonts import register_fonts
from generator.svg.pdf import FILL_ALPHA, GROUP, PAINT, RESTORE, SAVE, TEXT, TRANSFORM, Drawer, Ops
from generator.svg.values import IDENTITY, Matrix, apply, multiply

LARGE_PT = 14.0  # text from this size needs only LARGE_RATIO
NORMAL_RATIO = 4.5
LARGE_RATIO = 3.0
DPI = 96  # the raster the background is read from
SHARE = 0.2  # the share of a text's background that may fall short of the ratio
CAP = 0.72  # the height of the glyphs' body above the baseline, in font sizes
OUTSIDE = 0.9  # a text with less than this share of its box on the art (cut off) is not measured
FILL_RGB = re.compile(r"([\d.+-]+) ([\d.+-]+) ([\d.+-]+) rg\b")
STROKE_RGB = re.compile(r"([\d.+-]+) ([\d.+-]+) ([\d.+-]+) RG\b")
LITERALS_KEPT = 4096  # literals whose colours are kept read
COLOUR_REACH = 200  # the characters before a colour operator its three numbers lie within
RGB = tuple[float, float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points, y up
Pixels = tuple[int, int, int, int]  # x0, y0, x1, y1 of a render, y down from its top
WHITE = 0xFFFFFFFF  # the paper under a patch, as pdfium's ARGB


@dataclass(frozen=True)
class Run:
    """One text the art prints: its words, size in points, colour, alpha, the box of its
    glyphs' body (art points, y up) and the colour of its outline, if it has one."""

    text: str
    size: float
    colour: RGB
    alpha: float
    box: Box
    halo: RGB | None = None


@lru_cache(maxsize=LITERALS_KEPT)
def _colours(literal: str) -> tuple[RGB | None, RGB | None]:
    """The fill and stroke colour a literal sets last (None: it sets none): a deck's art
    repeats its literals (a few hundred kinds among thousands), so each is read once."""
    return _last(FILL_RGB, " rg", literal), _last(STROKE_RGB, " RG", literal)


def _last(pattern: re.Pattern[str], mark: str, literal: str) -> RGB | None:
    """The last colour ``pattern`` sets in a literal (None: it sets none): read where the
    last ``mark`` (the operator with its space) is, not through a long path's numbers."""
    at = literal.rfind(mark)
    if at < 0:
        return None
    end = at + len(mark) + 1  # with the character after, for the pattern's word boundary
    found = pattern.findall(literal, max(0, at - COLOUR_REACH), end) or pattern.findall(literal)
    if not found:
        return None
    r, g, b = (float(v) for v in found[-1])
    return r, g, b


@dataclass
class _State:
    ctm: Matrix = IDENTITY
    fill: RGB = (0.0, 0.0, 0.0)
    stroke: RGB = (0.0, 0.0, 0.0)
    alpha: float = 1.0


def text_runs(ops: Ops, ctm: Matrix = IDENTITY, alpha: float = 1.0) -> Iterator[Run]:
    """Every text the operations print, in the units ``ctm`` maps to (art points); groups
    are followed in (at the alpha they are painted with), gradient-painted text is not."""
    state = _State(ctm, alpha=alpha)
    stack: list[_State] = []
    for op in ops:
        if isinstance(op, str):
            fill, stroke = _colours(op)
            state.fill, state.stroke = fill or state.fill, stroke or state.stroke
            continue
        code = op[0]
        if code == SAVE:
            stack.append(_State(state.ctm, state.fill, state.stroke, state.alpha))
        elif code == RESTORE:
            state = stack.pop() if stack else state
        elif code == TRANSFORM:
            state.ctm = multiply(state.ctm, op[1])
        elif code == FILL_ALPHA:
            state.alpha = op[1] * alpha
        elif code == TEXT and op[6] in (0, 2) and not _decoration(op[5]):
            yield _run(op, state)
        elif code == GROUP:
            yield from text_runs(op[3], state.ctm, state.alpha)


def _decoration(text: str) -> bool:
    """Whether a text is only punctuation (a large quotation mark drawn as an ornament):
    nothing to read, so WCAG asks no contrast of it."""
    return all(c.isspace() or unicodedata.category(c).startswith("P") for c in text)


def _run(op: tuple, state: _State) -> Run:
    """A text operation as a ``Run``: its box from the font's measures."""
    _, font, size, x, y, text, mode, spacing = op[:8]  # shaped text adds its direction
    width = stringWidth(text, font, size) + spacing * len(text)
    corners = [apply(state.ctm, px, py) for px in (x, x + width) for py in (y, y - CAP * size)]
    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    m = state.ctm
    scale = abs(m[0] * m[3] - m[1] * m[2]) ** 0.5
    halo = state.stroke if mode == 2 else None
    box = (min(xs), min(ys), max(xs), max(ys))
    return Run(text, size * scale, state.fill, state.alpha, box, halo)


def without_text(ops: Ops) -> Ops:
    """The operations with every text left out (groups and gradient paints too)."""
    out: list = []
    for op in ops:
        if isinstance(op, str):
            out.append(op)
        elif op[0] == TEXT:
            continue
        elif op[0] == GROUP:
            out.append((*op[:3], without_text(op[3])))
        elif op[0] == PAINT:
            out.append((*op[:6], without_text(op[6])))
        else:
            out.append(op)
    return tuple(out)


def parts(artwork: object) -> list[Drawer]:
    """The drawings art is made of: itself, or a face's static layer and the rest."""
    if isinstance(artwork, Layered):
        return [artwork.layer, artwork.rest]
    assert isinstance(artwork, Drawer)
    return [artwork]


def measure(artworks: Sequence[object], dpi: float = DPI) -> list[Measured]:
    """The texts under the ratio their size needs, for each piece of art: each ground (the
    art without its text) is rendered only where texts lie on it, once for all the pieces
    that share it (a deck's cards on one frame)."""
    runs = [_runs_on(artwork, dpi) for artwork in artworks]
    bare = [_bare(artwork) for artwork in artworks]
    keys = [_same(drawings) for drawings in bare]
    grounds: dict[object, tuple[list[Drawer], set[Pixels]]] = {}
    for key, drawings, found in zip(keys, bare, runs, strict=True):
        if found:
            grounds.setdefault(key, (drawings, set()))[1].update(box for _, box in found)
    patches = _render(grounds, dpi)
    return [_short(found, key, patches) for key, found in zip(keys, runs, strict=True)]


def _runs_on(artwork: object, dpi: float) -> list[tuple[Run, Pixels]]:
    """Each text of ``artwork`` with the pixels behind it (at ``dpi``); a text mostly off
    the art (cut off, nothing prints it) is left out."""
    drawings = parts(artwork)
    width, height = drawings[0].width, drawings[0].height
    found = []
    for drawing in drawings:
        for run in text_runs(drawing.ops):
            box = _box(run, width, height, dpi)
            if box is not None:
                found.append((run, box))
    return found


def _short(
    found: list[tuple[Run, Pixels]], key: object, patches: dict[tuple[object, Pixels], Image.Image]
) -> Measured:
    """The texts ``found`` on the ground ``key`` that fall short of their ratio."""
    out = []
    for run, box in found:
        reached, behind = run_contrast(run, patches[key, box])
        if reached < needed(run.size) - 1e-6:
            out.append((run, reached, behind))
    return tuple(out)


def _bare(artwork: object) -> list[Drawer]:
    """The drawings of ``artwork`` without their text."""
    return [Drawer(d.width, d.height, without_text(d.ops)) for d in parts(artwork)]


def _same(drawings: list[Drawer]) -> object:
    """What two pieces of bare art that print the same share: their sizes and operations
    (or, when an operation cannot be compared, the drawings themselves)."""
    key = tuple((d.width, d.height, d.ops) for d in drawings)
    try:
        hash(key)
    except TypeError:
        return id(drawings)
    return key


def _render(
    grounds: dict[object, tuple[list[Drawer], set[Pixels]]], dpi: float
) -> dict[tuple[object, Pixels], Image.Image]:
    """Each ground (its drawings one above the other) on a page of its own, rendered at
    each of its boxes of pixels alone: the same pixels as the whole page's. Plain grounds
    are written by ``groundpdf``, the rest by reportlab; of the patches of plain grounds
    with one scene (``scenes``), one is rendered for all."""
    plain: dict[object, set[Pixels]] = {}
    rest: dict[object, set[Pixels]] = {}
    same: dict[tuple[object, Pixels], tuple[object, Pixels]] = {}  # patch -> one rendered
    seen: dict[tuple, tuple[object, Pixels]] = {}  # scene -> its patch rendered
    for key, (drawings, boxes) in grounds.items():
        if not groundpdf.plain(drawings):
            rest[key] = boxes
            continue
        for box, first in scenes.firsts(key, drawings, boxes, dpi, seen).items():
            plain.setdefault(first[0], set()).add(first[1])
            same[key, box] = first
    patches: dict[tuple[object, Pixels], Image.Image] = {}
    for wanted, write in ((plain, groundpdf.document), (rest, _drawn_by_reportlab)):
        if wanted:
            data = write([grounds[key][0] for key in wanted])
            patches.update(_patches(data, list(wanted.items()), dpi))
    for patch, first in same.items():
        patches[patch] = patches[first]
    return patches


def _drawn_by_reportlab(grounds: Sequence[Sequence[Drawer]]) -> bytes:
    """A PDF of grounds, one a page, drawn on a reportlab canvas."""
    register_fonts()
    buffer = io.BytesIO()
    with rl.binary_streams():  # a PDF read once, in memory: neither packed nor encoded
        canvas = Canvas(buffer, invariant=1, pageCompression=0)
        for drawings in grounds:
            canvas.setPageSize((drawings[0].width, drawings[0].height))
            for drawing in drawings:
                drawing.draw(canvas)
            canvas.showPage()
        canvas.save()
    return buffer.getvalue()


def _patches(
    data: bytes, pages: list[tuple[object, set[Pixels]]], dpi: float
) -> dict[tuple[object, Pixels], Image.Image]:
    """The boxes of pixels of each page of the PDF ``data``, by its ground's key (a Ctrl-C
    while pdfium draws them held to the end: ``ctrl_c_held``)."""
    patches = {}
    with ctrl_c_held():
        document = pdfium.PdfDocument(data)
        try:
            for page, (key, boxes) in zip(document, pages, strict=True):
                for box in boxes:
                    patches[key, box] = _patch(page, box, dpi / 72)
        finally:
            document.close()
    return patches


def _patch(page: pdfium.PdfPage, box: Pixels, scale: float) -> Image.Image:
    """The pixels ``box`` of the page rendered at ``scale`` (white paper under it): the page
    drawn at its whole size in pixels (its size in points times the scale, rounded up, as
    pypdfium2's ``render`` draws it), offset so that only the box lands in the bitmap, through
    pdfium's own calls: a deck asks for thousands of small patches, and the helper's bitmap
    object and finalizer cost as much as the drawing."""
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    stride = width * 3
    pixels = (ctypes.c_ubyte * (stride * height))()
    bitmap = pdfium_c.FPDFBitmap_CreateEx(width, height, pdfium_c.FPDFBitmap_BGR, pixels, stride)
    try:
        pdfium_c.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, WHITE)
        page_width = math.ceil(page.get_width() * scale)
        page_height = math.ceil(page.get_height() * scale)
        pdfium_c.FPDF_RenderPageBitmap(
            bitmap, page.raw, -x0, -y0, page_width, page_height, 0, pdfium_c.FPDF_ANNOT
        )
    finally:
        pdfium_c.FPDFBitmap_Destroy(bitmap)
    return Image.frombuffer("RGB", (width, height), bytes(pixels), "raw", "BGR", stride, 1)


LINEAR = [linear(v / 255) for v in range(256)]
luminance = relative_luminance  # WCAG's relative luminance of an sRGB colour (0-1 channels)


def ratio(a: float, b: float) -> float:
    """The contrast ratio of two relative luminances."""
    light, dark = max(a, b), min(a, b)
    return (light + 0.05) / (dark + 0.05)


def needed(size: float) -> float:
    """The ratio text of ``size`` points needs."""
    return LARGE_RATIO if size >= LARGE_PT - 1e-6 else NORMAL_RATIO


def _box(run: Run, width: float, height: float, dpi: float) -> Pixels | None:
    """The pixels behind ``run``'s glyphs on art of ``width`` x ``height`` points rendered
    at ``dpi`` (None: less than ``OUTSIDE`` of the text lies on the art)."""
    s = dpi / 72
    x0, y0, x1, y1 = run.box
    box = (
        max(0, int(x0 * s)),
        max(0, int((height - y1) * s)),
        min(math.ceil(width * s), int(x1 * s + 0.999)),
        min(math.ceil(height * s), int((height - y0) * s + 0.999)),
    )
    whole = (x1 - x0) * (y1 - y0) * s**2
    inside = max(0, box[2] - box[0]) * max(0, box[3] - box[1])
    return None if inside <= 0 or inside < OUTSIDE * whole else box


def run_contrast(run: Run, patch: Image.Image) -> tuple[float, RGB]:
    """The contrast ``run`` reaches over all but ``SHARE`` of the pixels behind it (``patch``),
    and the colour behind it there."""
    colours: list[tuple[int, tuple[int, int, int]]] = (
        patch.getcolors(patch.width * patch.height) or []  # type: ignore[assignment]
    )
    halo = luminance(run.halo) if run.halo is not None else None
    found = []
    for count, (r, g, b) in colours:
        behind = (r / 255, g / 255, b / 255)
        fore = luminance(_over(run.colour, run.alpha, behind))
        reached = ratio(fore, luminance(behind))
        if halo is not None:
            reached = max(reached, ratio(fore, halo))
        found.append((reached, count, behind))
    found.sort()
    allowed = SHARE * sum(count for _, count, _ in found)
    for reached, count, behind in found:
        allowed -= count
        if allowed < 0:
            return reached, behind
    return found[-1][0], found[-1][2]


def _over(colour: RGB, alpha: float, behind: RGB) -> RGB:
    """``colour`` painted at ``alpha`` over ``behind``."""
    r, g, b = (alpha * c + (1 - alpha) * d for c, d in zip(colour, behind, strict=True))
    return r, g, b


def hex_colour(rgb: RGB) -> str:
    """``#rrggbb``."""
    return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)


@dataclass(frozen=True)
class LowContrast(PrintedText):
    """A text that does not stand out from what is printed behind it: its colour, the colour
    behind it and the ratio they reach (``others``: the other pieces with this finding, for a
    preview that shows it on each; ``texts``: how many texts of these colours they print)."""

    ratio: float
    colour: RGB
    behind: RGB

    def message(self, ink_saver: bool = False) -> str:
        """'low contrast: faction-tokens 'elf-unit' (front, ink saver): 'E.L.F.' ...'."""
        side = f"{self.side}, ink saver" if ink_saver else self.side
        large = "from" if needed(self.size) == LARGE_RATIO else "under"
        return (
            f"low contrast: {self.subject(side)} in "
            f"{hex_colour(self.colour)} on {hex_colour(self.behind)} at {self.ratio:.2f}:1 "
            f"({self.size:.1f} pt; text {large} {LARGE_PT:g} pt needs {needed(self.size):g}:1); "
            "darken the text or lighten what is behind it, or the other way round"
        )


def _text_line(doc: YamlDoc, text: str, within: Path_ = ()) -> tuple[Path, int] | None:
    """The file and line of the first string in ``doc`` (below ``within``) that holds
    ``text``: a spreadsheet's row when the entries came from one."""
    data: Any = doc.data
    for key in within:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    stack: list[tuple[Path_, Any]] = [(tuple(within), data)]
    while stack:
        loc, value = stack.pop(0)
        if isinstance(value, str) and text.strip() in value:
            return doc.where(loc)
        if isinstance(value, dict):
            stack += [((*loc, k), v) for k, v in value.items()]
        elif isinstance(value, list):
            stack += [((*loc, i), v) for i, v in enumerate(value)]
    return None


def _placed(pack: Pack) -> dict[str, tuple[str, str, str]]:
    """Every piece of art the pack prints at full size, once, with the component, piece and
    side it is first printed as: faces, backs (but those the ink saver prints as outlines),
    the title bands of token pages."""
    found: dict[str, tuple[str, str, str]] = {}
    for sheet in pack.sheets:
        for page in (sheet.front, sheet.back):
            if page is None:
                continue
            for p in page.placements:
                if p.piece.flowed or outlined(pack, p):
                    continue
                key = p.piece.face if p.side == "front" else p.piece.back
                if key:
                    found.setdefault(key, (p.piece.component, p.piece.name, p.side))
            for decoration in page.decorations:
                owner = page.components[0] if page.components else ""
                found.setdefault(decoration.art, (owner, "title band", "front"))
    return found


def low_contrast(pack: Pack) -> tuple[LowContrast, ...]:
    """Every text of the pack under the contrast its size needs, once per component, side,
    text and ratio (the first piece, and how many more), then the reference sheets'
    headings."""
    placed = _placed(pack)
    measures = _measured_all(pack, list(placed))
    components = {plan.component.id: plan for plan in pack.components}
    designs = {(p.component.id, d.name): d for p in pack.components for d in p.designs}
    tally: Tally[LowContrast] = Tally()
    for (component, piece, side), runs in zip(placed.values(), measures, strict=True):
        plan = components.get(component)
        design = designs.get((component, piece))
        for run, reached, behind in runs:
            colours = (hex_colour(run.colour), hex_colour(behind), round(reached, 2))
            where = (component, side, needed(run.size), *colours)
            place = (component, piece, side)
            found = partial(_found, pack, plan, design, place, run, reached, behind)
            tally.add(where, piece, run.text, found)
    for plan in pack.components:
        if isinstance(plan.component.spec, SheetSpec):
            tally.found.update(_headings(pack, plan))
    return tuple(sorted(tally.found.values(), key=lambda c: (c.component, c.ratio, c.text)))


Measured = tuple[tuple[Run, float, RGB], ...]  # the texts of one piece of art under ratio
ARTS_AT_ONCE = 256  # pieces of art whose grounds one throwaway PDF holds: memory stays flat
MEASURED_KEPT = 4000  # pieces of art whose measure is kept between plans in one process
_MEASURED: OrderedDict[tuple[str, str, bool], Measured] = OrderedDict()


def _measured_all(pack: Pack, keys: list[str]) -> list[Measured]:
    """The texts under ratio of each piece of art ``keys``: kept between plans of one
    process (``pnp serve``, ``--watch``) by the art's key (the hash of its SVG), its game
    and ink-saver mode, so that after a one-card edit only that card's art is rendered and
    measured again; art that draws other files is always measured afresh."""
    base, ink_saver = str(pack.art.base), pack.art.ink_saver
    found: dict[str, Measured] = {}
    for key in keys:
        kept = _MEASURED.get((key, base, ink_saver))
        if kept is not None and key not in pack.art.reading:
            _MEASURED.move_to_end((key, base, ink_saver))
            found[key] = kept
    missing = [key for key in keys if key not in found]
    for start in range(0, len(missing), ARTS_AT_ONCE):
        chunk = missing[start : start + ARTS_AT_ONCE]
        arts = [pack.art.drawing(key) for key in chunk]
        for key, measures in zip(chunk, measure(arts), strict=True):
            found[key] = measures
            _MEASURED[(key, base, ink_saver)] = measures
    while len(_MEASURED) > MEASURED_KEPT:
        _MEASURED.popitem(last=False)
    return [found[key] for key in keys]


def _found(
    pack: Pack,
    plan: ComponentPlan | None,
    design: Design | None,
    place: tuple[str, str, str],
    run: Run,
    reached: float,
    behind: RGB,
) -> LowContrast:
    """The finding of ``run`` where it is placed (component, piece, side), at the line its
    text comes from."""
    component, piece, side = place
    path, line = _source(plan, design, run.text, pack)
    return LowContrast(
        path, line, component, piece, side, run.text, run.size, reached, run.colour, behind
    )


def _source(
    plan: ComponentPlan | None, design: Design | None, text: str, pack: Pack
) -> tuple[Path, int | None]:
    """The spec and line a text comes from: the field of its piece's entry that holds it,
    else any line of the spec that does, else the entry (or the spec)."""
    if plan is None:
        return pack.game.doc.path, None
    component = plan.component
    if design is not None and design.entry is not None:
        entry = (component.spec.entries_key, design.index)
        found = _text_line(component.doc, text, entry) or _text_line(component.doc, text)
    else:
        found = _text_line(component.doc, text)
    if found is not None:
        return found
    return design.where if design is not None else (component.path, None)


def _headings(pack: Pack, plan: ComponentPlan) -> dict[tuple, LowContrast]:
    """A reference sheet's section headings: white on the section's colour, at the size the
    sheet was fitted at."""
    spec = plan.component.spec
    assert isinstance(spec, SheetSpec)
    flow = next(
        (page.flow for _, page in pack.numbered_pages() if page.flow and page.flow.spec is spec),
        None,
    )
    if flow is None:
        return {}
    size = flow.size * HEADING_SCALE
    white = hex_rgb(HEADING_INK)
    out = {}
    for index, section in enumerate(spec.sections):
        if section.colour == "none":
            continue
        back = hex_rgb(section.colour)
        reached = ratio(luminance(white), luminance(back))
        if reached < needed(size) - 1e-6:
            line = plan.component.doc.line_of(("sections", index, "colour"))
            key = (plan.component.id, "sheet", section.heading, round(reached, 1))
            out[key] = LowContrast(
                plan.component.path, line, plan.component.id, "sheet", "heading",
                section.heading, size, reached, white, back,
            )  # fmt: skip
    return out


def hex_rgb(text: str) -> RGB:
    """``#rrggbb`` (or ``#rgb``) as 0-1 channels."""
    digits = text.lstrip("#")
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    r, g, b = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b
