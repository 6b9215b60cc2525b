"""reportlab's internals the engine relies on are still there (issue 42): pyproject.toml pins
reportlab below its next major version, and within it a release could still rename a private
attribute. Every private reportlab name the code reads (``canvas._doc``, ``frame._aW`` ...)
and every function it replaces is checked on real reportlab objects; a private name used
anywhere in ``generator/`` that reportlab defines and this test does not check fails it."""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import reportlab
from packaging.requirements import Requirement
from packaging.version import Version
from reportlab.lib import rl_accel
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, KeepTogether, Paragraph

REPO = Path(__file__).resolve().parent.parent
GENERATOR = REPO / "generator"

# what the code reads of reportlab's objects, by the object it reads it from
PRIVATE: dict[str, tuple[str, ...]] = {
    "canvas": (
        "_doc",
        "_code",
        "_formsinuse",
        "_extgstate",
        "_currentPageHasImages",
        "_currentMatrix",
        "_escape",
        "_fontname",
        "_fontsize",
    ),
    "text": ("_code",),
    "frame": ("_aW", "_y", "_y1p", "_atTop"),
    "keep": ("_content",),
    "document": ("_timeStamp", "idToObject"),
    "timestamp": ("dhh", "dmm", "YMDhms"),
    "info": ("_dateFormatter",),
    "pdfmetrics": ("_fonts",),
    "extgstate": ("getState",),
}
# functions the code replaces or calls past reportlab's public API (svg/canvas.py)
REPLACED: dict[str, tuple[str, ...]] = {
    "ttfonts": ("SUBSETN", "makeToUnicodeCMap"),
    "TTFont": ("addObjects", "splitString", "getSubsetInternalName"),
    "PDFFormXObject": ("format",),
    "pdfdoc": ("xObjectName", "PDFFormXObject", "PDFResourceDictionary", "pdfdocEnc", "fp_str"),
    "rl_accel": ("fp_str",),  # rlfast.py: numbers formatted once; ASCII strings as ASCII
    "pdfmetrics": ("findFontAndRegister",),  # fonts.py: a stock face parsed on first use
}
# used in the code through getattr with a default: reportlab may or may not set them
OPTIONAL = {"_colorsUsed"}


def _objects() -> dict[str, object]:
    """Real reportlab objects of each kind the code reaches into."""
    canvas = Canvas(io.BytesIO())
    canvas.setFont("Helvetica", 10)
    frame = Frame(0, 0, 200, 300)
    paragraph = Paragraph("words", ParagraphStyle("body"))
    return {
        "canvas": canvas,
        "text": canvas.beginText(),
        "frame": frame,
        "keep": KeepTogether([paragraph]),
        "document": canvas._doc,
        "timestamp": canvas._doc._timeStamp,
        "info": pdfdoc.PDFInfo(),
        "pdfmetrics": pdfmetrics,
        "extgstate": canvas._extgstate,
        "ttfonts": ttfonts,
        "TTFont": ttfonts.TTFont,
        "PDFFormXObject": pdfdoc.PDFFormXObject,
        "pdfdoc": pdfdoc,
        "rl_accel": rl_accel,
    }


def test_every_private_name_the_code_reads_is_there():
    objects = _objects()
    missing = [
        f"{kind}.{name}"
        for kind, names in [*PRIVATE.items(), *REPLACED.items()]
        for name in names
        if not hasattr(objects[kind], name)
    ]
    assert missing == [], f"reportlab {reportlab.Version} lacks {missing}"


def _reportlab_names() -> set[str]:
    """Every private name reportlab's own source sets or defines."""
    source = Path(reportlab.__file__).parent
    defined = re.compile(r"(?:self\.|def |class |^)(_[A-Za-z]\w*)\s*[=(:]", re.M)
    return {name for path in source.rglob("*.py") for name in defined.findall(path.read_text())}


def test_every_private_reportlab_name_the_code_uses_is_checked():
    """A private name read anywhere in generator/, that reportlab defines and the engine does
    not (``self._data`` of our own font class is ours), is in ``PRIVATE``."""
    used, ours = set(), set()
    for path in GENERATOR.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\.(_[A-Za-z]\w*)\b", text))
        used |= set(re.findall(r"attr\(\s*[\w.]+,\s*\"(_[A-Za-z]\w*)\"", text))
        ours |= set(re.findall(r"(?:self\.|def |class |^\s*)(_[A-Za-z]\w*)\s*[=(:]", text, re.M))
    checked = {name for names in PRIVATE.values() for name in names} | OPTIONAL | {"_curr_tx_info"}
    unchecked = (used - ours) & _reportlab_names() - checked
    assert unchecked == set(), f"add these to PRIVATE (and check them): {sorted(unchecked)}"
    assert {"_doc", "_aW", "_fonts"} <= (used - ours) & _reportlab_names()


