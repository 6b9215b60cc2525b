"""Fuzzing the art path: ``pnp build`` of a card whose pictures and SVG are broken ends in a
pack (exit 0), a failed check (exit 1: a broken size can make text too small to read) or an
error at a line (exit 2), never in a crash or a hang.

Each example is a one-card game whose face template places a PNG, a JPEG, an SVG logo and a
``data:`` picture, and draws some SVG of its own. Hypothesis breaks some of them as a bad
export, a cut download or a hand edit would: bytes flipped, cut off or inserted, a picture's
header claiming a huge size, one kind of file under another's name; attributes of the SVG set
to NaN, infinities, huge, negative or empty values, and elements a renderer may not know
(filters, masks, patterns, markers, self-referencing ``<use>``, links out of the folder).

The build runs in-process through click's CliRunner; when it succeeds its PDF must open and
render in pdfium. ``PNP_FUZZ_EXAMPLES`` sets the number of examples as in ``test_fuzz.py``
(a quarter of them here: a build is slower than a check).
"""

from __future__ import annotations

import base64
import io
import os
import random
import re
import shutil
import tempfile
from datetime import timedelta
from functools import cache
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from fuzzing import ended_cleanly, run_within
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st
from PIL import Image

EXAMPLES = max(8, int(os.environ.get("PNP_FUZZ_EXAMPLES", "60")) // 4)
LONG_RUN = "PNP_FUZZ_EXAMPLES" in os.environ
HANG_SECONDS = 60

GAME = "title: Art Fuzz\nplayers: 2\n"
DECK = """\
kind: deck
title: Cards
size: poker
bleed: 3
face: face.svg.j2
cards:
  - {name: a, count: 1, title: Alpha}
"""
LOGO = """\
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \
width="40" height="20" viewBox="0 0 40 20">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#ff8800"/>
      <stop offset="1" stop-color="#0044cc" stop-opacity="0.5"/>
    </linearGradient>
    <clipPath id="round"><circle cx="10" cy="10" r="9"/></clipPath>
    <symbol id="dot" viewBox="0 0 2 2"><circle cx="1" cy="1" r="1"/></symbol>
  </defs>
  <rect x="0" y="0" width="40" height="20" rx="3" fill="url(#sky)"/>
  <g clip-path="url(#round)" opacity="0.8">
    <path d="M0 0 L20 20 M20 0 L0 20" stroke="#ffffff" stroke-width="2"
          stroke-dasharray="2 1"/>
  </g>
  <use xlink:href="#dot" x="30" y="8" width="4" height="4"/>
  <text x="21" y="16" font-family="serif" font-size="9" fill="#112233">Logo</text>
</svg>
"""
FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#f4efe4"/>
  <image href="{{ asset('art.png') }}" x="4" y="4" width="30" height="20"/>
  <image href="{{ asset('photo.jpg') }}" x="30" y="4" width="28" height="20"
         preserveAspectRatio="xMidYMid slice"/>
  <image href="{{ asset('logo.svg') }}" x="6" y="30" width="40" height="20"/>
  <image href="DATA" x="44" y="60" width="12" height="12"/>
  <g transform="translate(8 60) rotate(10)" opacity="0.9">
    <rect x="0" y="0" width="30" height="12" rx="2" fill="#cc3344" stroke="#000000"
          stroke-width="0.4" stroke-dasharray="1 0.5"/>
    <text x="2" y="8" font-family="sans-serif" font-size="5">{{ card.title }}</text>
  </g>
</svg>
"""

# values an exporter or a hand edit leaves in an attribute
ATTRIBUTE_VALUES = [
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1e308",
    "-1e308",
    "1e-320",
    "0",
    "-1",
    "-0",
    "",
    " ",
    "100%",
    "-50%",
    "1e",
    "--1",
    "1,2",
    "0 0",
    "0 -1",
    "-1 -1",
    "0 0 0 0",
    "1 2 3 4 5",
    "url(#nothing)",
    "url(#sky)",
    "url(#round)",
    "url(",
    "none",
    "currentColor",
    "inherit",
    "rgb(300,-1,NaN)",
    "#12",
    "#zzzzzz",
    "hsl(1e9, 50%, 50%)",
    "calc(1px)",
    "matrix(0 0 0 0 0 0)",
    "scale(0)",
    "scale(NaN)",
    "rotate(1e308)",
    "skewX(90)",
    "translate(1e308)",
    "M",
    "M0 0 L",
    "M NaN NaN",
    "M0 0 A 0 0 0 0 0 10 10",
    "M0 0 C1e308 1e308 -1e308 1e308 0 0Z",
    "z",
    "xMidYMid slice",
    "none meet",
    "xMinYMax",
]
# elements a renderer may not know, or must not follow
ELEMENTS = [
    '<filter id="f"><feGaussianBlur stdDeviation="2"/></filter><rect filter="url(#f)" '
    'width="5" height="5"/>',
    '<mask id="m"><rect width="5" height="5" fill="#fff"/></mask>'
    '<rect mask="url(#m)" width="9" height="9"/>',
    '<pattern id="p" width="2" height="2" patternUnits="userSpaceOnUse"><rect width="1" '
    'height="1"/></pattern><rect fill="url(#p)" width="9" height="9"/>',
    '<marker id="k" markerWidth="3" markerHeight="3"><path d="M0 0 L3 1.5 L0 3z"/></marker>'
    '<path d="M0 0 L9 9" stroke="#000" marker-end="url(#k)"/>',
    '<g id="loop"><use href="#loop"/></g>',
    '<use href="#dot" width="NaN" height="4"/>',
    '<image href="/etc/passwd" width="5" height="5"/>',
    '<image href="../../../etc/hostname" width="5" height="5"/>',
    '<image href="http://example.com/x.png" width="5" height="5"/>',
    '<image href="data:image/png;base64,AAAA" width="5" height="5"/>',
    '<image href="data:text/html,hello" width="5" height="5"/>',
    '<image href="logo.svg" width="5" height="5"/>',
    '<text font-family="/usr/share/fonts/truetype/x.ttf" font-size="3">Hi</text>',
    '<text font-size="0.001">tiny</text><text font-size="1e9">huge</text>',
    '<foreignObject width="5" height="5"><div>html</div></foreignObject>',
    "<style>rect { fill: red; stroke-dasharray: -1 0 }</style>",
    "<style>@import url(/etc/passwd);</style>",
    '<switch><rect width="3" height="3"/></switch>',
    '<textPath href="#nothing">along</textPath>',
    '<radialGradient id="g2" r="0" fx="NaN"><stop offset="2" stop-color="red"/>'
    '</radialGradient><circle r="4" fill="url(#g2)"/>',
    '<linearGradient id="g3" href="#g3"/><rect width="3" height="3" fill="url(#g3)"/>',
    '<polyline points="0,0 1e308,1 NaN"/>',
    '<svg width="-5" height="5" viewBox="0 0 0 0"><rect width="1" height="1"/></svg>',
]
DATA_KINDS = ["png", "jpg", "svg", "junk"]


@cache
def pictures() -> dict[str, bytes]:
    """The pictures a designer brings: a PNG with transparency, a JPEG photo, an SVG logo, a
    GIF (as they are, before any mutation)."""
    rng = random.Random(7)
    art = Image.new("RGBA", (48, 32))
    art.putdata(
        [(x * 5, y * 8, rng.randrange(256), 40 + x * 4) for y in range(32) for x in range(48)]
    )
    photo = Image.effect_noise((40, 30), 60).convert("RGB")
    return {
        "png": _saved(art, "PNG"),
        "jpg": _saved(photo, "JPEG"),
        "gif": _saved(art.convert("P"), "GIF"),
        "svg": LOGO.encode(),
        "junk": b"<html>not a picture</html>",
    }


def _saved(image: Image.Image, kind: str) -> bytes:
    out = io.BytesIO()
    image.save(out, kind)
    return out.getvalue()


def _data_uri(kind: str, payload: bytes) -> str:
    mime = {"png": "image/png", "jpg": "image/jpeg", "svg": "image/svg+xml", "gif": "image/gif"}
    return f"data:{mime.get(kind, 'image/png')};base64,{base64.b64encode(payload).decode()}"


# --- mutations ------------------------------------------------------------------------------


@st.composite
def broken_bytes(draw, data: bytes) -> bytes:
    """``data`` as a cut download, a bad disk or a wrong export leaves it."""
    op = draw(st.sampled_from(["flip", "cut", "insert", "huge-header", "zero", "swap"]))
    event(f"bytes: {op}")
    at = draw(st.integers(0, max(0, len(data) - 1)))
    if op == "flip":
        return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
    if op == "cut":
        return data[:at]
    if op == "insert":
        return data[:at] + draw(st.binary(min_size=1, max_size=64)) + data[at:]
    if op == "huge-header":
        return _claim_huge(data)
    if op == "zero":
        return b""
    return draw(st.sampled_from(sorted(pictures().values())))  # another kind under this name


def _claim_huge(data: bytes) -> bytes:
    """A PNG whose header claims 60000 x 60000 pixels, a JPEG's frame 65000 x 65000."""
    if data.startswith(b"\x89PNG"):
        return data[:16] + (60000).to_bytes(4, "big") * 2 + data[24:]
    at = data.find(b"\xff\xc0")
    if at >= 0:
        return data[: at + 5] + (65000).to_bytes(2, "big") * 2 + data[at + 9 :]
    return data


@st.composite
def broken_svg(draw, text: str) -> str:
    """``text`` (SVG markup) with attribute values replaced and odd elements added."""
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            spans = [m.span(1) for m in re.finditer(r'="([^"]*)"', text)]
            start, end = draw(st.sampled_from(spans))
            text = text[:start] + draw(st.sampled_from(ATTRIBUTE_VALUES)) + text[end:]
            event("svg: attribute")
        else:
            at = text.rfind("</svg>")
            text = text[:at] + draw(st.sampled_from(ELEMENTS)) + "\n" + text[at:]
            event("svg: element")
    return text


@st.composite
def art_game(draw) -> dict[str, bytes]:
    """The one-card game with one to three of its pictures or its face template broken."""
    files = {"art.png": pictures()["png"], "photo.jpg": pictures()["jpg"]}
    files["logo.svg"] = pictures()["svg"]
    data_kind = draw(st.sampled_from(DATA_KINDS))
    data = pictures()[data_kind]
    face = FACE
    targets = ["art.png", "photo.jpg", "logo.svg", "data", "face"]
    for target in draw(st.lists(st.sampled_from(targets), min_size=1, max_size=3, unique=True)):
        event(f"broken: {target}")
        if target == "face":
            face = draw(broken_svg(face))
        elif target == "logo.svg" and draw(st.booleans()):
            files[target] = draw(broken_svg(LOGO)).encode()
        elif target == "data":
            data = draw(broken_bytes(data))
        else:
            files[target] = draw(broken_bytes(files[target]))
    files["templates/face.svg.j2"] = face.replace("DATA", _data_uri(data_kind, data)).encode()
    return {"game.yaml": GAME.encode(), "deck.yaml": DECK.encode(), **files}


# --- the build ------------------------------------------------------------------------------


def build(folder: Path, files: dict[str, bytes]):
    """``pnp build`` of the game ``files`` written under ``folder``, into ``folder/out``."""
    game = folder / "components" / "game"
    for name, data in files.items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_bytes(data)
    args = ["build", "--components", str(game.parent), "--out", str(folder / "out")]
    return run_within(args, HANG_SECONDS)


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-art")


def test_the_unbroken_card_builds_with_every_picture(fuzz_dir: Path) -> None:
    """The card every mutation starts from builds clean, with no warning, so each failure
    comes from a mutation; its data: picture of each kind but junk draws without a word."""
    for kind in ("png", "jpg", "svg"):
        files = {
            "game.yaml": GAME.encode(),
            "deck.yaml": DECK.encode(),
            "art.png": pictures()["png"],
            "photo.jpg": pictures()["jpg"],
            "logo.svg": pictures()["svg"],
            "templates/face.svg.j2": FACE.replace(
                "DATA", _data_uri(kind, pictures()[kind])
            ).encode(),
        }
        result = build(Path(tempfile.mkdtemp(dir=fuzz_dir)), files)
        assert result.exit_code == 0, result.output
        assert "warning" not in result.output, result.output


@settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=30),
    database=None,
    derandomize=not LONG_RUN,
    phases=list(Phase) if LONG_RUN else [Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(files=art_game())
def test_build_of_broken_art_ends_in_a_pack_or_an_error(
    fuzz_dir: Path, files: dict[str, bytes]
) -> None:
    folder = Path(tempfile.mkdtemp(dir=fuzz_dir))
    try:
        result = build(folder, files)
        ended_cleanly(result, folder, "build")  # exit 1: a broken size can make text tiny
        if result.exit_code == 0:
            pdf = pdfium.PdfDocument(folder / "out" / "game" / "game.pdf")
            assert len(pdf) >= 1
            pdf[0].render(scale=0.3).to_pil()
            pdf.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
