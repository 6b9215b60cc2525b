"""A template's static layer: the leading elements every face it renders has in common (the
background, a frame, a title bar), drawn once as a form that each face draws by reference.

Per template, the leading top-level elements of its faces are compared as they are stored;
the run they all share only ever shrinks, and once it is empty nothing more is kept. When the
planning ends, a template with two or more distinct faces and a shared run large enough to
be worth a form of its own gets that run compiled once as its layer, and each face compiled
without it. SVG paints its children in
order, and each part is a whole SVG with the root's own attributes, so the layer drawn and
then the rest look exactly as the face did.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree
from reportlab.pdfgen.canvas import Canvas

from generator.svg.compiler import Drawer, compile_svg
from generator.svg.images import Pictures
from generator.svg.pdf import RGB, Colours

Parse = Callable[[str], etree._Element]  # SVG text to the tree the art was drawn from
MIN_LAYER_BYTES = 512  # SVG a layer must hold to be worth a form and a reference per face


@dataclass(frozen=True)
class Layered:
    """A face drawn as its template's static layer (``layer``, stored under ``layer_key``)
    and then the rest of its own elements."""

    layer_key: str
    layer: Drawer
    rest: Drawer

    @property
    def width(self) -> float:
        return self.rest.width

    @property
    def height(self) -> float:
        return self.rest.height

    def draw(self, canvas: Canvas, colours: Colours = RGB) -> None:
        """Both parts, straight onto the canvas (the PDF writer draws the layer by
        reference instead)."""
        self.layer.draw(canvas, colours)
        self.rest.draw(canvas, colours)


def _elements(root: etree._Element) -> list[etree._Element]:
    return [child for child in root if isinstance(child.tag, str)]


@dataclass
class TemplateFaces:
    """What the faces of one template seen so far share: the root's attributes and the
    leading elements of the first face, and how many of them every face repeats."""

    attrib: dict[str, str]
    leading: list[bytes]
    shared: int
    faces: dict[str, str] = field(default_factory=dict)  # key -> SVG text, while shared

    def compare(self, root: etree._Element) -> None:
        if dict(root.attrib) != self.attrib:
            self.shared = 0
            return
        elements = _elements(root)
        same = 0
        while (
            same < min(self.shared, len(elements))
            and etree.tostring(elements[same], with_tail=False) == self.leading[same]
        ):
            same += 1
        self.shared = same


class LayerFinder:
    """Follows each template's shared leading elements and, at the end, splits its faces."""

    def __init__(self, parse: Parse, base: Path, pictures: Pictures | None = None):
        self.parse = parse
        self.base = base
        self.pictures: Pictures = {} if pictures is None else pictures  # the build's
        self.templates: dict[Path, TemplateFaces] = {}

    def add(self, source: Path, key: str, svg: str, root: etree._Element | None) -> None:
        """Note face ``key`` of template ``source`` (its tree, when already parsed)."""
        template = self.templates.get(source)
        if template is not None and (template.shared == 0 or key in template.faces):
            return
        root = self.parse(svg) if root is None else root
        if template is None:
            leading = [etree.tostring(e, with_tail=False) for e in _elements(root)]
            template = TemplateFaces(dict(root.attrib), leading, len(leading))
            self.templates[source] = template
        else:
            template.compare(root)
        template.faces[key] = svg
        if template.shared == 0:
            template.faces.clear()

    def merge(self, others: dict[Path, TemplateFaces]) -> None:
        """Take in what another finder (another process's share of the faces) found: a
        template's faces share what both sides share."""
        for source, theirs in others.items():
            mine = self.templates.setdefault(source, theirs)
            if mine is theirs:
                continue
            same = 0
            if mine.attrib == theirs.attrib:
                limit = min(mine.shared, theirs.shared)
                while same < limit and mine.leading[same] == theirs.leading[same]:
                    same += 1
            mine.shared = same
            if same:
                mine.faces.update(theirs.faces)
            else:
                mine.faces.clear()

    def split(self) -> dict[str, Layered | Drawer]:
        """The layered drawing of every face that shares a layer with another face, and each
        layer's own drawing under its key."""
        drawings: dict[str, Layered | Drawer] = {}
        for template in self.templates.values():
            size = sum(len(element) for element in template.leading[: template.shared])
            if size < MIN_LAYER_BYTES or len(template.faces) < 2:
                continue
            first = next(iter(template.faces.values()))
            layer = self._part(first, slice(template.shared, None))
            leading = slice(template.shared)
            rests = {key: self._part(svg, leading) for key, svg in template.faces.items()}
            if layer is None or any(rest is None for rest in rests.values()):
                continue  # a part the fast path cannot draw: keep the faces whole
            layer_key = _layer_key(template)
            drawings[layer_key] = layer
            for key, rest in rests.items():
                assert rest is not None
                drawings[key] = Layered(layer_key, layer, rest)
        return drawings

    def _part(self, svg: str, left_out: slice) -> Drawer | None:
        """The face without its top-level elements in ``left_out``, compiled on its own."""
        root = self.parse(svg)
        for element in _elements(root)[left_out]:
            root.remove(element)
        return compile_svg(root, self.base, pictures=self.pictures)


def _layer_key(template: TemplateFaces) -> str:
    digest = hashlib.sha1(repr(sorted(template.attrib.items())).encode())
    for element in template.leading[: template.shared]:
        digest.update(element)
    return "layer" + digest.hexdigest()[:16]
