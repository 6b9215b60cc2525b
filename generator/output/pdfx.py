"""PDF/X for a shop PDF drawn with reportlab, done just before it is saved: PDF/X-4 (ISO
15930-7) or PDF/X-1a:2003 (ISO 15930-4), which a vendor such as DriveThruCards asks for.

What a print shop's preflight looks for, and where it is made here:

- an output intent (``/S /GTS_PDFX``) with the press profile embedded (``_output_intent``);
- the version in the Info dictionary and in XMP metadata, with the title, dates, tool and
  trapping (``_metadata``, ``_Info``);
- every colour device CMYK or grey and nothing transparent: the shop export flattens every
  page (``generator.output.flatten``), so one file's content serves both standards;
- TrimBox and BleedBox on every page, every font embedded, PDF 1.4: the writer's part.

PDF/X-1a:2003's keys: the sources disagree on them. ISO 15930-4 as Acrobat Distiller, mPDF
and Poppler (which reads "PDF/X-1:2003" as ISO 15930-4) have it, and as written here:
``GTS_PDFXVersion (PDF/X-1:2003)`` with ``GTS_PDFXConformance (PDF/X-1a:2003)``; Antenna
House's summary of the standard gives ``GTS_PDFXVersion (PDF/X-1a:2003)`` alone. Not checked
against Acrobat's preflight (see vendors.yaml).
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass

from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

from generator.layout.shapedflow import escape
from generator.output.colour import PRESS, press_profile


@dataclass(frozen=True)
class Standard:
    """A PDF/X version as a file states it: its name, the Info keys and the XMP properties
    (namespace prefix and URI) that say so."""

    name: str
    info: tuple[tuple[str, str], ...]
    prefix: str
    namespace: str


X4 = Standard(
    "PDF/X-4", (("GTS_PDFXVersion", "PDF/X-4"),), "pdfxid", "http://www.npes.org/pdfx/ns/id/"
)
X1A = Standard(
    "PDF/X-1a:2003",
    (("GTS_PDFXVersion", "PDF/X-1:2003"), ("GTS_PDFXConformance", "PDF/X-1a:2003")),
    "pdfx",
    "http://ns.adobe.com/pdfx/1.3/",
)
STANDARDS = {standard.name: standard for standard in (X4, X1A)}
VERSION = X4.name  # what the generic shop export writes


def finish(canvas: Canvas, standard: Standard = X4) -> None:
    """Make the document on ``canvas`` (every page shown, flattened, not yet saved) PDF/X of
    ``standard`` for the press profile."""
    doc = canvas._doc
    _output_intent(doc)
    _metadata(doc, standard)


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
    """The Info dictionary with the PDF/X version keys beside reportlab's."""

    standard: Standard = X4

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
        }
        entries |= {key: pdfdoc.PDFString(value) for key, value in self.standard.info}
        return pdfdoc.PDFDictionary(entries).format(document)


def _metadata(doc: pdfdoc.PDFDocument, standard: Standard) -> None:
    """XMP metadata saying what the Info dictionary says, and the file's PDF/X version."""
    info = _Info()
    info.__dict__.update(doc.info.__dict__)
    info.standard = standard
    doc.info = info
    stamp = doc._timeStamp
    offset = f"{'-' if stamp.dhh < 0 else '+'}{abs(stamp.dhh):02d}:{stamp.dmm:02d}"
    when = "{:04d}-{:02d}-{:02d}T{:02d}:{:02d}:{:02d}".format(*stamp.YMDhms) + offset
    digest = hashlib.sha1(f"{info.title}|{info.author}|{when}".encode()).hexdigest()
    uuid = f"uuid:{digest[:8]}-{digest[8:12]}-{digest[12:16]}-{digest[16:20]}-{digest[20:32]}"
    prefix = standard.prefix
    versions = "\n".join(
        f"   <{prefix}:{key}>{escape(value)}</{prefix}:{key}>" for key, value in standard.info
    )
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
        namespace=f'xmlns:{prefix}="{standard.namespace}"',
        versions=versions,
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
    {namespace}>
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
{versions}
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
