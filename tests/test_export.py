"""``pnp export``: the print-on-demand presets (pixel sizes, where the trim lands, file names
and order, the ink limit), Tabletop Simulator decks (sheet sizes, grid, counts, the saved
object), and the shop PDFs as PDF/X-4 read back by an independent reader (pikepdf), with the
colour they print measured in ΔE against the RGB art."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pikepdf
import pymupdf
import pytest
from conftest import BUNDLED
from pdfread import colour_settings
from PIL import Image, ImageCms
from reportlab.lib import colors
from test_printing import BACK, BACK_TEXT, deck, token_game

from generator.cli.common import load_games, plan_games
from generator.output import colour, tts, vendors
from generator.output.colour import cmyk_of
from generator.output.shop import draw_pdf, shop_pages

PT_PER_IN = 72
# The card's trim in blue, its bleed in red: where the blue lands is where the shop cuts.
FRAMED = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#cc0000"/>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#0000cc"/>
  <text x="{{ box.w / 2 }}" y="{{ box.h / 2 }}" font-family="sans-serif" font-size="6"
        text-anchor="middle" fill="#ffffff">{{ card.name }}</text>
</svg>
"""
DARK_BACK = BACK.replace("#553322", "#2a1408")  # a brown that takes over 300 % ink unlimited


def framed_deck(make_deck_game, **kwargs) -> Path:
    """The synthetic deck (a: 6, b: 5 unless told) with the framed face and a dark back."""
    components = deck(make_deck_game, face=FRAMED, **kwargs)
    name = kwargs.get("name", "synth")
    (components / name / "templates" / "back.svg.j2").write_text(DARK_BACK, encoding="utf-8")
    return components


def blue_box(image: Image.Image) -> tuple[int, int, int, int]:
    """The bounding box (left, top, right, bottom) of the blue trim area of an upload."""
    r, g, b = image.convert("RGB").split()
    blue = Image.eval(b, lambda v: 255 if v > 150 else 0)
    not_red = Image.eval(r, lambda v: 255 if v < 100 else 0)
    return Image.composite(blue, Image.new("L", image.size), not_red).getbbox()


# --- the presets' own numbers ---------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(vendors.vendors()))
def test_every_pixel_size_follows_from_trim_and_bleed(key: str) -> None:
    vendor = vendors.vendors()[key]
    assert vendor.products, key
    for product in vendor.products:
        want = [(t + 2 * vendor.bleed_in) * vendor.dpi for t in product.trim_in]
        assert list(product.px) == pytest.approx(want, abs=0.5), (key, product)
    assert vendor.source.startswith("https://"), f"{key}: say where the numbers come from"


def test_a_card_matches_the_nearest_product_turned_if_need_be() -> None:
    tgc = vendors.vendors()["thegamecrafter"]
    assert vendors.match(tgc, 63.5, 88.9)[0].name == "poker-card"
    assert vendors.match(tgc, 63.0, 88.0) == (vendors.match(tgc, 63.5, 88.9)[0], False)
    assert vendors.match(tgc, 88.9, 63.5) == (vendors.match(tgc, 63.5, 88.9)[0], True)
    assert vendors.match(tgc, 41, 63) is None
    dtc = vendors.vendors()["drivethrucards"]
    assert vendors.match(dtc, 88.9, 63.5) is None, "a PDF vendor's pages are not turned"


