"""An independent PDF/X check of the shop exports: PDF/X-4 (ISO 15930-7) and PDF/X-1a:2003
(ISO 15930-4), read with pikepdf (qpdf), none of the project's code.

Why here: the validators the issue points at do not run on this project's Python. proof-pdf
(PyPI) requires Python 3.15 and checks PDF/X-4 only; veraPDF checks PDF/A, not PDF/X; no free
PDF/X-1a validator installs from a registry. So this module states the rules each standard
lays down that a file can be tested for by reading it, as the standards' summaries (Acrobat's
preflight profiles, Antenna House, the ISO texts as their vendors quote them) give them, and
tests them. It is not a certified validator.

``problems(path, standard)`` lists what breaks ``standard`` ("X-4" or "X-1a"); empty: passes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pikepdf

CMYK_OR_GREY = {"/DeviceCMYK", "/DeviceGray"}
X1A_FILTERS = {"/FlateDecode", "/DCTDecode", "/ASCII85Decode", "/ASCIIHexDecode",
               "/RunLengthDecode", "/CCITTFaxDecode"}  # fmt: skip
X1A_VERSION = ("PDF/X-1:2003", "PDF/X-1a:2003")  # GTS_PDFXVersion, GTS_PDFXConformance
BOX_TOLERANCE = 0.01  # pt


def _name(value: object) -> str:
    return "" if value is None else str(value)


class Check:
    """The problems of one file against one standard."""

    def __init__(self, pdf: pikepdf.Pdf, path: Path, standard: str):
        self.pdf, self.path, self.standard = pdf, path, standard
        self.found: list[str] = []
        self.seen: set[tuple[int, int]] = set()

    def problem(self, text: str) -> None:
        if text not in self.found:
            self.found.append(text)

    def document(self) -> None:
        """Header version, encryption, the trailer ID, Info keys, metadata, output intent."""
        head = self.path.read_bytes()[:16]
        match = re.match(rb"%PDF-(\d)\.(\d)", head)
        version = (int(match[1]), int(match[2])) if match else (9, 9)
        highest = (1, 4) if self.standard == "X-1a" else (1, 6)
        if version > highest:
            self.problem(f"PDF {version[0]}.{version[1]}: {self.standard} allows up to {highest}")
        if self.pdf.is_encrypted:
            self.problem("encrypted")
        if "/ID" not in self.pdf.trailer:
            self.problem("the trailer has no /ID")
        self.info()
        self.intent()
        for key in ("/AcroForm", "/OpenAction", "/AA"):
            if key in self.pdf.Root:
                self.problem(f"the catalog has {key}")

    def info(self) -> None:
        """The version keys, title, dates and trapping of the Info dictionary, and XMP."""
        info = self.pdf.trailer.get("/Info", pikepdf.Dictionary())
        version = str(info.get("/GTS_PDFXVersion", ""))
        conformance = str(info.get("/GTS_PDFXConformance", ""))
        if self.standard == "X-4" and version != "PDF/X-4":
            self.problem(f"Info GTS_PDFXVersion is {version!r}, not 'PDF/X-4'")
        if self.standard == "X-1a" and (version, conformance) != X1A_VERSION:
            self.problem(f"Info GTS_PDFXVersion/Conformance {version!r}/{conformance!r}")
        for key in ("/Title", "/CreationDate", "/ModDate"):
            if not str(info.get(key, "")):
                self.problem(f"Info {key} is missing")
        if _name(info.get("/Trapped")) not in ("/True", "/False"):
            self.problem(f"Info /Trapped is {info.get('/Trapped')!r}, not /True or /False")
        xmp = self.pdf.Root.get("/Metadata")
        text = xmp.read_bytes().decode("utf-8", "replace") if xmp is not None else ""
        if self.standard == "X-4" and "<pdfxid:GTS_PDFXVersion>PDF/X-4<" not in text:
            self.problem("the XMP metadata does not say pdfxid:GTS_PDFXVersion PDF/X-4")
        if self.standard == "X-1a" and "PDF/X-4" in text:
            self.problem("the XMP metadata says PDF/X-4")

    def intent(self) -> None:
        """Exactly one GTS_PDFX output intent, naming its condition, with a CMYK printer
        profile."""
        intents = [
            intent
            for intent in self.pdf.Root.get("/OutputIntents", [])
            if _name(intent.get("/S")) == "/GTS_PDFX"
        ]
        if len(intents) != 1:
            self.problem(f"{len(intents)} GTS_PDFX output intents, not 1")
        for intent in intents:
            if not str(intent.get("/OutputConditionIdentifier", "")):
                self.problem("the output intent has no OutputConditionIdentifier")
            profile = intent.get("/DestOutputProfile")
            if profile is None:
                self.problem("the output intent embeds no profile")
                continue
            data = profile.read_bytes()
            if data[12:16] != b"prtr" or data[16:20] != b"CMYK":
                self.problem(f"the output profile is {data[12:16]!r} {data[16:20]!r}")

    def pages(self) -> None:
        """Each page's boxes, transparency group and content."""
        for number, page in enumerate(self.pdf.pages, 1):
            obj = page.obj
            self.boxes(number, obj)
            group = obj.get("/Group")
            if group is not None and _name(group.get("/S")) == "/Transparency":
                if self.standard == "X-1a":
                    self.problem(f"page {number} is a transparency group")
                elif _name(group.get("/CS")) not in CMYK_OR_GREY:
                    self.problem(f"page {number} blends in {_name(group.get('/CS')) or 'no space'}")
            self.content(obj, obj.get("/Resources"))

    def boxes(self, number: int, page: pikepdf.Dictionary) -> None:
        """TrimBox (or ArtBox, not both) within BleedBox within MediaBox."""
        trim, art = page.get("/TrimBox"), page.get("/ArtBox")
        if (trim is None) == (art is None):
            self.problem(f"page {number} has not exactly one of TrimBox and ArtBox")
            return
        inner = [float(v) for v in (trim if trim is not None else art)]
        bleed = [float(v) for v in page.get("/BleedBox", page.MediaBox)]
        media = [float(v) for v in page.MediaBox]
        for small, large, what in ((inner, bleed, "trim/bleed"), (bleed, media, "bleed/media")):
            t = BOX_TOLERANCE
            inside = small[0] >= large[0] - t and small[1] >= large[1] - t
            if not (inside and small[2] <= large[2] + t and small[3] <= large[3] + t):
                self.problem(f"page {number}: {what} boxes do not nest")

    def content(self, owner: pikepdf.Object, resources: pikepdf.Object | None) -> None:
        """A content stream's colour operators, then its resources."""
        for instruction in pikepdf.parse_content_stream(owner):
            operator = str(instruction.operator)
            if operator in ("rg", "RG"):
                self.problem("an RGB colour operator (rg/RG) in content")
            elif operator == "PS":
                self.problem("a PostScript operator")
            elif operator == "BI" and self.standard == "X-1a":
                self.problem("an inline image")
        self.resources(resources)

    def resources(self, resources: pikepdf.Object | None) -> None:
        """Colour spaces, graphics states, patterns, shadings, fonts and XObjects."""
        if resources is None:
            return
        key = resources.objgen
        if key != (0, 0):
            if key in self.seen:
                return
            self.seen.add(key)
        for space in dict(resources.get("/ColorSpace", {})).values():
            self.space(space)
        for state in dict(resources.get("/ExtGState", {})).values():
            self.graphics_state(state)
        for pattern in dict(resources.get("/Pattern", {})).values():
            if int(pattern.get("/PatternType", 0)) == 1:
                self.content(pattern, pattern.get("/Resources"))
            else:
                self.space(pattern.Shading.get("/ColorSpace"))
        for shading in dict(resources.get("/Shading", {})).values():
            self.space(shading.get("/ColorSpace"))
        for font in dict(resources.get("/Font", {})).values():
            self.font(font)
        for xobject in dict(resources.get("/XObject", {})).values():
            self.xobject(xobject)

    def xobject(self, xobject: pikepdf.Object) -> None:
        """An image (its space, mask, filters) or a form (its group and content)."""
        if xobject.objgen in self.seen:
            return
        self.seen.add(xobject.objgen)
        kind = _name(xobject.get("/Subtype"))
        if self.standard == "X-1a":
            filters = xobject.get("/Filter")
            for name in [filters] if isinstance(filters, pikepdf.Name) else list(filters or []):
                if str(name) not in X1A_FILTERS:
                    self.problem(f"the filter {name}")
        if kind == "/Image":
            if ("/SMask" in xobject or "/SMaskInData" in xobject) and self.standard == "X-1a":
                self.problem("an image with a soft mask")
            for key in ("/OPI", "/Alternates"):
                if key in xobject:
                    self.problem(f"an image with {key}")
            if not xobject.get("/ImageMask", False):
                self.space(xobject.get("/ColorSpace"), image=True)
        elif kind == "/Form":
            group = xobject.get("/Group")
            transparent = group is not None and _name(group.get("/S")) == "/Transparency"
            if transparent and self.standard == "X-1a":
                self.problem("a form XObject that is a transparency group")
            self.content(xobject, xobject.get("/Resources"))
        elif kind == "/PS":
            self.problem("a PostScript XObject")

    def graphics_state(self, state: pikepdf.Object) -> None:
        """Transparency (X-1a forbids it), transfer functions (both forbid them)."""
        for key in ("/TR", "/TR2"):
            if key in state and _name(state[key]) != "/Default":
                self.problem(f"a transfer function ({key})")
        if self.standard != "X-1a":
            return
        mask = state.get("/SMask")
        if mask is not None and _name(mask) != "/None":
            self.problem("a soft mask in a graphics state")
        for key in ("/CA", "/ca"):
            if key in state and float(state[key]) < 1:
                self.problem(f"constant alpha {key} < 1")
        blend = state.get("/BM")
        if blend is not None:
            first = blend if isinstance(blend, pikepdf.Name) else blend[0]
            if _name(first) not in ("/Normal", "/Compatible"):
                self.problem(f"the blend mode {first}")

    def space(self, space: pikepdf.Object | None, image: bool = False) -> None:
        """A colour space: X-1a takes CMYK, grey, separations, DeviceN, indexed and patterns;
        X-4 forbids no space but an image of an RGB-like one (the output intent's space or
        grey, as the press prints)."""
        if space is None:
            return
        if isinstance(space, pikepdf.Name):
            if str(space) in CMYK_OR_GREY or str(space) == "/Pattern":
                return
            if self.standard == "X-1a" or image:
                self.problem(f"the colour space {space}{' of an image' if image else ''}")
            return
        family = _name(space[0])
        if family in ("/Separation", "/DeviceN"):
            self.space(space[2], image)
        elif family == "/Indexed":
            self.space(space[1], image)
        elif family == "/ICCBased":
            components = int(space[1].get("/N", 0))
            if self.standard == "X-1a" or (image and components != 4):
                self.problem(f"an ICCBased colour space ({components} components)")
        elif family != "/Pattern" and (self.standard == "X-1a" or image):
            self.problem(f"the colour space {family}")

    def font(self, font: pikepdf.Object) -> None:
        """Every font embedded."""
        if font.objgen in self.seen:
            return
        self.seen.add(font.objgen)
        kind = _name(font.get("/Subtype"))
        if kind == "/Type3":
            return
        descriptor = font.get("/FontDescriptor")
        if kind == "/Type0":
            descriptor = font.DescendantFonts[0].get("/FontDescriptor")
        files = ("/FontFile", "/FontFile2", "/FontFile3")
        if descriptor is None or not any(key in descriptor for key in files):
            self.problem(f"the font {_name(font.get('/BaseFont'))} is not embedded")


def problems(path: Path, standard: str) -> list[str]:
    """What makes the file at ``path`` break ``standard`` ("X-4" or "X-1a")."""
    assert standard in ("X-4", "X-1a"), standard
    with pikepdf.open(path) as pdf:
        check = Check(pdf, Path(path), standard)
        check.document()
        check.pages()
        return check.found
