"""``pnp export``: the print-on-demand presets (pixel sizes, where the trim lands, file names
and order, the ink limit, tokens and boards, ``--fit``), Tabletop Simulator (sheet sizes,
grid, counts, the saved objects, the bag of every piece), and the shop PDFs as PDF/X read back
by an independent checker (``pdfx_check``, pikepdf), with the colour they print soft-proofed
(``softproof``) against the art composited in sRGB. Every game here is small and synthetic;
``test_shops`` does the same for every bundled game."""

from __future__ import annotations

import io
import json
import re
import urllib.parse
from collections import Counter
from pathlib import Path

import numpy as np
import pdfx_check
import pikepdf
import pymupdf
import pypdf
import pytest
import softproof
import yaml
from conftest import BUNDLED
from pdfread import colour_settings
from PIL import Image, ImageCms, ImageDraw
from reportlab.lib import colors
from test_printing import BACK, BACK_TEXT, deck, token_game

from generator.cli.common import load_games, plan_games
from generator.output import colour, tts, vendors
from generator.output.colour import cmyk_of
from generator.output.flatten import SHOP_RGB
from generator.output.shop import draw_pdf, print_pdf, shop_pages
from generator.svg.pdf import Colours

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
        assert product.kind in ("card", "token", "board", "mat", "tuck-box"), product
        if product.kind == "token":
            assert product.shape in ("circle", "square", "hex"), product
        if product.kind == "tuck-box":
            holds = {p.name for p in vendor.of_kind("card")}
            assert product.holds in holds and product.cards > 0, product
    assert vendor.source.startswith("https://"), f"{key}: say where the numbers come from"


@pytest.mark.parametrize("key", sorted(vendors.vendors()))
def test_every_number_says_whether_a_second_source_confirms_it(key: str) -> None:
    text = (Path(vendors.__file__).parent / "vendors.yaml").read_text("utf-8")
    entry = yaml.safe_load(text)[key]
    vendor = vendors.vendors()[key]
    for name, product in entry["products"].items():
        found = next(p for p in vendor.products if p.name == name)
        assert found.checked is product.get("checked", True)
        if found.source is not None:
            assert found.source in vendor.sources, f"{key}/{name}: {found.source} is not named"
    if vendor.files == "pdf":
        assert vendor.pdf in ("PDF/X-4", "PDF/X-1a:2003")
    unchecked = [p.name for p in vendor.products if not p.checked]
    assert vendor.checked or unchecked == [p.name for p in vendor.products], (
        "a vendor whose own numbers are unconfirmed has no product marked confirmed"
    )


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
    (entry,) = listing["components"]
    assert entry["product"] == "poker-card" and entry["pieces"] == 11
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
    assert "--fit" in result.stderr, "the warning names the way out"
    listing = json.loads((out / "synth/shop-makeplayingcards/makeplayingcards.json").read_text())
    assert listing["components"] == [] and len(listing["skipped"]) == 1


# --- the PDF vendor --------------------------------------------------------------------------


def image_inks(pdf: Path) -> list[float]:
    """The most ink (C+M+Y+K, 1.0 = 100 %) any pixel of any CMYK image in the file asks for."""
    most = []
    with pikepdf.open(pdf) as document:
        for obj in document.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                image = pikepdf.PdfImage(obj).as_pil_image()
                assert image.mode == "CMYK", image.mode
                total = np.asarray(image, dtype=np.int32).sum(axis=-1)
                most.append(float(total.max()) / 255)
    return most


