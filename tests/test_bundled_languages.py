"""Every bundled game in every language it declares: no word of the source language slips onto
a translated page.

A page of the translated pack is read back from the PDF; a word on it that the source pack
prints but no translation (the game's catalog or the engine's) uses is a string that was not
translated: a field read as a code, a string extraction missed, a catalog entry that is not
used. Names that are the same in every language (the designer's) are allowed.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
import yaml
from conftest import BUNDLED

from generator.i18n import catalogs

WORD = re.compile(r"[^\W\d_]{2,}")
ICON = re.compile(r":[a-z0-9][a-z0-9-]*:")


def words(text: str) -> set[str]:
    return set(WORD.findall(ICON.sub("", text)))


# The assembly map's miniature of a board prints its labels at 3-5 pt, read back as letters
# scattered over the page ("if" of a German "Schiff"); every piece's own text is 6 pt or more
# (the check's floor), so leaving out smaller text leaves out nothing there is to translate.
# Only upright text: pdfplumber's size of a turned character is its width, not its size.
SMALLEST = 5.5  # points


def legible(obj: dict) -> bool:
    upright = obj.get("object_type") == "char" and obj.get("upright")
    return not upright or obj.get("size", 0) >= SMALLEST


def page_words(pdf: Path) -> list[set[str]]:
    with pdfplumber.open(pdf) as doc:
        return [words(page.filter(legible).extract_text() or "") for page in doc.pages]


def translated_words(root: Path, language: str) -> set[str]:
    """Every word the translations of a game into ``language`` use (its catalog, the engine's
    and its own engine catalog), reversed too (text turned upside down reads back so), and
    the designer's name."""
    paths = [
        (root, catalogs.catalog_dir(root) / f"{language}.po"),
        (root, catalogs.engine_file(root, language)),
        (catalogs.ENGINE_LOCALE, catalogs.ENGINE_LOCALE / f"{language}.po"),
    ]
    out: set[str] = set()
    for folder, path in paths:
        if not path.is_file():
            continue
        for message in catalogs.read_catalog(folder, path):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for string in strings:
                out |= words(string or "")
    spec = yaml.safe_load((root / "game.yaml").read_text(encoding="utf-8"))
    out |= words(str(spec.get("designer", "")))
    return out | {w[::-1] for w in out}


def slips(pnp, root: Path, out: Path) -> dict[str, list[tuple[int, list[str]]]]:
    """Build the game in every language it declares; for each translation, the pages with a
    word of the source pack that no translation uses."""
    result = pnp("build", root.name, "--components", root.parent, "--out", out, "--lang", "all")
    assert result.exit_code == 0, result.output
    languages = yaml.safe_load((root / "game.yaml").read_text(encoding="utf-8"))["languages"]
    source = set().union(*page_words(out / root.name / languages[0] / f"{root.name}.pdf"))
    found: dict[str, list[tuple[int, list[str]]]] = {}
    for language in languages[1:]:
        english = source - translated_words(root, language)
        pages = page_words(out / root.name / language / f"{root.name}.pdf")
        for number, page in enumerate(pages, 1):
            # a word on a page turned upside down reads back reversed
            hits = {w for w in page if w in english} | {w[::-1] for w in page if w[::-1] in english}
            if hits:
                found.setdefault(language, []).append((number, sorted(hits)))
        found.setdefault(language, [])
    return found


TRANSLATED = sorted(
    p.parent.name
    for p in BUNDLED.glob("*/game.yaml")
    if len(yaml.safe_load(p.read_text(encoding="utf-8")).get("languages", [])) > 1
)


@pytest.mark.parametrize("name", TRANSLATED)
def test_no_source_word_slips_onto_a_translated_page(pnp, tmp_path, name):
    found = slips(pnp, BUNDLED / name, tmp_path / "out")
    assert found and all(pages == [] for pages in found.values()), found


def test_a_printed_field_kept_as_a_code_is_found(pnp, tmp_path):
    """The check above can fail: Chocolate Coin's Joker says who plays its faction event,
    'nobody'; declared a code, the word stays English in the German pack."""
    root = tmp_path / "components" / "chocolate-coin"
    shutil.copytree(BUNDLED / "chocolate-coin", root)
    template = root / "templates" / "event-face.svg.j2"
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace("factions.hint: text", "factions.hint: code"))
    found = slips(pnp, root, tmp_path / "out")
    assert any("nobody" in hit for _, hit in found["de"]), found


def test_every_bundled_game_is_in_two_languages_and_one_in_a_right_to_left_one():
    """Every bundled game ships a second language, each with its catalog (so the check above
    runs on all of them), and one ships Hebrew or Arabic, so anyone can look at a
    right-to-left pack."""
    games = sorted(p.parent for p in BUNDLED.glob("*/game.yaml"))
    declared = {
        root.name: yaml.safe_load((root / "game.yaml").read_text(encoding="utf-8"))["languages"]
        for root in games
    }
    assert len(declared) == 5 and all(len(langs) >= 2 for langs in declared.values()), declared
    for name, languages in declared.items():
        for language in languages[1:]:
            assert (BUNDLED / name / "locale" / f"{language}.po").is_file(), (name, language)
    assert sorted(declared) == TRANSLATED
    right_to_left = {n for n, langs in declared.items() if {"he", "ar"} & set(langs)}
    assert right_to_left, declared
    for name in right_to_left:
        for language in {"he", "ar"} & set(declared[name]):
            assert catalogs.engine_file(BUNDLED / name, language).is_file(), (name, language)
