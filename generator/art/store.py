"""Distinct SVG art, parsed safely once and compiled once into a ``Drawer``.

Art is keyed by the hash of its SVG text, so identical faces and backs are stored once and the
PDF draws them by reference. Parsing never resolves entities or reaches the network. The
project's own renderer (``svgdraw``) compiles every piece; what it cannot draw is collected in
``ArtStore.warnings`` with the template line it comes from, and SVG it cannot draw at all is a
SpecError. Every drawing has ``width``, ``height`` (points) and ``draw(canvas, colours=RGB)``.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from lxml import etree
from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.art import clock
from generator.art.layers import Layered, LayerFinder
from generator.errors import SpecError
from generator.paths import PathRefused, check, read_bytes, within
from generator.svg.compiler import Drawer, SvgError, compile_svg
from generator.svg.imageguard import ImageProblem, image_size, verify
from generator.svg.images import Pictures
from generator.svg.path import path_geometry
from generator.svg.pdf import RGB, Colours
from generator.svg.safexml import TEXT_PARSER
from generator.svg.values import IDENTITY, Matrix, apply, bbox_through, multiply, transform

# what makes one part of an SVG depend on another (a style sheet, references by id), so that
# its top-level elements cannot be drawn apart as a static layer and the rest
CROSS_REFERENCES = re.compile(r"<style\b|url\(\s*['\"]?#|href\s*=\s*['\"]\s*#")
ArtWarning = tuple[Path, int | None, str]  # template, line in it, message


@dataclass
class Art:
    """One distinct piece of art and where it came from (the parsed SVG is not kept: only
    its compact drawing is, so thousands of designs stay small in memory)."""

    key: str
    source: Path


Artwork = Drawer | Layered  # what ArtStore.drawing() hands out


class Drawing(Protocol):
    """What draws like a piece of art: an ``Artwork``, or one drawn in other colours (what
    a reference sheet's flow takes for its icons)."""

    @property
    def width(self) -> float: ...

    @property
    def height(self) -> float: ...

    def draw(self, canvas: Canvas, colours: Colours = RGB) -> None: ...


CACHE_SIZE = 4000  # drawings kept between builds in one process
_CONVERTED: OrderedDict[tuple, tuple[Art, Artwork]] = OrderedDict()


def _remember(key: tuple, art: Art, drawing: Artwork) -> None:
    _CONVERTED[key] = (art, drawing)
    while len(_CONVERTED) > CACHE_SIZE:
        _CONVERTED.popitem(last=False)


class ArtStore:
    """Collects distinct SVG art and hands out what draws it."""

    def __init__(self, base: Path, ink_saver: bool = False, record: bool = False):
        self.base = base
        self.ink_saver = ink_saver
        self.art: dict[str, Art] = {}
        self._drawings: dict[str, Artwork] = {}
        self._warnings: dict[ArtWarning, None] = {}
        self.pictures: Pictures = {}  # SVG pictures the art draws, each compiled once
        self.layers = LayerFinder(self._prepared, base, self.pictures)
        self._hrefs: dict[str, bool] | None = {} if record else None  # a worker's art
        self.reading: set[str] = set()  # the art that draws other files (may change apart)

    @property
    def warnings(self) -> list[ArtWarning]:
        """What the art does not draw, as (template, line in it, message), each once, in
        the order of the templates and lines (the same however the art was made); a
        picture's names the first piece it is on, and how many more."""
        pieces: dict[ArtWarning, list[str]] = {}
        for source, line, message in self._warnings:
            base, on, piece = message.partition(ON_PIECE)
            pieces.setdefault((source, line, base), []).extend([piece[:-1]] if on else [])
        found = [
            (source, line, f"{base}{_on(sorted(names))}")
            for (source, line, base), names in pieces.items()
        ]
        return sorted(found, key=lambda w: (str(w[0]), w[1] or 0, w[2]))

    def recorded(self) -> list[tuple[str, Art, Drawer, bool]]:
        """The art this (recording) store made that can go to another process: key, record,
        drawing and whether it reads other files (its templates' layers go with
        ``layers.templates``)."""
        assert self._hrefs is not None
        return [
            (key, self.art[key], drawing, self._hrefs[key])
            for key, drawing in self._drawings.items()
            if isinstance(drawing, Drawer)
        ]

    def portable(self, keys: object) -> bool:
        """Whether every art key in ``keys`` (a key, or a tuple with keys and None) has a
        drawing that can go to another process."""
        found = keys if isinstance(keys, tuple) else (keys,)
        return all(isinstance(self._drawings.get(k), Drawer) for k in found if k is not None)

    def adopt(self, key: str, art: Art, drawing: Drawer, reads_files: bool) -> None:
        """Take art another process made as if it had been added here (its layer is taken
        with ``layers.merge``)."""
        if key in self.art:
            return
        self.art[key] = art
        self._drawings[key] = drawing
        self._note(art.source, drawing)
        if reads_files:
            self.reading.add(key)
        else:
            _remember(self._cache_key(key), art, drawing)
        self._charge(drawing, art.source, "")

    def _cache_key(self, key: str) -> tuple:
        """Where art ``key`` is kept between builds: the same SVG drawn for this game."""
        return (key, str(self.base), self.ink_saver)

    def _prepared(self, svg: str) -> etree._Element:
        """SVG parsed as it is drawn (lightened for the ink saver); bad XML raises."""
        root = etree.fromstring(svg.encode(), TEXT_PARSER)
        if self.ink_saver:
            lighten_large_dark_fills(root)
        return root

    def split_layers(self) -> None:
        """Draw the static layer every face of a template shares once, by reference: call
        when every piece of art is stored."""
        self._drawings.update(self.layers.split())
        self.layers = LayerFinder(self._prepared, self.base, self.pictures)

    def add(self, svg: str, source: Path, where: str) -> str:
        """Store ``svg`` (unless already stored) and return its key; SVG that cannot be
        drawn is a SpecError.

        Drawings are kept between builds in this process (``pnp build --watch``, several
        languages), so unchanged art is not compiled again; art that refers to other files is
        always compiled afresh, since those files may have changed."""
        key = hashlib.sha1(svg.encode()).hexdigest()[:16]
        if key in self.art:
            return key
        reads_files = "href" in svg
        if reads_files:
            self.reading.add(key)
        cache_key = self._cache_key(key)
        root = None
        if not reads_files and cache_key in _CONVERTED:
            self.art[key], self._drawings[key] = _CONVERTED[cache_key]
        else:
            root = self._parse(svg, source, where)
            check_images(root, self.base, source, where)
            self.art[key] = Art(key, source)
            self._drawings[key] = self._convert(root, source, where)
            if not reads_files:
                _remember(cache_key, self.art[key], self._drawings[key])
        drawing = self._drawings[key]
        if isinstance(drawing, Drawer):
            self._note(source, drawing)
            self._charge(drawing, source, where)
        if not CROSS_REFERENCES.search(svg):
            self.layers.add(source, key, svg, root)
        if self._hrefs is not None:
            self._hrefs[key] = reads_files
        return key

    def _parse(self, svg: str, source: Path, where: str) -> etree._Element:
        """The SVG's tree; XML that is not well-formed or not SVG is a SpecError."""
        try:
            root = self._prepared(svg)
        except etree.XMLSyntaxError as exc:
            raise SpecError(
                source,
                None,
                f"the SVG this template renders is not well-formed: {exc.msg} "
                f"(line {exc.lineno} of its output, {where})",
            ) from None
        if etree.QName(root).localname != "svg":
            raise SpecError(source, None, f"the template must produce an <svg> ({where})")
        return root

    def _convert(self, root: etree._Element, source: Path, where: str) -> Drawer:
        """Compile parsed SVG now, during planning, so that art that cannot be drawn is a
        spec error before any file is written. Relative references (``asset()`` paths)
        resolve from the game folder and may not leave it."""
        try:
            drawing = compile_svg(root, self.base, pictures=self.pictures)
        except SvgError as exc:
            line = template_line(source, exc.needle) if exc.needle else None
            raise SpecError(source, line, f"{exc} ({where})") from None
        except RecursionError:
            raise SpecError(
                source, None, f"the SVG this template renders nests too deep to draw ({where})"
            ) from None
        drawing.warnings = tuple(  # a picture's problem is the piece's: name it
            (needle, f"{message}{ON_PIECE}{where})" if needle == "<image" else message)
            for needle, message in drawing.warnings
        )
        return drawing

    def _charge(self, drawing: Drawer, source: Path, where: str) -> None:
        """Count the steps the drawing's style sheets took (when it was compiled, here or
        before) against the build's: past its limit, a SpecError and the build stops."""
        if not drawing.css_steps:
            return
        try:
            clock.current().match(drawing.css_steps)
        except clock.Stopped as exc:  # one line for every piece of art after the first
            raise SpecError(source, None, str(exc)) from None
        except clock.Budget as exc:
            raise SpecError(
                source,
                template_line(source, "<style"),
                f"{exc}; use fewer rules or simpler selectors, or a <style> on fewer pieces"
                + (f" ({where})" if where else ""),
            ) from None

    def _note(self, source: Path, drawing: Drawer) -> None:
        """Keep what a drawing does not draw, with the template line it comes from."""
        for needle, message in drawing.warnings:
            self._warnings[(source, template_line(source, needle), message)] = None

    def drawing(self, key: str) -> Artwork:
        """What draws art ``key``: ``width``, ``height`` (points), ``draw(canvas, colours)``."""
        return self._drawings[key]


ON_PIECE = " (on the "  # what a picture's warning says the piece it is on after


def _on(pieces: list[str]) -> str:
    """' (on the face of card 'a' of cards.csv:3 and 4 more)', or nothing."""
    if not pieces:
        return ""
    more = f" and {len(pieces) - 1} more" if len(pieces) > 1 else ""
    return f"{ON_PIECE}{pieces[0]}{more})"


def template_line(source: Path, needle: str) -> int | None:
    """The first line of the template that holds ``needle``: an element (``<name``) or an
    attribute or property (``name=``); None when the template does not say it."""
    try:
        stamp = source.stat().st_mtime_ns
    except OSError:
        return None
    lines = _template_lines(source, stamp)
    name = needle.strip("<=:")
    if needle.startswith("<"):
        patterns = [re.compile(rf"<{re.escape(name)}\b")]
    else:
        patterns = [re.compile(rf"(?<![\w-]){re.escape(name)}\s*[=:]")]
    patterns.append(re.compile(re.escape(name)))
    for pattern in patterns:
        for number, line in enumerate(lines, 1):
            if pattern.search(line):
                return number
    return None


@lru_cache(maxsize=256)
def _template_lines(source: Path, stamp: int) -> tuple[str, ...]:
    """A template's lines as of its modification time ``stamp``, read through the gate in
    its own folder (none when it cannot be read)."""
    try:
        raw = read_bytes(source.parent, source, "template")
    except PathRefused:
        return ()
    return tuple(raw.decode("utf-8", errors="replace").splitlines())


XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


def check_images(root: etree._Element, base: Path, source: Path, where: str) -> None:
    """Every image file the art draws is a readable image (or SVG) inside the game folder."""
    for element in root.iter("{http://www.w3.org/2000/svg}image"):
        href = (element.get("href") or element.get(XLINK_HREF) or "").strip()
        if href.startswith("data:") or not href:
            continue
        if ":" in href or href.startswith("/"):
            raise SpecError(source, None, f"image '{href}' is outside the game folder ({where})")
        problem = image_problem(base, base / href)
        if problem:
            raise SpecError(source, None, f"image '{href}' {problem} ({where})")


def image_problem(root: Path, path: Path) -> str | None:
    """Why a file cannot be used as an image (or an SVG picture), or None if it can: it is
    checked through the gate, and a raster opened as one of the kinds pictures may be."""
    try:
        real = within(root, path)
    except PathRefused as exc:
        return str(exc)
    if not (real.exists() or real.is_symlink()):
        return "is not in the game folder"
    try:
        if real.suffix.lower() == ".svg":
            check(root, real, "svg")
            return None
        raw = read_bytes(root, real, "image")
        image_size(raw)  # the pixels its header says, against the limit, in our words
        verify(raw)
    except (PathRefused, ImageProblem) as exc:
        return str(exc)
    return None


DARK = 0.45  # relative luminance below which a fill counts as dark
LARGE = 0.15  # share of the art's area from which a shape counts as large
LIGHTEN = 0.75  # how far towards white a dark fill moves in ink-saver mode (light text on it
# moves further, DARKEN_TEXT, towards black: enough for 4.5:1 on any lightened fill)
DARKEN_TEXT = 0.85
LIGHT_TEXT = 0.5  # luminance from which a text's fill counts as light


def lighten_large_dark_fills(root: etree._Element) -> None:
    """Ink saver: move the fills of large dark shapes (rectangles, circles, ellipses,
    polygons covering a good part of the art) most of the way to white, and light text
    standing on one of them (the last shape painted under it) as far towards black, so that
    it stays as readable as it was."""
    box = [float(v) for v in (root.get("viewBox") or "0 0 0 0").replace(",", " ").split()]
    total = box[2] * box[3] if len(box) == 4 else 0.0
    if total <= 0:
        return
    painted: list[tuple[tuple[float, float, float, float], bool]] = []  # shape box, lightened
    for element in root.iter():
        if not isinstance(element.tag, str) or _unpainted(element):
            continue
        if etree.QName(element).localname == "text":
            _keep_readable(element, painted)
            continue
        rgb = _fill_rgb(element)
        if rgb is None or _translucent(element):  # a veil over the ground is not the ground
            continue
        lighten = _luminance(rgb) < DARK and _area(element) >= LARGE * total
        if lighten:
            _set_fill(element, _towards(rgb, 1.0))
        found = _shape_box(element)
        if found is not None:
            painted.append((found, lighten))


UNPAINTED = {"defs", "clipPath", "mask", "pattern", "symbol", "marker", "linearGradient"}


def _unpainted(element: etree._Element) -> bool:
    """Whether an element is only referred to (in defs, a clip path, a mask ...)."""
    return any(
        isinstance(a.tag, str) and etree.QName(a).localname in UNPAINTED
        for a in element.iterancestors()
    )


def _keep_readable(
    text: etree._Element, painted: list[tuple[tuple[float, float, float, float], bool]]
) -> None:
    """Light text whose anchor stands on a lightened shape (the last shape painted there)
    turns dark, it and its spans of their own colour."""
    point = _anchor(text)
    under = [
        lightened
        for (x0, y0, x1, y1), lightened in painted
        if x0 <= point[0] <= x1 and y0 <= point[1] <= y1
    ]
    if not under or not under[-1]:
        return
    for part in text.iter():
        if isinstance(part.tag, str) and etree.QName(part).localname in SVG_TEXT:
            rgb = _fill_rgb(part)
            if rgb is not None and _luminance(rgb) >= LIGHT_TEXT:
                _set_fill(part, _towards(rgb, 0.0, DARKEN_TEXT))


def _translucent(element: etree._Element) -> bool:
    """Whether an element's fill lets most of what is under it show (opacity under half)."""
    for name in ("fill-opacity", "opacity"):
        value = element.get(name)
        match = re.search(rf"(^|;)\s*{name}\s*:\s*([^;]+)", element.get("style", ""))
        if match:
            value = match.group(2)
        if value is None:
            continue
        text = value.strip()
        try:
            share = float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            continue
        if share < 0.5:
            return True
    return False


def _luminance(rgb: tuple[float, float, float]) -> float:
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def _towards(rgb: tuple[float, float, float], end: float, share: float = LIGHTEN) -> str:
    """The colour moved ``share`` of the way to white (``end`` 1) or black (0)."""
    moved = (round((c + (end - c) * share) * 255) for c in rgb)
    return "#" + "".join(f"{c:02x}" for c in moved)


SVG_TEXT = ("text", "tspan")


def _matrix(element: etree._Element) -> Matrix:
    """The transform from an element's own units to the root's (its ``transform`` and its
    ancestors')."""
    chain = [element, *element.iterancestors()][::-1][1:]  # the root's children down
    matrix = IDENTITY
    for node in chain:
        try:
            matrix = multiply(matrix, transform(node.get("transform") or ""))
        except ValueError:
            return matrix
    return matrix


def _number(element: etree._Element, name: str) -> float:
    try:
        return float(re.split(r"[\s,]+", (element.get(name) or "0").strip())[0] or 0)
    except ValueError:
        return 0.0


def _anchor(element: etree._Element) -> tuple[float, float]:
    """Where a text element starts, in the root's units."""
    return apply(_matrix(element), _number(element, "x"), _number(element, "y"))


def _shape_box(element: etree._Element) -> tuple[float, float, float, float] | None:
    """The box a simple shape covers, in the root's units (None for other elements)."""
    tag = etree.QName(element).localname
    n = lambda name: _number(element, name)  # noqa: E731 - a short reader
    if tag == "rect":
        box = (n("x"), n("y"), n("x") + n("width"), n("y") + n("height"))
    elif tag in ("circle", "ellipse"):
        rx = n("r") if tag == "circle" else n("rx")
        ry = n("r") if tag == "circle" else n("ry")
        box = (n("cx") - rx, n("cy") - ry, n("cx") + rx, n("cy") + ry)
    elif tag in ("polygon", "polyline"):
        values = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", element.get("points", ""))]
        if len(values) < 2:
            return None
        xs, ys = values[0::2], values[1::2]
        box = (min(xs), min(ys), max(xs), max(ys))
    elif tag == "path":
        found = path_geometry(element.get("d") or "").bbox
        if found is None:
            return None
        box = found
    else:
        return None
    return bbox_through(_matrix(element), box)


STYLE_FILL = re.compile(r"(^|;)\s*fill\s*:\s*([^;]+)")


def _fill_rgb(element: etree._Element) -> tuple[float, float, float] | None:
    """An element's own fill as RGB (0-1), however it is written, or None."""
    value = element.get("fill")
    match = STYLE_FILL.search(element.get("style", ""))
    if match:
        value = match.group(2)
    if not value or value.strip() in ("none", "transparent") or "url(" in value:
        return None
    try:
        colour = colors.toColor(value.strip())
    except ValueError:
        return None
    return colour.red, colour.green, colour.blue


def _set_fill(element: etree._Element, value: str) -> None:
    style = element.get("style", "")
    if STYLE_FILL.search(style):
        element.set("style", STYLE_FILL.sub(lambda m: f"{m.group(1)}fill:{value}", style))
    else:
        element.set("fill", value)


def _area(element: etree._Element) -> float:
    """The area of a simple shape's bounding box (0 for shapes it cannot tell)."""
    tag = etree.QName(element).localname

    def number(name: str) -> float:
        try:
            return float(element.get(name, "0"))
        except ValueError:
            return 0.0

    if tag == "rect":
        return number("width") * number("height")
    if tag == "circle":
        return 3.14159 * number("r") ** 2
    if tag == "ellipse":
        return 3.14159 * number("rx") * number("ry")
    if tag in ("polygon", "polyline"):
        values = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", element.get("points", ""))]
        xs, ys = values[0::2], values[1::2]
        return (max(xs) - min(xs)) * (max(ys) - min(ys)) if xs and ys else 0.0
    return 0.0
