"""What pnp does to a reportlab canvas beyond its public API, in one place: the document a
canvas writes, its content stream drawn aside, XObjects painted by name, the text cursor of a
paragraph being drawn, forms that keep their graphics states, streams written binary, the
current transformation, a page drawn with only its text or without it, and font subsets
tagged by their glyphs. Only this module touches reportlab's private attributes; a new
reportlab that moves them breaks here and nowhere else."""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
from reportlab.pdfgen.canvas import Canvas

from generator.svg import rlfast, shaping

rlfast.install()


def document(canvas: Canvas) -> pdfdoc.PDFDocument:
    """The PDF document the canvas writes into."""
    return canvas._doc


def written(canvas: Canvas) -> dict[str, str]:
    """The document's record of objects written once: what identical content was written
    under (kept on the document, so that every drawing on it shares it)."""
    doc = canvas._doc
    if not hasattr(doc, "_pnp_objects"):
        doc._pnp_objects = {}
    objects: dict[str, str] = doc._pnp_objects
    return objects


@dataclass
class Aside:
    """A content stream drawn aside: its operators and the XObjects it paints."""

    code: list[str] = field(default_factory=list)
    forms: list[str] = field(default_factory=list)


@contextlib.contextmanager
def drawn_aside(canvas: Canvas) -> Iterator[Aside]:
    """Within the block, what is drawn on the canvas goes into the ``Aside`` given, not into
    its page or form; the canvas's own stream is put back after."""
    saved = canvas._code, canvas._formsinuse
    aside = Aside()
    canvas._code, canvas._formsinuse = [], []
    try:
        yield aside
        aside.code, aside.forms = canvas._code, canvas._formsinuse  # reportlab may swap them
    finally:
        canvas._code, canvas._formsinuse = saved


def graphics_states(canvas: Canvas) -> dict[str, object]:
    """The graphics states (transparency) the canvas has named so far."""
    known = canvas._extgstate.getState()
    return dict(known.dict) if known else {}


def paint(canvas: Canvas, name: str, image: bool = False) -> None:
    """Paint the XObject registered as ``name`` here (``image``: it is an image)."""
    canvas._code.append(f"/{pdfdoc.xObjectName(name)} Do")
    canvas._formsinuse.append(name)
    if image:
        canvas._currentPageHasImages = 1


def text_cursor(canvas: Canvas) -> tuple[float, float]:
    """Where the paragraph being drawn has got to (in a platypus ``onDraw`` callback)."""
    info = canvas._curr_tx_info
    return info["cur_x"], info["cur_y"]


class _FormXObject(pdfdoc.PDFFormXObject):
    """reportlab's form XObject leaves its graphics states (transparency) out of its
    resources, so viewers cannot find them; build the resources as reportlab does for a
    page."""

    Resources: pdfdoc.PDFResourceDictionary | None  # set by reportlab (None until built)

    def format(self, document: pdfdoc.PDFDocument) -> bytes:
        """The form, its resources built first if it has none."""
        if not self.Resources:
            resources = pdfdoc.PDFResourceDictionary()
            resources.basicFonts()
            resources.allProcs()
            if self.XObjects:
                resources.XObject = self.XObjects
            if getattr(self, "ExtGState", None):
                resources.ExtGState = self.ExtGState
            resources.setColorSpace(getattr(self, "_colorsUsed", {}))
            self.Resources = resources
        formatted: bytes = super().format(document)
        return formatted


def end_form(canvas: Canvas, name: str) -> None:
    """``canvas.endForm()`` for the form ``name`` begun with ``beginForm``, the form keeping
    the graphics states it uses in its resources."""
    canvas.endForm()
    canvas._doc.idToObject[pdfdoc.xObjectName(name)].__class__ = _FormXObject


def objects(canvas: Canvas) -> int:
    """How many objects the canvas's document holds (a fresh name's number)."""
    return len(canvas._doc.idToObject)


