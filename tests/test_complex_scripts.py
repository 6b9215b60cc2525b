"""Devanagari and Thai printed shaped: the stock fonts (DejaVu, which has neither) draw them
from the bundled Noto faces, piece by piece within a line; lines compared with HarfBuzz's own
layout through Pillow's raqm (pixels), a Hindi and a Thai game built through their catalogs
(cards, a reference sheet, the contents page), their glyphs read back from the PDF against
HarfBuzz's and their text read back by pypdfium2 in reading order (a vowel sign drawn before
its consonant is read after it, through ActualText)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont
from pixels import pdf_of
from test_engine_words import init, own_engine_words
from test_i18n import GAME, write_small_game
from test_shaping import (
    SCALE,
    SHAPED_IOU,
    SIZE,
    contains,
    harfbuzz_extents,
    ink,
    iou,
    ours,
    pdf_extents,
)

from generator.art import richtext
from generator.i18n import catalogs
from generator.svg import canvas as rl
from generator.svg.fonts import FONT_DIR, NOTO_DIR, missing_in, register_fonts, text_width

NOTO = {"Devanagari": "NotoSansDevanagari-Regular.ttf", "Thai": "NotoSansThai-Regular.ttf"}
LINES = {
    "Devanagari": "खिलाड़ी क्षेत्र में प्रवेश करें",  # i-matra before its consonant, conjuncts
    "Thai": "ผู้เล่นทุกคนจั่วการ์ด",  # stacked vowel and tone marks
}
MARKS = 0.62  # of the size: above this height over the baseline are the marks of a line
MARGIN = 0.1  # how much closer to HarfBuzz's marks pnp's are than marks laid out apart

TABLES = {
    "hi": {
        "Little game": "छोटा खेल",
        "Cards": "पत्ते",
        "Trade freely with everyone.": "सबके साथ खुलकर व्यापार करें।",
        "Bread": "रोटी",
        "Tokens": "टोकन",
        "Page [{n}]": "पृष्ठ [{n}]",
    },
    "th": {
        "Little game": "เกมเล็ก",
        "Cards": "การ์ด",
        "Trade freely with everyone.": "แลกเปลี่ยน\u200bกับ\u200bทุกคน\u200bได้\u200bอย่าง\u200bอิสระ",
        "Bread": "ขนมปัง",
        "Tokens": "โทเค็น",
        "Page [{n}]": "หน้า [{n}]",
    },
}
SCRIPT = {"hi": "Devanagari", "th": "Thai"}


def raqm(text: str, font_file: Path) -> np.ndarray:
    """``text`` laid out by HarfBuzz through Pillow's raqm at (10, 40) pt, left to right."""
    font = ImageFont.truetype(str(font_file), SIZE * SCALE, layout_engine=ImageFont.Layout.RAQM)
    image = Image.new("RGB", (400 * SCALE, 60 * SCALE), "white")
    ImageDraw.Draw(image).text((10 * SCALE, 40 * SCALE), text, font=font, fill="black", anchor="ls")
    return np.asarray(image).astype(np.int16)


def apart(text: str, font_file: Path) -> np.ndarray:
    """``text`` with each character laid out on its own, one after another (no shaping)."""
    font = ImageFont.truetype(str(font_file), SIZE * SCALE, layout_engine=ImageFont.Layout.BASIC)
    image = Image.new("RGB", (400 * SCALE, 60 * SCALE), "white")
    draw, x = ImageDraw.Draw(image), 10.0 * SCALE
    for char in text:
        draw.text((x, 40 * SCALE), char, font=font, fill="black", anchor="ls")
        x += font.getlength(char)
    return np.asarray(image).astype(np.int16)