def test_drivethrucards_deck_pdf_is_pdf_x1a(pnp, make_deck_game, tmp_path) -> None:
    components = framed_deck(make_deck_game, cards={"a": 2, "b": 1})
    out = tmp_path / "out"
    for shop in ("drivethrucards", "generic"):
        result = pnp("export", "--shop", shop, "--components", components, "--out", out)
        assert result.exit_code == 0, result.output
    pdf = out / "synth" / "shop-drivethrucards" / "deck.pdf"
    assert re.match(rb"%PDF-1\.[0-4]\n", pdf.read_bytes()[:9]), "PDF/X-1a:2003: PDF 1.4 at most"
    assert pdfx_check.problems(pdf, "X-1a") == []
    with pikepdf.open(pdf) as document:
        assert len(document.pages) == 6, "back and face of each of the 3 cards"
        for page in document.pages:
            assert [float(v) for v in page.MediaBox] == pytest.approx([0, 0, 198, 270])
            assert [float(v) for v in page.TrimBox] == pytest.approx([9, 9, 189, 261], abs=0.01)
            assert "/Group" not in page.obj, "nothing is transparent"
        info = document.docinfo
        assert str(info["/GTS_PDFXVersion"]) == "PDF/X-1:2003"
        assert str(info["/GTS_PDFXConformance"]) == "PDF/X-1a:2003"
    with pymupdf.open(pdf) as document:  # the text within each page's trim, as text
        texts = [" ".join(p.get_text(clip=p.trimbox).split()) for p in document]
    assert texts == [BACK_TEXT, "a", BACK_TEXT, "a", BACK_TEXT, "b"], "back then face, in order"
    inks = [sum(v) for op, v in colour_settings(pdf) if op in ("k", "K")]
    assert inks and max(inks) <= 2.4 + 1e-3, f"over DriveThruCards' 240 %: {max(inks):.3f}"
    assert max(image_inks(pdf)) <= 2.4, "the pictures keep the limit too (rounded down)"
    unlimited = image_inks(out / "synth/shop/deck.pdf")
    assert max(unlimited) > 2.5, "the dark back needs the limit (else this test proves nothing)"


def test_ink_limit_holds_for_pixels_too() -> None:
    dark = Image.new("RGB", (40, 40), (42, 20, 8))
    unlimited = colour.Press().raster(dark, 300).getpixel((20, 20))
    limited = colour.Press(2.4).raster(dark, 300).getpixel((20, 20))
    assert sum(unlimited) > 2.5 * 255
    assert sum(colour.Press(2.4).colour((42 / 255, 20 / 255, 8 / 255))) <= 2.4 + 1e-9
    assert sum(limited) <= 2.4 * 255, "rounded down, never past the limit"
    assert limited[3] == unlimited[3], "black is kept"


def test_black_prints_the_printers_way() -> None:
    press = colour.Press()
    black, brown = (0.0, 0.0, 0.0), (42 / 255, 26 / 255, 10 / 255)  # a card's text colour
    assert press.text_colour(black, 8) == (0, 0, 0, 1), "small black type on black ink alone"
    c, m, y, k = press.text_colour(brown, 8)
    assert k >= 0.9 and c + m + y <= colour.SMALL_BLACK_CMY + 1e-9, "dark type: K, little else"
    assert sum(colour.cmyk_of(brown)) > 2.5, "which its own build is not"
    assert sum(press.text_colour(black, 24)[:3]) > 1, "large type in rich black"
    picture = Image.new("RGB", (300, 300), "white")  # 1 inch at 300 dpi
    draw = ImageDraw.Draw(picture)
    draw.rectangle((150, 150, 290, 290), fill=(0, 0, 0))  # 12 mm square
    draw.line((50, 10, 50, 290), fill=(0, 0, 0), width=3)  # a 0.25 mm line
    draw.rectangle((10, 10, 30, 30), fill=(128, 128, 128))
    inks = press.raster(picture, 300)
    assert inks.getpixel((50, 150)) == (0, 0, 0, 255), "a thin black line: black ink alone"
    assert sum(inks.getpixel((220, 220))[:3]) > 300, "a large black area: rich black"
    rim = inks.getpixel((151, 220))
    assert rim == inks.getpixel((220, 220)), "its rim in the same build: no ring of black ink"
    assert inks.getpixel((20, 20))[:3] == (0, 0, 0), "a grey on black ink alone"


# --- Tabletop Simulator ----------------------------------------------------------------------


