"""Every raster kind a designer exports prints as drawn: read back from two independent
renderers (pdfium and MuPDF), pixel by pixel against the source picture.

Each picture is made here with Pillow (an interlaced PNG by hand, Pillow cannot write one): a
colour chart of saturated patches, and for the kinds with transparency an alpha ramp across it.
A one-card deck places it on a white card; the card's art area, rendered at 200 dpi, is cut out,
scaled to the picture's size and compared with the picture laid on white. The mean difference
must stay within what anti-aliasing and resampling make of the patch edges (and JPEG's loss):
an image drawn black, with streaks, without its alpha or with inverted inks is far outside it.
"""

from __future__ import annotations

import io
import json
import struct
import zlib
from pathlib import Path

import numpy as np
import pymupdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

W, H = 64, 48  # the source picture, pixels
ART = (4.0, 10.0, 48.0, 36.0)  # where the card template puts it: x, y, w, h (mm, y down)
DPI = 200
PATCHES = [
    (230, 30, 40),
    (40, 170, 60),
    (30, 60, 220),
    (250, 210, 30),
    (20, 20, 20),
    (200, 90, 220),
]


def chart(alpha: bool) -> Image.Image:
    """Six saturated patches in a 3 x 2 grid, over a grey frame; with ``alpha``, a ramp from
    opaque on the left to nearly clear on the right."""
    image = Image.new("RGBA", (W, H), (128, 128, 128, 255))
    pw, ph = W // 3, H // 2
    for i, colour in enumerate(PATCHES):
        x, y = (i % 3) * pw, (i // 3) * ph
        image.paste((*colour, 255), (x + 2, y + 2, x + pw - 2, y + ph - 2))
    if alpha:
        ramp = Image.linear_gradient("L").rotate(90).resize((W, H)).point(lambda v: 255 - v * 0.8)
        image.putalpha(ramp)
    return image


def on_white(image: Image.Image) -> Image.Image:
    base = Image.new("RGBA", image.size, (255, 255, 255, 255))
    return Image.alpha_composite(base, image.convert("RGBA")).convert("RGB")


def interlaced_png(image: Image.Image) -> bytes:
    """An Adam7-interlaced 8-bit RGBA PNG (filter 0 on every row)."""
    rgba = image.convert("RGBA")
    passes = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2))
    passes += ((0, 1, 1, 2),)
    raw = b""
    for x0, y0, dx, dy in passes:
        for y in range(y0, rgba.height, dy):
            row = b"".join(bytes(rgba.getpixel((x, y))) for x in range(x0, rgba.width, dx))
            if row:
                raw += b"\0" + row

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", rgba.width, rgba.height, 8, 6, 0, 0, 1)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def saved(image: Image.Image, fmt: str, **options) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def kinds() -> dict[str, tuple[bytes, Image.Image, float]]:
    """name -> (file bytes, what it should look like on white, the mean difference allowed)."""
    solid, clear = chart(False), chart(True)
    rgb = solid.convert("RGB")
    grey = rgb.convert("L")
    palette = rgb.quantize(64)
    palette_clear = clear.quantize(64)  # keeps the alpha as a tRNS palette chunk
    grey16 = Image.fromarray(np.asarray(grey, dtype=np.uint16) * 257)  # 16 bits a pixel
    cmyk = rgb.convert("CMYK")
    tiff_out = io.BytesIO()
    rgb.save(tiff_out, "TIFF", compression="tiff_lzw")
    return {
        "png-rgb": (saved(rgb, "PNG"), rgb, 4),
        "png-rgba": (saved(clear, "PNG"), on_white(clear), 4),
        "png-grey": (saved(grey, "PNG"), grey.convert("RGB"), 4),
        "png-grey-alpha": (saved(clear.convert("LA"), "PNG"), on_white(clear.convert("LA")), 4),
        "png-palette": (saved(palette, "PNG"), palette.convert("RGB"), 4),
        "png-palette-alpha": (
            saved(palette_clear, "PNG"),
            on_white(palette_clear.convert("RGBA")),
            5,
        ),
        "png-16bit": (saved(grey16, "PNG"), grey.convert("RGB"), 4),
        "png-interlaced": (interlaced_png(clear), on_white(clear), 4),
        "jpeg-rgb": (saved(rgb, "JPEG", quality=95, subsampling=0), rgb, 8),
        "jpeg-grey": (saved(grey, "JPEG", quality=95), grey.convert("RGB"), 8),
        # Adobe's inverted inks (Pillow writes them so); pdfium turns CMYK into screen colours
        # its own way, so the allowance is wider, yet far below inverted (100+) or black
        "jpeg-cmyk": (saved(cmyk, "JPEG", quality=95), rgb, 30),
        "webp": (saved(clear, "WEBP", lossless=True), on_white(clear), 4),
        "gif": (saved(palette, "GIF"), palette.convert("RGB"), 4),
        "tiff": (tiff_out.getvalue(), rgb, 4),
    }


