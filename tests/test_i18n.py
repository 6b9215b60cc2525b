"""Translations end to end on a small game: extract, init, build in German, check.

The German strings are written here, so the test knows what must appear in the PDF; the PDF
is read back with pdfplumber.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pdfplumber
import pytest
from conftest import BUNDLED

from generator.i18n.catalogs import read_catalog

GAME = "spiel"
GERMAN = {
    "Little game": "Kleines Spiel",
    "Cards": "Kärtchen",
    "Trade freely with everyone.": "Tausche frei mit allen – „überall“.",
    "Bread": "Brötchen",
    "Tokens": "Plättchen",
    "Page [{n}]": "Seite [{n}]",
}


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """A two-language game: a deck whose text is fitted, and token pages with a {n} title."""
    root = tmp_path / "components" / GAME
    write(
        root / "game.yaml",
        """\
        title: Little game
        languages: [en, de]
        players: 2
        expect: {cards: 2}
        """,
    )
    write(
        root / "cards.yaml",
        """\
        kind: deck
        title: Cards
        size: poker
        bleed: 0
        face: face.svg.j2
        fields:
          rule: Trade freely with everyone.
        cards:
          - {name: bread, count: 2, label: Bread, colour: "#aa7733"}
        """,
    )
    write(
        root / "pages.yaml",
        """\
        kind: token-pages
        title: Tokens
        size: 30
        face: token.svg.j2
        header: header.svg.j2
        page_title: "Page [{n}]"
        pages: 1
        values: 1-2
        each: 2
        """,
    )
    svg = '<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>'
    write(
        root / "templates" / "face.svg.j2",
        svg
        + """
        <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="{{ card.colour }}"/>
        <text x="5" y="10" font-size="5" font-family="sans-serif">{{ card.label }}</text>
        {% set t = fit(card.rule, box.w - 10, 20, 4, 2, box="rule") %}
        {% for line in t.lines %}
        <text x="5" y="{{ 20 + loop.index0 * t.leading }}" font-size="{{ t.size }}"
              font-family="sans-serif">{{ line }}</text>
        {% endfor %}
        </svg>
        """,
    )
    write(
        root / "templates" / "token.svg.j2",
        svg + '<text x="10" y="15" font-size="6">{{ token.value }}</text></svg>',
    )
    write(
        root / "templates" / "header.svg.j2",
        svg + '<text x="2" y="8" font-size="6" font-family="sans-serif">{{ page.title }}'
        "</text></svg>",
    )
    return root


def translate(po: Path, table: dict[str, str]) -> None:
    """Fill msgstr of each msgid in ``table`` (the file is a fresh pnp i18n init)."""
    text = po.read_text(encoding="utf-8")
    for source, german in table.items():
        text = text.replace(f'msgid "{source}"\nmsgstr ""', f'msgid "{source}"\nmsgstr "{german}"')
    po.write_text(text, encoding="utf-8")


def init_german(pnp, game: Path, table: dict[str, str] = GERMAN) -> Path:
    result = pnp("i18n", "init", GAME, "de", "--components", game.parent)
    assert result.exit_code == 0, result.output
    po = game / "locale" / "de.po"
    translate(po, table)
    return po


def test_extract_lists_every_printed_string_with_its_place(pnp, game):
    result = pnp("i18n", "extract", GAME, "--components", game.parent)
    assert result.exit_code == 0, result.output
    catalog = read_catalog(game, game / "locale" / f"{GAME}.pot")
    found = {m.id: m.locations for m in catalog if m.id}
    assert set(found) == set(GERMAN), found
    assert ("cards.yaml", 7) in found["Trade freely with everyone."]
    assert ("pages.yaml", 6) in found["Page [{n}]"]
    # codes are not words: the card's name and colour are not offered for translation
    assert "bread" not in found and "#aa7733" not in found


def test_german_pack_prints_german_words(pnp, game, tmp_path):
    init_german(pnp, game)
    out = tmp_path / "out"
    result = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", "de")
    assert result.exit_code == 0, result.output
    pdf = out / GAME / "de" / f"{GAME}.pdf"
    manifest = json.loads((out / GAME / "de" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["language"] == "de"
    with pdfplumber.open(pdf) as doc:
        text = " ".join(page.extract_text() for page in doc.pages)
    flat = re.sub(r"\s+", " ", text)
    for word in ("Kleines Spiel", "Kärtchen", "Brötchen", "Plättchen", "Seite [1]"):
        assert word in flat, word
    assert "Tausche frei mit allen – „überall“." in flat
    assert "Trade freely" not in flat and "Bread" not in flat


def test_lang_all_builds_each_declared_language(pnp, game, tmp_path):
    init_german(pnp, game)
    out = tmp_path / "out"
    result = pnp("build", "--components", game.parent, "--out", out, "--lang", "all")
    assert result.exit_code == 0, result.output
    assert (out / GAME / "en" / f"{GAME}.pdf").is_file()
    assert (out / GAME / "de" / f"{GAME}.pdf").is_file()


def test_check_names_a_missing_string_and_fails(pnp, game):
    init_german(pnp, game, {k: v for k, v in GERMAN.items() if k != "Bread"})
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert result.exit_code == 1, result.output
    lines = [ln for ln in result.stderr.splitlines() if "'Bread'" in ln]
    assert (
        lines
        and lines[0].startswith(f"components/{GAME}/cards.yaml:")
        or ("cards.yaml:" in lines[0])
    ), result.stderr
    assert "not translated into de" in lines[0]


def test_complete_catalog_passes_the_check(pnp, game):
    init_german(pnp, game)
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert "translation complete" in result.output, result.output + result.stderr
    # the engine's own words are checked too: the German engine catalog ships complete
    assert "engine string" not in result.stderr, result.stderr
    assert result.exit_code == 0


def test_a_missing_placeholder_is_reported(pnp, game):
    init_german(pnp, game, {**GERMAN, "Page [{n}]": "Seite"})
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert result.exit_code == 1, result.output
    assert "'Page [{n}]'" in result.stderr and "placeholders" in result.stderr, result.stderr


def test_fuzzy_and_obsolete_entries_are_reported(pnp, game):
    po = init_german(pnp, game)
    text = po.read_text(encoding="utf-8").replace('msgid "Cards"', '#, fuzzy\nmsgid "Cards"')
    po.write_text(text + '\nmsgid "Gone"\nmsgstr "Weg"\n', encoding="utf-8")
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert result.exit_code == 1, result.output
    assert "fuzzy translation in de: 'Cards'" in result.stderr, result.stderr
    assert "no spec uses any more: 'Gone'" in result.output, result.output


def test_a_character_the_font_lacks_is_an_error_naming_the_string(pnp, game):
    init_german(pnp, game, {**GERMAN, "Bread": "Brot 漢"})
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert result.exit_code == 2, result.output
    assert "漢" in result.stderr and "Brot" in result.stderr, result.stderr
    assert "cards.yaml:" in result.stderr


def test_a_broken_catalog_is_a_clear_error(pnp, game):
    po = init_german(pnp, game)
    po.write_text(po.read_text(encoding="utf-8") + '\nmsgid "Broken\n', encoding="utf-8")
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert result.exit_code == 2, result.output
    assert "de.po" in result.stderr and "Traceback" not in result.output


def test_an_undeclared_language_is_refused(pnp, game):
    result = pnp("build", GAME, "--components", game.parent, "--lang", "fr")
    assert result.exit_code == 2, result.output
    assert "does not declare language 'fr'" in result.stderr


def test_german_text_that_no_longer_fits_is_reported_with_its_language(pnp, game):
    long = "Tausche " + "sehr " * 120 + "frei."
    init_german(pnp, game, {**GERMAN, "Trade freely with everyone.": long})
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert result.exit_code == 1, result.output
    assert "does not fit" in result.stderr and "'rule'" in result.stderr, result.stderr
    # English still fits
    english = pnp("check", GAME, "--components", game.parent)
    assert english.exit_code == 0, english.output


def test_the_contents_name_each_kind_by_its_translated_title(pnp, tmp_path):
    """The inventory lists The Chocolate Market's ingredient cards by their titles, in
    German in a German pack; a component of one kind lists no kinds at all."""
    out = tmp_path / "out"
    result = pnp("build", "chocolate-market", "--components", BUNDLED, "--out", out, "--lang", "de")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(out / "chocolate-market" / "de" / "chocolate-market.pdf") as doc:
        contents = re.sub(r"\s+", " ", doc.pages[0].extract_text())
    assert "Kakao 18 · Zucker 14 · Milch 10 · Haselnuss 10 · Trauben 8" in contents, contents
    assert "cocoa" not in contents and "victory-point" not in contents


BAD_HEADERS = {
    "a hundred million plural forms": ("nplurals=100000000; plural=(n != 1);", "nplurals"),
    "nplurals not a number": ("nplurals=abc; plural=(n != 1);", "nplurals"),
    "nplurals negative": ("nplurals=-3; plural=(n != 1);", "nplurals"),
    "nplurals zero": ("nplurals=0; plural=0;", "nplurals"),
    "a plural expression gettext cannot read": ("nplurals=2; plural=(n !!= 1;", "plural="),
}


@pytest.mark.parametrize("case", list(BAD_HEADERS))
@pytest.mark.parametrize("command", ["check", "i18n update"])
def test_a_catalog_header_out_of_bounds_is_an_error_at_its_line(pnp, game, case, command):
    """nplurals=100000000 in a 190-byte catalog took 1.6 GB in check and made i18n update
    write a hundred million msgstr[n]; nplurals=abc was exit 4 from i18n update. Each is now
    an error at the header's line (1 to 6 forms, as gettext's languages need)."""
    po = init_german(pnp, game)
    text = po.read_text(encoding="utf-8")
    header, message = BAD_HEADERS[case]
    text = re.sub(r"Plural-Forms: [^\\]*", f"Plural-Forms: {header}", text, count=1)
    po.write_text(text, encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if "Plural-Forms" in t)
    args = ("check", GAME, "--lang", "de") if command == "check" else ("i18n", "update", GAME)
    result = pnp(*args, "--components", game.parent)
    assert result.exit_code == 2, result.output
    assert f"de.po:{line}: broken catalog: Plural-Forms: {message}" in result.stderr, result.output
    assert po.read_text(encoding="utf-8") == text  # update wrote nothing
