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
    return write_small_game(tmp_path)


def write_small_game(tmp_path: Path) -> Path:
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


def translate(po: Path, table: dict[str, str] | dict[str, str | tuple[str, ...]]) -> None:
    """Fill msgstr of each msgid in ``table`` (the file is a fresh pnp i18n init); a plural
    entry (a string that takes a number) gets the table's forms in msgstr[0], msgstr[1], …
    (its one text in each when the table gives one)."""
    text = po.read_text(encoding="utf-8")
    for source, translated in table.items():
        forms = (translated,) if isinstance(translated, str) else translated
        text = text.replace(
            f'msgid "{source}"\nmsgstr ""', f'msgid "{source}"\nmsgstr "{forms[0]}"'
        )
        plural = re.compile(
            rf'(msgid "{re.escape(source)}"\nmsgid_plural .*\n)((?:msgstr\[\d\] ""\n)+)'
        )
        text = plural.sub(lambda m, f=forms: m[1] + _forms(f, m[2].count("msgstr")), text)
    po.write_text(text, encoding="utf-8")


def _forms(forms: tuple[str, ...], count: int) -> str:
    """msgstr[0] to msgstr[count - 1], the last of ``forms`` repeated where they run out."""
    return "".join(f'msgstr[{i}] "{forms[min(i, len(forms) - 1)]}"\n' for i in range(count))


def init_german(pnp, game: Path, table: dict[str, str] = GERMAN) -> Path:
    result = pnp("i18n", "init", GAME, "de", "--components", game.parent)
    assert result.exit_code == 0, result.output
    po = game / "locale" / "de.po"
    translate(po, table)
    return po


def test_extract_lists_every_printed_string_with_its_place(pnp, game):
    result = pnp("i18n", "extract", GAME, "--components", game.parent)
    assert result.exit_code == 0, result.output
    pot = game / "locale" / f"{GAME}.pot"
    catalog = read_catalog(game, pot)
    found = {(m.id[0] if m.pluralizable else m.id): m.locations for m in catalog if m.id}
    assert set(found) == set(GERMAN), found
    assert ("cards.yaml", 7) in found["Trade freely with everyone."]
    assert ("pages.yaml", 6) in found["Page [{n}]"]
    # the page title takes a number: a plural entry, with English's one text for every n
    assert catalog.get("Page [{n}]", "pages: page_title").id == ("Page [{n}]", "Page [{n}]")
    assert 'msgid_plural "Page [{n}]"\nmsgstr[0] ""\nmsgstr[1] ""\n' in pot.read_text("utf-8")
    assert sum(m.pluralizable for m in catalog) == 1  # no other string takes a number
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
    """A plural form without the page number: an error at the entry's line, naming the form
    and the numbers it is for; the form that keeps it is no error."""
    init_german(pnp, game, {**GERMAN, "Page [{n}]": ("Seite [{n}]", "Seiten")})
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert result.exit_code == 1, result.output
    po = game / "locale" / "de.po"
    lines = po.read_text(encoding="utf-8").splitlines()
    line = next(n for n, t in enumerate(lines, 1) if t == 'msgid "Page [{n}]"')
    assert lines[line + 1 : line + 3] == ['msgstr[0] "Seite [{n}]"', 'msgstr[1] "Seiten"']
    said = [t for t in result.stderr.splitlines() if "Page [{n}]" in t]
    assert said == [
        f"{po}:{line}: the de translation of 'Page [{{n}}]': "
        "msgstr[1] (the form for 0, 2, 3, …): placeholder `{n}` is missing"
    ], result.stderr
    assert "not translated" not in result.stderr, result.stderr  # said once, at the catalog


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
    # said at the translation's line of the catalog, with the language named
    lines = (game / "locale" / "de.po").read_text(encoding="utf-8").splitlines()
    at = next(n for n, t in enumerate(lines, 1) if t == 'msgid "Trade freely with everyone."')
    said = [t for t in result.stderr.splitlines() if "does not fit" in t]
    assert said[0].startswith(f"components/{GAME}/locale/de.po:{at}:") or (
        f"/locale/de.po:{at}: text does not fit" in said[0]
    ), said
    assert "shorten the de translation" in said[0], said
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
    kinds = "Kakao × 18 · Zucker × 14 · Milch × 10 · Haselnuss × 10 · Trauben × 8"
    assert kinds in contents, contents
    assert "cocoa" not in contents and "victory-point" not in contents


