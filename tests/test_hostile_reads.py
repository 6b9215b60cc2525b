"""Mistakes and failures that ended as internal errors, now the file's error at its line:
a read the disk fails (EIO), a typo in a template's ``fields`` block, and a value a template
prints that would make gigabytes of text."""

from __future__ import annotations

import errno
import io
import os
import tracemalloc

import pytest
from click.testing import CliRunner
from conftest import CARD_FACE
from test_hostile import DECK, game, limited_build

from generator import paths
from generator.art import clock
from generator.art.sandbox import Budget, LimitedEnvironment, render
from generator.cli import cli


class _FailingDisk(io.RawIOBase):
    """A file whose every read fails as a dying disk's does."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # noqa: ANN001 - io's signature
        raise OSError(errno.EIO, os.strerror(errno.EIO))


def test_a_read_the_disk_fails_is_an_error_at_the_file(tmp_path, monkeypatch):
    components = game(tmp_path)
    opened = os.fdopen

    def fdopen(fd: int, *args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - os.fdopen's
        if os.readlink(f"/proc/self/fd/{fd}").endswith("deck.yaml"):
            os.close(fd)
            return io.BufferedReader(_FailingDisk())
        return opened(fd, *args, **kwargs)

    monkeypatch.setattr(paths.os, "fdopen", fdopen)
    result = CliRunner().invoke(cli, ["check", "--components", str(components)])
    assert result.exit_code == 2, (result.output, result.exception)
    assert "deck.yaml" in result.output and "Input/output error" in result.output
    assert "Traceback" not in result.output


def test_hashing_a_file_the_disk_fails_to_read_is_refused_in_words(tmp_path, monkeypatch):
    (tmp_path / "f.bin").write_bytes(b"x" * 10)
    monkeypatch.setattr(paths.os, "fdopen", lambda fd, *a, **k: io.BufferedReader(_FailingDisk()))
    with pytest.raises(paths.PathRefused, match="Input/output error"):
        list(paths.chunks(tmp_path, tmp_path / "f.bin", 100))


FIELDS_TYPO = "{#- fields\nname: txt   the name\n-#}\n" + CARD_FACE


def test_a_typo_in_a_fields_block_is_an_error_at_its_line(tmp_path):
    deck = DECK.split("cards:")[0] + "cards: {from: cards.csv}\n"
    files = {"templates/face.svg.j2": FIELDS_TYPO, "deck.yaml": deck, "cards.csv": "name\na\n"}
    run, _ = limited_build(tmp_path, game(tmp_path, files))
    assert run.returncode == 2, run.stderr
    assert "face.svg.j2:2: field kind 'txt' is not one of" in run.stderr, run.stderr


def test_check_says_the_same_typo(tmp_path):
    deck = DECK.split("cards:")[0] + "cards: {from: cards.csv}\n"
    files = {"templates/face.svg.j2": FIELDS_TYPO, "deck.yaml": deck, "cards.csv": "name\na\n"}
    components = game(tmp_path, files)
    result = CliRunner().invoke(cli, ["check", "--components", str(components)])
    assert result.exit_code == 2, (result.output, result.exception)
    assert "face.svg.j2:2:" in result.output


def test_a_text_past_the_limit_is_an_error_at_its_line(tmp_path):
    """A 42 KB Arabic title was shaped for 146 s (now 2 s); 120,000 characters are refused
    at the spec line."""
    title = ("مرحبا بالعالم " * 9_000)[:120_000]
    deck = DECK.replace("title: Alpha", f'title: "{title}"')
    face = CARD_FACE.replace("card.name", "card.title")
    run, _ = limited_build(
        tmp_path, game(tmp_path, {"deck.yaml": deck, "templates/face.svg.j2": face})
    )
    assert run.returncode == 2, run.stderr
    assert "deck.yaml:6: " in run.stderr and "is 120,000 characters long" in run.stderr


PRINTED = {
    "a list of a hundred copies of a million items": "{% set x = [[0] * 1000000] * 100 %}{{ x }}",
    "the same by print": "{% set x = [[0] * 1000000] * 100 %}{% print x %}",
    "in a mapping": '{% set x = [[0] * 1000000] * 100 %}{{ {"a": x} }}',
    "in a namespace": "{% set ns = namespace(v=[[0] * 1000000] * 100) %}{{ ns }}",
    "a mapping's values": '{% set x = [[0] * 1000000] * 100 %}{{ {"a": x}.values() }}',
}


@pytest.mark.parametrize("case", list(PRINTED))
def test_printing_a_value_is_weighed_before_it_becomes_text(case: str):
    """Printing such a list took 300 MB to 2 GB before the render's clock stopped it; now it
    is refused before any text is made, in a few MB."""
    environment = LimitedEnvironment()
    tracemalloc.start()
    try:
        with clock.new_build(), pytest.raises(Budget, match="a template may make 1,000,000"):
            render(environment.from_string(PRINTED[case]), {})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50_000_000, peak  # the list itself is 8 MB; its text would be 300 MB


def test_a_small_value_prints_as_before():
    environment = LimitedEnvironment()
    with clock.new_build():
        text = render(environment.from_string('{{ [1, "a"] }} {{ {"k": 2} }} {{ 3.5 }}'), {})
    assert text == "[1, 'a'] {'k': 2} 3.5"