def test_a_paragraphs_text_cursor_is_there_while_it_draws():
    """``canvas._curr_tx_info``, which reportlab sets only while a paragraph calls back
    (``<onDraw>``): where the text has got to, as sheetflow reads it."""
    canvas = Canvas(io.BytesIO())
    seen: list[dict] = []
    canvas.setNamedCB("probe", lambda c, kind, label: seen.append(dict(c._curr_tx_info)))
    paragraph = Paragraph('a <onDraw name="probe" label="x"/> b', ParagraphStyle("body"))
    paragraph.wrapOn(canvas, 200, 100)
    paragraph.drawOn(canvas, 0, 0)
    assert len(seen) == 1 and {"cur_x", "cur_y"} <= set(seen[0]), seen


def test_reportlab_is_pinned_below_its_next_major_version():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    (pin,) = [Requirement(r) for r in project["dependencies"] if r.startswith("reportlab")]
    installed = Version(reportlab.Version)
    assert installed in pin.specifier
    assert Version(f"{installed.major + 1}.0") not in pin.specifier, pin


def test_a_stock_face_is_parsed_when_first_used_through_reportlabs_lookup():
    """``getFont`` of a name reportlab has not registered goes through
    ``pdfmetrics.findFontAndRegister``, which fonts.py replaces to parse a stock face on its
    first use (a build in one family pays for its faces alone), the face tied to its family
    again after (registering a regular face, named as its family is, maps its <b> to itself);
    other names still fail."""
    from reportlab.lib.fonts import tt2ps

    from generator.svg.fonts import register_fonts

    register_fonts()
    made = pdfmetrics._fonts.get("PnpMono")
    if made is not None:  # a test before this one in the process drew in it: forgotten
        made.unregister()  # by both its names (reportlab hands a face name's first font)
    face = pdfmetrics.getFont("PnpMono")
    assert isinstance(face, ttfonts.TTFont) and face.fontName == "PnpMono"
    assert pdfmetrics.getFont("PnpMono") is face
    assert (
        tt2ps("PnpMono", 1, 0) == "PnpMono-Bold" and tt2ps("PnpMono", 1, 1) == "PnpMono-BoldItalic"
    )
    try:
        pdfmetrics.getFont("NoSuchFace")
    except KeyError:
        pass
    else:
        raise AssertionError("an unknown font name was registered")


def test_strings_are_encoded_as_reportlabs_pdfdoc_codec_encodes_them():
    """rlfast writes a document's ASCII strings as ASCII (reportlab's codec maps each
    character through a dict): every ASCII character, and strings beyond ASCII, encode to the
    bytes reportlab's own ``pdfdocEnc`` gives, or fail as it fails."""
    from generator.svg import canvas, rlfast

    assert pdfdoc.pdfdocEnc is rlfast.pdfdoc_encoded and canvas.rlfast is rlfast
    samples: list[object] = [chr(c) for c in range(128)]
    samples += ["0.5 0 0 1 12.25 -3 cm q 1 0 0 rg 0 0 10 10 re f Q\n", "(caf\u00e9) Tj", ""]
    samples += ["\u2022", "a\x18b", "\u00a4\x1f", b"bytes stay"]
    for sample in samples:
        assert _outcome(rlfast._REPORTLAB_PDFDOC, sample) == _outcome(
            rlfast.pdfdoc_encoded, sample
        ), repr(sample)


def _outcome(function: Any, *args: Any) -> object:
    """What ``function`` returns, or the kind of error it raises."""
    try:
        return function(*args)
    except (UnicodeError, TypeError, ValueError, ArithmeticError) as error:
        return type(error)


def test_numbers_are_formatted_as_reportlabs_fp_str_formats_them():
    """rlfast keeps each number as reportlab's ``fp_str`` formatted it: whole numbers, every
    magnitude, signs, the smallest that print as 0, numbers equal across types (1, 1.0, True),
    sequences; asked twice (the second time from what it kept), the same text."""
    from reportlab.pdfgen import canvas as rl_canvas
    from reportlab.pdfgen import textobject

    from generator.svg import rlfast

    assert rl_canvas.fp_str is rlfast.fp_str and textobject.fp_str is rlfast.fp_str
    rng = random.Random(40)
    numbers: list[Any] = [0, 1, -1, 1.0, True, False, 0.0, -0.0, 1e-7, 1.1e-7, -1e-8, 0.5]
    numbers += [12.25, 1e6, -123456.789, 1 / 3, 2 / 3, 99.99995, 0.0000015, 1e-6, 72]
    numbers += [rng.uniform(-10, 10) ** rng.choice((1, 3, 5)) for _ in range(2000)]
    for _ in range(2):
        for number in numbers:
            assert rlfast.fp_str(number) == rlfast._REPORTLAB_FP_STR(number), repr(number)
        assert rlfast.fp_str(*numbers[:6]) == rlfast._REPORTLAB_FP_STR(*numbers[:6])
        assert rlfast.fp_str(numbers[6:12]) == rlfast._REPORTLAB_FP_STR(numbers[6:12])
    signalling = Decimal("sNaN")  # a number that cannot be a key, as reportlab takes it
    assert _outcome(rlfast.fp_str, signalling) == _outcome(rlfast._REPORTLAB_FP_STR, signalling)


