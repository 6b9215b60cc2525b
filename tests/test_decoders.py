"""Every third-party decoder behind its guard, measured: each is fed a bomb, a loop and a
damaged input of its kind in a child process held to ``MEMORY`` bytes and ``CPU`` seconds, and
must answer in words (the guard's own error) within them; and no module of the engine imports
a decoder but its guard (a new decoder cannot come in without one)."""

from __future__ import annotations

import ast
import base64
import io
import json
import resource
import struct
import subprocess
import sys
import textwrap
import zipfile
import zlib
from pathlib import Path

import pytest
from PIL import Image

from generator.svg import imageguard

REPO = Path(__file__).resolve().parent.parent
MEMORY = 1_000_000_000  # bytes of address space a child may have (the 1 GB)
CPU = 20  # seconds of CPU a child may spend (a hang ends as SIGXCPU, a failure here)


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU, CPU))


def bounded(code: str) -> dict:
    """Run ``code`` (which sets ``said``: what the guard answered) in a child held to
    ``MEMORY`` and ``CPU``; its answer, the CPU seconds it used and its peak memory (KB)."""
    script = textwrap.dedent(code) + textwrap.dedent("""
        import json, re, resource
        use = resource.getrusage(resource.RUSAGE_SELF)
        status = open("/proc/self/status").read()  # VmHWM: this process's own peak (ru_maxrss
        peak = int(re.search(r"VmHWM:\\s*(\\d+)", status)[1])  # outlives exec: the runner's)
        print(json.dumps({"said": said, "cpu": use.ru_utime + use.ru_stime, "kb": peak}))
    """)
    run = subprocess.run(
        [sys.executable, "-"],
        input=script,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=_limited,  # noqa: PLW1509 - limits only, set before the exec
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


# --- shaping: HarfBuzz and python-bidi, behind generator/svg/shaping.py ----------------------

SHAPE = """
from generator.svg.fonts import FONT_DIR
from generator.svg.shaping import Shaper, ShapingProblem
shaper = Shaper((FONT_DIR / "DejaVuSans.ttf").read_bytes())
text = {text}
try:
    shaped = shaper.shape(text)
    said = len(shaped.glyphs)
except ShapingProblem as exc:
    said = str(exc)
"""
WORDS = "'مرحبا بالعالم لدي 3 بطاقات و 25 نقطة abc (x) '"
SHAPING = {
    # 100,000 characters (the limit) of Arabic: quadratic before (42 KB: 146 s)
    "a long Arabic line": (f"({WORDS} * 4_000)[:100_000]", 100_000),
    # bidi controls nested and unpaired, a run at every character
    "bidi controls": ("('\\u202b\\u05d0a1\\u202e\\u200f\\u202a ' * 15_000)[:100_000]", None),
    # a loop of isolates, which python-bidi's algorithm asserts on (an internal error before)
    "isolates": ("'\\u05d0\\u2066b\\u2069c\\u2068\\u05d3\\u2069\\u2067' * 1_000", None),
    # damaged: a closing control without its opening, one past the nesting depth
    "unpaired controls": (
        "'\\u2069\\u202c' * 10 + '\\u202b' * 200 + '\\u05d0' + '\\u202c' * 300",
        None,
    ),
    # a bomb: a text past the limit is refused before any work
    "past the limit": ("'\\u05d0' * 10_000_000", "at most"),
}


@pytest.mark.parametrize("case", list(SHAPING))
def test_shaping_is_linear_in_the_text_and_never_fails_inside(case: str):
    text, expected = SHAPING[case]
    result = bounded(SHAPE.format(text=text))
    if isinstance(expected, str):
        assert expected in result["said"], result
    else:
        assert isinstance(result["said"], int) and result["said"] > 0, result
        if expected is not None:
            assert result["said"] >= expected * 0.9
    assert result["cpu"] < 6, result  # with the imports; quadratic, 100,000 took minutes


# --- images: Pillow (and its EXIF reader), behind generator/svg/imageguard.py ---------------

PICTURE = """
import base64
from generator.svg import raster
from generator.svg.imageguard import ImageProblem, verify
raw = base64.b64decode({raw!r})
try:
    verify(raw)
    size = raster.image_size(raw)
    picture = raster.load(raw, (64, 64))
    said = [size[0], size[1], picture.width, picture.height]
except ImageProblem as exc:
    said = str(exc)
"""


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _png_bomb() -> bytes:
    """A 50,000 x 50,000 PNG (10 GB as RGBA) in a few KB: its rows all zero."""
    side = 50_000
    packer = zlib.compressobj(9)
    data = b"".join(packer.compress(bytes(1 + side * 4)) for _ in range(200)) + packer.flush()
    head = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + _chunk(b"IHDR", head) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def _tiff_loop() -> bytes:
    """A 2 x 2 TIFF whose next-IFD offset points back at its own IFD, and whose EXIF IFD
    points at it too: a reader that follows either walks for ever."""
    entries = [
        (256, 3, 1, 2), (257, 3, 1, 2), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
        (273, 4, 1, 8), (277, 3, 1, 1), (278, 3, 1, 2), (279, 4, 1, 4), (0x8769, 4, 1, 12),
    ]  # fmt: skip
    ifd = struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        packed = struct.pack("<H", value) + b"\0\0" if kind == 3 else struct.pack("<I", value)
        ifd += struct.pack("<HHI", tag, kind, count) + packed
    ifd += struct.pack("<I", 12)  # the next IFD: this one again
    return b"II*\0" + struct.pack("<I", 12) + b"\x80\x80\x80\x80" + ifd


def _exif_jpeg(orientation: object) -> bytes:
    """A 40 x 30 JPEG whose EXIF orientation is ``orientation`` (of any type)."""
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "Cam"  # Make: ASCII, as a camera writes it
    out = io.BytesIO()
    Image.new("RGB", (40, 30), "red").save(out, "JPEG", exif=exif.tobytes())
    return out.getvalue()


def _exif_retyped(kind: int, value: bytes) -> bytes:
    """A 40 x 30 JPEG whose orientation tag is re-typed in place: EXIF type ``kind`` (5:
    RATIONAL, 2: ASCII...) holding the four bytes ``value`` (a camera's bug, a stranger's)."""
    raw = bytearray(_exif_jpeg(6))
    at = raw.find(b"\x01\x12\x00\x03\x00\x00\x00\x01")  # tag, type SHORT, count 1 (big-endian)
    assert at > 0
    raw[at + 2 : at + 12] = struct.pack(">HI", kind, 1 if kind != 2 else 2) + value
    return bytes(raw)


def _wrong_type_beside_a_turn() -> bytes:
    """A JPEG turned by its EXIF (orientation 6) with a SHORT tag (0x0107) holding text: the
    fuzzer's find. Pillow's ``exif_transpose`` wrote the block back and failed (struct.error:
    an internal error)."""
    raw = _exif_jpeg(6)
    return raw.replace(b"\x01\x0f\x00\x02", b"\x01\x07\x00\x02", 1)


def _truncated_jpeg() -> bytes:
    out = io.BytesIO()
    Image.effect_noise((300, 300), 60).convert("RGB").save(out, "JPEG")
    return out.getvalue()[:2_000]


def _animation(frames: int) -> bytes:
    """A 40 x 30 GIF of ``frames`` frames, each another colour: only the first is decoded."""
    out = io.BytesIO()
    first, *rest = (Image.new("P", (40, 30), n % 200) for n in range(frames))
    first.save(out, "GIF", save_all=True, append_images=rest, duration=10)
    return out.getvalue()


PICTURES = {
    "an animation of 5,000 frames": (lambda: _animation(5_000), [40, 30, 40, 30]),
    "a PNG bomb": (_png_bomb, "megapixels"),
    "a TIFF whose IFDs loop": (_tiff_loop, None),
    "an EXIF tag of the wrong type": (
        lambda: _exif_retyped(5, b"\x00\x00\x00\x08"),
        [40, 30, 40, 30],
    ),
    "an orientation that is text": (lambda: _exif_retyped(2, b"6\x00\x00\x00"), [40, 30, 40, 30]),
    "a tag of the wrong type beside a turn": (_wrong_type_beside_a_turn, [30, 40, 30, 40]),
    "a cut JPEG": (_truncated_jpeg, "cannot be read as an image"),
    "random bytes after a PNG signature": (
        lambda: b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8,
        "cannot",
    ),
}


@pytest.mark.parametrize("case", list(PICTURES))
def test_a_picture_bomb_loop_or_damage_is_the_files_error_in_bounded_work(case: str):
    make, expected = PICTURES[case]
    result = bounded(PICTURE.format(raw=base64.b64encode(make()).decode()))
    if expected is None:
        assert isinstance(result["said"], list | str), result  # an answer, either way
    elif isinstance(expected, str):
        assert expected in result["said"], result
    else:
        assert result["said"] == expected, result
    assert result["cpu"] < 5, result
    assert result["kb"] < 400_000, result


FOREIGN = {  # a file of a kind pnp does not read, as designers bring them: what pnp says
    "an iPhone's HEIC photo": (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", "HEIC photo"),
    "a HEIF whose major brand is mif1": (b"\x00\x00\x00\x14ftypmif1\x00\x00\x00\x00heic", "HEIC"),
    "an AVIF picture": (b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf", "AVIF"),
    "a PDF": (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "is a PDF"),
    "a Photoshop file": (b"8BPS\x00\x01" + bytes(20), "Photoshop file (PSD)"),
    "an MP4 video": (b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00isom", "none of PNG, JPEG"),
    "text": (b"hello, this is not a picture\n", "none of PNG, JPEG, WebP, GIF and TIFF"),
}


@pytest.mark.parametrize("case", list(FOREIGN))
def test_a_file_of_a_kind_pnp_does_not_read_is_named_by_what_it_is(case: str):
    """Named, with what to export instead, not as Pillow's UnidentifiedImageError."""
    raw, said = FOREIGN[case]
    for read in (imageguard.header, imageguard.verify):
        with pytest.raises(imageguard.ImageProblem) as caught:
            read(raw)
        assert said in str(caught.value) and "export it as" in str(caught.value), caught.value
        assert "Error" not in str(caught.value)


# --- spreadsheets: zipfile, openpyxl and lxml, behind generator/model/spreadsheets.py --------

SHEET = """
import base64
from pathlib import Path
from generator.errors import SpecError
from generator.model import spreadsheets
data = base64.b64decode({raw!r})
try:
    said = len(spreadsheets.rows(Path("cards{suffix}"), data, "{suffix}", None))
except SpecError as exc:
    said = exc.message
"""


def _xlsx(rows: int = 3) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    for n in range(rows):
        sheet.append([f"card {n}", n])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _rezipped(raw: bytes, change: dict[str, bytes], extra: int = 0) -> bytes:
    """The zip ``raw`` with members replaced or added (``change``) and ``extra`` empty files."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(raw)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as made,
    ):
        for info in source.infolist():
            made.writestr(info.filename, change.pop(info.filename, source.read(info)))
        for name, body in change.items():
            made.writestr(name, body)
        for n in range(extra):
            made.writestr(f"x/{n}", b"")
    return out.getvalue()


LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaaaaaaaa">'
    + b"".join(b'<!ENTITY %c "%s">' % (98 + k, (b"&%c;" % (97 + k)) * 10) for k in range(9))
    + b']><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&j;</t></si></sst>'
)
SHEETS = {
    "a zip bomb (60 MB of zeros)": (
        lambda: _rezipped(_xlsx(), {"xl/worksheets/sheet1.xml": bytes(60_000_000)}),
        ".xlsx",
        "unpacks to",
    ),
    "20,000 files in the zip": (lambda: _rezipped(_xlsx(), {}, 20_000), ".xlsx", "holds 20,"),
    "the billion laughs": (
        lambda: _rezipped(_xlsx(), {"xl/sharedStrings.xml": LAUGHS}),
        ".xlsx",
        "document type",
    ),
    "a sheet that says it spans every cell": (
        lambda: _rezipped(_xlsx(), {"xl/worksheets/sheet1.xml": _spanning()}),
        ".xlsx",
        5_002,
    ),
    "formulas in a sheet that says it spans every cell": (
        lambda: _rezipped(
            _xlsx(), {"xl/worksheets/sheet1.xml": _spanning(b'<c r="A%d"><f>1+1</f><v>2</v></c>')}
        ),
        ".xlsx",
        5_002,
    ),
    "an ODS row repeated a billion times": (lambda: _ods_repeated(), ".ods", 5_002),
    "a damaged xlsx": (lambda: _xlsx(50)[:-700] + bytes(700), ".xlsx", "spreadsheet"),
}


def _spanning(first: bytes = b"") -> bytes:
    """A worksheet whose dimension is the whole grid (A1:XFD1048576), a cell in its last
    column on each of 6,000 rows (after ``first``, a cell of the row's own: the cells between
    read empty, and the workbook review looks for their formulas): openpyxl pads every row
    it yields out to the dimension."""
    cells = b"".join(
        b'<row r="%d">' % n + (first % n if first else b"") + b'<c r="XFD%d"><v>1</v></c></row>' % n
        for n in range(1, 6001)
    )
    return (
        b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        b'<dimension ref="A1:XFD1048576"/><sheetData>' + cells + b"</sheetData></worksheet>"
    )


def _ods_repeated() -> bytes:
    content = (
        b'<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        b'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        b'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>'
        b'<table:table table:name="S"><table:table-row table:number-rows-repeated="1000000000">'
        b'<table:table-cell table:number-columns-repeated="1000000000"><text:p>x</text:p>'
        b"</table:table-cell></table:table-row></table:table></office:spreadsheet></office:body>"
        b"</office:document-content>"
    )
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as made:
        made.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        made.writestr("content.xml", content)
    return out.getvalue()


@pytest.mark.parametrize("case", list(SHEETS))
def test_a_spreadsheet_bomb_loop_or_damage_is_the_files_error_in_bounded_work(case: str):
    make, suffix, expected = SHEETS[case]
    raw = base64.b64encode(make()).decode()
    result = bounded(SHEET.format(raw=raw, suffix=suffix))
    if isinstance(expected, str):
        assert isinstance(result["said"], str) and expected in result["said"], result
    else:
        assert result["said"] <= expected, result
    assert result["cpu"] < 10, result
    assert result["kb"] < 400_000, result


# --- no decoder outside its guard -----------------------------------------------------------

PACKAGE = REPO / "generator"
FONT_MODULES = {  # the font guard's modules (fonts, issue 38): what fontTools or reportlab
    "model/fontguard.py",  # parses has passed the guard, and the engine's own stock fonts
    "model/fontcff.py",
    "model/fontforms.py",
    "model/fontfiles.py",
    "svg/canvas.py",
}
# each third-party library that decodes a stranger's file, by the name it is imported as, and
# the only modules that may import it: its guard (and what only uses what the guard passed)
GUARDS: dict[str, set[str]] = {
    "uharfbuzz": {"svg/shaping.py"},  # text: one text's length bounded, linear work
    "bidi": {"svg/shaping.py"},
    # spreadsheets: the zip and its XML checked first; workbooks reviews (hidden sheets,
    # formulas without values) a workbook the guard has checked, called by it only
    "openpyxl": {"model/spreadsheets.py", "model/workbooks.py"},
    "odf": set(),  # never: an ODS file's XML is read by lxml, in the spreadsheet guard
    "zipfile": {"model/spreadsheets.py"},
    "babel.messages.pofile": {"i18n/pofile.py", "i18n/catalogs.py"},  # a header read first
    "fontTools": FONT_MODULES,
    "reportlab.pdfbase.ttfonts": FONT_MODULES,
    "brotli": FONT_MODULES,
}
# Pillow also draws the engine's own pictures (previews, exports) from pixels it was given;
# what decodes a file is these names, which only the picture guard may use
PILLOW_DECODING = {"Image.open", "ImageFile", "exif_transpose", "getexif", "ImageFile.Parser"}
PILLOW_GUARD = "svg/imageguard.py"
XML_PARSERS = {"svg/safexml.py", "model/spreadsheets.py"}  # where an lxml parser is made


def _modules() -> dict[str, ast.Module]:
    return {
        path.relative_to(PACKAGE).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def _imported(tree: ast.Module) -> set[str]:
    """Every module name ``tree`` imports (``from a.b import c``: a.b and a.b.c)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def test_no_decoder_is_imported_outside_its_guard():
    """A module that imports a decoder its guard does not own fails here: put the reading
    behind the guard (or make one), then name the module in ``GUARDS`` with why."""
    outside = {}
    for module, tree in _modules().items():
        for name in _imported(tree):
            for decoder, allowed in GUARDS.items():
                if (name == decoder or name.startswith(decoder + ".")) and module not in allowed:
                    outside.setdefault(module, set()).add(decoder)
    assert not outside, f"decoders imported outside their guards: {outside}"


def test_every_guard_named_exists_and_imports_its_decoder():
    modules = _modules()
    for decoder in ("uharfbuzz", "bidi", "openpyxl", "zipfile"):
        for module in GUARDS[decoder]:
            assert any(n.split(".")[0] == decoder for n in _imported(modules[module])), module
    assert "PIL.Image" in _imported(modules[PILLOW_GUARD])


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def test_pillow_decodes_a_file_in_the_picture_guard_alone():
    """``Image.open``, ``ImageFile``, EXIF reading: only in ``svg/imageguard.py``."""
    outside = {}
    for module, tree in _modules().items():
        if module == PILLOW_GUARD:
            continue
        for node in ast.walk(tree):
            used = ""
            if isinstance(node, ast.Attribute):
                used = _dotted(node)
            elif isinstance(node, ast.ImportFrom) and node.module == "PIL":
                used = " ".join(alias.name for alias in node.names)
            hits = {
                d
                for d in PILLOW_DECODING
                if used == d or used.endswith("." + d) or d in used.split()
            }
            if hits:
                outside.setdefault(module, set()).update(hits)
    assert not outside, f"Pillow decoding outside svg/imageguard.py: {outside}"


def test_xml_is_parsed_by_the_safe_parsers_alone():
    """Every lxml parse names its parser (``SAFE_PARSER``, ``TEXT_PARSER`` or the spreadsheet
    guard's), all made without entities or network; none is made anywhere else."""
    for module, tree in _modules().items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            called = _dotted(node.func)
            if called.endswith("XMLParser"):
                assert module in XML_PARSERS, f"{module}:{node.lineno} makes an XML parser"
            if called in ("etree.fromstring", "etree.XML", "etree.parse", "etree.iterparse"):
                assert len(node.args) >= 2 or node.keywords, (
                    f"{module}:{node.lineno}: {called} without a parser"
                )
