"""Images: raster files and data (drawn by ``raster.draw_image``), and SVG files and data drawn
by this renderer, placed in their box as ``preserveAspectRatio`` says. A file must be inside
the game folder.

An SVG picture is compiled once (``Pictures``, by its path and content) however often it is
drawn, and every element it draws counts against the budget of the whole drawing each time it
is drawn, so pictures drawing pictures cannot multiply the work without bound.
"""

from __future__ import annotations

import base64
import hashlib
import math
import urllib.parse
from collections.abc import Callable
from typing import TypeVar

from lxml import etree

from generator.paths import PathRefused, read_bytes, within
from generator.svg import raster
from generator.svg.builder import PX_TO_PT, Ctx, SvgError, href_of, view_box_matrix
from generator.svg.compiling import Compiling, Picture, Pictures
from generator.svg.path import fmt
from generator.svg.pdf import FILL_ALPHA, IMAGE, STROKE_ALPHA, TRANSFORM, Drawer
from generator.svg.safexml import SAFE_PARSER
from generator.svg.shapes import placed
from generator.svg.values import multiply

__all__ = ["Picture", "Pictures", "image"]
# what an image draws: a raster (its file or bytes) or an SVG picture, and its size in px
Raw = raster.PictureFile | bytes
Source = tuple[tuple[Raw, str], tuple[float, float]] | tuple[Drawer, tuple[float, float]]