def test_sheets_hold_69_faces_on_at_most_10_by_7() -> None:
    grids = [(s.columns, s.rows, len(s.faces)) for s in tts.sheets_of(list(range(150)))]
    assert grids == [(10, 7, 69), (10, 7, 69), (7, 2, 12)], "12 faces and the hidden: 13 cells"
    assert [(s.columns, s.rows) for s in tts.sheets_of(list(range(2)))] == [(3, 1)]
    for faces in range(1, 70):  # the fewest cells that hold the faces and the hidden image
        (sheet,) = tts.sheets_of(list(range(faces)))
        cells = sheet.columns * sheet.rows
        assert sheet.columns <= 10 and sheet.rows <= 7 and cells >= faces + 1
        exact = [c for c in range(1, 11) if (faces + 1) % c == 0 and (faces + 1) // c <= 7]
        assert not exact or cells == faces + 1, f"{faces} faces: {sheet.columns}x{sheet.rows}"
        fewer = [(c, r) for c in range(1, 11) for r in range(1, 8) if faces < c * r < cells]
        assert fewer == [], f"{faces} faces: {sheet.columns}x{sheet.rows} where {fewer} hold them"
    for w, h in ((63.5, 88.9), (88.9, 63.5), (41, 63), (70, 120)):
        cw, ch = tts.card_px(w, h)
        assert cw * 10 <= tts.MAX_SIDE and ch * 7 <= tts.MAX_SIDE, (w, h)
        assert cw / ch == pytest.approx(w / h, rel=0.01)


def test_the_hidden_image_takes_the_grids_last_cell() -> None:
    faces = [Image.new("RGB", (4, 6), (0, 10 * n, 0)) for n in range(10)]
    sheet = tts.Sheet(faces=list(range(10)), columns=6, rows=2)  # 11 cells, 12 in the grid
    sheet_image = tts._grid(sheet, iter(faces), Image.new("RGB", (4, 6), "red"), (4, 6))
    assert sheet_image.size == (24, 12)
    assert sheet_image.getpixel((5 * 4 + 1, 6 + 1)) == (255, 0, 0), "TTS's hidden cell: the last"
    assert sheet_image.getpixel((4 * 4 + 1, 6 + 1)) == (255, 255, 255), "the one left over"
    assert sheet_image.getpixel((3 * 4 + 1, 6 + 1)) == (0, 90, 0), "the tenth face"


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


def test_tts_bag_holds_every_piece_with_its_pictures(pnp, make_deck_game, tmp_path) -> None:
    components = token_game(framed_deck(make_deck_game))
    out = tmp_path / "out"
    result = pnp("export", "tokens", "--tts", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    assert "2 other object(s), all in tokens-bag.json" in result.stdout
    folder = out / "tokens" / "tts"
    saved = json.loads((folder / "tokens-bag.json").read_text("utf-8"))
    (bag,) = saved["ObjectStates"]
    assert bag["Name"] == "Bag"
    kinds = Counter((o["Name"], o["Nickname"]) for o in bag["ContainedObjects"])
    assert kinds == {("Custom_Tile", "coin"): 12, ("Custom_Token", "mark"): 4}, kinds
    coin = next(o for o in bag["ContainedObjects"] if o["Nickname"] == "coin")
    assert coin["CustomImage"]["CustomTile"]["Type"] == 2, "a circle"
    face, back = (Path(urllib.parse.urlparse(coin["CustomImage"][key]).path)
                  for key in ("ImageURL", "ImageSecondaryURL"))  # fmt: skip
    (pack,) = plan_games(load_games(components, ("tokens",), None), None)
    pages = {(p.name, p.side): p for p in shop_pages(pack)["coins"]}
    for path, side in ((face, "face"), (back, "back")):
        with Image.open(path) as picture:
            drawn = picture.convert("RGB")
        page = pages[("coin", side)]
        want = io.BytesIO()
        draw_pdf(pack, [page], want, page_mm=(page.w, page.h))  # the piece at its trim
        with pymupdf.open(stream=want.getvalue()) as document:
            pixmap = document[0].get_pixmap(dpi=300, alpha=False)
        reference = Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)
        reference = reference.resize(drawn.size)
        difference = np.abs(np.asarray(drawn, float) - np.asarray(reference, float)).mean()
        assert difference < 6, f"the coin's {side} is not its picture ({difference:.1f})"
    mark = next(o for o in bag["ContainedObjects"] if o["Nickname"] == "mark")
    with Image.open(urllib.parse.urlparse(mark["CustomImage"]["ImageURL"]).path) as cut:
        assert cut.mode == "RGBA", "a Custom Token is cut out along its picture's alpha"
    readme = (folder / "README.txt").read_text("utf-8")
    assert "- Custom_Tile 'coin' x12:" in readme and "- Custom_Token 'mark' x4:" in readme


def test_vendor_tokens_are_chits_of_their_shape(pnp, make_deck_game, tmp_path) -> None:
    components = token_game(framed_deck(make_deck_game))
    out = tmp_path / "out"
    result = pnp(
        "export", "tokens", "--shop", "thegamecrafter", "--components", components, "--out", out
    )
    assert result.exit_code == 0, result.output
    assert "1 token set(s) for The Game Crafter" in result.stdout
    assert "coins: 16×16 mm is no The Game Crafter token" in result.stderr, "no 16 mm circle"
    listing = json.loads((out / "tokens/shop-thegamecrafter/thegamecrafter.json").read_text())
    (marks,) = listing["components"]
    assert (marks["component"], marks["product"], marks["kind"]) == (
        "marks",
        "medium-square-chit",
        "token",
    )
    assert marks["checked"] is False, "a number no second source confirms says so"
    (face,) = marks["faces"]
    with Image.open(out / "tokens/shop-thegamecrafter" / face["face"]) as image:
        assert image.size == (300, 300)


FRAMED_TOKEN = FRAMED.replace("card.name", "token.name")


def test_a_chit_not_of_the_products_size_is_scaled_to_its_cut(pnp, make_deck_game, tmp_path):
    components = token_game(framed_deck(make_deck_game))
    (components / "tokens/templates/face.svg.j2").write_text(FRAMED_TOKEN, encoding="utf-8")
    out = tmp_path / "out"
    args = ("export", "tokens", "--shop", "thegamecrafter", "--components", components)
    result = pnp(*args, "--out", out)
    assert result.exit_code == 0, result.output
    said = "marks: 20×20 mm scaled by 0.952 to medium-square-chit (19.0×19.0 mm), its art reaching"
    assert said in result.stdout, result.stdout
    folder = out / "tokens/shop-thegamecrafter"
    (marks,) = json.loads((folder / "thegamecrafter.json").read_text())["components"]
    assert marks["scale"] == pytest.approx(19.05 / 20)
    with Image.open(folder / marks["faces"][0]["face"]) as image:
        assert image.size == (300, 300)
        row = [image.convert("RGB").getpixel((x, 150)) for x in range(300)]
    # the 20 mm mark's trim (blue) is the chit's 0.75 in cut, 37.5 px in from each side:
    # printed at 20 mm, its edge was 0.475 mm (5.6 px) outside the cut
    for x in (35, 264):  # 2 px outside the cut: the bleed
        assert row[x][0] > 150 and row[x][2] < 100, (x, row[x])
    for x in (40, 259):  # 2 px inside it: the mark's own art
        assert row[x][2] > 150 and row[x][0] < 100, (x, row[x])


def test_a_vendors_trimbox_is_its_products(pnp, make_deck_game, tmp_path) -> None:
    components = framed_deck(make_deck_game, size="tarot", cards={"a": 1})  # 70 x 120 mm
    out = tmp_path / "out"
    args = ("export", "--shop", "drivethrucards", "--components", components, "--out", out)
    result = pnp(*args)
    assert result.exit_code == 0, result.output
    assert "deck: 70×120 mm scaled by 1.005 to tarot-card (69.8×120.6 mm)" in result.stdout
    pdf = out / "synth/shop-drivethrucards/deck.pdf"
    reader = pypdf.PdfReader(pdf)
    for page in reader.pages:  # the product's 2.75 x 4.75 in, with 1/8 in of bleed around it
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, 216, 360], abs=0.01)
        assert [float(v) for v in page.trimbox] == pytest.approx([9, 9, 207, 351], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, 216, 360], abs=0.01)
    with pymupdf.open(pdf) as document:  # the face: its art's trim (blue) reaches the cut
        pixmap = document[1].get_pixmap(dpi=600, alpha=False)
    face = Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)
    px = 600 / PT_PER_IN
    for x, y in ((108, 9.5), (108, 350.5), (9.5, 180), (206.5, 180)):  # 0.18 mm inside the cut
        r, _, b = face.getpixel((round(x * px), round((360 - y) * px)))
        assert b > r + 60, f"the cut at ({x}, {y}) pt is not in the card's art: {(r, b)}"
    r, _, b = face.getpixel((round(108 * px), round(8 * px)))  # in the bleed beyond it: red
    assert r > b + 60, (r, b)


