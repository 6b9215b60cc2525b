"""Distinct SVG art, parsed safely once and converted once to reportlab drawings.

Art is keyed by the hash of its SVG text, so identical faces and backs are stored once and the
PDF draws them by reference. Parsing never resolves entities or reaches the network.
"""

from __future__ import annotations

import hashlib
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


class ArtStore:
    """Collects distinct SVG art and hands out reportlab drawings for it."""

    def __init__(self, base: Path):
        self.base = base
        self.art: dict[str, Art] = {}
        self._drawings: dict[str, Drawing] = {}

    def add(self, svg: str, source: Path, where: str) -> str:
        """Store ``svg`` (unless already stored) and return its key; bad XML is a SpecError."""
        key = hashlib.sha1(svg.encode()).hexdigest()[:16]
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
            self.art[key] = Art(key, root, source)
            self._drawings[key] = self._convert(root, source, where)
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