@contextlib.contextmanager
def binary_streams() -> Iterator[None]:
    """Within the block (or the function it decorates), streams are written binary, not
    ASCII85: ASCII85 makes every stream a quarter larger and costs time to encode. reportlab
    reads the setting as it makes an image and as it saves, so a document is drawn and saved
    inside."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


def matrix(canvas: Canvas) -> tuple[float, float, float, float, float, float]:
    """The canvas's current transformation (user space to the page's points)."""
    a, b, c, d, e, f = canvas._currentMatrix
    return (a, b, c, d, e, f)


# the canvas methods that paint something other than text (a path painted or an image)
_PAINTERS = (
    "line",
    "lines",
    "grid",
    "bezier",
    "arc",
    "rect",
    "ellipse",
    "wedge",
    "circle",
    "roundRect",
    "drawImage",
    "drawInlineImage",
    "linearGradient",
    "radialGradient",
    "shade",
    "doForm",
)


def _nothing(*args: Any, **kwargs: Any) -> None:
    """A painting method that paints nothing."""


@contextlib.contextmanager
def _instead(canvas: Canvas, methods: dict[str, Callable[..., Any]]) -> Iterator[None]:
    """Within the block, the canvas's ``methods`` are these (the class's own after)."""
    for name, method in methods.items():
        setattr(canvas, name, method)
    try:
        yield
    finally:
        for name in methods:
            canvas.__dict__.pop(name, None)


def text_only(canvas: Canvas) -> contextlib.AbstractContextManager[None]:
    """Within the block, what reportlab draws on the canvas itself (a reference sheet's
    paragraphs and tables) reaches the page as its text alone: every painting method paints
    nothing and paths only clip."""
    draw_path, clip_path = canvas.drawPath, canvas.clipPath

    def clip_only(path: Any, stroke: int = 1, fill: int = 0, fillMode: Any = None) -> None:
        clip_path(path, stroke=0, fill=0, fillMode=fillMode)

    def path(path: Any, stroke: int = 1, fill: int = 0, fillMode: Any = None) -> None:
        draw_path(path, stroke=0, fill=0, fillMode=fillMode)

    methods: dict[str, Callable[..., Any]] = dict.fromkeys(_PAINTERS, _nothing)
    methods.update(clipPath=clip_only, drawPath=path)
    return _instead(canvas, methods)


def draw_text(canvas: Canvas, text: Any) -> None:
    """Draw a text object on the canvas whatever ``without_text`` does to reportlab's own."""
    Canvas.drawText(canvas, text)


def without_text(canvas: Canvas) -> contextlib.AbstractContextManager[None]:
    """Within the block, what reportlab draws on the canvas itself reaches the page without
    its text (text objects are dropped, the rest is drawn)."""
    return _instead(canvas, {"drawText": _nothing})


# --- font subsets tagged by their glyphs ----------------------------------------------------

_TAGS = threading.local()  # the tags of the font whose subsets are being written, by subset


def glyph_tag(face: bytes | str, glyphs: list[int]) -> bytes:
    """A subset's tag (six capital letters, PDF's ``ABCDEF+`` prefix) from its font's name and
    glyph set: two different subsets never share a name, in one file or across files."""
    name = face if isinstance(face, bytes) else face.encode()
    digest = hashlib.sha1(name + b"|" + ",".join(map(str, glyphs)).encode()).digest()
    return bytes(65 + byte % 26 for byte in digest[:6])


def _subset_name(n: int, *args: Any) -> bytes:
    """reportlab's subset prefix for subset ``n``: the glyph tag while a tagged document's
    fonts are written, reportlab's own (AAAAAA, AAAAAB ...) otherwise."""
    tags: list[bytes] | None = getattr(_TAGS, "current", None)
    return tags[n] if tags is not None else bytes(_REPORTLAB_NAME(n))


_REPORTLAB_NAME = ttfonts.SUBSETN
_REPORTLAB_ADD = ttfonts.TTFont.addObjects


def _add_objects(font: ttfonts.TTFont, doc: pdfdoc.PDFDocument) -> None:
    """``TTFont.addObjects``, naming each subset by its glyphs in a tagged document."""
    state = font.state.get(doc) if getattr(doc, "_pnp_glyph_tags", False) else None
    if state is None:
        _REPORTLAB_ADD(font, doc)
        return
    _TAGS.current = [glyph_tag(font.face.name, list(subset)) for subset in state.subsets]
    try:
        _REPORTLAB_ADD(font, doc)
    finally:
        _TAGS.current = None


def tag_subsets_by_glyphs(canvas: Canvas) -> None:
    """Name the font subsets of the canvas's document by their glyphs (``glyph_tag``), not
    reportlab's AAAAAA+ that every file's first subset gets: a print shop that merges files
    and keeps one font per name would otherwise print one file's text in another's glyphs."""
    ttfonts.SUBSETN = _subset_name
    ttfonts.TTFont.addObjects = _add_objects
    canvas._doc._pnp_glyph_tags = True


# --- fonts that draw shaped text ----------------------------------------------------------

PSEUDO = 0xF0000  # glyph g is drawn as the code point PSEUDO + g (plane 15, private use)
FALLBACK_FROM = "\u0900"  # text below this (Latin ... Arabic) is never drawn by a fallback face
WIDTHS_KEPT = 65536  # widths a face keeps measured (by text and size); then it starts again