KINDS = kinds()
TEMPLATES = {
    # a flat template, as most are
    "flat": """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="-1" y="-1" width="{{ box.w + 2 }}" height="{{ box.h + 2 }}" fill="#ffffff"/>
  <image href="{{ asset(card.art) }}" x="4" y="10" width="48" height="36"
         preserveAspectRatio="none"/>
</svg>
""",
    # the picture over a gradient (where it lies the gradient is covered, or shows through)
    "gradient": """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#ffffff"/>
    </linearGradient>
  </defs>
  <rect x="-1" y="-1" width="{{ box.w + 2 }}" height="{{ box.h + 2 }}" fill="url(#g)"/>
  <image href="{{ asset(card.art) }}" x="4" y="10" width="48" height="36"
         preserveAspectRatio="none"/>
</svg>
""",
}


@pytest.fixture(scope="module")
def built(tmp_path_factory, pnp) -> dict[str, tuple[Path, dict]]:
    """A game per template holding a card per image kind; the PDF and manifest of each."""
    out = {}
    for template_name, template in TEMPLATES.items():
        base = tmp_path_factory.mktemp(f"images-{template_name}")
        root = base / "components" / "pics"
        (root / "templates").mkdir(parents=True)
        (root / "art").mkdir()
        for name, (data, _, _) in KINDS.items():
            ext = {"jpeg": "jpg", "png": "png", "webp": "webp", "gif": "gif", "tiff": "tif"}
            (root / "art" / f"{name}.{ext[name.split('-')[0]]}").write_bytes(data)
        cards = "".join(
            f"  - {{name: {name}, count: 1, art: art/{p.name}}}\n"
            for name in KINDS
            for p in (root / "art").iterdir()
            if p.stem == name
        )
        (root / "game.yaml").write_text("title: Pictures\nplayers: 1\n", encoding="utf-8")
        (root / "deck.yaml").write_text(
            "kind: deck\ntitle: Pictures\nsize: 56 x 56\nbleed: 1\nface: face.svg.j2\ncards:\n"
            + cards,
            encoding="utf-8",
        )
        (root / "templates" / "face.svg.j2").write_text(template, encoding="utf-8")
        result = pnp("build", "--components", base / "components", "--out", base / "out")
        assert result.exit_code == 0, result.output
        manifest = json.loads((base / "out" / "pics" / "manifest.json").read_text("utf-8"))
        out[template_name] = (base / "out" / "pics" / "pics.pdf", manifest)
    return out


def render_pdfium(pdf: Path, page: int) -> Image.Image:
    with pdfium.PdfDocument(str(pdf)) as doc:
        return doc[page - 1].render(scale=DPI / 72).to_pil().convert("RGB")


def render_mupdf(pdf: Path, page: int) -> Image.Image:
    with pymupdf.open(str(pdf)) as doc:
        pixmap = doc[page - 1].get_pixmap(dpi=DPI, colorspace=pymupdf.csRGB, alpha=False)
        return Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)


