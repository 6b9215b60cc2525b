"""Distinct SVG art, parsed safely once and converted once to reportlab drawings.

Art is keyed by the hash of its SVG text, so identical faces and backs are stored once and the
PDF draws them by reference. Parsing never resolves entities or reaches the network.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from lxml import etree
from reportlab.graphics.shapes import Drawing
from svglib.svglib import SvgRenderer

from generator.errors import SpecError
from generator.fonts import register_fonts

SAFE_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True, huge_tree=False
)


@dataclass
class Art:
    """One distinct piece of art: its parsed SVG and where it came from."""

    key: str
    root: etree._Element
    source: Path


CACHE_SIZE = 4000  # drawings kept between builds in one process
_CONVERTED: OrderedDict[tuple, tuple[Art, Drawing]] = OrderedDict()


def _remember(key: tuple, art: Art, drawing: Drawing) -> None:
    _CONVERTED[key] = (art, drawing)
    while len(_CONVERTED) > CACHE_SIZE:
        _CONVERTED.popitem(last=False)


class ArtStore:
    """Collects distinct SVG art and hands out reportlab drawings for it."""

    def __init__(self, base: Path, ink_saver: bool = False):
        self.base = base
        self.ink_saver = ink_saver
        self.art: dict[str, Art] = {}
        self._drawings: dict[str, Drawing] = {}

    def add(self, svg: str, source: Path, where: str) -> str:
        """Store ``svg`` (unless already stored) and return its key; bad XML is a SpecError.

        Drawings are kept between builds in this process (``pnp build --watch``, several
        languages), so unchanged art is not converted again; art that refers to other files is
        always converted afresh, since those files may have changed."""
        key = hashlib.sha1(svg.encode()).hexdigest()[:16]
        cache_key = (key, str(self.base), self.ink_saver)
        if key not in self.art and "href" not in svg and cache_key in _CONVERTED:
            self.art[key] = _CONVERTED[cache_key][0]
            self._drawings[key] = _CONVERTED[cache_key][1]
        if key not in self.art:
            try:
                root = etree.fromstring(svg.encode(), SAFE_PARSER)
            except etree.XMLSyntaxError as exc:
                raise SpecError(
                    source,
                    None,
                    f"the SVG this template renders is not well-formed: {exc.msg} "
                    f"(line {exc.lineno} of its output, {where})",
                ) from None
            if etree.QName(root).localname != "svg":
                raise SpecError(source, None, f"the template must produce an <svg> ({where})")
            if self.ink_saver:
                lighten_large_dark_fills(root)
            self.art[key] = Art(key, root, source)
            self._drawings[key] = self._convert(root, source, where)
            if "href" not in svg:
                _remember(cache_key, self.art[key], self._drawings[key])
        return key

    def _convert(self, root: etree._Element, source: Path, where: str) -> Drawing:
        """Convert parsed SVG now, during planning, so that art svglib cannot draw is a spec
        error before any file is written. Relative references (``asset()`` paths) resolve
        from the game folder and may not leave it."""
        register_fonts()
        renderer = SvgRenderer(str(self.base / "art.svg"), external_reference_root=str(self.base))
        try:
            return renderer.render(root)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise SpecError(
                source, None, f"the SVG this template renders cannot be drawn: {exc} ({where})"
            ) from None

    def drawing(self, key: str) -> Drawing:
        """The reportlab drawing of art ``key``."""
        return self._drawings[key]


DARK = 0.45  # relative luminance below which a fill counts as dark
LARGE = 0.15  # share of the art's area from which a shape counts as large
LIGHTEN = 0.75  # how far towards white a dark fill moves in ink-saver mode


def lighten_large_dark_fills(root: etree._Element) -> None:
    """Ink saver: move the fills of large dark shapes (rectangles, circles, ellipses,
    polygons covering a good part of the art) most of the way to white."""
    box = [float(v) for v in (root.get("viewBox") or "0 0 0 0").replace(",", " ").split()]
    total = box[2] * box[3] if len(box) == 4 else 0.0
    if total <= 0:
        return
    for element in root.iter():
        fill = element.get("fill", "")
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", fill):
            continue
        rgb = [int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        luminance = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
        if luminance < DARK and _area(element) >= LARGE * total:
            light = (round((c + (1 - c) * LIGHTEN) * 255) for c in rgb)
            element.set("fill", "#" + "".join(f"{c:02x}" for c in light))


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
