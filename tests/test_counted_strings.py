"""Spec strings that take a number (a token page's title, ``{n}`` the page number) in a
language with three plural forms: the catalog's plural entry, each form checked at its
catalog line, an older catalog's one translation carried into the forms, and the built PDF's
page titles read back in the form Polish gives each page number."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from test_engine_words import init, msgfmt
from test_i18n import GAME, write_small_game

from generator.i18n.catalogs import read_catalog

PAGES = 5
POLISH = {
    "Little game": "Mała gra",
    "Cards": "Karty",
    "Trade freely with everyone.": "Handluj swobodnie ze wszystkimi.",
    "Bread": "Chleb",
    "Tokens": "Żetony",
    # one form each for 1; 2-4 (22-24, …); 0, 5-21 (25-31, …): Polish's Plural-Forms
    "Page [{n}]": ("Strona [{n}] jedna", "Strona [{n}] kilka", "Strona [{n}] wiele"),
}
TITLE = re.compile(r"(?:Strona|Page) \[(\d+)\](?: (jedna|kilka|wiele))?")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The small game of test_i18n with five token pages."""
    root = write_small_game(tmp_path)
    pages = root / "pages.yaml"
    pages.write_text(pages.read_text().replace("pages: 1", f"pages: {PAGES}"))
    return root


def page_titles(pdf: Path) -> list[tuple[str, ...]]:
    """The token pages' titles read back from the PDF, in page order."""
    document = pdfium.PdfDocument(pdf)
    try:
        text = "\n".join(page.get_textpage().get_text_range() for page in document)
    finally:
        document.close()
    return [tuple(part for part in found if part) for found in TITLE.findall(text)]


def entry_line(po: Path) -> int:
    lines = po.read_text(encoding="utf-8").splitlines()
    return next(n for n, t in enumerate(lines, 1) if t == 'msgid "Page [{n}]"')


def check(pnp, game: Path):
    return pnp("check", GAME, "--components", game.parent, "--lang", "pl")


def test_each_token_page_prints_the_polish_form_for_its_number(pnp, game, tmp_path):
    po = init(pnp, game, "pl", POLISH)
    text = po.read_text(encoding="utf-8")
    assert 'msgid_plural "Page [{n}]"\nmsgstr[0] "Strona [{n}] jedna"\n' in text
    assert 'msgstr[2] "Strona [{n}] wiele"\n' in text and "msgstr[3]" not in text
    done = msgfmt(po)  # GNU gettext takes the plural entry ({n} in every form)
    said = [t for t in done.stderr.splitlines() if "header field" not in t]  # the init's defaults
    assert done.returncode == 0 and said == [], done.stderr
    result = check(pnp, game)
    assert result.exit_code == 0 and "translation complete" in result.output, result.stderr
    out = tmp_path / "out"
    for language in ("pl", "en"):
        build = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", language)
        assert build.exit_code == 0, build.stderr
    assert page_titles(out / GAME / "pl" / f"{GAME}.pdf") == [
        ("1", "jedna"),
        ("2", "kilka"),
        ("3", "kilka"),
        ("4", "kilka"),
        ("5", "wiele"),
    ]
    english = page_titles(out / GAME / "en" / f"{GAME}.pdf")
    assert english == [(str(n),) for n in range(1, PAGES + 1)]


@pytest.mark.parametrize(
    ("forms", "said"),
    [
        (
            ("Strona [{n}] jedna", "Strona [{n}] kilka", "Strona wiele"),
            "msgstr[2] (the form for 0, 5, 6, …): placeholder `{n}` is missing",
        ),
        (
            ("Strona [{n}] jedna", "", "Strona [{n}] wiele"),
            "msgstr[1] (the form for 2, 3, 4, …) is empty; give every form from msgstr[0] "
            "to msgstr[2]",
        ),
    ],
)
def test_a_broken_form_is_an_error_at_its_catalog_line(pnp, game, tmp_path, forms, said):
    po = init(pnp, game, "pl", {**POLISH, "Page [{n}]": forms})
    result = check(pnp, game)
    assert result.exit_code == 1, result.output
    lines = [t for t in result.stderr.splitlines() if "'Page [{n}]'" in t]
    assert lines == [f"{po}:{entry_line(po)}: the pl translation of 'Page [{{n}}]': {said}"]
    out = tmp_path / "out"
    build = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", "pl")
    assert build.exit_code != 0 and not (out / GAME / "pl").exists(), build.output


@pytest.mark.parametrize("context", ["with its msgctxt", "from before message contexts"])
def test_an_older_catalogs_one_translation_is_carried_into_every_form(pnp, game, tmp_path, context):
    """A catalog written when the page title was a plain string: check says to update it,
    at its line; update puts its translation in each form (and says so there); nothing is
    dropped, and the pages print it."""
    po = init(pnp, game, "pl", POLISH)
    plain = re.sub(
        r"msgid_plural .*\nmsgstr\[0\] .*\nmsgstr\[1\] .*\nmsgstr\[2\] .*\n",
        'msgstr "Strona [{n}]"\n',
        po.read_text(encoding="utf-8"),
    )
    if context != "with its msgctxt":
        assert 'msgctxt "pages: page_title"\nmsgid "Page [{n}]"\nmsgstr ' in plain
        plain = plain.replace('msgctxt "pages: page_title"\n', "")
    po.write_text(plain, encoding="utf-8")
    line = entry_line(po)
    result = check(pnp, game)
    assert result.exit_code == 1
    assert f"{po}:{line}: the pl translation of 'Page [{{n}}]': it takes a number" in (
        result.stderr
    )
    assert "msgstr[0] to msgstr[2]" in result.stderr and "pnp i18n update" in result.stderr
    update = pnp("i18n", "update", GAME, "--components", game.parent)
    assert update.exit_code == 0, update.output
    line = entry_line(po)
    assert f"{po}:{line}: note: 'Page [{{n}}]' takes a number now" in update.stderr
    assert "msgstr[1] for 2, 3, 4, …" in update.stderr
    catalog = read_catalog(game, po)
    entry = catalog.get("Page [{n}]", "pages: page_title")
    assert entry.string == ("Strona [{n}]",) * 3 and not entry.fuzzy
    assert not catalog.obsolete
    assert check(pnp, game).exit_code == 0
    out = tmp_path / "out"
    build = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", "pl")
    assert build.exit_code == 0, build.stderr
    assert page_titles(out / GAME / "pl" / f"{GAME}.pdf") == [(str(n),) for n in range(1, 6)]


def test_a_form_too_long_for_its_title_band_is_said_at_its_catalog_line(pnp, game):
    """A page title's form that does not fit its band is an error at the plural entry in
    pl.po, the language named, not at the component's header line."""
    header = game / "templates" / "header.svg.j2"
    header.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>'
        '{% set t = fit(page.title, box.w - 4, 9, 6, 5, box="title") %}'
        '{% for line in t.lines %}<text x="2" y="{{ 7 + loop.index0 * t.leading }}" '
        'font-size="{{ t.size }}" font-family="sans-serif">{{ line }}</text>{% endfor %}</svg>',
        encoding="utf-8",
    )
    long = "Strona [{n}] " + "bardzo długi tytuł strony " * 12
    po = init(pnp, game, "pl", {**POLISH, "Page [{n}]": (POLISH["Page [{n}]"][0], long, long)})
    result = check(pnp, game)
    assert result.exit_code != 0
    said = [line for line in result.stderr.splitlines() if "does not fit" in line]
    assert said, result.stderr
    assert all(f"pl.po:{entry_line(po)}:" in line for line in said), said
    assert all("the pl translation" in line for line in said), said