class ShapedFont(ttfonts.TTFont):
    """A TrueType font whose text in a script that needs shaping (``shaping.needed``) is
    measured and drawn as HarfBuzz shapes it, wherever it is drawn (SVG text, paragraphs,
    labels): each glyph id is given a private code point that reportlab subsets and embeds
    like a character, and the font's ToUnicode maps it back to the text it stands for. Any
    other text goes through ``TTFont`` unchanged."""

    def __init__(self, name: str, stream: Any, data: bytes) -> None:
        super().__init__(name, stream)
        self._data = data
        self._shaper: shaping.Shaper | None = None
        self.glyph_text: dict[int, str] = {}  # pseudo code point -> the text it stands for
        self.cmap = frozenset(self.face.charToGlyph)  # its characters (before pseudo codes)
        # the registered names of the faces that draw the characters this one lacks (a stock
        # face's Noto for Devanagari and Thai): ``segments``; parsed when text first needs them
        self.fallback_names: tuple[str, ...] = ()
        self._fallbacks: tuple[ShapedFont, ...] | None = None
        self._widths: dict[tuple[str, float], float] = {}  # measured: (text, size) -> width

    @property
    def fallbacks(self) -> tuple[ShapedFont, ...]:
        """The faces named by ``fallback_names``, looked up (and so made) on first use."""
        if self._fallbacks is None:
            found = [pdfmetrics.getFont(name) for name in self.fallback_names]
            self._fallbacks = tuple(f for f in found if isinstance(f, ShapedFont))
        return self._fallbacks

    def segments(self, text: str) -> list[tuple[ShapedFont, str]]:
        """``text`` cut where another face must draw it: each piece with the face that has
        its characters (this one, else the first fallback that has them); marks, joiners,
        spaces and punctuation stay with the face before them when it has them, so a word
        is shaped whole (but a piece's trailing spaces begin the next piece: a shaped line
        drops its trailing spaces). Right-to-left text is never cut (its pieces would need
        reordering): all of it is this face's."""
        if not self.fallback_names or not text or max(text) < FALLBACK_FROM:
            return [(self, text)]
        if any(shaping.runs_right_to_left(c) for c in text):
            return [(self, text)]
        out: list[tuple[ShapedFont, str]] = []
        current, start = self, 0
        for i, char in enumerate(text):
            face = self._face_for(char, current)
            if face is not current:
                if i > start:
                    out.append((current, text[start:i]))
                current, start = face, i
        out.append((current, text[start:]))
        for k in range(len(out) - 1):
            (face, piece), (after, rest) = out[k], out[k + 1]
            kept = piece.rstrip()
            out[k], out[k + 1] = (face, kept), (after, piece[len(kept) :] + rest)
        return [(face, piece) for face, piece in out if piece]

    def _face_for(self, char: str, current: ShapedFont) -> ShapedFont:
        """The face that draws ``char`` after text drawn in ``current``."""
        code = ord(char)
        if code in current.cmap and (not char.isalpha() or current is self):
            return current
        if code in self.cmap:
            return self
        return next((f for f in self.fallbacks if code in f.cmap), self)

    @property
    def shaper(self) -> shaping.Shaper:
        """HarfBuzz's view of the font, made when text first needs it (most packs never do)."""
        if self._shaper is None:
            self._shaper = shaping.Shaper(self._data)
        return self._shaper

    def stringWidth(self, text: str, size: float, encoding: str = "utf8") -> float:  # noqa: N802
        """The width of ``text`` at ``size``: shaped when it needs to be, each piece in the
        face that draws it (``segments``). Kept by text and size: a text is measured when
        it is laid out, checked and drawn, and reportlab sums its widths in Python."""
        key = (text, size)
        width = self._widths.get(key)
        if width is None:
            if len(self._widths) >= WIDTHS_KEPT:
                self._widths.clear()
            width = self._widths[key] = self._measured(text, size, encoding)
        return width

    def _measured(self, text: str, size: float, encoding: str) -> float:
        """The width of ``text`` at ``size``, worked out."""
        if self.fallback_names:
            pieces = self.segments(text)
            if len(pieces) > 1 or pieces[0][0] is not self:
                return sum(face.stringWidth(piece, size) for face, piece in pieces)
        if shaping.needed(text):
            return self.shaper.shape(text).width * size
        width: float = super().stringWidth(text, size, encoding)
        return width

    def splitString(self, text: str, doc: Any, encoding: str = "utf-8") -> Any:  # noqa: N802
        """reportlab's (subset, bytes) pieces for ``text``: its shaped glyphs when it needs
        shaping (each at its advance; offsets are drawn by ``draw_shaped``)."""
        if shaping.needed(text):
            text = "".join(self.code(g) for g in self.shaper.shape(text).glyphs)
        return super().splitString(text, doc, encoding)

    def code(self, glyph: shaping.Glyph) -> str:
        """The pseudo character reportlab draws ``glyph`` with (its width the glyph's own
        advance in whole thousandths of an em, as ``/Widths`` holds)."""
        cp = PSEUDO + glyph.gid
        face = self.face
        if cp not in face.charToGlyph:
            face.charToGlyph[cp] = glyph.gid
            advance = self.shaper.font.get_glyph_h_advance(glyph.gid)
            face.charWidths[cp] = round(advance * 1000 / self.shaper.upem)
        self.glyph_text.setdefault(cp, glyph.text)
        return chr(cp)

    def addObjects(self, doc: pdfdoc.PDFDocument) -> None:  # noqa: N802
        """The font's objects, as ``TTFont`` writes them; then each subset holding glyphs
        drawn by id gets a ToUnicode map giving their text."""
        _WRITING.font = self
        try:
            super().addObjects(doc)
        finally:
            _WRITING.font = None

    def _to_unicode(self, subset: list[int]) -> str:
        """A ToUnicode CMap for a subset, pseudo codes mapped to their text."""
        pairs = []
        for i, code in enumerate(subset):
            text = self.glyph_text.get(code, "") if code >= PSEUDO else chr(code) if code else ""
            if text:
                pairs.append(f"<{i:02X}> <{text.encode('utf-16-be').hex().upper()}>")
        body: list[str] = []
        for k in range(0, len(pairs), 100):  # at most 100 entries in a bfchar block
            chunk = pairs[k : k + 100]
            body += [f"{len(chunk)} beginbfchar", *chunk, "endbfchar"]
        return "\n".join(
            [
                "/CIDInit /ProcSet findresource begin",
                "12 dict begin",
                "begincmap",
                "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
                "/CMapName /Adobe-Identity-UCS def",
                "/CMapType 2 def",
                "1 begincodespacerange",
                "<00> <FF>",
                "endcodespacerange",
                *body,
                "endcmap",
                "CMapName currentdict /CMap defineresource pop",
                "end",
                "end",
            ]
        )