@pytest.mark.parametrize("script", LINES)
def test_drawn_text_matches_harfbuzz_through_raqm(script):
    """Drawn by pnp in sans-serif (DejaVu, falling back on Noto) against raqm in the Noto
    face: the same ink; above the letters, where shaping moves the vowel signs and tone marks,
    far closer than the characters laid out apart (measured: Devanagari 0.95 against 0.11,
    Thai 0.87 against 0.74)."""
    text, font = LINES[script], NOTO_DIR / NOTO[script]
    reference, drawn, unshaped = ink(raqm(text, font)), ink(ours(text)), ink(apart(text, font))
    assert iou(drawn, reference) >= SHAPED_IOU, iou(drawn, reference)
    top = int((40 - MARKS * SIZE) * SCALE)  # rows above the letters: the marks' band
    shaped_marks = iou(drawn[:top], reference[:top])
    assert shaped_marks >= iou(unshaped[:top], reference[:top]) + MARGIN, shaped_marks


def test_a_line_mixing_scripts_is_drawn_piece_by_piece():
    """Latin, digits and spaces in DejaVu, Devanagari and Thai in their Noto faces: nothing
    is missing, and the line is as wide as its pieces."""
    register_fonts()
    text = "Take 3 सिक्के and ไทย"
    assert missing_in("PnpSans", text) == []
    assert missing_in("PnpSans-Bold", text) == []
    dejavu = TTFont(FONT_DIR / "DejaVuSans.ttf").getBestCmap()
    assert not any(ord(c) in dejavu for c in "सिक्केไทย")  # drawn by the Noto faces
    # a space between two faces is the second's
    pieces = text_width("Take 3", 10) + text_width(" सिक्के", 10)
    pieces += text_width(" and", 10) + text_width(" ไทย", 10)
    assert text_width(text, 10) == pytest.approx(pieces, abs=0.05)
    for word, script in (("सिक्के", "Devanagari"), ("ไทย", "Thai")):
        font = TTFont(NOTO_DIR / NOTO[script])  # a space between two words is their face's
        space = font["hmtx"][font.getBestCmap()[32]][0] / font["head"].unitsPerEm * 10
        apart = 2 * text_width(word, 10) + space
        assert text_width(f"{word} {word}", 10) == pytest.approx(apart, abs=0.05)
        assert text_width(f"{word} ab", 10) == pytest.approx(
            text_width(word, 10) + text_width(" ab", 10), abs=0.05
        )  # and before text in another face, that face's


def test_thai_breaks_at_zero_width_spaces():
    """Thai is written without spaces between words: a line breaks where the translator put
    a zero-width space, and the words on one line join without a gap."""
    text = "แลกเปลี่ยน\u200bกับ\u200bทุกคน\u200bได้\u200bอย่าง\u200bอิสระ"
    whole = text_width(text.replace("\u200b", ""), 10)
    laid = richtext.layout(richtext.paragraphs(text, False), whole * 0.6, 100, 10, richtext.Look())
    assert len(laid.lines) == 2
    assert sum(line.width for line in laid.lines) == pytest.approx(whole, rel=0.02)
    one = richtext.layout(richtext.paragraphs(text, False), whole + 1, 100, 10, richtext.Look())
    assert len(one.lines) == 1 and one.lines[0].width == pytest.approx(whole, abs=0.05)


def write_sheet(game: Path) -> None:
    """A reference sheet in the game, of strings its catalog translates."""
    (game / "rules.yaml").write_text(
        'kind: sheet\ntitle: "Cards"\npages: 1\nsections:\n  - heading: "Bread"\n    blocks:\n'
        '      - text: "Trade freely with everyone."\n      - bullets: ["Tokens"]\n',
        encoding="utf-8",
    )


