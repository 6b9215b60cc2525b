"""Catalogs as translators' tools write and name them: pnp writes a catalog the way GNU
gettext does (msgcat gives the same bytes back), in the specs' order with references, with
gettext's plural rule for the language and every header field kept; a second update with
nothing changed changes nothing; a catalog named by region (fr_FR.po) is read for its
language, and one that is not read is named."""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest
from test_engine_words import FRENCH, declare, init
from test_i18n import GAME, write_small_game

from generator.i18n import catalogs
from generator.i18n.powrap import po_lines


@pytest.fixture
def game(tmp_path: Path) -> Path:
    return write_small_game(tmp_path)


def msgcat(path: Path) -> bytes:
    """The catalog as GNU msgcat writes it back (make test installs gettext)."""
    done = subprocess.run(["msgcat", str(path)], capture_output=True, check=True)
    return done.stdout


def test_a_new_catalog_is_written_as_gettext_writes_it(pnp, game):
    po = init(pnp, game, "fr", FRENCH)
    text = po.read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"' in text  # gettext's, not CLDR's
    references = re.findall(r"^#: (\S+)", text, re.MULTILINE)
    assert references[:2] == ["game.yaml:1", "cards.yaml:2"], references  # the specs' order
    assert msgcat(po) == po.read_bytes()
    # a long translation is wrapped at 79 columns, as msgmerge wraps it
    long = "Échangez librement avec tout le monde, à chaque tour, autant que vous voulez."
    po.write_text(text.replace("Échangez librement avec tout le monde.", long), "utf-8")
    assert pnp("i18n", "update", GAME, "--components", game.parent).exit_code == 0
    written = po.read_bytes()
    assert max(len(line) for line in written.decode("utf-8").splitlines()) <= 79
    assert msgcat(po) == written


def test_a_second_update_with_nothing_changed_leaves_the_file_as_it_was(pnp, game):
    po = init(pnp, game, "fr", FRENCH)
    text = po.read_text(encoding="utf-8")
    header = '"Language: fr\\n"\n'
    po.write_text(text.replace(header, header + '"X-Generator: Poedit 3.4\\n"\n'), "utf-8")
    assert pnp("i18n", "update", GAME, "--components", game.parent).exit_code == 0
    first = po.read_bytes()
    assert b'"X-Generator: Poedit 3.4\\n"' in first  # a field pnp does not know is kept
    assert pnp("i18n", "update", GAME, "--components", game.parent).exit_code == 0
    assert po.read_bytes() == first


def test_a_catalog_with_babels_cldr_rule_moves_to_gettexts(pnp, game):
    """pnp wrote French catalogs with CLDR's three forms (the second for a million); update
    moves them to gettext's two, each form keeping what was translated for its numbers."""
    po = init(pnp, game, "fr", FRENCH)
    text = po.read_text(encoding="utf-8")
    cldr = "nplurals=3; plural=(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"
    text = text.replace("nplurals=2; plural=(n > 1);", cldr)
    text = re.sub(
        r'msgstr\[0\] "Page \[\{n\}\]"\nmsgstr\[1\] "Page \[\{n\}\]"\n',
        'msgstr[0] "Page {n}"\nmsgstr[1] "Page de million {n}"\nmsgstr[2] "Pages {n}"\n',
        text,
    )
    po.write_text(text, "utf-8")
    result = pnp("i18n", "update", GAME, "--components", game.parent)
    assert result.exit_code == 0, result.output
    assert "Plural-Forms is now gettext's" in result.stderr
    moved = po.read_text(encoding="utf-8")
    assert "nplurals=2; plural=(n > 1);" in moved
    assert 'msgstr[0] "Page {n}"\nmsgstr[1] "Pages {n}"\n' in moved, moved


def test_a_catalog_named_by_region_is_read_for_its_language(pnp, game):
    po = init(pnp, game, "fr", FRENCH)
    regional = po.with_name("fr_FR.po")
    po.rename(regional)
    result = pnp("check", GAME, "--components", game.parent, "--lang", "fr")
    assert result.exit_code == 0, result.stderr
    assert "not translated" not in result.stderr
    assert "translation complete (from " in result.output and "fr_FR.po" in result.output
    again = pnp("i18n", "init", GAME, "fr", "--components", game.parent)
    assert again.exit_code != 0 and "fr_FR.po exists" in again.output


def test_two_catalogs_of_a_language_are_named(pnp, game):
    po = init(pnp, game, "fr", FRENCH)
    po.rename(po.with_name("fr_FR.po"))
    (game / "locale" / "fr_CA.po").write_bytes((game / "locale" / "fr_FR.po").read_bytes())
    result = pnp("check", GAME, "--components", game.parent, "--lang", "fr")
    assert result.exit_code == 2
    assert "fr_CA.po" in result.stderr and "fr_FR.po" in result.stderr, result.stderr
    assert "rename the one to use to fr.po" in result.stderr
    (game / "locale" / "fr.po").write_bytes((game / "locale" / "fr_FR.po").read_bytes())
    result = pnp("check", GAME, "--components", game.parent, "--lang", "fr")
    assert result.exit_code == 0, result.stderr
    unread = [line for line in result.stderr.splitlines() if "warning: not read" in line]
    assert len(unread) == 2 and all("fr.po is the fr catalog" in line for line in unread)


def test_a_language_with_a_region_takes_the_engines_words_of_its_language(pnp, game):
    """pt_BR: the game's catalog is pt_BR.po, the engine's words Portuguese (pt.po)."""
    declare(game, "pt_BR")
    assert pnp("i18n", "init", GAME, "pt_BR", "--components", game.parent).exit_code == 0
    po = game / "locale" / "pt_BR.po"
    assert "nplurals=2; plural=(n > 1);" in po.read_text(encoding="utf-8")  # gettext's pt_BR
    catalog = catalogs.read_catalog(game, po)
    for message in catalog:
        if message.id:
            one = message.id if isinstance(message.id, str) else message.id[0]
            message.string = one if isinstance(message.id, str) else (one, one)
    catalogs.write_catalog(catalog, po)
    result = pnp("check", GAME, "--components", game.parent, "--lang", "pt_BR")
    assert result.exit_code == 0, result.stderr
    assert "engine" not in result.stderr


POOL = (
    list("abcdefghij") * 6
    + [" "] * 20
    + list("0123456789-–—/:.,;!?()[]{}«»“”‘’\"'%·×…°²+#$&*=<>@|~^_`é")
    + ["\u00a0", "\u202f", "\u200b", "\\", "\n", "\t", "\u064e"]
    + list("خبزמשחקक\u093fก\u0e31中文")
)


def test_strings_are_wrapped_as_msgcat_wraps_them(tmp_path):
    """pnp's line breaking against GNU msgcat's on 400 random strings of the characters
    translators write (spaces, dashes, slashes, quotes, no-break spaces, escapes, Arabic,
    Hebrew, Devanagari, Thai, Chinese): the same lines, as msgid, msgctxt and msgstr."""
    generator = random.Random(39)
    texts = [
        "".join(generator.choice(POOL) for _ in range(generator.randint(1, 240)))
        for _ in range(400)
    ]
    lines = ['msgid ""', 'msgstr "Content-Type: text/plain; charset=UTF-8\\n"', ""]
    for number, text in enumerate(texts):
        lines += [*po_lines("msgctxt", f"{number} {text[:60]}"), *po_lines("msgid", text)]
        lines += [*po_lines("msgstr", text[::-1]), ""]
    ours = "\n".join(lines)
    path = tmp_path / "random.po"
    path.write_text(ours, encoding="utf-8")
    assert msgcat(path).decode("utf-8") == ours
