"""The engine's own words (contents page, page labels, printing notes) in every language: the
catalogs the engine ships, a game's own ``locale/engine-<lang>.po`` for any other language,
and build refusing what check fails.

The small two-language game of test_i18n is reused; each test declares the language it needs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pdfplumber
import pytest
from conftest import BUNDLED
from test_i18n import GAME, translate, write_small_game

from generator.i18n import catalogs
from generator.i18n.strings import keys, usable, words


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return write_small_game(tmp_path)


SHIPPED = ("de", "es", "fr", "it", "nl", "pl", "pt")
FRENCH = {
    "Little game": "Petit jeu",
    "Cards": "Cartes",
    "Trade freely with everyone.": "Échangez librement avec tout le monde.",
    "Bread": "Pain",
    "Tokens": "Jetons",
    "Page [{n}]": "Page [{n}]",
}


def declare(game: Path, language: str) -> None:
    """Make ``language`` the game's second language."""
    spec = game / "game.yaml"
    spec.write_text(spec.read_text().replace("[en, de]", f"[en, {language}]"))


def init(pnp, game: Path, language: str, table: dict[str, str]) -> Path:
    declare(game, language)
    result = pnp("i18n", "init", GAME, language, "--components", game.parent)
    assert result.exit_code == 0, result.output
    po = game / "locale" / f"{language}.po"
    translate(po, table)
    return po


def pdf_text(path: Path) -> list[str]:
    with pdfplumber.open(path) as doc:
        return [re.sub(r"\s+", " ", page.extract_text() or "") for page in doc.pages]


def msgfmt(path: Path) -> subprocess.CompletedProcess[str]:
    """GNU msgfmt's own check of a catalog (make test installs gettext when it is missing)."""
    command = ["msgfmt", "-c", "--check-format", "-o", os.devnull, str(path)]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_every_catalog_passes_msgfmt():
    engine = sorted(catalogs.ENGINE_LOCALE.glob("*.po"))
    assert {p.stem for p in engine} >= set(SHIPPED)
    for path in [*engine, *sorted(BUNDLED.glob("*/locale/*.po"))]:
        done = msgfmt(path)
        assert done.returncode == 0 and "warning" not in done.stderr, (path, done.stderr)


def test_msgfmt_finds_a_broken_placeholder(tmp_path):
    """The check above can fail: a renamed brace placeholder is a msgfmt error."""
    text = (catalogs.ENGINE_LOCALE / "fr.po").read_text(encoding="utf-8")
    broken = tmp_path / "fr.po"
    broken.write_text(text.replace("sur {sheets}", "sur {feuilles}", 1), encoding="utf-8")
    assert msgfmt(broken).returncode != 0


@pytest.mark.parametrize("language", SHIPPED)
def test_each_shipped_engine_catalog_is_complete_and_keeps_its_marks(language):
    path = catalogs.ENGINE_LOCALE / f"{language}.po"
    found, _, _, problems = usable(catalogs.read_catalog(catalogs.ENGINE_LOCALE, path), path)
    assert problems == [], problems
    assert set(found) == set(keys())
    assert words(language).missing() == []


def test_a_french_game_prints_french_on_every_page(pnp, game, tmp_path):
    init(pnp, game, "fr", FRENCH)
    result = pnp("check", GAME, "--components", game.parent, "--lang", "fr")
    assert result.exit_code == 0, result.output + result.stderr
    assert "translation complete" in result.output
    out = tmp_path / "out"
    result = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", "fr")
    assert result.exit_code == 0, result.output
    pages = pdf_text(out / GAME / "fr" / f"{GAME}.pdf")
    assert "Contenu" in pages[0] and "Jeu à imprimer · 2 joueurs" in pages[0], pages[0]
    assert "Contents" not in pages[0] and "Print at 100%" not in pages[0], pages[0]
    assert "63,5 × 88,9" in pages[0], pages[0]  # the poker cards' size, written the French way
    printed = [page for page in pages[1:] if page.strip()]  # not the blank backs
    assert len(printed) >= 2
    for page in printed:
        assert re.search(r"feuille \d+ sur \d+", page), page
        assert "sheet" not in page, page


def own_engine_words(path: Path, mark: str = "SV:") -> None:
    """Translate every entry of a game's catalog (its engine words or its own) as ``mark`` +
    the English, keeping the placeholders (and as many plural forms as the catalog has)."""
    root = path.parent.parent
    catalog = catalogs.read_catalog(root, path)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            message.string = mark + message.id
        else:
            forms = [message.id[0]] + [message.id[1]] * (catalog.num_plurals - 1)
            message.string = tuple(mark + form for form in forms)
    catalogs.write_catalog(catalog, path)


def test_a_language_the_engine_lacks_takes_the_games_own_engine_words(pnp, game, tmp_path):
    init(pnp, game, "sv", FRENCH)  # the game's own strings, in any words
    out = tmp_path / "out"
    check = pnp("check", GAME, "--components", game.parent, "--lang", "sv")
    assert check.exit_code == 1
    assert "locale/engine-sv.po" in check.stderr and "pnp i18n engine sv" in check.stderr
    # build refuses what check fails, and writes nothing
    build = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", "sv")
    assert build.exit_code == 1, build.output
    assert not (out / GAME / "sv" / f"{GAME}.pdf").exists()

    result = pnp("i18n", "engine", "sv", GAME, "--components", game.parent)
    assert result.exit_code == 0, result.output
    own = game / "locale" / "engine-sv.po"
    assert own.is_file() and not (catalogs.ENGINE_LOCALE / "sv.po").exists()
    own_engine_words(own)
    check = pnp("check", GAME, "--components", game.parent, "--lang", "sv")
    assert check.exit_code == 0, check.stderr
    build = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", "sv")
    assert build.exit_code == 0, build.output
    pages = pdf_text(out / GAME / "sv" / f"{GAME}.pdf")
    assert "SV:Contents" in pages[0] and "SV:Print at 100%" in pages[0], pages[0]
    manifest = json.loads((out / GAME / "sv" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["language"] == "sv"

    # a renamed placeholder is said as such, at its line of the game's engine catalog
    text = own.read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(n for n, t in enumerate(lines, 1) if t == 'msgctxt "inventory_single"')
    own.write_text(text.replace('"SV:Print single-sided: {paper}."', '"SV: {papier}."'))
    check = pnp("check", GAME, "--components", game.parent, "--lang", "sv")
    assert check.exit_code == 1
    wanted = "placeholder `{paper}` renamed `{papier}`"
    said = [t for t in check.stderr.splitlines() if wanted in t]
    assert said and f"engine-sv.po:{at + 1}:" in said[0], check.stderr


def test_check_json_lists_the_translations_problems(pnp, game):
    po = init(pnp, game, "fr", {**FRENCH, "Page [{n}]": ("Page [{numéro}]", "Page [{n}]")})
    result = pnp("check", GAME, "--components", game.parent, "--lang", "fr", "--json")
    assert result.exit_code == 1
    (found,) = json.loads(result.stdout)["games"]
    broken = found["translation"]["broken"]
    lines = po.read_text(encoding="utf-8").splitlines()
    at = next(n for n, t in enumerate(lines, 1) if t == 'msgid "Page [{n}]"')
    assert len(broken) == 1 and broken[0]["at"].endswith(f"locale/fr.po:{at}"), broken
    assert broken[0]["problem"] == (
        "msgstr[0] (the form for 0, 1): placeholder `{n}` renamed `{numéro}`; keep the "
        "source's name"
    )
    assert found["translation"]["engine"] == [] and found["translation"]["engine_problems"] == []