_WRITING = threading.local()  # the ShapedFont whose objects are being written
_REPORTLAB_CMAP = ttfonts.makeToUnicodeCMap


def _to_unicode_cmap(name: str, subset: list[int]) -> str:
    """reportlab's ToUnicode CMap for a subset; a ShapedFont's own when the subset holds
    glyphs drawn by id."""
    font: ShapedFont | None = getattr(_WRITING, "font", None)
    if font is not None and any(code >= PSEUDO for code in subset):
        return font._to_unicode(subset)
    cmap: str = _REPORTLAB_CMAP(name, subset)
    return cmap


ttfonts.makeToUnicodeCMap = _to_unicode_cmap


def draw_shaped(
    canvas: Canvas, font: ShapedFont, size: float, x: float, y: float, text: str, mode: int,
    rtl: bool | None, down: bool = True, hooked: bool = False,
) -> None:  # fmt: skip
    """``text`` shaped in ``font`` at ``size``, its baseline starting at (x, y) in a space
    whose y runs down (SVG's; ``down`` False: reportlab's, up), each glyph at its offset: one
    text object written whole (``hooked``: through the canvas's own ``drawText``, which a
    layered export replaces, else as a literal). A cluster whose glyphs' texts do not spell
    its characters in order (a Devanagari vowel sign drawn before its consonant, a conjunct)
    is wrapped in an ActualText span, so readers extract the text in its logical order."""
    shaped = font.shaper.shape(text, rtl)
    ops = [f"1 0 0 {-1 if down else 1} {fp_str(x)} {fp_str(y)} Tm"]
    if mode:
        ops.append(f"{mode} Tr")
    writer = _GlyphWriter(canvas, font, size, ops)
    for cluster in _clusters(shaped.glyphs):
        spelled = "".join(g.text for g in cluster)
        span = not cluster[0].rtl and spelled != cluster[0].source
        if span:
            writer.flush()
            actual = cluster[0].source.encode("utf-16-be").hex()
            ops.append(f"/Span <</ActualText <FEFF{actual}>>> BDC")
        for glyph in cluster:
            writer.add(glyph)
        if span:
            writer.flush()
            ops.append("EMC")
    writer.flush()
    ops += ["0 Ts"] if writer.rise else []
    ops += ["0 Tr"] if mode else []
    if hooked:
        code = canvas.beginText()
        code._code[:] = ["BT", *ops]  # the text object adds its ET
        canvas.drawText(code)
    else:
        canvas.addLiteral("\n".join(["BT", *ops, "ET"]))


