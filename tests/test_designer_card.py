"""A designer's card as issue 16 describes it: a PNG picture with transparency, an SVG logo
placed with <image>, a data: URI picture, a gradient and the designer's own font, all on one
card, printed as drawn in two independent renderers (pdfium and MuPDF), the font embedded.

Every part is measured against what it should be: the picture's area against the picture on
the card's colour, the logo's colours where the logo draws them, the gradient's two ends, the
text read back in the designer's font."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import numpy as np
import pymupdf
import pypdfium2 as pdfium
import pytest
from pdfread import fonts_and_spans
from PIL import Image
from pixels import card_area

from generator.svg.fonts import FONT_DIR

FONT = FONT_DIR / "DejaVuSansMono.ttf"  # as "Typewriter"
DPI = 200
CARD = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <defs>
    <linearGradient id="band" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#0000ff"/>
      <stop offset="1" stop-color="#ffff00"/>
    </linearGradient>
  </defs>
  <rect x="-3" y="-3" width="{{ box.w + 6 }}" height="{{ box.h + 6 }}" fill="#ffffff"/>
  <rect x="4" y="4" width="55.5" height="8" fill="url(#band)"/>
  <image href="{{ asset('art/picture.png') }}" x="4" y="16" width="40" height="30"/>
  <image href="{{ asset('art/logo.svg') }}" x="46" y="16" width="13.5" height="13.5"/>
  <image href="DATA" x="46" y="32" width="13.5" height="13.5"/>
  <text x="4" y="60" font-family="Typewriter" font-size="5">{{ card.title }}</text>
</svg>
"""
LOGO = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">
  <rect width="10" height="10" fill="#00a000"/><circle cx="5" cy="5" r="3" fill="#ff0000"/>
</svg>"""


def _picture() -> Image.Image:
    """Saturated patches with an alpha ramp: what a designer's RGBA export looks like."""
    image = Image.new("RGBA", (80, 60))
    colours = [(230, 30, 40), (30, 160, 60), (40, 70, 220), (250, 200, 30)]
    for x in range(80):
        for y in range(60):
            r, g, b = colours[(x // 20) % 4]
            image.putpixel((x, y), (r, g, b, 255 if y < 30 else 255 - (y - 30) * 6))
    return image


@pytest.fixture(scope="module")
def card(tmp_path_factory, pnp) -> tuple[Path, dict, Image.Image]:
    """The built card: its PDF, its manifest item and the picture placed on it."""
    base = tmp_path_factory.mktemp("designer")
    root = base / "components" / "mine"
    for folder in ("templates", "art", "fonts"):
        (root / folder).mkdir(parents=True)
    picture = _picture()
    picture.save(root / "art" / "picture.png")
    (root / "art" / "logo.svg").write_text(LOGO)
    (root / "fonts" / "Typewriter.ttf").write_bytes(FONT.read_bytes())
    dot = io.BytesIO()
    Image.new("RGB", (8, 8), (120, 0, 160)).save(dot, "PNG")
    data = "data:image/png;base64," + base64.b64encode(dot.getvalue()).decode()
    (root / "templates" / "face.svg.j2").write_text(CARD.replace("DATA", data))
    (root / "game.yaml").write_text(
        "title: Mine\nplayers: 2\nfonts:\n  - {family: Typewriter, file: fonts/Typewriter.ttf}\n"
    )
    (root / "deck.yaml").write_text(
        "kind: deck\ntitle: Mine\nsize: poker\nface: face.svg.j2\n"
        "cards:\n  - {name: a, count: 1, title: Quartermaster}\n"
    )
    result = pnp("build", "--components", base / "components", "--out", base / "out")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr, result.stderr
    manifest = json.loads((base / "out" / "mine" / "manifest.json").read_text())
    item = next(i for i in manifest["items"] if i["side"] == "front")
    return base / "out" / "mine" / "mine.pdf", item, picture


def _renders(pdf: Path, page: int) -> dict[str, np.ndarray]:
    with pdfium.PdfDocument(str(pdf)) as doc:
        ours = doc[page - 1].render(scale=DPI / 72).to_pil().convert("RGB")
    with pymupdf.open(str(pdf)) as doc:
        pixmap = doc[page - 1].get_pixmap(dpi=DPI, colorspace=pymupdf.csRGB, alpha=False)
        mupdf = Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)
    return {"pdfium": np.asarray(ours, np.int16), "mupdf": np.asarray(mupdf, np.int16)}


def _area(page: np.ndarray, item: dict, box: tuple[float, float, float, float]) -> np.ndarray:
    return card_area(page, item, box, DPI)


@pytest.mark.parametrize("renderer", ["pdfium", "mupdf"])
def test_the_picture_prints_with_its_colours_and_transparency(card, renderer):
    pdf, item, picture = card
    page = _renders(pdf, item["page"])[renderer]
    area = _area(page, item, (4.3, 16.3, 39.4, 29.4))
    expected = Image.alpha_composite(Image.new("RGBA", picture.size, "white"), picture)
    expected = expected.convert("RGB").resize((area.shape[1], area.shape[0]))
    difference = np.abs(area - np.asarray(expected, np.int16)).mean()
    assert difference < 12, difference  # a picture drawn black or without alpha is > 60


@pytest.mark.parametrize("renderer", ["pdfium", "mupdf"])
def test_logo_data_picture_and_gradient_print_as_drawn(card, renderer):
    pdf, item, _ = card
    page = _renders(pdf, item["page"])[renderer]

    def colour(box: tuple[float, float, float, float]) -> np.ndarray:
        return _area(page, item, box).reshape(-1, 3).mean(axis=0)

    assert np.abs(colour((52, 22, 1.5, 1.5)) - (255, 0, 0)).max() < 30  # the logo's circle
    assert np.abs(colour((46.5, 16.5, 1.5, 1.5)) - (0, 160, 0)).max() < 30  # its square
    assert np.abs(colour((50, 36, 5, 5)) - (120, 0, 160)).max() < 30  # the data: picture
    assert np.abs(colour((4.5, 6, 1, 4)) - (0, 0, 255)).max() < 40  # the gradient's ends
    assert np.abs(colour((58, 6, 1, 4)) - (255, 255, 0)).max() < 40


def test_the_two_renderers_agree_on_the_whole_card(card):
    pdf, item, _ = card
    pages = _renders(pdf, item["page"])
    box = (0.5, 0.5, 62.5, 87.9)
    a, b = (_area(pages[r], item, box) for r in ("pdfium", "mupdf"))
    assert np.abs(a - b).mean() < 4


def test_the_designers_font_is_embedded_and_the_text_is_in_it(card):
    pdf, item, _ = card
    fonts, spans = fonts_and_spans(str(pdf), item["page"])
    title = next(span for span in spans if span["text"] == "Quartermaster")
    assert "DejaVuSansMono" in title["font"], title["font"]
    assert all(ext != "n/a" for ext in fonts.values()), fonts  # every font embedded
