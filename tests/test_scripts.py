"""Scripts pnp cannot print yet (Bengali, Tamil, Khmer...): an error at the line of the string,
in the game's catalog, its engine catalog or its spec, never a page printed with the letters
apart and left to right. Arabic and Hebrew (test_shaping), Devanagari and Thai
(test_complex_scripts) are shaped and pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_engine_words import init, own_engine_words
from test_i18n import GAME, write_small_game

from generator.svg.scripts import script_of, unprintable

BENGALI = {
    "Little game": "ছোট খেলা",
    "Cards": "তাস",
    "Trade freely with everyone.": "সবার সাথে অবাধে বাণিজ্য করুন।",
    "Bread": "রুটি",
    "Tokens": "টোকেন",
    "Page [{n}]": "পৃষ্ঠা [{n}]",
}
KHMER = {
    "Little game": "ល្បែងតូច",
    "Cards": "បៀ",
    "Trade freely with everyone.": "ដោះដូរដោយសេរីជាមួយគ្នា",
    "Bread": "នំប៉័ង",
    "Tokens": "សញ្ញា",
    "Page [{n}]": "ទំព័រ [{n}]",
}


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return write_small_game(tmp_path)


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("নমস্কার", "Bengali"),
        ("வணக்கம்", "Tamil"),
        ("خبز নমস্কার", "Bengali"),
        ("नमस्ते សួស្តី", "Khmer"),
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


@pytest.mark.parametrize(
    "text", ["خبز", "לחם", "ﻻ", "a\u200fb", "خبز 3 לחם", "नमस्ते", "สวัสดี", "नमस्ते ไทย"]
)
def test_arabic_hebrew_devanagari_and_thai_are_shaped_not_refused(text):
    assert unprintable(text) is None and any(script_of(c) is not None for c in text)


def line_of(po: Path, wanted: str) -> int:
    lines = po.read_text(encoding="utf-8").splitlines()
    return next(n for n, t in enumerate(lines, 1) if t == wanted)


@pytest.mark.parametrize(
    ("language", "table", "script"), [("bn", BENGALI, "Bengali"), ("km", KHMER, "Khmer")]
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


def test_a_source_in_tamil_fails_at_its_spec_line(pnp, game):
    cards = game / "cards.yaml"
    cards.write_text(
        cards.read_text(encoding="utf-8").replace("label: Bread", "label: ரொட்டி"),
        encoding="utf-8",
    )
    check = pnp("check", GAME, "--components", game.parent)
    assert check.exit_code != 0
    assert "cards.yaml:9: 'ரொட்டி' is written in Tamil script" in check.stderr, check.stderr


def test_engine_words_in_bengali_fail_at_the_games_engine_catalog(pnp, game):
    """A language the engine lacks, with the game's own engine words: Bengali in them is
    said at their line too (the game's own strings here are in Latin letters, as if
    transliterated)."""
    init(pnp, game, "bn", {k: "x " + k for k in BENGALI})
    assert pnp("i18n", "engine", "bn", GAME, "--components", game.parent).exit_code == 0
    own = game / "locale" / "engine-bn.po"
    own_engine_words(own, "SV:")
    text = own.read_text(encoding="utf-8").replace('msgstr "SV:Contents"', 'msgstr "বিষয়বস্তু"')
    own.write_text(text, encoding="utf-8")
    check = pnp("check", GAME, "--components", game.parent, "--lang", "bn")
    assert check.exit_code == 1
    said = [t for t in check.stderr.splitlines() if "বিষয়বস্তু" in t]
    assert said and "engine-bn.po:" in said[0] and "Bengali script" in said[0], check.stderr