def test_fit_scales_a_deck_to_the_nearest_product_and_says_so(
    pnp, make_deck_game, tmp_path
) -> None:
    components = framed_deck(make_deck_game, size="mini-usa")  # 41 x 63 mm
    out = tmp_path / "out"
    args = ("export", "--shop", "thegamecrafter", "--fit", "--components", components)
    result = pnp(*args, "--out", out)
    assert result.exit_code == 0, result.output
    assert "synth: deck: 41×63 mm scaled by 1.008 to mini-card (44.4×63.5 mm)" in result.stdout
    listing = json.loads((out / "synth/shop-thegamecrafter/thegamecrafter.json").read_text())
    (entry,) = listing["components"]
    assert entry["product"] == "mini-card" and entry["scale"] == pytest.approx(63.5 / 63)
    with Image.open(out / "synth/shop-thegamecrafter" / entry["faces"][0]["face"]) as image:
        assert image.size == (600, 825)
        left, top, right, bottom = blue_box(image)
    scale, dpi = entry["scale"], 300 / 25.4
    assert right - left == pytest.approx(41 * scale * dpi, abs=2), "proportions kept"
    assert bottom - top == pytest.approx(63 * scale * dpi, abs=2)
    assert (left + right) / 2 == pytest.approx(300, abs=1.5), "centred on the product"
    generic = pnp("export", "--shop", "--fit", "--components", components, "--out", out)
    assert generic.exit_code == 2 and "--fit goes with a vendor" in generic.stderr


