"""Read a PDF's geometry back from its content streams, without trusting the engine's numbers.

Only the page-level content stream is interpreted: ``q``/``Q``/``cm`` keep the current
transformation matrix, path operators build paths, painting operators record them, and every
``Do`` of a form XObject records the form's ``/BBox`` taken through the form's ``/Matrix`` and
the CTM. Forms are not entered: their art is clipped to their ``/BBox`` when printed, so the
box is what lands on paper. Art drawn once is written into the page itself, as a marked-content
sequence ``/PnpArt <</Art (key) /BBox [...]>> BDC ... EMC``: it is read as a use of an inline
form (``FormUse.inline`` holds its operations), so pages read the same either way. All results
are in millimetres, origin at the page's lower-left.

Every painted or clipping path is also kept whole (``PageContent.paths``: its straight and
Bézier pieces, line width and dash pattern), for outlines that are not straight lines; and
``read_form`` interprets one placed form's own content stream, in page coordinates.

The clipping area is followed too, as the box around each clipping path intersected with the
one before (``q``/``Q`` restore it): every form use, segment and path records the clip box in
force when it was drawn (``clip_box``, None when nothing clips it), so what is visible of it is
``box.intersect(clip_box)``.

Colours are followed as well: every painted path records the fill and stroke colour in force
(``DrawnPath.fill``, ``DrawnPath.stroke``) and every text-showing operator is kept with its
fill colour (``PageContent.texts``); ``colour_operators`` counts the colour-setting operators of
a whole file, pages and forms alike.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import pikepdf
from pypdf import PdfReader
from pypdf.generic import IndirectObject

MM_PER_PT = 25.4 / 72
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

STROKE_OPS = {b"S", b"s", b"B", b"B*", b"b", b"b*"}
PAINT_OPS = STROKE_OPS | {b"f", b"F", b"f*"}
CLOSE_OPS = {b"s", b"b", b"b*"}
TEXT_OPS = {b"Tj", b"TJ", b"'", b'"'}
COLOUR_OPS = {b"g", b"G", b"rg", b"RG", b"k", b"K", b"cs", b"CS", b"sc", b"SC", b"scn", b"SCN"}


def concat(first: Matrix, then: Matrix) -> Matrix:
    """The matrix that applies ``first`` and then ``then`` (PDF row-vector convention)."""
    a1, b1, c1, d1, e1, f1 = first
    a2, b2, c2, d2, e2, f2 = then
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    """Point ``(x, y)`` through ``m``."""
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in mm."""

    x0: float
    y0: float
    x1: float
    y1: float

    @classmethod
    def around(cls, points: list[tuple[float, float]]) -> Box:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return cls(min(xs), min(ys), max(xs), max(ys))

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0

    def shrink(self, d: float) -> Box:
        return Box(self.x0 + d, self.y0 + d, self.x1 - d, self.y1 - d)

    def overlap(self, other: Box) -> tuple[float, float]:
        """How far the two rectangles overlap in x and in y (negative: a gap)."""
        dx = min(self.x1, other.x1) - max(self.x0, other.x0)
        dy = min(self.y1, other.y1) - max(self.y0, other.y0)
        return dx, dy

    def distance(self, other: Box) -> float:
        """Shortest distance between the two rectangles (0 when they touch or overlap)."""
        dx = max(other.x0 - self.x1, self.x0 - other.x1, 0.0)
        dy = max(other.y0 - self.y1, self.y0 - other.y1, 0.0)
        return math.hypot(dx, dy)

    def centre_in(self, other: Box) -> bool:
        cx, cy = (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2
        return other.x0 <= cx <= other.x1 and other.y0 <= cy <= other.y1

    def intersect(self, other: Box | None) -> Box | None:
        """The part of this rectangle inside ``other`` (None if they do not meet; this box
        itself when ``other`` is None, i.e. no clipping)."""
        if other is None:
            return self
        box = Box(
            max(self.x0, other.x0),
            max(self.y0, other.y0),
            min(self.x1, other.x1),
            min(self.y1, other.y1),
        )
        return box if box.x0 <= box.x1 and box.y0 <= box.y1 else None

    def inside(self, other: Box, tol: float = 0.0) -> bool:
        """Whether this rectangle lies within ``other`` (``tol`` mm of slack)."""
        return (
            self.x0 >= other.x0 - tol
            and self.y0 >= other.y0 - tol
            and self.x1 <= other.x1 + tol
            and self.y1 <= other.y1 + tol
        )

    def close_to(self, other: Box, tol: float) -> bool:
        return all(
            abs(a - b) <= tol
            for a, b in zip(
                (self.x0, self.y0, self.x1, self.y1),
                (other.x0, other.y0, other.x1, other.y1),
                strict=True,
            )
        )


@dataclass(frozen=True)
class FormUse:
    """One ``Do`` of a form XObject: which form, where its ``/BBox`` landed, and how."""

    name: str
    ref: int  # object number: the same number means the same XObject drawn again
    box: Box  # the form's /BBox on the page, mm
    matrix: Matrix  # form space to page space, in points
    clip_box: Box | None = None  # the clipping area in force where it was drawn, mm
    inline: tuple | None = field(default=None, compare=False)  # art drawn into the page: its ops

    @property
    def rotation(self) -> int:
        """Counter-clockwise turn of the form on the page, in degrees (-180..180)."""
        a, b = self.matrix[0], self.matrix[1]
        return round(math.degrees(math.atan2(b, a)))

    @property
    def up(self) -> tuple[float, float]:
        """The page direction the form's +y axis points in, as a unit vector."""
        c, d = self.matrix[2], self.matrix[3]
        n = math.hypot(c, d)
        return c / n, d / n

    @property
    def determinant(self) -> float:
        a, b, c, d = self.matrix[:4]
        return a * d - b * c


@dataclass(frozen=True)
class Colour:
    """A colour as set in a content stream: its space ('gray', 'rgb', 'cmyk', or the name of
    a colour space set with ``cs``) and its components (0-1)."""

    space: str
    values: tuple[float, ...]

    @property
    def rgb(self) -> tuple[float, float, float]:
        """Approximately, as RGB (0-1); a colour space by name counts as black."""
        if self.space == "gray":
            return (self.values[0],) * 3  # type: ignore[return-value]
        if self.space == "rgb":
            return self.values  # type: ignore[return-value]
        if self.space == "cmyk":
            c, m, y, k = self.values
            return (1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k)
        return 0.0, 0.0, 0.0

    @property
    def luminance(self) -> float:
        """Relative luminance of the (uncorrected) RGB components, 0 black to 1 white."""
        r, g, b = self.rgb
        return 0.2126 * r + 0.7152 * g + 0.0722 * b


BLACK = Colour("gray", (0.0,))


@dataclass(frozen=True)
class TextShow:
    """One text-showing operator (``Tj``, ``TJ``, ...) with the fill colour it paints in."""

    text: str
    fill: Colour


@dataclass(frozen=True)
class Segment:
    """A straight piece of a stroked path, in mm, with the line width in points (user space)
    and the dash array in effect (empty: solid)."""

    x0: float
    y0: float
    x1: float
    y1: float
    width_pt: float
    dash: tuple[float, ...] = ()
    clip_box: Box | None = None  # the clipping area in force when it was stroked, mm
    stroke: Colour | None = None  # the stroke colour in force

    @property
    def box(self) -> Box:
        return Box.around([(self.x0, self.y0), (self.x1, self.y1)])

    @property
    def length(self) -> float:
        return math.hypot(self.x1 - self.x0, self.y1 - self.y0)

    @property
    def vertical(self) -> bool:
        return abs(self.x1 - self.x0) < 1e-6 and self.length > 0

    @property
    def horizontal(self) -> bool:
        return abs(self.y1 - self.y0) < 1e-6 and self.length > 0


Point = tuple[float, float]


@dataclass(frozen=True)
class PathPiece:
    """One piece of a path in mm: a line (start, end) or a cubic Bézier curve (start, two
    control points, end)."""

    points: tuple[Point, ...]

    @property
    def curve(self) -> bool:
        return len(self.points) == 4

    @property
    def start(self) -> Point:
        return self.points[0]

    @property
    def end(self) -> Point:
        return self.points[-1]

    def at(self, t: float) -> Point:
        """The point at parameter ``t`` (0-1) along the piece."""
        if not self.curve:
            (x0, y0), (x1, y1) = self.points
            return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = self.points
        u = 1 - t
        weights = (u**3, 3 * u * u * t, 3 * u * t * t, t**3)
        return (
            sum(w * x for w, x in zip(weights, (x0, x1, x2, x3), strict=True)),
            sum(w * y for w, y in zip(weights, (y0, y1, y2, y3), strict=True)),
        )


@dataclass(frozen=True)
class DrawnPath:
    """A whole path as painted (``op`` is the painting operator, ``n`` for none) or used as a
    clip, with its pieces in mm."""

    op: str
    pieces: tuple[PathPiece, ...]
    clip: bool
    width_pt: float
    dash: tuple[float, ...]
    clip_box: Box | None = None  # the clipping area in force before this path, mm
    fill: Colour = BLACK  # the fill colour in force when it was painted
    stroke: Colour = BLACK  # the stroke colour in force when it was painted

    @property
    def stroked(self) -> bool:
        return self.op.encode() in STROKE_OPS

    @property
    def box(self) -> Box:
        """The box around every point of the path, control points included (for a Bézier
        curve that box holds the curve)."""
        return Box.around([p for piece in self.pieces for p in piece.points])

    @property
    def curves(self) -> list[PathPiece]:
        return [p for p in self.pieces if p.curve]

    @property
    def lines(self) -> list[PathPiece]:
        return [p for p in self.pieces if not p.curve]


@dataclass
class PageContent:
    """What a page's own content stream draws."""

    number: int  # 1-based
    width: float
    height: float
    forms: list[FormUse] = field(default_factory=list)
    strokes: list[Segment] = field(default_factory=list)  # straight stroked segments
    painted: list[Box] = field(default_factory=list)  # every painted path, image or shading
    paths: list[DrawnPath] = field(default_factory=list)  # painted and clipping paths, whole
    texts: list[TextShow] = field(default_factory=list)  # text shown, with its fill colour


_SCRATCH = pikepdf.new()  # holds the streams parsed by qpdf


@dataclass(frozen=True)
class PdfString:
    """A string operand, as its bytes (``original_bytes``, as pypdf names them)."""

    original_bytes: bytes

    def __str__(self) -> str:
        return self.original_bytes.decode("latin-1")


def _operand(value: object) -> object:
    """A qpdf operand as pypdf gives it: numbers as floats, names as '/Name' strings,
    arrays as lists, dictionaries as dicts, strings as ``PdfString``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float | Decimal):
        return float(value)
    if isinstance(value, pikepdf.Name):
        return str(value)
    if isinstance(value, pikepdf.String):
        return PdfString(bytes(value))
    if isinstance(value, pikepdf.Array):
        return [_operand(v) for v in value]
    if isinstance(value, pikepdf.Dictionary):
        return {str(k): _operand(v) for k, v in value.items()}
    return value


def operations(stream: object) -> list[tuple[list, bytes]]:
    """The operations of a content stream (a pypdf stream, a page's contents, or None), as
    (operands, operator) pairs, parsed by qpdf: many times faster than pypdf's parser."""
    if stream is None:
        return []
    data = stream.get_data()  # type: ignore[attr-defined]
    parsed = pikepdf.parse_content_stream(pikepdf.Stream(_SCRATCH, data))
    out = []
    for instruction in parsed:
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            out.append(([], b"INLINE IMAGE"))
            continue
        out.append(
            ([_operand(v) for v in instruction.operands], str(instruction.operator).encode())
        )
    return out


def _num(value: object) -> float:
    return float(value)  # type: ignore[arg-type]


def _resolve(obj: object) -> object:
    return obj.get_object() if isinstance(obj, IndirectObject) else obj


class _Interpreter:
    def __init__(self, page_number: int, page, reader: PdfReader):
        media = [_num(v) for v in page.mediabox]
        resources = _resolve(page.get("/Resources")) or {}
        self._setup(
            PageContent(
                page_number, (media[2] - media[0]) * MM_PER_PT, (media[3] - media[1]) * MM_PER_PT
            ),
            resources,
            operations(page.get_contents()),
            IDENTITY,
        )

    @classmethod
    def for_form(cls, out: PageContent, xobject, reader: PdfReader, ctm: Matrix) -> _Interpreter:
        """An interpreter of a form XObject's own stream, starting from ``ctm``; the forms it
        draws in turn (a template's static layer) are entered too."""
        self = cls.__new__(cls)
        resources = _resolve(xobject.get("/Resources")) or {}
        self._setup(out, resources, operations(xobject), ctm)
        self.reader = reader
        return self

    def _setup(self, out: PageContent, resources, ops, ctm: Matrix) -> None:
        self.reader: PdfReader | None = None  # set: enter the forms this stream draws
        self.out = out
        self.xobjects = _resolve(resources.get("/XObject")) or {}
        self.ops = ops
        self.ctm: Matrix = ctm
        self.stack: list[tuple[Matrix, float, tuple[float, ...], Box | None, Colour, Colour]] = []
        self.clip_box: Box | None = None
        self.fill: Colour = BLACK
        self.stroke: Colour = BLACK
        self.line_width = 1.0
        self.dash: tuple[float, ...] = ()
        self.points: list[tuple[float, float]] = []  # every point of the current path, page pt
        self.lines: list[tuple[tuple[float, float], tuple[float, float]]] = []
        self.pieces: list[PathPiece] = []  # every piece of the current path, mm
        self.clipping = False
        self.start: tuple[float, float] | None = None
        self.current: tuple[float, float] | None = None

    def _pt(self, x: object, y: object) -> tuple[float, float]:
        return apply(self.ctm, _num(x), _num(y))

    def _move(self, p: tuple[float, float]) -> None:
        self.start = self.current = p
        self.points.append(p)

    def _line(self, p: tuple[float, float]) -> None:
        if self.current is not None:
            self.lines.append((self.current, p))
            self._piece(self.current, p)
        self.current = p
        self.points.append(p)

    def _curve(self, pts: list[tuple[float, float]]) -> None:
        if self.current is not None:
            self._piece(self.current, *pts)
        self.points.extend(pts)
        self.current = pts[-1]

    def _piece(self, *pts: tuple[float, float]) -> None:
        self.pieces.append(PathPiece(tuple((x * MM_PER_PT, y * MM_PER_PT) for x, y in pts)))

    def _close(self) -> None:
        if self.current is not None and self.start is not None and self.current != self.start:
            self.lines.append((self.current, self.start))
            self._piece(self.current, self.start)
        self.current = self.start

    def _paint(self, op: bytes) -> None:
        if op in CLOSE_OPS:
            self._close()
        if op in PAINT_OPS and self.points:
            self.out.painted.append(_mm_box(self.points))
        if op in STROKE_OPS:
            for (x0, y0), (x1, y1) in self.lines:
                ends = (v * MM_PER_PT for v in (x0, y0, x1, y1))
                self.out.strokes.append(
                    Segment(
                        *ends,
                        width_pt=self.line_width,
                        dash=self.dash,
                        clip_box=self.clip_box,
                        stroke=self.stroke,
                    )
                )
        if self.pieces and (op in PAINT_OPS or self.clipping):
            self.out.paths.append(
                DrawnPath(
                    op.decode(),
                    tuple(self.pieces),
                    self.clipping,
                    self.line_width,
                    self.dash,
                    self.clip_box,
                    self.fill,
                    self.stroke,
                )
            )
        if self.clipping and self.points:
            # an empty intersection clips everything away: keep a zero-size box for it
            box = _mm_box(self.points)
            self.clip_box = box.intersect(self.clip_box) or Box(box.x0, box.y0, box.x0, box.y0)
        self.points, self.lines, self.start, self.current = [], [], None, None
        self.pieces, self.clipping = [], False

    def _do(self, name: str) -> None:
        ref = self.xobjects.get(name)
        xobject = _resolve(ref)
        if xobject is None:
            raise AssertionError(f"page {self.out.number}: Do of unknown XObject {name}")
        subtype = xobject.get("/Subtype")
        if subtype == "/Form":
            form_matrix = tuple(_num(v) for v in xobject.get("/Matrix", IDENTITY))
            m = concat(form_matrix, self.ctm)  # type: ignore[arg-type]
            x0, y0, x1, y1 = (_num(v) for v in xobject["/BBox"])
            corners = [apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
            number = ref.idnum if isinstance(ref, IndirectObject) else id(xobject)
            self.out.forms.append(FormUse(name, number, _mm_box(corners), m, self.clip_box))
            if self.reader is not None:
                inner = _Interpreter.for_form(self.out, xobject, self.reader, m)
                inner.clip_box = self.clip_box
                inner.fill, inner.stroke = self.fill, self.stroke
                inner.run()
        else:  # an image: the unit square through the CTM
            corners = [apply(self.ctm, x, y) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))]
            self.out.painted.append(_mm_box(corners))

    def _colour(self, op: bytes, operands: list) -> None:
        name = op.decode()
        if name.lower() in ("cs",):
            colour = Colour(str(operands[0]), ())
        elif name.lower() in ("sc", "scn"):
            space = (self.stroke if name.isupper() else self.fill).space
            colour = Colour(space, tuple(_num(v) for v in operands if not isinstance(v, str)))
        else:
            space = {"g": "gray", "rg": "rgb", "k": "cmyk"}[name.lower()]
            colour = Colour(space, tuple(_num(v) for v in operands))
        if name.isupper():
            self.stroke = colour
        else:
            self.fill = colour

    def _inline(self, properties, ops) -> None:
        """Art drawn into the page once: recorded as a form use of its marked box, its
        operations kept for ``read_form`` and not read as page content."""
        inner, depth = [], 0
        for operands, op in ops:
            if op in (b"BDC", b"BMC"):
                depth += 1
            elif op == b"EMC":
                if depth == 0:
                    break
                depth -= 1
            inner.append((operands, op))
        x0, y0, x1, y1 = (_num(v) for v in properties["/BBox"])
        corners = [apply(self.ctm, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        key = str(properties["/Art"])
        self.out.forms.append(
            FormUse(
                f"inline:{key}",
                -int(key, 16) - 1,  # the art's own number: never an object number
                _mm_box(corners),
                self.ctm,
                self.clip_box,
                tuple(inner),
            )
        )

    def run(self) -> PageContent:
        ops = iter(self.ops)
        for operands, op in ops:
            if op == b"BDC" and operands[0] == "/PnpArt":
                self._inline(_resolve(operands[1]), ops)
            elif op == b"q":
                self.stack.append(
                    (self.ctm, self.line_width, self.dash, self.clip_box, self.fill, self.stroke)
                )
            elif op == b"Q":
                state = self.stack.pop()
                self.ctm, self.line_width, self.dash, self.clip_box, self.fill, self.stroke = state
            elif op in COLOUR_OPS:
                self._colour(op, operands)
            elif op in TEXT_OPS:
                self.out.texts.append(TextShow(_shown(op, operands), self.fill))
            elif op == b"cm":
                self.ctm = concat(tuple(_num(v) for v in operands), self.ctm)  # type: ignore[arg-type]
            elif op == b"w":
                self.line_width = _num(operands[0])
            elif op == b"d":
                self.dash = tuple(_num(v) for v in operands[0])
            elif op in (b"W", b"W*"):
                self.clipping = True
            elif op == b"m":
                self._move(self._pt(*operands))
            elif op == b"l":
                self._line(self._pt(*operands))
            elif op in (b"c", b"v", b"y"):
                pts = [self._pt(operands[i], operands[i + 1]) for i in range(0, len(operands), 2)]
                if op == b"v" and self.current is not None:
                    pts.insert(0, self.current)
                elif op == b"y":
                    pts.append(pts[-1])
                self._curve(pts)
            elif op == b"re":
                x, y, w, h = (_num(v) for v in operands)
                self._move(self._pt(x, y))
                self._line(self._pt(x + w, y))
                self._line(self._pt(x + w, y + h))
                self._line(self._pt(x, y + h))
                self._line(self._pt(x, y))
            elif op == b"h":
                self._close()
            elif op in PAINT_OPS or op == b"n":
                self._paint(op)
            elif op == b"Do":
                self._do(str(operands[0]))
            elif op in (b"sh", b"INLINE IMAGE"):  # unbounded here: count the whole page
                self.out.painted.append(Box(0, 0, self.out.width, self.out.height))
        return self.out


def _shown(op: bytes, operands: list) -> str:
    """The characters a text-showing operator shows (as its string bytes, Latin-1)."""
    if op == b"TJ":
        parts = [p for p in operands[0] if not isinstance(p, (int, float))]
    else:
        parts = [operands[-1]]
    out = []
    for part in parts:
        raw = part.original_bytes if hasattr(part, "original_bytes") else str(part).encode()
        out.append(raw.decode("latin-1"))
    return "".join(out)


def _mm_box(points: list[tuple[float, float]]) -> Box:
    return Box.around([(x * MM_PER_PT, y * MM_PER_PT) for x, y in points])


def read_pages(path: Path) -> list[PageContent]:
    """The geometry of every page of the PDF at ``path``."""
    reader = PdfReader(str(path))
    return [_Interpreter(i, page, reader).run() for i, page in enumerate(reader.pages, start=1)]


def read_form(path: Path, page_number: int, use: FormUse) -> PageContent:
    """What the form XObject placed by ``use`` on page ``page_number`` draws, interpreted from
    its own content stream and reported in page millimetres (as placed)."""
    reader = PdfReader(str(path))
    page = reader.pages[page_number - 1]
    resources = _resolve(page.get("/Resources")) or {}
    out = PageContent(page_number, 0.0, 0.0)
    if use.inline is not None:
        inline = _Interpreter.__new__(_Interpreter)
        inline._setup(out, resources, list(use.inline), use.matrix)
        inline.reader = reader
        return inline.run()
    xobject = _resolve((_resolve(resources.get("/XObject")) or {}).get(use.name))
    if xobject is None or xobject.get("/Subtype") != "/Form":
        raise AssertionError(f"page {page_number}: no form {use.name}")
    return _Interpreter.for_form(out, xobject, reader, use.matrix).run()


def colour_operators(path: Path) -> Counter[str]:
    """How often each colour-setting operator (``rg``, ``k``, ``cs`` ...) occurs in the file:
    in every page's content stream and in every form XObject they use, nested forms too."""
    return Counter(op for op, _ in colour_settings(path))


def colour_settings(path: Path) -> list[tuple[str, tuple[float, ...]]]:
    """Every colour the file sets (operator and operands), in its pages and the form XObjects
    they use, nested forms too."""
    reader = PdfReader(str(path))
    found: list[tuple[str, tuple[float, ...]]] = []
    seen: set[int] = set()

    def visit(stream, resources) -> None:
        for operands, op in operations(stream):
            if op in COLOUR_OPS:
                values = tuple(float(v) for v in operands if isinstance(v, float))
                found.append((op.decode(), values))
        xobjects = _resolve((_resolve(resources) or {}).get("/XObject")) or {}
        for ref in xobjects.values():
            xobject = _resolve(ref)
            key = ref.idnum if isinstance(ref, IndirectObject) else id(xobject)
            if key in seen or xobject.get("/Subtype") != "/Form":
                continue
            seen.add(key)
            visit(xobject, xobject.get("/Resources"))

    for page in reader.pages:
        visit(page.get_contents(), page.get("/Resources"))
    return found


def form_xobject_count(path: Path) -> int:
    """How many form XObjects the file holds, reachable or not (every object is visited)."""
    reader = PdfReader(str(path))
    count = 0
    for number in range(1, int(reader.trailer["/Size"])):
        try:
            obj = reader.get_object(number)
        except Exception:  # a free object number
            continue
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Form":
            count += 1
    return count


def text_of(chars: list[dict]) -> str:
    """pdfplumber ``chars`` as lines of text in reading order, whichever way the text is
    turned: characters are ordered along their own baseline direction, lines top to bottom."""
    lines: dict[tuple[float, float, int], list[tuple[float, str]]] = {}
    for char in chars:
        a, b, _, _, e, f = char["matrix"]
        n = math.hypot(a, b)
        dx, dy = a / n, b / n
        across = round(f * dx - e * dy)  # distance along the text's "up" direction
        lines.setdefault((round(dx, 2), round(dy, 2), across), []).append(
            (e * dx + f * dy, char["text"])
        )
    ordered = sorted(lines.items(), key=lambda item: -item[0][2])
    return "\n".join("".join(t for _, t in sorted(line)) for _, line in ordered)


def fonts_and_spans(pdf: str, page_number: int) -> tuple[dict[str, str], list[dict]]:
    """The fonts of a page (name → file kind, "n/a" when not embedded) and its text spans
    with the font each is set in, read by MuPDF."""
    import pymupdf

    with pymupdf.open(pdf) as doc:
        page = doc[page_number - 1]
        fonts = {font[3]: font[1] for font in page.get_fonts(full=True)}
        spans = [
            span
            for block in page.get_text("dict")["blocks"]
            for line in block.get("lines", [])
            for span in line["spans"]
        ]
    return fonts, spans
