"""Every bundled game as print shops and Tabletop Simulator take it, read back by code that is
not the project's: each game exported once (for any shop, for DriveThruCards with ``--fit``
and for TTS, shared by the tests of this module), then

- every shop PDF checked as PDF/X-4 and every DriveThruCards PDF as PDF/X-1a:2003 by the
  independent checker ``pdfx_check`` (pikepdf); the DriveThruCards files read back for what
  its prep guide asks (no transparency, PDF 1.4 at most, the X-1a keys, 240 % ink);
- every image of every file in the output intent's CMYK, and every font subset named by
  its glyphs (one name, one set of glyphs, across all the files);
- the colour of every component soft-proofed through its file's own output intent against
  the art composited in sRGB and converted the ideal way (``softproof``): mean ΔE2000 at
  most 2, the 95th percentile at most 5;
- the TTS bag of each game holding every token, tile, board, die and standee the game has,
  as often as it has them, each with pictures that exist.
"""

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
import pytest
import softproof
from conftest import BUNDLED, _invoke
from PIL import Image
from test_shop_preflight import inks, shown

from generator.cli.common import load_games, plan_games
from generator.output.colour import SMALL_BLACK_CMY, SMALL_COLOUR_TYPE_PT
from generator.output.flatten import SHOP_RGB
from generator.output.shop import draw_pdf, shop_pages

GAMES = sorted(p.name for p in BUNDLED.iterdir() if (p / "game.yaml").is_file())
DTC_INK = 2.4  # DriveThruCards' limit, 240 %
MEAN_DE, P95_DE = 2.0, 5.0
PAGES_MEASURED = 4  # per component: its first two pages, its middle one and its last


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """Every bundled game exported for any shop, for DriveThruCards (decks no card product
    fits scaled to the nearest, so that every deck is checked) and for TTS."""
    out = tmp_path_factory.mktemp("shops")
    for args in (("--shop",), ("--shop", "drivethrucards", "--fit"), ("--tts",)):
        result = _invoke("export", *args, "--components", BUNDLED, "--out", out)
        assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def packs() -> dict:
    """Every bundled game planned, by name."""
    return {pack.game.name: pack for pack in plan_games(load_games(BUNDLED, (), None), None)}


def shop_files(exported: Path) -> list[Path]:
    return sorted(exported.glob("*/shop/*.pdf"))


def dtc_files(exported: Path) -> list[Path]:
    return sorted(exported.glob("*/shop-drivethrucards/*.pdf"))


def test_every_shop_pdf_of_every_game_is_pdf_x4(exported) -> None:
    files = shop_files(exported)
    assert {f.parent.parent.name for f in files} == set(GAMES)
    found = {f"{f.parent.parent.name}/{f.name}": pdfx_check.problems(f, "X-4") for f in files}
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_every_drivethrucards_pdf_is_pdf_x1a_with_nothing_transparent(exported) -> None:
    files = dtc_files(exported)
    assert len(files) >= 8, "every deck of every game, fitted where no product fits"
    for pdf in files:
        assert pdfx_check.problems(pdf, "X-1a") == [], pdf
        assert re.match(rb"%PDF-1\.[0-4]\n", pdf.read_bytes()[:9]), pdf
        with pikepdf.open(pdf) as document:
            info = document.docinfo
            assert str(info["/GTS_PDFXVersion"]) == "PDF/X-1:2003"
            assert str(info["/GTS_PDFXConformance"]) == "PDF/X-1a:2003"
            for obj in document.objects:
                if not isinstance(obj, pikepdf.Dictionary):
                    continue
                assert obj.get("/S") != "/Transparency", f"{pdf.name}: a transparency group"
                assert "/SMask" not in obj or obj.SMask == "/None", f"{pdf.name}: a soft mask"
                for key in ("/ca", "/CA"):
                    assert float(obj.get(key, 1)) == 1, f"{pdf.name}: alpha {obj.get(key)}"


def test_drivethrucards_files_keep_its_ink_limit(exported) -> None:
    for pdf in dtc_files(exported):
        with pikepdf.open(pdf) as document:
            for obj in document.objects:
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                    inks = np.asarray(pikepdf.PdfImage(obj).as_pil_image(), dtype=np.int32)
                    assert inks.sum(axis=-1).max() <= DTC_INK * 255, pdf
            for page in document.pages:
                for operands, operator in pikepdf.parse_content_stream(page):
                    if str(operator) in ("k", "K"):
                        assert sum(float(v) for v in operands) <= DTC_INK + 1e-4, pdf


def test_every_image_is_in_the_output_intents_space(exported) -> None:
    for pdf in [*shop_files(exported), *dtc_files(exported)]:
        with pikepdf.open(pdf) as document:
            for obj in document.objects:
                if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                    assert obj.ColorSpace in ("/DeviceCMYK", "/DeviceGray"), pdf
                    assert "/SMask" not in obj, f"{pdf}: an image with transparency"


def test_a_font_subsets_name_stands_for_one_set_of_glyphs(exported) -> None:
    glyphs: dict[str, set[bytes]] = {}
    for pdf in [*shop_files(exported), *dtc_files(exported)]:
        with pikepdf.open(pdf) as document:
            for obj in document.objects:
                if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/FontDescriptor":
                    program = obj.FontFile2.read_bytes()
                    glyphs.setdefault(str(obj.FontName), set()).add(program)
    assert glyphs and not any(name.startswith("/AAAAAA+") for name in glyphs)
    shared = {name: len(programs) for name, programs in glyphs.items() if len(programs) > 1}
    assert shared == {}, "one subset name, two different fonts"


