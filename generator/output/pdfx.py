"""PDF/X-4 (ISO 15930-7) for a shop PDF drawn with reportlab, done just before it is saved.

What a print shop's preflight looks for, and where it is made here:

- an output intent (``/S /GTS_PDFX``) with the press profile embedded (``_output_intent``);
- XMP metadata naming the file PDF/X-4 (``pdfxid:GTS_PDFXVersion``), its title, dates, tool
  and trapping, the same as the Info dictionary (``_metadata``, ``_Info``);
- every colour device CMYK or grey: the art is drawn in CMYK, and raster images still in RGB
  are converted here (``_convert_images``);
- transparency blended in the press's CMYK (each page a transparency group in DeviceCMYK);
- TrimBox and BleedBox on every page, and every font embedded: the writer's part.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from dataclasses import replace
from xml.sax.saxutils import escape

from PIL import Image
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from generator.output.colour import PRESS, Press, press_profile
from generator.svg import raster

VERSION = "PDF/X-4"


def finish(canvas: Canvas, press: Press) -> None:
    """Make the document on ``canvas`` (every page shown, not yet saved) PDF/X-4 for
    ``press``."""
    doc = canvas._doc
    _convert_images(doc, press)
    _output_intent(doc)
    _metadata(doc)
    for page in doc.Pages.pages:
        _blend_in_cmyk(page)


class _Stream(pdfdoc.PDFObject):
    """A stream written as given: ``entries`` for its dictionary, compressed or not."""

    __RefOnly__ = 1

    def __init__(self, entries: dict, content: bytes, compress: bool):
        self.entries = entries
        self.content = content
        self.compress = compress

    def format(self, document):  # noqa: ANN001, ANN201 - reportlab's signature
        data = zlib.compress(self.content, 9) if self.compress else self.content
        entries = {**self.entries, "Length": len(data)}
        if self.compress:
            entries["Filter"] = pdfdoc.PDFName("FlateDecode")
        head = pdfdoc.format(pdfdoc.PDFDictionary(entries), document)
        return head + b"\nstream\n" + data + b"\nendstream"


def _catalog_entry(doc: pdfdoc.PDFDocument, key: str, value: object) -> None:
    """Set a catalog entry reportlab does not know of (it writes only the keys it lists)."""
    catalog = doc.Catalog
    if key not in catalog.__NoDefault__:
        catalog.__NoDefault__ = [*catalog.__NoDefault__, key]
    setattr(catalog, key, value)


def _output_intent(doc: pdfdoc.PDFDocument) -> None:
    """The PDF/X output intent: the press condition, its profile embedded."""
    profile = doc.Reference(
        _Stream({"N": 4, "Alternate": pdfdoc.PDFName("DeviceCMYK")}, press_profile(), True),
        "PnpPressProfile",
    )
    intent = pdfdoc.PDFDictionary(
        {
            "Type": pdfdoc.PDFName("OutputIntent"),
            "S": pdfdoc.PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": pdfdoc.PDFString(PRESS.identifier),
            "RegistryName": pdfdoc.PDFString(PRESS.registry),
            "OutputCondition": pdfdoc.PDFString(PRESS.condition),
            "Info": pdfdoc.PDFString(PRESS.info),
            "DestOutputProfile": profile,
        }
    )
    _catalog_entry(doc, "OutputIntents", pdfdoc.PDFArray([intent]))


class _Info(pdfdoc.PDFInfo):
    """The Info dictionary with the PDF/X version beside reportlab's keys."""

    def format(self, document):  # noqa: ANN001, ANN201 - reportlab's signature
        date = pdfdoc.PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        entries = {
            "Title": pdfdoc.PDFString(self.title),
            "Author": pdfdoc.PDFString(self.author),
            "Subject": pdfdoc.PDFString(self.subject),
            "Keywords": pdfdoc.PDFString(self.keywords),
            "Creator": pdfdoc.PDFString(self.creator),
            "Producer": pdfdoc.PDFString(self.producer),
            "CreationDate": date,
            "ModDate": date,
            "Trapped": pdfdoc.PDFName(self.trapped),
            "GTS_PDFXVersion": pdfdoc.PDFString(VERSION),
        }
        return pdfdoc.PDFDictionary(entries).format(document)