BAD_HEADERS = {
    "a hundred million plural forms": ("nplurals=100000000; plural=(n != 1);", "nplurals"),
    "nplurals not a number": ("nplurals=abc; plural=(n != 1);", "nplurals"),
    "nplurals negative": ("nplurals=-3; plural=(n != 1);", "nplurals"),
    "nplurals zero": ("nplurals=0; plural=0;", "nplurals"),
    "a plural expression gettext cannot read": ("nplurals=2; plural=(n !!= 1;", "plural rule"),
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
    (said,) = [t for t in result.stderr.splitlines() if f"de.po:{line}: broken catalog:" in t]
    assert message in said, result.stderr
    assert po.read_text(encoding="utf-8") == text  # update wrote nothing


def test_a_single_word_no_template_declares_fails_the_check_until_declared(pnp, game):
    """'nobody' reads like a code (a suit, a rank) as much as a word: a field no template
    declares cannot be guessed, so the check says so at its line; declared text, it is
    offered to translators and printed translated."""
    cards = game / "cards.yaml"
    cards.write_text(
        cards.read_text().replace('colour: "#aa7733"}', 'colour: "#aa7733", hint: nobody}')
    )
    face = game / "templates" / "face.svg.j2"
    face.write_text(face.read_text().replace("</svg>", '<text y="40">{{ card.hint }}</text></svg>'))
    init_german(pnp, game)
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert result.exit_code == 1, result.output
    wanted = "cards.yaml:9: field 'hint' ('nobody') is declared by no template"
    assert wanted in result.stderr, result.stderr
    face.write_text("{#- fields\nhint: text  who plays\n-#}\n" + face.read_text())
    assert pnp("i18n", "update", GAME, "--components", game.parent).exit_code == 0
    translate(game / "locale" / "de.po", {"nobody": "niemand"})
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert result.exit_code == 0, result.stderr


def test_a_column_a_sheet_prints_is_text_and_a_field_nothing_uses_is_left_alone(pnp, game):
    """A deck's field shown in a sheet's table prints, whatever the deck's templates say; a
    field no template names and no table shows cannot print, so it is neither offered nor an
    error, even when it reads like a code: only a warning that it prints nowhere."""
    cards = game / "cards.yaml"
    text = cards.read_text().replace('"#aa7733"}', '"#aa7733", hint: nobody, spare: alpha}')
    cards.write_text(text)
    write(
        game / "rules.yaml",
        """\
        kind: sheet
        title: Rules
        sections:
          - heading: Cards
            blocks:
              - table: {header: [Card, Who], from: cards, columns: [label, hint]}
        """,
    )
    result = pnp("i18n", "extract", GAME, "--components", game.parent)
    assert result.exit_code == 0, result.output
    catalog = read_catalog(game, game / "locale" / f"{GAME}.pot")
    found = {m.id: m for m in catalog if m.id}
    assert "nobody" in found and "alpha" not in found, sorted(found)
    assert "printed: a column of a table on Rules" in found["nobody"].auto_comments
    init_german(pnp, game, {**GERMAN, "nobody": "niemand", "Rules": "Regeln"})
    result = pnp("check", GAME, "--components", game.parent, "--lang", "de")
    assert "field 'spare'" not in result.stderr and "'alpha'" not in result.stderr, result.stderr
    assert "warning: column 'spare' is used by no field of face.svg.j2" in result.stderr
    assert "not translated into de: 'Who'" in result.stderr  # the header is text too


def test_the_check_counts_a_missing_string_once_as_its_catalog_has_it(pnp, tmp_path, monkeypatch):
    """A string a spreadsheet uses on two rows is one catalog entry: the check names both
    places and counts it once, so its count is the one ``i18n init`` gave to translate."""
    monkeypatch.chdir(tmp_path)
    assert pnp("new", "war", "--from", "ridge").exit_code == 0
    spec = tmp_path / "components" / "war" / "game.yaml"
    spec.write_text(spec.read_text().replace("languages: [en]", "languages: [en, de]"))
    result = pnp("i18n", "init", "war", "de")
    (given,) = re.findall(r"(\d+) strings to translate", result.output)
    result = pnp("check", "war", "--lang", "de")
    assert result.exit_code == 1, result.output
    hq = [ln for ln in result.stderr.splitlines() if ln.endswith("not translated into de: 'HQ'")]
    assert len(hq) == 2, result.stderr
    assert f"war [de]: {given} string(s) not translated" in result.output, result.output
