"""What pnp does to a reportlab canvas beyond its public API, in one place: the document a
canvas writes, its content stream drawn aside, XObjects painted by name, the text cursor of a
paragraph being drawn, forms that keep their graphics states, and streams written binary.
Only this module touches reportlab's private attributes; a new reportlab that moves them
breaks here and nowhere else."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas


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