@pytest.mark.parametrize("game", GAMES)
def test_every_component_prints_the_colour_of_its_art(exported, packs, game) -> None:
    pack = packs[game]
    worst = {}
    for component, pages in shop_pages(pack).items():
        design = io.BytesIO()
        draw_pdf(pack, pages, design, SHOP_RGB)  # the art composited in sRGB, as designed
        n = len(pages)
        picked = sorted({0, 1, n // 2, n - 1} & set(range(n)))[:PAGES_MEASURED]
        pdf = exported / game / "shop" / f"{component}.pdf"
        found = softproof.delta_e(pdf, design.getvalue(), picked, None)
        mean, p95 = float(found.mean()), float(np.percentile(found, 95))
        if mean > MEAN_DE or p95 > P95_DE:
            worst[component] = (round(mean, 2), round(p95, 2))
    assert worst == {}, f"mean ΔE2000 over {MEAN_DE} or p95 over {P95_DE}: {worst}"


def expected_pieces(pack) -> Counter:
    """Every piece of a game that is not a card or a sheet, as TTS names it, and how many."""
    kinds = {"token": None, "board": "Custom_Board", "die": "Custom_Dice", "standee": None}
    found: Counter = Counter()
    for pages in shop_pages(pack).values():
        faces = [p for p in pages if p.side == "face" and p.noun in kinds]
        backs = {p.name for p in pages if p.side == "back"}
        for page in faces:
            name = kinds[page.noun]
            if page.noun == "token":
                name = "Custom_Tile" if page.name in backs else "Custom_Token"
            elif page.noun == "standee":
                name = "Custom_Token"
            found[(name, page.name)] += page.copies
    return found


def test_every_tts_sheet_keeps_the_back_in_its_last_cell_and_wastes_none(exported) -> None:
    """TTS takes the grid's last cell for the hidden image: there the back, on the grid of
    the fewest cells that holds the faces and it."""
    sheets = 0
    for listing in sorted(exported.glob("*/tts/tts.json")):
        folder = listing.parent
        for deck in json.loads(listing.read_text("utf-8"))["decks"]:
            cw, ch = deck["card_px"]
            for sheet in deck["sheets"]:
                sheets += 1
                columns, rows = sheet["grid"]
                cells = len(sheet["faces"]) + 1
                fewer = [(c, r) for c in range(1, 11) for r in range(1, 8) if cells <= c * r]
                assert columns * rows == min(c * r for c, r in fewer), (deck["component"], sheet)
                if deck["unique_backs"]:
                    continue
                with (
                    Image.open(folder / sheet["file"]) as grid,
                    Image.open(folder / sheet["back"]) as back,
                ):
                    box = ((columns - 1) * cw, (rows - 1) * ch, columns * cw, rows * ch)
                    last = grid.convert("RGB").crop(box)
                    assert last.tobytes() == back.convert("RGB").tobytes(), sheet["file"]
    assert sheets >= 10


@pytest.mark.parametrize("game", GAMES)
def test_the_tts_bag_holds_every_piece_with_its_pictures(exported, packs, game) -> None:
    folder = exported / game / "tts"
    (bag,) = json.loads((folder / f"{game}-bag.json").read_text("utf-8"))["ObjectStates"]
    contained = bag["ContainedObjects"]
    pieces = Counter(
        (o["Name"], o["Nickname"])
        for o in contained
        if o["Name"] not in ("DeckCustom", "Card") and not o["Description"].startswith("sheet")
    )
    want = expected_pieces(packs[game])
    assert pieces == want
    listing = json.loads((folder / "tts.json").read_text("utf-8"))
    decks = [o for o in contained if o["Name"] in ("DeckCustom", "Card")]
    assert len(decks) == len(listing["decks"]), "every deck in the bag too"
    for state in contained:
        image = state.get("CustomImage")
        if image is None:
            continue
        for key in ("ImageURL", "ImageSecondaryURL"):
            if image[key]:
                with Image.open(urllib.parse.urlparse(image[key]).path) as picture:
                    assert min(picture.size) >= 32, state["Nickname"]
        if state["Name"] == "Custom_Tile" and (state["Name"], state["Nickname"]) in want:
            assert image["ImageSecondaryURL"] and image["ImageSecondaryURL"] != image["ImageURL"]
    readme = (folder / "README.txt").read_text("utf-8")
    objects = [line for line in readme.splitlines() if line.startswith("- ")]
    assert len(objects) == len(listing["decks"]) + len(listing["pieces"]), "a line per object"


def test_small_type_prints_on_two_inks_or_on_black(exported) -> None:
    """Every text under 8 pt in every shop file: on two inks at most, or a near-black on
    black ink with little of the others (``colour.small_black``)."""
    small = 0
    for pdf in [*shop_files(exported), *dtc_files(exported)]:
        for _, size, fill in shown(pdf, slice(None)):
            if size >= SMALL_COLOUR_TYPE_PT:
                continue
            small += 1
            assert len(fill) == 4, f"{pdf.name}: text in {fill}"
            black = fill[3] >= 0.5 and sum(fill[:3]) <= SMALL_BLACK_CMY + 1e-3
            assert inks(fill) <= 2 or black, f"{pdf.name}: {size:.2f} pt text on {fill}"
    assert small > 100, "the games' small text is read back"
