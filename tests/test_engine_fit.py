"""Every engine word fits in every shipped language, read back from the PDF: the contents
table's columns are as wide as their longest header word or cell ("Nombre", "Cantidad",
"Quantità", "Quantidade" broke mid-word in a fixed 18 mm column), a number keeps its unit on
its line ("160–250 g/m²"), and a word too wide for where it is set is a check failure at its
catalog line (the engine's words) or the game's text, never split without a hyphen."""

from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest
from test_engine_words import SHIPPED, init
from test_i18n import GAME, write_small_game

from generator.i18n import catalogs

WORD = re.compile(r"[^\W\d_]+")
UNIT = re.compile(r"(?<![^\W\d_])(mm|g/m²)(?![^\W\d_])")  # a unit, not "comme"
GAME_WORDS = {
    "Little game": "Little game",
    "Cards": "Cards",
    "Bread": "Bread",
    "Tokens": "Tokens",
    "Page [{n}]": "Page [{n}]",
}


def _words_of(language: str) -> set[str]:
    """Every word the engine's catalog for ``language`` prints, and the game's."""
    path = catalogs.ENGINE_LOCALE / f"{language}.po"
    out = set(WORD.findall(" ".join(GAME_WORDS)))
    for message in catalogs.read_catalog(catalogs.ENGINE_LOCALE, path):
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for string in strings:
            out |= set(WORD.findall(re.sub(r"\{\w+\}", " ", string or "")))
    return out


LANGUAGES = [
    language if language == "fr" else pytest.param(language, marks=pytest.mark.acceptance)
    for language in SHIPPED
]  # French in the fast tier, every other shipped language in the acceptance tier


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contents_page_splits_no_word_in_any_shipped_language(pnp, tmp_path, language):
    game = write_small_game(tmp_path)
    init(pnp, game, language, {**GAME_WORDS, "Trade freely with everyone.": "Trade freely."})
    check = pnp("check", GAME, "--components", game.parent, "--lang", language)
    assert check.exit_code == 0, check.stderr
    out = tmp_path / "out"
    build = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", language)
    assert build.exit_code == 0, build.output
    with pdfplumber.open(out / GAME / language / f"{GAME}.pdf") as pdf:
        lines = (pdf.pages[0].extract_text() or "").splitlines()
    known = _words_of(language)
    for line in lines:
        split = [w for w in WORD.findall(line) if w not in known]
        assert not split, (language, line, split)
        for unit in UNIT.finditer(line):  # a unit stands on the line of its number
            assert re.search(r"\d[\s\u00a0]*$", line[: unit.start()]), (language, line)
    heads = [catalogs.ENGINE_LOCALE / f"{language}.po"]
    table = next(
        line for line in lines if line.startswith(_msgstr(heads[0], "inventory_component"))
    )
    for key in ("inventory_component", "inventory_count", "inventory_size", "inventory_pages"):
        assert _msgstr(heads[0], key) in table, (key, table)  # each header whole, on one line


def _msgstr(path: Path, key: str) -> str:
    catalog = catalogs.read_catalog(path.parent, path)
    return next(m.string for m in catalog if m.context == key)


def test_a_word_too_wide_for_its_column_fails_the_check_at_its_catalog_line(pnp, tmp_path):
    """A game's own engine words with a header word wider than a quarter of the page: the
    check says so at its line of locale/engine-fr.po instead of printing it split."""
    game = write_small_game(tmp_path)
    init(pnp, game, "fr", {**GAME_WORDS, "Trade freely with everyone.": "Échangez."})
    assert pnp("i18n", "engine", "fr", GAME, "--components", game.parent).exit_code == 0
    own = game / "locale" / "engine-fr.po"
    long = "Dimensionsdelapiècedécoupéeenmillimètres"
    own.write_text(own.read_text(encoding="utf-8").replace('"Taille"', f'"{long}"'), "utf-8")
    line = next(
        n
        for n, text in enumerate(own.read_text(encoding="utf-8").splitlines(), 1)
        if text == 'msgctxt "inventory_size"'
    )
    check = pnp("check", GAME, "--components", game.parent, "--lang", "fr")
    assert check.exit_code == 1
    said = [t for t in check.stderr.splitlines() if long in t]
    assert said and f"engine-fr.po:{line + 1}:" in said[0], said  # its msgid's line
    assert "which a line would split" in said[0] and "locale/engine-fr.po" in said[0], said


WORDY_SHEET = """\
kind: sheet
title: Reference
font_size: 10
min_font_size: @MIN@
sections:
  - heading: Events
    blocks:
      - table:
          header: [Card, Effect]
          widths: [3, 2]
          rows:
            - ["7", "Versetze einen Geschenkwürfel aus einer Region mit @WORD@."]
"""


@pytest.mark.parametrize(("word", "smallest"), [("Big-Plastic-Spielsteinen", 6), ("Ü" * 24, 9)])
def test_a_sheet_shrinks_until_its_words_fit_their_cells_or_fails(pnp, tmp_path, word, smallest):
    """German's long compounds in a sheet table's narrow cell ('Big-Plastic-Spielsteine / n.'
    printed split in Chocolate Coin): the sheet's text shrinks, as a text box's does, until
    every word fits its cell; a word that fits at no size allowed fails the check at its line,
    instead of printing split."""
    from test_sheets import make_game

    sheet = WORDY_SHEET.replace("@WORD@", word).replace("@MIN@", str(smallest))
    components = make_game(tmp_path, {"reference.yaml": sheet})
    check = pnp("check", "--components", components)
    said = [line for line in check.stderr.splitlines() if "which a line would split" in line]
    if smallest == 6:
        assert check.exit_code == 0 and not said, check.stderr
        out = tmp_path / "out"
        assert pnp("build", "--components", components, "--out", out).exit_code == 0
        with pdfplumber.open(out / "g" / "g.pdf") as pdf:
            text = "\n".join(page.extract_text() or "" for page in pdf.pages)
        assert re.search(r"Big-\n?Plastic-\n?Spielsteinen\.", text), text  # at a hyphen at most
    else:
        assert check.exit_code == 1 and len(said) == 1, check.stderr
        assert "reference.yaml:" in said[0] and "Ü" * 24 in said[0], said