def art_area(page: Image.Image, item: dict, paper: tuple[float, float]) -> Image.Image:
    """The picture's area of a card on a rendered page, scaled to the picture's size: the
    card's trim box from the manifest, the picture's place in the card from the template
    (cards here sit upright)."""
    assert item["rotation"] == 0, item
    px = page.width / paper[0]
    x0, y0, w, h = ART
    left = (item["x_mm"] + x0) * px
    top = (paper[1] - item["y_mm"] - item["h_mm"] + y0) * px
    box = (left + 1, top + 1, left + w * px - 1, top + h * px - 1)  # leave the cut edges out
    area = page.crop(tuple(round(v) for v in box))
    return area.resize((W, H), Image.Resampling.BOX)


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    inner = (1, 1, W - 1, H - 1)  # the picture's own edge is resampled against the card
    diff = np.asarray(ImageChops.difference(a.crop(inner), b.crop(inner)), dtype=np.float64)
    return float(diff.mean())


@pytest.mark.parametrize("template", list(TEMPLATES))
@pytest.mark.parametrize("kind", list(KINDS))
def test_every_image_kind_prints_as_drawn_in_two_renderers(built, kind: str, template: str):
    pdf, manifest = built[template]
    (item,) = [i for i in manifest["items"] if i["name"] == kind and i["side"] == "front"]
    _, expected, allowed = KINDS[kind]
    paper = tuple(manifest["paper_mm"])
    for name, render in (("pdfium", render_pdfium), ("mupdf", render_mupdf)):
        shown = art_area(render(pdf, item["page"]), item, paper)
        diff = mean_difference(shown, expected)
        assert diff <= allowed, f"{kind} ({template}) in {name}: mean difference {diff:.1f}"


def test_a_pass_through_png_is_the_files_own_data_with_its_predictor(built):
    """An 8-bit RGB PNG goes in as its own zlib rows: Filter a name, DecodeParms a dictionary
    (an array Filter with a dictionary DecodeParms is what made viewers skip the predictor)."""
    from pypdf import PdfReader

    pdf, _ = built["flat"]
    reader = PdfReader(str(pdf))
    images = [
        obj
        for number in range(1, int(reader.trailer["/Size"]))
        if (obj := _get(reader, number)) is not None and obj.get("/Subtype") == "/Image"
    ]
    data = KINDS["png-rgb"][0]
    idat = _idat(data)
    (passed,) = [i for i in images if i._data == idat]
    assert passed["/Filter"] == "/FlateDecode"
    assert passed["/DecodeParms"]["/Predictor"] == 15
    assert passed["/DecodeParms"]["/Colors"] == 3
    jpeg = KINDS["jpeg-rgb"][0]
    assert any(i._data == jpeg and i["/Filter"] == "/DCTDecode" for i in images)
    assert any("/SMask" in i for i in images)  # the alpha kinds carry a soft mask


def _get(reader, number: int):
    try:
        return reader.get_object(number)
    except Exception:
        return None


def _idat(png: bytes) -> bytes:
    pos, out = 8, b""
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos : pos + 8])
        if kind == b"IDAT":
            out += png[pos + 8 : pos + 8 + length]
        pos += 12 + length
    return out


def test_an_image_too_large_is_refused_before_it_is_decoded(tmp_path, pnp):
    """A few kilobytes of PNG can say 20,000 x 20,000 pixels: refused from the header, with
    the size and the limit, before a byte of it is decoded."""
    from generator.svg.raster import MAX_PIXELS, ImageProblem, load

    header = struct.pack(">IIBBBBB", 20_000, 20_000, 8, 2, 0, 0, 0)
    body = zlib.compress(b"\0" * 1000)
    crc = zlib.crc32(b"IHDR" + header) & 0xFFFFFFFF
    png = (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", 13)
        + b"IHDR"
        + header
        + struct.pack(">I", crc)
        + struct.pack(">I", len(body))
        + b"IDAT"
        + body
        + struct.pack(">I", zlib.crc32(b"IDAT" + body) & 0xFFFFFFFF)
    )
    assert MAX_PIXELS < 20_000 * 20_000
    with pytest.raises(ImageProblem, match="20000 x 20000 pixels"):
        load(png)
