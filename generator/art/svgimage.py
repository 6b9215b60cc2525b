"""Images, as part of the SVG compiler (``svgdraw``): raster files and data (drawn by
``images.draw_image``), and SVG files and data drawn by this renderer, placed in their box as
``preserveAspectRatio`` says. A file must be inside the game folder.
"""

from __future__ import annotations

import base64
import urllib.parse
from pathlib import Path

from lxml import etree

from generator.art import images
from generator.art.svgbuild import PX_TO_PT, Ctx, href_of, view_box_matrix
from generator.art.svgpath import fmt
from generator.art.svgpdf import FILL_ALPHA, IMAGE, STROKE_ALPHA, TRANSFORM
from generator.art.svgvalues import multiply


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
        x, y = self.length(attrs, "x", ctx, "x"), self.length(attrs, "y", ctx, "y")
        w = self.length(attrs, "width", ctx, "x", -1.0)
        h = self.length(attrs, "height", ctx, "y", -1.0)
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
                return self.svg_image(data, element)
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
            return self.svg_image(path.read_bytes(), element)
        return self.raster(path, element)

    def raster(self, source: Path | bytes, element: etree._Element) -> tuple | None:
        """A raster image and its size in pixels, read whole now (decoded once, and kept for
        the PDF), so that a picture broken past its header is found here, not while the PDF
        is written."""
        try:
            raw = images.read_bytes(source) if isinstance(source, Path) else source
            raster = images.load(raw)
        except (OSError, images.ImageProblem) as exc:
            why = str(exc) if isinstance(exc, images.ImageProblem) else "cannot be read"
            self.warn("<image", f"{self.where(element)} {why}; not drawn")
            return None
        if raster.width <= 0 or raster.height <= 0:
            return None
        return ("raster", source, (float(raster.width), float(raster.height)))

    def svg_image(self, data: bytes, element: etree._Element) -> tuple | None:
        """SVG an image refers to, compiled by this renderer."""
        from generator.art.store import SAFE_PARSER  # the one parser for untrusted SVG

        try:
            root = etree.fromstring(data, SAFE_PARSER)
        except etree.XMLSyntaxError:
            self.warn("<image", f"the SVG of {self.where(element)} is not well-formed")
            return None
        drawer = type(self)(self.base, self._warn, self.nesting + 1).compile(root)
        return ("svg", drawer, (drawer.width / PX_TO_PT, drawer.height / PX_TO_PT))
