"""Images, as part of the SVG compiler (``svgdraw``): raster files and data (drawn by
``raster.draw_image``), and SVG files and data drawn by this renderer, placed in their box as
``preserveAspectRatio`` says. A file must be inside the game folder.

An SVG picture is compiled once (``Pictures``, by its path and content) however often it is
drawn, and every element it draws counts against the budget of the whole drawing each time it
is drawn, so pictures drawing pictures cannot multiply the work without bound.
"""

from __future__ import annotations

import base64
import hashlib
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from generator.svg import raster
from generator.svg.builder import PX_TO_PT, Ctx, SvgError, href_of, view_box_matrix
from generator.svg.path import fmt
from generator.svg.pdf import FILL_ALPHA, IMAGE, STROKE_ALPHA, TRANSFORM, Drawer
from generator.svg.properties import attr_length
from generator.svg.safexml import SAFE_PARSER
from generator.svg.values import multiply


@dataclass(frozen=True)
class Picture:
    """An SVG picture compiled once: its drawing, the elements it draws (those of the
    pictures it draws included), how many levels it nests, and what it reported."""

    drawer: Drawer
    elements: int
    depth: int
    heard: tuple[tuple[str, str], ...]


# (the folder its references are read from, its resolved path or "data:", SHA-1 of its bytes)
Pictures = dict[tuple[str, str, str], Picture]


class Images:
    """The images of the compiler (a part of ``svgdraw.Compiler``)."""

    # --- images ---------------------------------------------------------------------------

    def image(self, element: etree._Element, attrs: dict[str, str], ctx: Ctx) -> None:
        """An image: a raster file or data, or SVG drawn by this renderer, placed in its box
        as preserveAspectRatio says."""
        if ctx.style.get("visibility", "visible") != "visible":
            return
        source = self.image_source(element, attrs)
        if source is None:
            return
        kind, data, size = source
        x, y = attr_length(attrs, "x", ctx, "x"), attr_length(attrs, "y", ctx, "y")
        w = attr_length(attrs, "width", ctx, "x", -1.0)
        h = attr_length(attrs, "height", ctx, "y", -1.0)
        iw, ih = size
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
        alphas: list[float] = []

        def body(inner: Ctx) -> None:
            b = self.b
            b.save()
            b.literal.append(f"{fmt(x, y, w, h)} re W n")
            if alphas and alphas[0] < 1:
                b.op(FILL_ALPHA, alphas[0])
                b.op(STROKE_ALPHA, alphas[0])
            if kind == "svg":
                b.op(TRANSFORM, multiply(matrix, (1.0, 0.0, 0.0, -1.0, 0.0, ih)))
                scale = iw / data.width
                b.op(TRANSFORM, (scale, 0.0, 0.0, scale, 0.0, 0.0))
                b.flush()
                b.ops.extend(data.ops)
                b.state = [None] * 9
            else:
                a, _, _, d, e, f = matrix
                b.op(IMAGE, data, e, f, a * iw, d * ih)
            b.restore()

        self.render(element, attrs, ctx, body, fold=True, bbox=lambda: (x, y, x + w, y + h),
                    opacity_in=alphas)  # fmt: skip

    def image_source(
        self, element: etree._Element, attrs: dict[str, str]
    ) -> tuple[str, object, tuple[float, float]] | None:
        """('raster', path or bytes, pixel size) or ('svg', Drawer, size in px) of an
        image's reference; None (with a warning) when it cannot be drawn."""
        href = href_of(attrs) or ""
        where = self.where(element)
        if href.startswith("data:"):
            header, _, payload = href.partition(",")
            try:
                data = (
                    base64.b64decode(payload)
                    if header.endswith(";base64")
                    else urllib.parse.unquote_to_bytes(payload)
                )
            except ValueError:
                self.warn("data:", f"the data of {where} cannot be read")
                return None
            if "svg" in header:
                return self.svg_image(data, element, "data:")
            return self.raster(data, element)
        if not href:
            return None
        if self.base is None or ":" in href or href.startswith(("/", "\\")):
            self.warn("href", f"{where} refers to '{href}', outside the game folder; not drawn")
            return None
        base = self.base.resolve()
        path = (base / urllib.parse.unquote(href)).resolve()
        if not path.is_relative_to(base) or not path.is_file():
            self.warn("href", f"{where}: '{href}' is not a file in the game folder; not drawn")
            return None
        if path.suffix.lower() == ".svg":
            return self.svg_image(path.read_bytes(), element, str(path), href)
        return self.raster(path, element)

    def raster(self, source: Path | bytes, element: etree._Element) -> tuple | None:
        """A raster image and its size in pixels, read whole now (decoded once, and kept for
        the PDF), so that a picture broken past its header is found here, not while the PDF
        is written."""
        try:
            raw = raster.read_bytes(source) if isinstance(source, Path) else source
            picture = raster.load(raw)
        except (OSError, raster.ImageProblem) as exc:
            why = str(exc) if isinstance(exc, raster.ImageProblem) else "cannot be read"
            self.warn("<image", f"{self.where(element)} {why}; not drawn")
            return None
        if picture.width <= 0 or picture.height <= 0:
            return None
        return ("raster", source, (float(picture.width), float(picture.height)))

    def svg_image(
        self, data: bytes, element: etree._Element, source: str, href: str = "data:"
    ) -> tuple | None:
        """SVG an image refers to (file ``source`` or data), compiled by this renderer once
        per ``pictures``, its elements counted against this drawing's budget."""
        key = (str(self.base), source, hashlib.sha1(data).hexdigest())
        try:
            picture = self.pictures.get(key)
            if picture is None:
                root = self.parse_picture(data, element)
                if root is None:
                    return None
                picture = self.pictures[key] = self.compile_picture(root)
            elif self._warn is not None:
                for needle, message in picture.heard:
                    self._warn(needle, message)
            self.reached(picture.elements, self.nesting + 1 + picture.depth)
        except SvgError as exc:
            if self.outermost:  # name the picture the template draws, where it draws it
                raise SvgError(
                    f"{self.where(element)} draws the SVG picture '{href}': {exc}", "<image"
                ) from None
            raise
        drawer = picture.drawer
        return ("svg", drawer, (drawer.width / PX_TO_PT, drawer.height / PX_TO_PT))

    def parse_picture(self, data: bytes, element: etree._Element) -> etree._Element | None:
        """The tree of an SVG picture; None (with a warning) when it is not well-formed."""

        try:
            return etree.fromstring(data, SAFE_PARSER)
        except etree.XMLSyntaxError:
            self.warn("<image", f"the SVG of {self.where(element)} is not well-formed")
            return None

    def compile_picture(self, root: etree._Element) -> Picture:
        """An SVG picture compiled as drawn here: one level deeper, with what is left of this
        drawing's budget of elements; what it reports goes on to this drawing's ``warn``."""
        heard: list[tuple[str, str]] = []

        def warn(needle: str, message: str) -> None:
            heard.append((needle, message))
            if self._warn is not None:
                self._warn(needle, message)

        start = self.nesting + 1
        inner = type(self)(self.base, warn, start, self.pictures, self.limit - self.count)
        drawer = inner.compile(root)
        return Picture(drawer, inner.count, inner.deepest - start, tuple(heard))