def _fresh_process(code: str) -> list[str]:
    """The lines ``code`` prints, run in a new Python process in the checkout."""
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_paragraphs_url_pattern_is_compiled_when_first_used_and_matches_as_compiled():
    """The engine's layout stage puts a stand-in for reportlab's paragraph URL pattern in re's
    cache before platypus is imported: in a fresh process the paragraph module gets the
    stand-in (so ``PARAGRAPH_URI`` is reportlab's pattern and flags, to the character), not
    yet compiled; once used it matches, and splits a URL across lines, as the pattern
    compiled there and then does; a word without ``://`` (reportlab asks of every word too
    long for its line) is answered without compiling it."""
    code = (
        "import generator.plan.pipeline, generator.output.inventory\n"
        "from reportlab.platypus import paragraph\n"
        "print(paragraph._uri_split_pairs('Spielanleitung'), type(paragraph.uri_pat).__name__)\n"
        "print(paragraph.uri_pat.compiled is None)\n"
        "print(list(paragraph._uri_split_pairs('https://example.com/a/b/c')))\n"
        "print(type(paragraph.uri_pat.compiled).__name__)\n"
    )
    lines = _fresh_process(code)
    assert lines[:2] == ["None DeferredPattern", "True"] and lines[3] == "Pattern", lines
    from reportlab.platypus import paragraph

    assert lines[2] == str(list(paragraph._uri_split_pairs("https://example.com/a/b/c")))
    from generator.svg.rlfast import PARAGRAPH_URI, DeferredPattern

    stand_in = DeferredPattern(PARAGRAPH_URI, re.I.value, "://")
    compiled = re.compile(PARAGRAPH_URI, re.I)
    for text in [
        "https://example.com/a/b",
        "HTTP://Example.COM:8080/x?y#z",
        "ftp://user:pass@10.0.0.1/file",
        "http://[::1]/",
        "http://localhost",
        "https://bücher.example/straße",
        "not a url",
        "http://-bad-.com",
        "mailto:someone@example.com",
    ]:
        ours, theirs = stand_in.match(text), compiled.match(text)
        assert (ours and (ours.span(), ours.groups())) == (
            theirs and (theirs.span(), theirs.groups())
        )


def test_harfbuzz_is_loaded_when_a_text_first_needs_shaping():
    """reportlab's font module imports uharfbuzz as it is imported (for a shaping of its own
    that pnp never turns on): the engine puts a stand-in in its place first, so a process
    that loads the renderer and the fonts, and draws Latin text, never loads HarfBuzz (a
    fiftieth of a second); the first Hebrew text shapes as before, and reportlab's name for
    the module then reads HarfBuzz's own classes."""
    code = (
        "import sys\n"
        "import generator.plan.pipeline, generator.svg.shaping as shaping\n"
        "from reportlab.pdfbase import ttfonts\n"
        "from generator.svg.fonts import text_width\n"
        "assert text_width('Chocolate Coin', 10) > 0\n"
        "print('uharfbuzz._harfbuzz' in sys.modules, type(ttfonts.uharfbuzz).__name__)\n"
        "font = open('generator/svg/dejavu/DejaVuSans.ttf', 'rb').read()\n"
        "shaped = shaping.Shaper(font).shape('שלום עולם')\n"
        "print(len(shaped.glyphs), round(shaped.width, 4))\n"
        "import uharfbuzz\n"
        "print(ttfonts.uharfbuzz.Blob is sys.modules['uharfbuzz'].Blob is uharfbuzz.Blob)\n"
    )
    lines = _fresh_process(code)
    assert lines[0] == "False _Deferred" and lines[2] == "True", lines
    from generator.svg.shaping import Shaper

    shaped = Shaper((GENERATOR / "svg" / "dejavu" / "DejaVuSans.ttf").read_bytes())
    expected = shaped.shape("שלום עולם")
    assert lines[1] == f"{len(expected.glyphs)} {round(expected.width, 4)}"
