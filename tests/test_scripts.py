"""Scripts pnp cannot print yet (Devanagari, Thai...): an error at the line of the string, in
the game's catalog, its engine catalog or its spec, never a page printed with the letters apart
and left to right. Arabic and Hebrew are shaped (test_shaping) and pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_engine_words import init, own_engine_words
from test_i18n import GAME, write_small_game

from generator.svg.scripts import script_of, unprintable

HINDI = {
    "Little game": "छोटा खेल",
    "Cards": "पत्ते",
    "Trade freely with everyone.": "सबके साथ खुलकर व्यापार करें।",
    "Bread": "रोटी",
    "Tokens": "टोकन",
    "Page [{n}]": "पृष्ठ [{n}]",
}
THAI = {
    "Little game": "เกมเล็ก",
    "Cards": "การ์ด",
    "Trade freely with everyone.": "แลกเปลี่ยนกับทุกคนได้อย่างอิสระ",
    "Bread": "ขนมปัง",
    "Tokens": "โทเค็น",
    "Page [{n}]": "หน้า [{n}]",
}


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return write_small_game(tmp_path)


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("नमस्ते", "Devanagari"),
        ("สวัสดี", "Thai"),
        ("خبز नमस्ते", "Devanagari"),
        ("a\u2067b", "right-to-left isolate"),
    ],
)
def test_a_script_that_needs_shaping_or_rtl_is_known(text, script):
    found = unprintable(text)
    assert found is not None and found[0].name == script


@pytest.mark.parametrize(
    "text",
    ["Brötchen", "Ψωμί", "Хлеб", "パン", "面包", "빵", "Հաց", "ø × ½ – “”"],
)
def test_scripts_pnp_prints_pass(text):
    assert unprintable(text) is None and all(script_of(c) is None for c in text)


@pytest.mark.parametrize("text", ["خبز", "לחם", "ﻻ", "a\u200fb", "خبز 3 לחם"])
def test_arabic_and_hebrew_are_shaped_not_refused(text):
    assert unprintable(text) is None and any(script_of(c) is not None for c in text)


def line_of(po: Path, wanted: str) -> int:
    lines = po.read_text(encoding="utf-8").splitlines()
    return next(n for n, t in enumerate(lines, 1) if t == wanted)


@pytest.mark.parametrize(
    ("language", "table", "script"), [("hi", HINDI, "Devanagari"), ("th", THAI, "Thai")]
)
def test_a_translation_in_a_script_pnp_cannot_print_fails_at_its_catalog_line(
    pnp, game, tmp_path, language, table, script
):
    po = init(pnp, game, language, table)
    check = pnp("check", GAME, "--components", game.parent, "--lang", language)
    assert check.exit_code != 0
    at = line_of(po, 'msgid "Bread"')
    said = [t for t in check.stderr.splitlines() if f"'{table['Bread']}'" in t]
    assert said and f"{language}.po:{at}:" in said[0], check.stderr
    assert f"written in {script} script" in said[0] and "cannot print yet" in said[0]
    out = tmp_path / "out"
    build = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", language)
    assert build.exit_code != 0 and not (out / GAME / language / f"{GAME}.pdf").exists()


def test_a_source_in_thai_fails_at_its_spec_line(pnp, game):
    cards = game / "cards.yaml"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace("label: Bread", "label: ขนมปัง"),
        encoding="utf-8",
    )
    check = pnp("check", GAME, "--components", game.parent)
    assert check.exit_code != 0
    assert "cards.yaml:9: 'ขนมปัง' is written in Thai script" in check.stderr, check.stderr


def test_engine_words_in_devanagari_fail_at_the_games_engine_catalog(pnp, game):
    """A language the engine lacks, with the game's own engine words: Devanagari in them is
    said at their line too (the game's own strings here are in Latin letters, as if
    transliterated)."""
    init(pnp, game, "hi", {k: "x " + k for k in HINDI})
    assert pnp("i18n", "engine", "hi", GAME, "--components", game.parent).exit_code == 0
    own = game / "locale" / "engine-hi.po"
    own_engine_words(own, "SV:")
    text = own.read_text(encoding="utf-8").replace('msgstr "SV:Contents"', 'msgstr "सामग्री"')
    own.write_text(text, encoding="utf-8")
    check = pnp("check", GAME, "--components", game.parent, "--lang", "hi")
    assert check.exit_code == 1
    said = [t for t in check.stderr.splitlines() if "सामग्री" in t]
    assert said and "engine-hi.po:" in said[0] and "Devanagari script" in said[0], check.stderr
