"""What the parts of the compiler use of it: ``Compiling``, the compiler as clips and masks,
images, shapes, painting, patterns, structure and text see it. They are typed against this
protocol instead of the ``Compiler`` itself, which imports them, so nothing imports in a circle.

Also the types they share: an element's content drawn in a context (``Body``), a bounding box
worked out only when asked for (``LazyBox``), and SVG pictures compiled once (``Pictures``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from lxml import etree

from generator.svg.builder import Box, Builder, Ctx, Warn
from generator.svg.pdf import Drawer
from generator.svg.values import Rgb

Body = Callable[[Ctx], None]  # draws an element's content in the context given
LazyBox = Callable[[], Box | None]  # an element's bounding box, worked out when first asked for


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


class Compiling(Protocol):
    """The compiler as its parts use it: where operations are written, what the drawing has
    reached, the document's elements and how an element is drawn."""

    base: Path | None  # the folder images are read from (None: no files)
    listener: Warn | None  # who hears what is not drawn, every time it is said
    pictures: Pictures
    builders: list[Builder]  # the drawing's, and a group's, mask's or tile's being written
    active: list[etree._Element]  # use targets, clip paths, masks and patterns being drawn
    canvas: Box  # what can be seen, in the ctm's space
    outermost: bool  # not an SVG picture another drawing draws
    nesting: int  # levels of elements now
    deepest: int  # the most levels reached
    count: int  # elements drawn so far

    @property
    def b(self) -> Builder:
        """Where operations are being written."""

    def warn(self, needle: str, message: str) -> None:
        """Report something not drawn, once per message."""

    def where(self, element: etree._Element) -> str:
        """An element named for a message: its tag and line in the SVG."""

    def lookup(self, name: str | None) -> etree._Element | None:
        """The element with this id."""

    def specified(self, element: etree._Element) -> dict[str, str]:
        """An element's attributes after the cascade."""

    def context_of(self, element: etree._Element, ctx: Ctx) -> Ctx:
        """What an element drawn by reference inherits from its own ancestors."""

    def current_colour(self, element: etree._Element) -> Rgb:
        """The ``color`` an element has."""

    def children(self, parent: etree._Element, ctx: Ctx) -> None:
        """Draw an element's children in order."""

    def node(self, element: etree._Element, ctx: Ctx) -> None:
        """Draw one element and what it holds."""

    def render(
        self,
        element: etree._Element,
        attrs: dict[str, str],
        ctx: Ctx,
        body: Body,
        fold: bool,
        bbox: LazyBox | None = None,
        opacity_in: list[float] | None = None,
    ) -> None:
        """Draw ``body`` as an element: transformed, clipped, masked, at its opacity."""

    def viewport_box(self, ctx: Ctx) -> Box | None:
        """What can be seen of the drawing in the current user space."""

    def reached(self, elements: int, nesting: int) -> None:
        """Count elements drawn and a level of nesting reached (SvgError past the limits)."""

    def nested(self, warn: Warn) -> Compiling:
        """A compiler for an SVG picture drawn here, with what is left of the budget."""

    def compile(self, root: etree._Element) -> Drawer:
        """The drawer of a whole document."""