def _metadata(doc: pdfdoc.PDFDocument) -> None:
    """XMP metadata saying what the Info dictionary says, and that the file is PDF/X-4."""
    info = _Info()
    info.__dict__.update(doc.info.__dict__)
    doc.info = info
    stamp = doc._timeStamp
    offset = f"{'-' if stamp.dhh < 0 else '+'}{abs(stamp.dhh):02d}:{stamp.dmm:02d}"
    when = "{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}".format(*stamp.YMDhms) + offset
    digest = hashlib.sha1(f"{info.title}|{info.author}|{when}".encode()).hexdigest()
    uuid = f"uuid:{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
    xmp = XMP.format(
        title=escape(info.title),
        author=escape(info.author),
        subject=escape(info.subject),
        keywords=escape(info.keywords),
        creator=escape(info.creator),
        producer=escape(info.producer),
        trapped=info.trapped,
        when=when,
        uuid=uuid,
        version=VERSION,
    )
    entries = {"Type": pdfdoc.PDFName("Metadata"), "Subtype": pdfdoc.PDFName("XML")}
    _catalog_entry(doc, "Metadata", _Stream(entries, xmp.encode("utf-8"), False))


XMP = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>{author}</rdf:li></rdf:Seq></dc:creator>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">{subject}</rdf:li></rdf:Alt>
   </dc:description>
   <pdf:Keywords>{keywords}</pdf:Keywords>
   <pdf:Producer>{producer}</pdf:Producer>
   <pdf:Trapped>{trapped}</pdf:Trapped>
   <xmp:CreatorTool>{creator}</xmp:CreatorTool>
   <xmp:CreateDate>{when}</xmp:CreateDate>
   <xmp:ModifyDate>{when}</xmp:ModifyDate>
   <xmp:MetadataDate>{when}</xmp:MetadataDate>
   <xmpMM:DocumentID>{uuid}</xmpMM:DocumentID>
   <xmpMM:InstanceID>{uuid}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""


def _blend_in_cmyk(page: pdfdoc.PDFPage) -> None:
    """Make the page a transparency group blended in DeviceCMYK, the press's own space."""
    if "Group" not in page.__NoDefault__:
        page.__NoDefault__ = [*page.__NoDefault__, "Group"]
    page.Group = pdfdoc.PDFDictionary(
        {
            "Type": pdfdoc.PDFName("Group"),
            "S": pdfdoc.PDFName("Transparency"),
            "CS": pdfdoc.PDFName("DeviceCMYK"),
        }
    )


def _convert_images(doc: pdfdoc.PDFDocument, press: Press) -> None:
    """Every RGB image of the document in the press's CMYK (greys and CMYK stay)."""
    for obj in list(doc.idToObject.values()):
        if isinstance(obj, raster._ImageXObject) and obj.raster.colour_space == "DeviceRGB":
            pixels = press.image(_pixels(obj.raster))
            data = zlib.compress(pixels.tobytes(), 6)
            obj.raster = replace(
                obj.raster,
                colour_space="DeviceCMYK",
                filter="FlateDecode",
                data=data,
                parms=(),
                decode=(),
            )


def _pixels(image: raster.Raster) -> Image.Image:
    """An RGB raster's pixels, however the PDF holds them."""
    size = (image.width, image.height)
    if image.filter == "DCTDecode":
        return Image.open(io.BytesIO(image.data), formats=["JPEG"]).convert("RGB")
    if image.parms:  # a PNG's own rows, with its row filters: read as the PNG they came from
        return Image.open(io.BytesIO(_png(image)), formats=["PNG"]).convert("RGB")
    return Image.frombytes("RGB", size, zlib.decompress(image.data))


def _png(image: raster.Raster) -> bytes:
    """A PNG file around a raster that holds a PNG's compressed rows (8-bit RGB)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", image.width, image.height, 8, 2, 0, 0, 0)
    return (
        raster.PNG_SIGNATURE
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", image.data)
        + chunk(b"IEND", b"")
    )