# --- image vendors ---------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["thegamecrafter", "makeplayingcards"])
def test_image_vendor_uploads(pnp, make_deck_game, tmp_path, key: str) -> None:
    vendor = vendors.vendors()[key]
    components = framed_deck(make_deck_game)
    out = tmp_path / "out"
    result = pnp("export", "synth", "--shop", key, "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    folder = out / "synth" / f"shop-{key}"
    listing = json.loads((folder / f"{key}.json").read_text("utf-8"))
    assert listing["skipped"] == []
    (entry,) = listing["decks"]
    assert entry["product"] == "poker-card" and entry["cards"] == 11
    assert [(f["name"], f["copies"]) for f in entry["faces"]] == [("a", 6), ("b", 5)]
    assert [f["face"] for f in entry["faces"]] == ["deck/01-a.png", "deck/02-b.png"]
    assert {f["back"] for f in entry["faces"]} == {"deck/back.png"}
    assert sorted(p.name for p in (folder / "deck").iterdir()) == [
        "01-a.png",
        "02-b.png",
        "back.png",
    ]
    w, h = entry["px"]
    bleed = vendor.bleed_in * vendor.dpi
    trim = [round(t * vendor.dpi) for t in vendor.products[0].trim_in]
    for name in ("01-a.png", "02-b.png"):
        with Image.open(folder / "deck" / name) as image:
            assert image.size == (w, h), name
            assert image.info["dpi"] == pytest.approx((vendor.dpi, vendor.dpi), abs=0.01)
            profile = ImageCms.ImageCmsProfile(io.BytesIO(image.info["icc_profile"]))
            assert "sRGB" in ImageCms.getProfileDescription(profile)
            left, top, right, bottom = blue_box(image)
        # the card's trim lands on the vendor's cut line, to within a pixel
        assert [left, top] == pytest.approx([bleed, bleed], abs=1.01), (name, left, top)
        assert [right - left, bottom - top] == pytest.approx(trim, abs=1.01), name
        with Image.open(folder / "deck" / name) as image:
            corner = image.convert("RGB").getpixel((2, 2))
        assert corner[0] > 150 and corner[2] < 100, f"{name}: the bleed is not the art's red"
    safe = vendor.safe_px()
    assert entry["safe_px"] == [safe, safe, w - safe, h - safe]


def test_a_deck_no_product_fits_is_named_and_skipped(pnp, make_deck_game, tmp_path) -> None:
    components = framed_deck(make_deck_game, size="mini-usa")  # 41 x 63 mm
    out = tmp_path / "out"
    result = pnp("export", "--shop", "makeplayingcards", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    assert "warning: synth: deck: 41×63 mm is no MakePlayingCards card" in result.stderr
    listing = json.loads((out / "synth/shop-makeplayingcards/makeplayingcards.json").read_text())
    assert listing["decks"] == [] and len(listing["skipped"]) == 1


# --- the PDF vendor --------------------------------------------------------------------------


def test_drivethrucards_deck_pdf(pnp, make_deck_game, tmp_path) -> None:
    components = framed_deck(make_deck_game, cards={"a": 2, "b": 1})
    out = tmp_path / "out"
    for shop in ("drivethrucards", "generic"):
        result = pnp("export", "--shop", shop, "--components", components, "--out", out)
        assert result.exit_code == 0, result.output
    pdf = out / "synth" / "shop-drivethrucards" / "deck.pdf"
    with pikepdf.open(pdf) as document:
        assert len(document.pages) == 6, "back and face of each of the 3 cards"
        for page in document.pages:
            assert [float(v) for v in page.MediaBox] == pytest.approx([0, 0, 198, 270])
            assert [float(v) for v in page.TrimBox] == pytest.approx([9, 9, 189, 261], abs=0.01)
        assert document.Root.OutputIntents[0].S == "/GTS_PDFX"
    with pymupdf.open(pdf) as document:  # the text within each page's trim
        texts = [" ".join(p.get_text(clip=p.trimbox).split()) for p in document]
    assert texts == [BACK_TEXT, "a", BACK_TEXT, "a", BACK_TEXT, "b"], "back then face, in order"
    inks = [sum(v) for op, v in colour_settings(pdf) if op in ("k", "K")]
    assert inks and max(inks) <= 2.4 + 1e-3, f"over DriveThruCards' 240 %: {max(inks):.3f}"
    unlimited = [sum(v) for op, v in colour_settings(out / "synth/shop/deck.pdf") if op == "k"]
    assert max(unlimited) > 2.5, "the dark back needs the limit (else this test proves nothing)"


def test_ink_limit_holds_for_pixels_too() -> None:
    dark = Image.new("RGB", (4, 1), (42, 20, 8))
    assert sum(colour.Press().image(dark).getpixel((0, 0))) > 2.5 * 255
    limited = colour.Press(2.4).image(dark).getpixel((0, 0))
    assert sum(colour.Press(2.4).colour((42 / 255, 20 / 255, 8 / 255))) <= 2.4 + 1e-9
    assert sum(limited) <= 2.4 * 255 + 2
    assert limited[3] == colour.Press().image(dark).getpixel((0, 0))[3], "black is kept"


# --- Tabletop Simulator ----------------------------------------------------------------------


def test_sheets_hold_69_faces_on_at_most_10_by_7() -> None:
    grids = [(s.columns, s.rows, len(s.faces)) for s in tts.sheets_of(list(range(150)))]
    assert grids == [(10, 7, 69), (10, 7, 69), (10, 2, 12)]
    assert [(s.columns, s.rows) for s in tts.sheets_of(list(range(2)))] == [(3, 1)]
    for w, h in ((63.5, 88.9), (88.9, 63.5), (41, 63), (70, 120)):
        cw, ch = tts.card_px(w, h)
        assert cw * 10 <= tts.MAX_SIDE and ch * 7 <= tts.MAX_SIDE, (w, h)
        assert cw / ch == pytest.approx(w / h, rel=0.01)


def test_tts_deck(pnp, make_deck_game, tmp_path) -> None:
    components = framed_deck(make_deck_game)
    out = tmp_path / "out"
    result = pnp("export", "synth", "--tts", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    folder = out / "synth" / "tts"
    listing = json.loads((folder / "tts.json").read_text("utf-8"))
    (entry,) = listing["decks"]
    cw, ch = entry["card_px"]
    assert (cw, ch) == tts.card_px(63.5, 88.9)
    (sheet,) = entry["sheets"]
    assert sheet["grid"] == [3, 1], "a and b, and the hidden-card cell"
    assert entry["cards"] == 11 and not entry["unique_backs"]
    with Image.open(folder / sheet["file"]) as image:
        assert image.size == (3 * cw, ch) == tuple(sheet["px"])
        cells = [image.crop((i * cw, 0, (i + 1) * cw, ch)).convert("RGB") for i in range(3)]
    with Image.open(folder / "deck-back.png") as back:
        assert back.size == (cw, ch)
        assert cells[2].tobytes() == back.convert("RGB").tobytes(), "the hidden cell is the back"
    for cell in cells[:2]:  # each face fills its cell edge to edge with the card's trim
        assert cell.getbbox() == (0, 0, cw, ch)
        assert cell.getpixel((cw // 2, 3))[2] > 150, "blue trim, not the red bleed"
    assert cells[0].tobytes() != cells[1].tobytes()
    saved = json.loads((folder / entry["saved_object"]).read_text("utf-8"))
    (state,) = saved["ObjectStates"]
    assert state["Name"] == "DeckCustom"
    (key, custom) = next(iter(state["CustomDeck"].items()))
    assert (custom["NumWidth"], custom["NumHeight"]) == (3, 1)
    assert custom["FaceURL"] == (folder / sheet["file"]).resolve().as_uri()
    assert custom["BackURL"] == (folder / "deck-back.png").resolve().as_uri()
    ids = state["DeckIDs"]
    assert ids.count(int(key) * 100) == 6 and ids.count(int(key) * 100 + 1) == 5
    assert [c["CardID"] for c in state["ContainedObjects"]] == ids


def test_tts_unique_backs(bundled_tts) -> None:
    listing = json.loads((bundled_tts / "tts.json").read_text("utf-8"))
    decks = {d["component"]: d for d in listing["decks"]}
    construction = decks["construction-cards"]
    assert construction["unique_backs"] and construction["cards"] == 52
    (sheet,) = construction["sheets"]
    with (
        Image.open(bundled_tts / sheet["back"]) as backs,
        Image.open(bundled_tts / sheet["file"]) as faces,
    ):
        assert backs.size == faces.size
    saved = json.loads((bundled_tts / construction["saved_object"]).read_text("utf-8"))
    (custom,) = saved["ObjectStates"][0]["CustomDeck"].values()
    assert custom["UniqueBack"] is True and custom["BackURL"].endswith(sheet["back"])


@pytest.fixture(scope="module")
def bundled_tts(tmp_path_factory) -> Path:
    """Chaos Cove exported for TTS (its construction cards have a back per deck of the game)."""
    from conftest import _invoke

    out = tmp_path_factory.mktemp("tts")
    result = _invoke("export", "chaos-cove", "--tts", "--components", BUNDLED, "--out", out)
    assert result.exit_code == 0, result.output
    return out / "chaos-cove" / "tts"


# --- PDF/X-4 and true colour -----------------------------------------------------------------


def test_shop_pdfs_are_pdf_x4(pnp, make_deck_game, tmp_path) -> None:
    components = token_game(framed_deck(make_deck_game))
    out = tmp_path / "out"
    for game in ("synth", "tokens"):
        result = pnp("export", game, "--shop", "--components", components, "--out", out)
        assert result.exit_code == 0, result.output
    pdfs = sorted(out.glob("*/shop/*.pdf"))
    assert len(pdfs) == 3
    for pdf in pdfs:
        with pikepdf.open(pdf) as document:
            (intent,) = document.Root.OutputIntents
            assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == "FOGRA39"
            profile = intent.DestOutputProfile
            assert int(profile.N) == 4
            icc = ImageCms.ImageCmsProfile(io.BytesIO(profile.read_bytes()))
            assert icc.profile.xcolor_space == "CMYK"
            assert icc.profile.device_class == "prtr", "an output (printer) profile"
            assert str(document.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
            meta = document.open_metadata()
            assert meta["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
            assert str(document.docinfo["/Trapped"]) == "/False"
            for page in document.pages:
                media = [float(v) for v in page.MediaBox]
                bleed = [float(v) for v in page.BleedBox]
                trim = [float(v) for v in page.TrimBox]
                assert media[:2] <= bleed[:2] <= trim[:2] and trim[2:] <= bleed[2:] <= media[2:]
                assert page.Group.CS == "/DeviceCMYK"
            for obj in document.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
                    assert any(k in obj for k in ("/FontFile", "/FontFile2", "/FontFile3")), pdf
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                    assert obj.ColorSpace in ("/DeviceCMYK", "/DeviceGray"), pdf
        ops = {op for op, _ in colour_settings(pdf)}
        assert ops <= {"k", "K", "g", "G"}, f"{pdf.name}: colours outside CMYK: {ops}"


SRGB = ImageCms.createProfile("sRGB")
LAB = ImageCms.createProfile("LAB", 6500)
INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC  # paper white is the white meant


def delta_e(rgb: Image.Image, cmyk: Image.Image) -> list[float]:
    """ΔE76 pixel by pixel between RGB art and the press's CMYK of it, both in Lab."""
    press = ImageCms.getOpenProfile(str(colour.PRESS_PROFILE))
    a = ImageCms.buildTransform(SRGB, LAB, "RGB", "LAB", INTENT).apply(rgb)
    b = ImageCms.buildTransform(press, LAB, "CMYK", "LAB", INTENT).apply(cmyk)
    out = []
    pa, pb = a.tobytes(), b.tobytes()  # L* 0-255 for 0-100, then a* and b* as signed bytes
    for i in range(0, len(pa), 3):
        out.append(math.dist(_lab(pa[i : i + 3]), _lab(pb[i : i + 3])))
    return out


def _lab(pixel: bytes) -> tuple[float, float, float]:
    """L*, a*, b* of one pixel of a Pillow LAB image's bytes."""
    a, b = (v - 256 if v > 127 else v for v in pixel[1:])
    return (pixel[0] * 100 / 255, a, b)


def mean_delta_e(pack) -> float:
    """The mean ΔE76 of a pack's shop pages: the RGB PDF drawn in RGB against the PDF/X one
    drawn in its own CMYK (MuPDF, which renders CMYK as it is), at 40 dpi."""
    pages = [p for ps in shop_pages(pack).values() for p in ps]
    rgb, cmyk = io.BytesIO(), io.BytesIO()
    draw_pdf(pack, pages, rgb, None)
    draw_pdf(pack, pages, cmyk, colour.Press())
    total = []
    rgb_doc = pymupdf.open(stream=rgb.getvalue(), filetype="pdf")
    cmyk_doc = pymupdf.open(stream=cmyk.getvalue(), filetype="pdf")
    for a, b in zip(rgb_doc, cmyk_doc, strict=True):
        pa = a.get_pixmap(dpi=40, colorspace=pymupdf.csRGB, alpha=False)
        pb = b.get_pixmap(dpi=40, colorspace=pymupdf.csCMYK, alpha=False)
        total += delta_e(
            Image.frombytes("RGB", (pa.width, pa.height), pa.samples),
            Image.frombytes("CMYK", (pb.width, pb.height), pb.samples),
        )
    return sum(total) / len(total)


def test_colour_prints_as_the_rgb_art_within_delta_e(monkeypatch) -> None:
    (pack,) = plan_games(load_games(BUNDLED, ("chocolate-market",), None), None)
    measured = mean_delta_e(pack)
    assert measured < 6, f"mean ΔE76 {measured:.1f} against the RGB art"
    naive = {}  # the formula CMYK exports used before: C = 1 - R - K, never divided by 1 - K

    def formula(r: int, g: int, b: int) -> tuple[float, ...]:
        return naive.setdefault((r, g, b), tuple(colors.rgb2cmyk(r / 255, g / 255, b / 255)))

    monkeypatch.setattr(colour, "_cmyk8", formula)
    before = mean_delta_e(pack)
    assert before > 2 * measured, f"naive ΔE {before:.1f}: the measure cannot tell them apart"


def test_the_ingredient_green_stays_green() -> None:
    green = (0x2F / 255, 0x6B / 255, 0x3A / 255)  # The Chocolate Market's ingredient cards

    def pixel(cmyk: tuple[float, ...]) -> Image.Image:
        return Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk))

    rgb = Image.new("RGB", (1, 1), tuple(round(v * 255) for v in green))
    assert delta_e(rgb, pixel(cmyk_of(green)))[0] < 5
    assert delta_e(rgb, pixel(colors.rgb2cmyk(*green)))[0] > 10, "the naive formula greyed it"


# --- what the shop export covers, and how it fails ------------------------------------------

ART = (20, 160, 40)  # an 8-bit RGB PNG's colour: the PDF holds such a PNG's own rows
ART_FACE = FRAMED.replace(
    "</svg>",
    '  <image href="{{ asset(\'art.png\') }}" x="2" y="2" width="20" height="20"/>\n</svg>',
)


def test_a_png_drawn_as_its_own_rows_goes_to_the_shop_in_the_press_cmyk(
    pnp, make_deck_game, tmp_path
) -> None:
    components = deck(make_deck_game, face=ART_FACE)
    Image.new("RGB", (8, 8), ART).save(components / "synth" / "art.png")
    out = tmp_path / "out"
    result = pnp("export", "synth", "--shop", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    expected = colour.Press().image(Image.new("RGB", (1, 1), ART)).getpixel((0, 0))
    with pikepdf.open(out / "synth/shop/deck.pdf") as document:
        images = [
            pikepdf.PdfImage(obj).as_pil_image()
            for obj in document.objects
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"
        ]
    assert images and all(image.mode == "CMYK" for image in images)
    assert {image.getpixel((0, 0)) for image in images} == {expected}


def test_boards_dice_standees_and_sheets_go_to_the_shop_too(tmp_path) -> None:
    packs = plan_games(load_games(BUNDLED, ("chocolate-coin", "candiescollectors"), None), None)
    pages = [p for pack in packs for ps in shop_pages(pack).values() for p in ps]
    kinds = {p.noun for p in pages}
    assert {"card", "token", "board", "die", "standee", "sheet"} <= kinds, kinds
    (coin,) = plan_games(load_games(BUNDLED, ("chocolate-coin",), None), None)
    wanted = [p for ps in shop_pages(coin).values() for p in ps if p.noun in ("board", "sheet")]
    pdf = tmp_path / "some.pdf"
    draw_pdf(coin, wanted, str(pdf), colour.Press())
    with pymupdf.open(pdf) as document:
        for page, shop_page in zip(document, wanted, strict=True):
            trim = page.trimbox
            size = (trim.width * 25.4 / PT_PER_IN, trim.height * 25.4 / PT_PER_IN)
            assert size == pytest.approx((shop_page.w, shop_page.h), abs=0.01), shop_page.name
            assert page.get_text().strip() or page.get_images() or page.get_drawings()


def test_a_failed_export_leaves_the_previous_one(pnp, make_deck_game, tmp_path, monkeypatch):
    components = framed_deck(make_deck_game)
    out = tmp_path / "out"
    assert pnp("export", "--tts", "--components", components, "--out", out).exit_code == 0
    folder = out / "synth" / "tts"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tts, "save_png", broken)
    result = pnp("export", "--tts", "--components", components, "--out", out)
    assert result.exit_code == 3 and "No space left on device" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert sorted(p.name for p in folder.parent.iterdir()) == ["tts"], "no half-written folder"