def image(compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
    """An image: a raster file or data, or SVG drawn by this renderer, placed in its box
    as preserveAspectRatio says."""
    if ctx.style.get("visibility", "visible") != "visible":
        return
    source = image_source(compiler, element, attrs)
    if source is None:
        return
    x, y, w, h = placed(attrs, ctx, -1.0)
    iw, ih = source[1]
    if w < 0 and h < 0:
        w, h = iw, ih
    elif w < 0:
        w = h * iw / ih
    elif h < 0:
        h = w * ih / iw
    if w <= 0 or h <= 0:
        return
    matrix = view_box_matrix((0.0, 0.0, iw, ih), attrs.get("preserveAspectRatio"), w, h)
    matrix = multiply((1.0, 0.0, 0.0, 1.0, x, y), matrix)
    drawn = source[0]
    fit: raster.Fit = None
    if not isinstance(drawn, Drawer):
        fit = _fit(compiler, ctx, matrix, iw, ih)
        if not _loaded(compiler, drawn[0], drawn[1], element, fit):
            return
    alphas: list[float] = []

    def body(inner: Ctx) -> None:
        b = compiler.b
        b.save()
        b.literal.append(f"{fmt(x, y, w, h)} re W n")
        if alphas and alphas[0] < 1:
            b.op(FILL_ALPHA, alphas[0])
            b.op(STROKE_ALPHA, alphas[0])
        if isinstance(drawn, Drawer):
            b.op(TRANSFORM, multiply(matrix, (1.0, 0.0, 0.0, -1.0, 0.0, ih)))
            scale = iw / drawn.width
            b.op(TRANSFORM, (scale, 0.0, 0.0, scale, 0.0, 0.0))
            b.flush()
            b.ops.extend(drawn.ops)
            b.forget()
        else:
            a, _, _, d, e, f = matrix
            b.op(IMAGE, drawn[0], e, f, a * iw, d * ih, fit)
        b.restore()

    compiler.render(element, attrs, ctx, body, fold=True, bbox=lambda: (x, y, x + w, y + h),
                    opacity_in=alphas)  # fmt: skip


def _fit(
    compiler: Compiling, ctx: Ctx, matrix: tuple[float, ...], iw: float, ih: float
) -> raster.Fit:
    """The pixels a raster needs at the size it prints (``raster.PRINT_DPI``), from its
    placement and the transform above it in points; None inside an SVG picture, whose
    printed size is not known here (it keeps its pixels)."""
    if not compiler.outermost:
        return None
    a, b, c, d = ctx.ctm[:4]
    scale_x, scale_y = math.hypot(a, b), math.hypot(c, d)
    return raster.fit_for(matrix[0] * iw * scale_x, matrix[3] * ih * scale_y)


def image_source(
    compiler: Compiling, element: etree._Element, attrs: dict[str, str]
) -> Source | None:
    """(path or bytes, pixel size) of a raster image's reference, or (Drawer, size in px) of
    an SVG picture's; None (with a warning) when it cannot be drawn."""
    href = href_of(attrs) or ""
    where = compiler.where(element)
    if href.startswith("data:"):
        header, _, payload = href.partition(",")
        try:
            data = (
                base64.b64decode(payload)
                if header.endswith(";base64")
                else urllib.parse.unquote_to_bytes(payload)
            )
        except ValueError:
            compiler.warn("data:", f"the data of {where} cannot be read")
            return None
        if "svg" in header:
            return svg_image(compiler, data, element, "data:")
        return _raster(compiler, data, element, "data:")
    if not href:
        return None
    if compiler.base is None or ":" in href or href.startswith(("/", "\\")):
        compiler.warn("href", f"{where} refers to '{href}', outside the game folder; not drawn")
        return None
    base = compiler.base
    try:
        path = within(base, base / urllib.parse.unquote(href))
    except PathRefused as exc:
        compiler.warn("href", f"{where}: '{href}' {exc}; not drawn")
        return None
    if not path.is_file():
        compiler.warn("href", f"{where}: '{href}' is not a file in the game folder; not drawn")
        return None
    if path.suffix.lower() == ".svg":
        try:
            data = read_bytes(base, path, "svg")
        except PathRefused as exc:
            compiler.warn("href", f"{where}: '{href}' {exc}; not drawn")
            return None
        return svg_image(compiler, data, element, str(path), href)
    return _raster(compiler, raster.PictureFile(base, path), element, href)


def _raster(compiler: Compiling, source: Raw, element: etree._Element, href: str) -> Source | None:
    """A raster image and its size in pixels, upright, from its header (decoded when it is
    placed, at the size it prints: ``_loaded``)."""

    def size() -> tuple[int, int]:
        return raster.image_size(_bytes(source))

    found = _picture(compiler, element, href, size)
    if found is None or found[0] <= 0 or found[1] <= 0:
        return None
    return ((source, href), (float(found[0]), float(found[1])))


def _loaded(
    compiler: Compiling, source: Raw, href: str, element: etree._Element, fit: raster.Fit
) -> bool:
    """Whether the picture decodes, read whole now through the gate at the pixels it keeps
    (and kept for the PDF), so that a picture broken past its header is found here, not
    while the PDF is written; what Pillow said of it is a warning naming it."""

    def load() -> raster.Raster:
        return raster.load(_bytes(source), fit)

    picture = _picture(compiler, element, href, load)
    for note in picture.notes if picture is not None else ():
        compiler.warn("<image", f"{compiler.where(element)}: '{href}': {note}")
    return picture is not None


def _bytes(source: Raw) -> bytes:
    """A picture's bytes: read through the gate, or given as data."""
    return source.read() if isinstance(source, raster.PictureFile) else source


T = TypeVar("T")


def _picture(
    compiler: Compiling, element: etree._Element, href: str, work: Callable[[], T]
) -> T | None:
    """What ``work`` makes of a picture; a picture past the pixels any camera takes is an
    error naming it (a pack never prints without its art), one that cannot be read a
    warning (None)."""
    try:
        return work()
    except raster.TooManyPixels as exc:
        raise SvgError(f"{compiler.where(element)}: '{href}' {exc}", "<image") from None
    except (OSError, raster.ImageProblem) as exc:
        why = str(exc) if isinstance(exc, raster.ImageProblem) else "cannot be read"
        compiler.warn("<image", f"{compiler.where(element)}: '{href}' {why}; not drawn")
        return None


def svg_image(
    compiler: Compiling, data: bytes, element: etree._Element, source: str, href: str = "data:"
) -> Source | None:
    """SVG an image refers to (file ``source`` or data), compiled by this renderer once
    per ``pictures``, its elements counted against this drawing's budget."""
    key = (str(compiler.base), source, hashlib.sha1(data).hexdigest())
    try:
        picture = compiler.pictures.get(key)
        if picture is None:
            root = parse_picture(compiler, data, element, href)
            if root is None:
                return None
            picture = compiler.pictures[key] = compile_picture(compiler, root, href)
        else:
            for needle, message in picture.heard:
                compiler.warn(needle, message)
        compiler.reached(picture.elements, compiler.nesting + 1 + picture.depth)
    except SvgError as exc:
        if compiler.outermost:  # name the picture the template draws, where it draws it
            raise SvgError(
                f"{compiler.where(element)} draws the SVG picture '{href}': {exc}", "<image"
            ) from None
        raise
    drawer = picture.drawer
    return (drawer, (drawer.width / PX_TO_PT, drawer.height / PX_TO_PT))


def parse_picture(
    compiler: Compiling, data: bytes, element: etree._Element, href: str = "data:"
) -> etree._Element | None:
    """The tree of an SVG picture; None (with a warning naming the file, the mistake and
    its line in the picture) when it is not well-formed."""
    try:
        return etree.fromstring(data, SAFE_PARSER)
    except etree.XMLSyntaxError as exc:
        name = "an SVG picture written into the template" if href == "data:" else f"'{href}'"
        compiler.warn(
            "<image",
            f"{name} ({compiler.where(element)}) is not well-formed SVG: {exc.msg} (line "
            f"{exc.lineno} of the picture), so it is not drawn; fix that line, or open the "
            "picture in a drawing program and save it as SVG again",
        )
        return None


def compile_picture(compiler: Compiling, root: etree._Element, href: str = "data:") -> Picture:
    """An SVG picture compiled as drawn here: one level deeper, with what is left of this
    drawing's budget of elements; what it reports goes on to this drawing's warnings, naming
    the picture, at the template's ``<image``."""
    heard: list[tuple[str, str]] = []

    def warn(needle: str, message: str) -> None:
        said = ("<image", f"'{href}': {message}")
        heard.append(said)
        compiler.warn(*said)

    inner = compiler.nested(warn)
    start = inner.nesting
    drawer = inner.compile(root)
    return Picture(drawer, inner.count, inner.deepest - start, tuple(heard))
