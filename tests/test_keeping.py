"""What a translation must keep of its source (icons, markup, placeholders, lines), and the
plural rules and numbers of each language: one function at a time."""

from __future__ import annotations

import pytest

from generator.i18n import pofile
from generator.i18n.keeping import differences
from generator.i18n.numbers import number
from generator.i18n.plurals import (
    ENGLISH,
    Forms,
    PluralError,
    examples,
    number_of,
    rule_of,
)
from generator.i18n.strings import Words, words

SOURCE = "Gain :coin: :coin: and **draw** a card {n} times."


@pytest.mark.parametrize(
    ("translation", "said"),
    [
        ("Gagnez **piochez** une carte {n} fois.", "`:coin:` is missing (2 in the source, 0 here)"),
        ("Gagnez :coin: :coin: et **piochez une carte {n} fois.", "a closing `**` is missing"),
        ("Gagnez :piece: :coin: et **piochez** {n} fois.", "unknown icon `:piece:`"),
        ("Gagnez :coin: :coin: et **piochez** {fois} fois.", "placeholder `{n}` renamed `{fois}`"),
        ("Gagnez :coin: :coin: et **piochez** une carte.", "placeholder `{n}` is missing"),
        ("Gagnez :coin: :coin: et piochez une carte {n} fois.", "bold part(s)"),
        ("Gagnez :coin: :coin:\net **piochez** {n} fois.", "the source has 1 line(s)"),
    ],
)
def test_a_translation_that_loses_a_mark_is_told_what(translation, said):
    found = differences(SOURCE, translation)
    assert any(said in d for d in found), found


def test_a_translation_that_keeps_everything_passes():
    assert differences(SOURCE, "Gagnez :coin: :coin: et **piochez** une carte {n} fois.") == []
    # the order may change: a language puts words where it needs them
    assert differences(SOURCE, "{n} fois : **piochez**, :coin: :coin:") == []


@pytest.mark.parametrize(
    ("language", "counts", "forms"),
    [
        ("en", (1, 2, 0), ("1 page", "2 pages", "0 pages")),
        ("de", (1, 2), ("1 Seite", "2 Seiten")),
        ("fr", (0, 1, 2), ("0 page", "1 page", "2 pages")),
        ("pl", (1, 2, 5, 22, 25, 112), ("1 strona", "2 strony", "5 stron", "22 strony")),
    ],
)
def test_counted_engine_words_take_each_languages_plural_forms(language, counts, forms):
    shown = [words(language).text("count_pages", pages=n) for n in counts]
    assert shown[: len(forms)] == list(forms), shown
    if language == "pl":
        assert shown[4:] == ["25 stron", "112 stron"]


POLISH = "n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2"


def test_a_spec_string_that_takes_a_number_prints_the_form_its_rule_gives():
    """A translated counted string (a token page's title) in Polish: one form for 1, one
    for 2-4, 22-24, …, one for 5-21, 25, …; ``{n}`` written as the language writes it."""
    title = Forms(("Strona {n} (one)", "Strony {n} (few)", "Stron {n} (many)"), POLISH)
    assert [title.text(n, "pl") for n in (1, 2, 4, 5, 12, 22, 112)] == [
        "Strona 1 (one)",
        "Strony 2 (few)",
        "Strony 4 (few)",
        "Stron 5 (many)",
        "Stron 12 (many)",
        "Strony 22 (few)",
        "Stron 112 (many)",
    ]
    assert title.text(1000, "pl") == "Stron 1\u00a0000 (many)"  # Polish groups with a space
    assert Forms(("Seite {n}", "Seiten {n}")).text(10_000, "de") == "Seiten 10.000"
    # the source language's one text serves every number
    assert {Forms(("Page [{n}]",)).text(n, "en") for n in (0, 1, 2)} == {
        "Page [0]",
        "Page [1]",
        "Page [2]",
    }


def test_each_form_is_named_by_the_numbers_it_is_for():
    assert [examples(POLISH, form) for form in range(3)] == ["1", "2, 3, 4, …", "0, 5, 6, …"]
    assert [examples(ENGLISH, form) for form in range(2)] == ["1", "0, 2, 3, …"]


def test_a_range_of_players_counts_by_its_upper_end():
    assert number_of("2-4") == 4 and number_of("1") == 1 and number_of("5+") == 6
    assert words("en").text("inventory_subtitle", players=1).endswith("1 player")
    assert words("en").text("inventory_subtitle", players="2-4").endswith("2-4 players")
    assert words("pl").text("inventory_subtitle", players=1).endswith("dla 1 gracza")


def test_numbers_are_written_the_languages_way():
    # no-break spaces: a size is never parted from its unit nor across its ×
    assert words("de").text("size_rect", w=63.5, h=88.9) == "63,5\u00a0×\u00a088,9\u00a0mm"
    assert Words("en").text("size_rect", w=63.5, h=88.9) == "63.5\u00a0×\u00a088.9\u00a0mm"
    assert "160–250\u00a0g/m²" in words("fr").text("inventory_paper_all_card")
    assert number(1234.5, "fr") == "1\u202f234,5"
    assert number(0.1 + 0.2, "en") == "0.3"  # no float noise
    assert number("2-4", "de") == "2-4"  # not a number: as it is


@pytest.mark.parametrize(
    ("header", "said"),
    [
        (b'"Plural-Forms: nplurals=100000000; plural=0;\\n"', "1 to 6 plural forms"),
        (b'"Plural-Forms: nplurals=2; plural=(n > 1 ? 2 : 0);\\n"', "gives form 2"),
        (b'"Plural-Forms: plural=(n != 1);\\n"', "no nplurals"),
    ],
)
def test_a_plural_header_out_of_bounds_is_refused_before_it_is_used(header, said):
    with pytest.raises(PluralError, match=said.replace("(", r"\(")):
        pofile.read(b'msgid ""\nmsgstr ""\n' + header)


def test_the_arabic_rule_has_six_forms():
    rule = "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5"
    header = f'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=6; plural={rule};\\n"\n'
    catalog = pofile.read(header.encode())
    assert (catalog.num_plurals, catalog.plural_expr) == (6, rule)
    assert [rule_of(rule)(n) for n in (0, 1, 2, 3, 11, 100)] == [0, 1, 2, 3, 4, 5]