@pytest.fixture(scope="module", params=sorted(TABLES))
def built(request, tmp_path_factory) -> tuple[str, Path]:
    """A small game translated into Hindi or Thai, with its own engine words and a sheet,
    checked and built: the language and its PDF."""
    from conftest import _invoke as pnp

    language = request.param
    tmp_path = tmp_path_factory.mktemp(language)
    game = write_small_game(tmp_path)
    write_sheet(game)
    init(pnp, game, language, TABLES[language])
    assert pnp("i18n", "engine", language, GAME, "--components", game.parent).exit_code == 0
    own = game / "locale" / f"engine-{language}.po"
    own_engine_words(own)
    text = own.read_text(encoding="utf-8").replace('msgstr "SV:Contents"', 'msgstr "सामग्री"')
    own.write_text(text, encoding="utf-8")  # the contents heading in Devanagari, both games
    check = pnp("check", GAME, "--components", game.parent, "--lang", language)
    assert check.exit_code == 0, check.stderr
    out = tmp_path / "out"
    build = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", language)
    assert build.exit_code == 0, build.stderr
    return language, out / GAME / language / f"{GAME}.pdf"


def test_a_translation_reads_back_in_reading_order(built):
    """Every translated string, on the cards, the sheet and the contents page, is read back
    whole by pypdfium2 (ActualText puts a reordered vowel sign back after its consonant)."""
    language, pdf = built
    document = pdfium.PdfDocument(pdf)
    try:
        pages = [p.get_textpage().get_text_range() for p in document]
    finally:
        document.close()
    text = re.sub(r"\s+", " ", " ".join(pages)).replace("\u200b", "")
    for source, translated in TABLES[language].items():
        if "{n}" not in source:
            assert translated.replace("\u200b", "") in text, (translated, text)
    assert "सामग्री" in pages[0] and TABLES[language]["Little game"] in pages[0]


def test_glyphs_in_the_pdf_are_harfbuzzs(built):
    """Each word of the rule (on a card and on the sheet) shaped by HarfBuzz in the Noto
    face is in the PDF as the same glyphs in the same order."""
    language, pdf = built
    drawn = pdf_extents(pdf)
    noto = NOTO_DIR / NOTO[SCRIPT[language]]
    for word in re.split(r"[\s\u200b]+", TABLES[language]["Trade freely with everyone."]):
        assert contains(drawn, harfbuzz_extents(word, path=noto)), word


def test_thai_too_long_without_zero_width_spaces_is_told_where_to_break(pnp, tmp_path):
    """A Thai translation with no space to break at overflows its box: the error at its
    catalog line says to put zero-width spaces between words; with them it fits."""
    game = write_small_game(tmp_path)
    words = TABLES["th"]["Trade freely with everyone."].split("\u200b") * 3
    table = {**TABLES["th"], "Trade freely with everyone.": "".join(words)}
    po = init(pnp, game, "th", table)
    assert pnp("i18n", "engine", "th", GAME, "--components", game.parent).exit_code == 0
    own_engine_words(game / "locale" / "engine-th.po")
    check = pnp("check", GAME, "--components", game.parent, "--lang", "th")
    assert check.exit_code != 0
    said = [line for line in check.stderr.splitlines() if "does not fit" in line]
    assert said and "th.po:" in said[0] and "zero-width space, U+200B" in said[0], check.stderr
    catalog = catalogs.read_catalog(game, po)
    for message in catalog:
        if message.id == "Trade freely with everyone.":
            message.string = "\u200b".join(words)
    catalogs.write_catalog(catalog, po)
    check = pnp("check", GAME, "--components", game.parent, "--lang", "th")
    assert check.exit_code == 0, check.stderr


@pytest.mark.parametrize(
    "text", ["sheet 1 of 1 · खिलाड़ी", "SV:بطاقات · sheet 1 of 1 · page 3", "คุณ ผู้เล่น"]
)
def test_a_label_reads_back_letter_for_letter(text):
    """A page label drawn shaped (``draw_string``) reads back as written: a letter twice in
    a row is two clusters, each read once (not one span for both)."""
    register_fonts()

    def draw(canvas):
        canvas.setFont("PnpSans", 10)
        rl.draw_string(canvas, 20, 20, text)

    document = pdfium.PdfDocument(pdf_of([(400, 60, draw)]))
    try:
        assert document[0].get_textpage().get_text_range() == text
    finally:
        document.close()