def _clusters(glyphs: tuple[shaping.Glyph, ...]) -> list[list[shaping.Glyph]]:
    """Glyphs grouped by the cluster they draw (consecutive glyphs of one source text)."""
    out: list[list[shaping.Glyph]] = []
    for glyph in glyphs:
        if out and out[-1][0].cluster == glyph.cluster:
            out[-1].append(glyph)
        else:
            out.append([glyph])
    return out


class _GlyphWriter:
    """Glyphs written as TJ arrays: a font operator where the subset changes, a rise where
    the vertical offset does, each glyph's x offset and advance as TJ adjustments."""

    def __init__(self, canvas: Canvas, font: ShapedFont, size: float, ops: list[str]) -> None:
        self.canvas, self.font, self.size, self.ops = canvas, font, size, ops
        self.scale = 1000 / font.shaper.upem  # font units -> thousandths of an em (TJ's unit)
        self.current: int | None = None
        self.rise = 0.0
        self.tj: list[str] = []

    def flush(self) -> None:
        if self.tj:
            self.ops.append(f"[{' '.join(self.tj)}] TJ")
            self.tj.clear()

    def add(self, glyph: shaping.Glyph) -> None:
        font, scale = self.font, self.scale
        char = font.code(glyph)
        ((subset, code),) = ttfonts.TTFont.splitString(font, char, self.canvas._doc)
        if subset != self.current:
            self.flush()
            name = font.getSubsetInternalName(subset, self.canvas._doc)
            self.ops.append(f"{name} {fp_str(self.size)} Tf")
            self.current = subset
        up = glyph.dy * self.size / font.shaper.upem
        if up != self.rise:
            self.flush()
            self.ops.append(f"{fp_str(up)} Ts")
            self.rise = up
        if glyph.dx:
            self.tj.append(fp_str(-glyph.dx * scale))
        self.tj.append(f"({self.canvas._escape(code)})")
        after = font.face.charWidths[ord(char)] + (glyph.dx - glyph.advance) * scale
        if abs(after) > 1e-6:
            self.tj.append(fp_str(after))


def draw_run(
    canvas: Canvas, font: str, size: float, x: float, y: float, text: str, mode: int = 0,
    spacing: float = 0.0, rtl: bool | None = None, down: bool = True, hooked: bool = False,
) -> None:  # fmt: skip
    """A run of text from (x, y) (``down``: SVG's space, y running down): each piece in the
    face that draws it (``ShapedFont.segments``), shaped when it needs to be. ``hooked``:
    drawn through the canvas's ``drawText``, as reportlab's own text is (a layered export
    replaces it), else whatever that does."""
    face = pdfmetrics.getFont(font)
    pieces = face.segments(text) if isinstance(face, ShapedFont) else [(face, text)]
    for piece_face, piece in pieces:
        if isinstance(piece_face, ShapedFont) and (
            shaping.needed(piece) or shaping.reordered(piece, rtl)
        ):
            draw_shaped(canvas, piece_face, size, x, y, piece, mode, rtl, down, hooked)
        else:
            t = canvas.beginText()
            t.setTextTransform(1, 0, 0, -1 if down else 1, x, y)
            t.setFont(piece_face.fontName, size)
            if mode:
                t.setTextRenderMode(mode)
            if spacing:
                t.setCharSpace(spacing)
            t.textOut(piece)
            canvas.drawText(t) if hooked else draw_text(canvas, t)
        x += piece_face.stringWidth(piece, size) + spacing * len(piece)


def draw_string(canvas: Canvas, x: float, y: float, text: str, anchor: str = "start") -> None:
    """``canvas.drawString`` (``anchor`` "middle": ``drawCentredString``, "end":
    ``drawRightString``) in the canvas's font, for text in any script pnp prints: text that
    needs shaping is measured and drawn shaped, each piece in the face that has it."""
    if not shaping.needed(text):
        draw = {"start": canvas.drawString, "middle": canvas.drawCentredString}
        draw.get(anchor, canvas.drawRightString)(x, y, text)
        return
    font, size = canvas._fontname, canvas._fontsize
    width = pdfmetrics.stringWidth(text, font, size)
    x -= {"start": 0.0, "middle": width / 2}.get(anchor, width)
    draw_run(canvas, font, size, x, y, text, down=False, hooked=True)
