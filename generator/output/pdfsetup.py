"""reportlab set up as every PDF of a pack is written: binary streams, and form XObjects
that carry their graphics states. Imported for its effect by the modules that write packs."""

from __future__ import annotations

from reportlab import rl_config
from reportlab.pdfbase import pdfdoc


class _FormXObject(pdfdoc.PDFFormXObject):
    """reportlab's form XObject leaves its graphics states (transparency) out of its resources,
    so viewers cannot find them; build the resources as reportlab does for a page."""

    def format(self, document):  # noqa: ANN001, ANN201 - reportlab's signature
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
        return super().format(document)


pdfdoc.PDFFormXObject = _FormXObject
# Binary streams: ASCII85 makes every stream a quarter larger and costs time to encode.
rl_config.useA85 = 0