def test_export_says_how_far_it_has_got_when_not_on_a_terminal(
    pnp, make_deck_game, tmp_path
) -> None:
    components = framed_deck(make_deck_game)
    out = tmp_path / "out"
    result = pnp("export", "synth", "--shop", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    assert "synth shop: deck (1/4)" in result.stderr, result.stderr
    assert "\r" not in result.stderr, "no bar drawn where nobody watches"


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
        assert pdfx_check.problems(pdf, "X-4") == [], pdf.name
        with pikepdf.open(pdf) as document:
            (intent,) = document.Root.OutputIntents
            assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == "FOGRA39"
            icc = ImageCms.ImageCmsProfile(io.BytesIO(intent.DestOutputProfile.read_bytes()))
            assert icc.profile.xcolor_space == "CMYK"
            assert icc.profile.device_class == "prtr", "an output (printer) profile"
            assert str(document.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4"
            assert document.open_metadata()["pdfxid:GTS_PDFXVersion"] == "PDF/X-4"
            assert str(document.docinfo["/Trapped"]) == "/False"
            for page in document.pages:
                assert "/Group" not in page.obj, "flattened: nothing left to blend"
            for obj in document.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/ExtGState":
                    assert float(obj.get("/ca", 1)) == float(obj.get("/CA", 1)) == 1, pdf
        ops = {op for op, _ in colour_settings(pdf)}
        assert ops <= {"k", "K", "g", "G"}, f"{pdf.name}: colours outside CMYK: {ops}"


# A card whose art is half transparent: a dark red drawn at half opacity over a dark backdrop,
# and white over the red at a quarter (highlights and shadows, as the bundled games draw them).
GLAZED = FRAMED.replace(
    "</svg>",
    '  <rect x="5" y="5" width="40" height="60" fill="#9b1b21" fill-opacity="0.5"/>\n'
    '  <circle cx="25" cy="35" r="12" fill="#ffffff" fill-opacity="0.25"/>\n</svg>',
)


def test_transparency_prints_as_composited_in_srgb(make_deck_game, tmp_path) -> None:
    components = deck(make_deck_game, face=GLAZED, cards={"a": 1})
    (pack,) = plan_games(load_games(components, ("synth",), None), None)
    pages = shop_pages(pack)["deck"]
    design = io.BytesIO()
    draw_pdf(pack, pages, design, SHOP_RGB)  # the art composited in sRGB, as designed
    flat = tmp_path / "flat.pdf"
    print_pdf(pack, pages, str(flat), colour.Press())
    flattened = softproof.delta_e(flat, design.getvalue(), [0, 1], None)
    assert flattened.mean() <= 2 and np.percentile(flattened, 95) <= 5, flattened.mean()
    blended = tmp_path / "blended.pdf"  # the old way: drawn in CMYK, blended in DeviceCMYK
    draw_pdf(pack, pages, str(blended), Colours("cmyk", colour.Press().colour))
    with pikepdf.open(blended, allow_overwriting_input=True) as document:
        document.Root.OutputIntents = pikepdf.Array(
            [pikepdf.Dictionary(S=pikepdf.Name.GTS_PDFX, DestOutputProfile=document.make_stream(
                colour.press_profile()))]
        )  # fmt: skip
        document.save(blended)
    old = softproof.delta_e(blended, design.getvalue(), [0, 1], None)
    assert old.mean() > 2 * flattened.mean() + 1, f"the measure cannot tell: {old.mean():.2f}"


def test_the_ingredient_green_stays_green() -> None:
    green = (0x2F / 255, 0x6B / 255, 0x3A / 255)  # The Chocolate Market's ingredient cards
    press = ImageCms.getOpenProfile(str(colour.PRESS_PROFILE))
    to_lab = ImageCms.buildTransform(press, LAB, "CMYK", "LAB", INTENT)
    srgb_lab = ImageCms.buildTransform(SRGB, LAB, "RGB", "LAB", INTENT)

    def lab_of(image: Image.Image, transform: ImageCms.ImageCmsTransform) -> np.ndarray:
        return softproof.lab(image, transform)

    want = lab_of(Image.new("RGB", (1, 1), tuple(round(v * 255) for v in green)), srgb_lab)

    def printed(cmyk: tuple[float, ...]) -> np.ndarray:
        return lab_of(Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in cmyk)), to_lab)

    assert softproof.ciede2000(want, printed(cmyk_of(green))).max() < 3
    naive = softproof.ciede2000(want, printed(colors.rgb2cmyk(*green))).max()
    assert naive > 8, "the naive formula greyed it"


