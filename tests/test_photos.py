"""Photos as phones take them (issue 26): a photo stored sideways with an EXIF orientation
prints upright (pixels read back from the page); a 50-megapixel photo prints, held in the PDF
at no more than the print's 600 dpi; a picture past any camera's pixels is exit 2 naming the
file and the card; what Pillow warns of is a warning of ours, naming the file."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pymupdf
import pypdfium2 as pdfium
import pytest
from PIL import Image
from pixels import card_area, png_header_only

from generator.svg.raster import PRINT_DPI

DPI = 100
FACE = """<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="-3" y="-3" width="{{ box.w + 6 }}" height="{{ box.h + 6 }}" fill="#ffffff"/>
  <image href="{{ asset(card.art) }}" x="10" y="10" width="30" height="40"
         preserveAspectRatio="none"/>
</svg>
"""
UPRIGHT = Image.new("RGB", (300, 400), (0, 0, 255))
UPRIGHT.paste((255, 0, 0), (0, 0, 300, 200))  # red above, blue below, as the phone saw it
# what a phone stores for each orientation: the picture turned so that the tag turns it back
STORED = {
    3: Image.Transpose.ROTATE_180,
    6: Image.Transpose.ROTATE_90,
    8: Image.Transpose.ROTATE_270,
}


def _game(base: Path, art: dict[str, bytes]) -> Path:
    """A deck of one card per picture, each drawn 30 x 40 mm at (10, 10) on its card."""
    root = base / "components" / "mine"
    for folder in ("templates", "art"):
        (root / folder).mkdir(parents=True)
    for name, data in art.items():
        (root / "art" / name).write_bytes(data)
    (root / "templates" / "face.svg.j2").write_text(FACE)
    (root / "game.yaml").write_text("title: Mine\nplayers: 2\n")
    cards = "".join(f"  - {{name: {Path(n).stem}, count: 1, art: art/{n}}}\n" for n in art)
    (root / "deck.yaml").write_text(
        "kind: deck\ntitle: Mine\nsize: poker\nface: face.svg.j2\ncards:\n" + cards
    )
    return base / "components"


def _jpeg(image: Image.Image, orientation: int = 1, **options: object) -> bytes:
    exif = Image.Exif()
    if orientation != 1:
        exif[0x0112] = orientation
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif, **options)
    return out.getvalue()


@pytest.mark.parametrize("orientation", sorted(STORED))
def test_a_photo_stored_sideways_prints_upright(tmp_path, pnp, orientation):
    stored = UPRIGHT.transpose(STORED[orientation])
    components = _game(tmp_path, {"phone.jpg": _jpeg(stored, orientation, quality=95)})
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "mine"
    item = next(
        i for i in json.loads((out / "manifest.json").read_text())["items"] if i["side"] == "front"
    )
    with pdfium.PdfDocument(str(out / "mine.pdf")) as doc:
        page = np.asarray(doc[item["page"] - 1].render(scale=DPI / 72).to_pil().convert("RGB"))
    top = card_area(page, item, (12, 12, 26, 16), DPI).reshape(-1, 3).mean(axis=0)
    bottom = card_area(page, item, (12, 32, 26, 16), DPI).reshape(-1, 3).mean(axis=0)
    assert top[0] > 200 and top[2] < 60, top  # red above
    assert bottom[2] > 200 and bottom[0] < 60, bottom  # blue below


def test_a_50_megapixel_photo_prints_at_no_more_than_the_print_dpi(tmp_path, pnp):
    ramp = Image.linear_gradient("L").resize((8660, 5774))
    photo = Image.merge("RGB", (ramp, ramp.transpose(Image.Transpose.FLIP_LEFT_RIGHT), ramp))
    components = _game(tmp_path, {"big.jpg": _jpeg(photo, quality=85)})
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr, result.stderr
    with pymupdf.open(str(tmp_path / "out" / "mine" / "mine.pdf")) as doc:
        sizes = [(i[2], i[3]) for page in doc for i in page.get_images(full=True)]
    # drawn 30 x 40 mm (stretched): at 600 dpi that needs 709 x 945 pixels; the photo's
    # aspect is kept, so the larger share decides: 945 rows, 1418 columns
    needed = math.ceil(40 / 25.4 * PRINT_DPI)
    assert sizes and all(h <= needed + 1 for _, h in sizes), sizes
    assert all(h >= needed - 1 for _, h in sizes), sizes  # not below what the print needs


def test_a_picture_past_any_camera_is_exit_2_naming_the_file_and_the_card(tmp_path, pnp):
    components = _game(tmp_path, {"bomb.png": png_header_only(30_000, 30_000)})
    for command in (("check",), ("build", "--out", tmp_path / "out")):
        result = pnp(*command, "--components", components)
        assert result.exit_code == 2, result.output
        assert "'art/bomb.png' is 30000 x 30000 pixels" in result.stderr, result.stderr
        assert "card 'bomb'" in result.stderr and "deck.yaml:6" in result.stderr, result.stderr
    assert not (tmp_path / "out" / "mine" / "mine.pdf").exists()


def test_what_pillow_warns_of_is_a_warning_naming_the_file(tmp_path, pnp):
    # an EXIF block that says it is longer than it is: Pillow warns "Corrupt EXIF data"
    good = _jpeg(UPRIGHT, 6)
    start = good.index(b"Exif\x00\x00") + 6
    broken = good[:start] + good[start : start + 8] + b"\xff" * 8 + good[start + 16 :]
    components = _game(tmp_path, {"odd.jpg": broken})
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "'art/odd.jpg'" in result.stderr and "warning" in result.stderr, result.stderr
    assert "Warning:" not in result.stderr  # not Python's own print of it


def test_a_large_cmyk_photo_is_downsampled_in_cmyk_with_its_inks(tmp_path, pnp):
    """A CMYK JPEG (as print shops ask for) bigger than the print needs: held in the PDF at
    600 dpi, still CMYK, cyan on the left and magenta on the right as the file has them."""
    photo = Image.new("CMYK", (3000, 2000), (255, 0, 0, 0))
    photo.paste((0, 255, 0, 0), (1500, 0, 3000, 2000))
    components = _game(tmp_path, {"inks.jpg": _jpeg(photo, quality=95)})
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pymupdf.open(str(tmp_path / "out" / "mine" / "mine.pdf")) as doc:
        (xref,) = {i[0] for page in doc for i in page.get_images(full=True)}
        pixmap = pymupdf.Pixmap(doc, xref)
    assert pixmap.n == 4 and pixmap.height <= math.ceil(40 / 25.4 * PRINT_DPI) + 1
    left = pixmap.pixel(pixmap.width // 4, pixmap.height // 2)
    right = pixmap.pixel(3 * pixmap.width // 4, pixmap.height // 2)
    assert left[0] > 240 and left[1] < 15, left  # cyan
    assert right[1] > 240 and right[0] < 15, right  # magenta