# --- what the shop export covers, and how it fails ------------------------------------------

SRGB = ImageCms.createProfile("sRGB")
LAB = ImageCms.createProfile("LAB", 5000)
INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC  # paper white is the white meant
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
    expected = colour.Press().raster(Image.new("RGB", (40, 40), ART), 300).getpixel((20, 20))
    with pikepdf.open(out / "synth/shop/deck.pdf") as document:
        images = [
            pikepdf.PdfImage(obj).as_pil_image()
            for obj in document.objects
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"
        ]
    assert images and all(image.mode == "CMYK" for image in images)
    listing = json.loads((out / "synth/shop/shop.json").read_text("utf-8"))
    bleed, (w, _) = listing["files"][0]["bleed_mm"], listing["files"][0]["trim_mm"]
    face = images[0]  # the face's picture: the PNG 2 mm in from the trim's corner, 20 mm wide
    px = face.width / (w + 2 * bleed)  # pixels a mm
    assert face.getpixel((round((bleed + 12) * px), round((bleed + 12) * px))) == expected


def test_boards_dice_standees_and_sheets_go_to_the_shop_too(tmp_path) -> None:
    packs = plan_games(
        load_games(BUNDLED, ("chocolate-coin", "candiescollectors", "chaos-cove"), None), None
    )
    pages = [p for pack in packs for ps in shop_pages(pack).values() for p in ps]
    kinds = {p.noun for p in pages}
    assert {"card", "token", "board", "die", "standee", "sheet"} <= kinds, kinds
    (coin,) = plan_games(load_games(BUNDLED, ("chocolate-coin",), None), None)
    wanted = [p for ps in shop_pages(coin).values() for p in ps if p.noun in ("board", "sheet")]
    pdf = tmp_path / "some.pdf"
    print_pdf(coin, wanted, str(pdf), colour.Press())
    assert pdfx_check.problems(pdf, "X-4") == []
    with pymupdf.open(pdf) as document:
        for page, shop_page in zip(document, wanted, strict=True):
            trim = page.trimbox
            size = (trim.width * 25.4 / PT_PER_IN, trim.height * 25.4 / PT_PER_IN)
            assert size == pytest.approx((shop_page.w, shop_page.h), abs=0.01), shop_page.name
            assert page.get_images(), "its art, flattened"
            if shop_page.noun == "sheet":
                assert len(page.get_text().split()) > 100, "a sheet's text stays text"


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
