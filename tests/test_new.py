"""``pnp new`` and working inside a game folder: every starter builds and checks at once, a
bundled game and each of the docs' games of other shapes can be copied, nothing existing is
touched, and build, check and list find the game they run in (its own output never makes it
look changed)."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from generator.cli.new import DOCS, SAMPLES, SNIPPET, STARTERS
from generator.model.gamefolders import SAMPLE_GAMES


@pytest.fixture
def inside(monkeypatch, tmp_path):
    """Run from ``tmp_path`` (or a folder given later), as a user in a terminal would."""
    monkeypatch.chdir(tmp_path)
    return monkeypatch.chdir


@pytest.mark.parametrize("template", list(STARTERS))
def test_every_starter_builds_and_checks_at_once(pnp, inside, tmp_path, template):
    result = pnp("new", "fresh", "--template", template)
    assert result.exit_code == 0, result.output
    assert "next: pnp build fresh" in result.output
    game = tmp_path / "components" / "fresh"
    assert {p.name for p in game.iterdir()} == {
        "game.yaml",
        "cards.yaml",
        "cards.csv",
        "art",
        "README.md",
    }
    readme = (game / "README.md").read_text(encoding="utf-8")
    assert all(f"--from {sample}" in readme for sample in SAMPLES), readme  # other shapes
    assert pnp("check").exit_code == 0
    result = pnp("build")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "output" / "fresh" / "fresh.pdf").is_file()


def test_a_bundled_game_is_copied_and_builds(pnp, inside, tmp_path):
    result = pnp("new", "my-schokoly", "--from", "schokoly")
    assert result.exit_code == 0, result.output
    game = tmp_path / "components" / "my-schokoly"
    assert (game / "game.yaml").is_file() and (game / "locale" / "de.po").is_file()
    result = pnp("build", "my-schokoly", "--lang", "de")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("sample", list(SAMPLES))
def test_a_game_of_another_shape_is_copied_from_the_docs_and_checks_strictly(
    pnp, inside, tmp_path, sample
):
    """A designer starting a wargame, a roll-and-write or a board game copies the docs' game of
    that shape: it builds and passes the strict check at once, without the docs' quote marks."""
    result = pnp("new", "mine", "--from", sample)
    assert result.exit_code == 0, result.output
    game = tmp_path / "components" / "mine"
    copied = sorted(p.relative_to(game) for p in game.rglob("*") if p.is_file())
    shipped = sorted(
        p.relative_to(SAMPLE_GAMES / sample)
        for p in (SAMPLE_GAMES / sample).rglob("*")
        if p.is_file() and "output" not in p.parts and "__pycache__" not in p.parts
    )
    assert copied == sorted([*shipped, Path("README.md")]) and shipped
    readme = (game / "README.md").read_text(encoding="utf-8")
    shape, _, page = SAMPLES[sample]
    assert DOCS + page in readme and shape in readme, readme
    specs = "".join(p.read_text(encoding="utf-8") for p in game.glob("*.yaml"))
    assert not SNIPPET.search(specs) and "--8<--" not in specs
    result = pnp("check", "mine", "--strict")
    assert result.exit_code == 0, result.output
    assert pnp("build", "mine").exit_code == 0
    assert (tmp_path / "output" / "mine" / "mine.pdf").is_file()


def test_every_shape_offered_is_a_docs_game_and_ships_in_the_wheel():
    """SAMPLES names docs/examples folders, each of whose files the wheel's package data
    takes (pyproject.toml), and no more."""
    repo = Path(__file__).resolve().parent.parent
    config = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    patterns = config["setuptools"]["package-data"]["generator.samples"]
    assert config["setuptools"]["package-dir"]["generator.samples"] == "docs/examples"
    assert {pattern.split("/")[0] for pattern in patterns} == set(SAMPLES)
    documentation = tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))
    assert documentation["project"]["urls"]["Documentation"] == DOCS + "index.md"
    assert all((repo / "docs" / page).is_file() for _, _, page in SAMPLES.values())
    for sample in SAMPLES:
        folder = repo / "docs" / "examples" / sample
        files = [p.relative_to(folder.parent).as_posix() for p in folder.rglob("*") if p.is_file()]
        files = [f for f in files if "/output/" not in f and "__pycache__" not in f]
        assert files and all(any(fnmatch(f, p) for p in patterns) for f in files), files


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("new", "Bad Name"), "cannot name a game folder"),
        (("new", "../escape"), "cannot name a game folder"),
        (("new", "x", "--from", "no-such-game"), "no example game named 'no-such-game'"),
    ],
)
def test_a_bad_name_is_refused_and_nothing_is_left(pnp, inside, tmp_path, args, message):
    result = pnp(*args)
    assert result.exit_code == 2 and message in result.stderr, result.output
    components = tmp_path / "components"
    assert not components.exists() or not any(components.iterdir())


def test_an_existing_folder_is_never_touched(pnp, inside, tmp_path):
    game = tmp_path / "components" / "mine"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text("title: Mine\nplayers: 2\n")
    result = pnp("new", "mine")
    assert result.exit_code == 2 and "already exists" in result.stderr
    assert [p.name for p in game.iterdir()] == ["game.yaml"]
    assert (game / "game.yaml").read_text() == "title: Mine\nplayers: 2\n"


def test_commands_run_inside_a_game_folder(pnp, inside, tmp_path):
    assert pnp("new", "here").exit_code == 0
    pnp("new", "sibling")
    inside(tmp_path / "components" / "here")
    result = pnp("build")
    assert result.exit_code == 0, result.output
    assert "here: output/here/here.pdf" in result.output and "sibling" not in result.output
    assert (tmp_path / "components" / "here" / "output" / "here" / "here.pdf").is_file()
    result = pnp("build")
    assert "up to date" in result.output, result.output  # its own output is not the game's
    result = pnp("check")
    assert result.exit_code == 0 and "here" in result.output and "sibling" not in result.output
    result = pnp("list")
    assert result.exit_code == 0 and result.output.startswith("here: Here"), result.output
    result = pnp("build", "sibling")  # a named game is found beside it
    assert result.exit_code == 0, result.output


def test_a_solo_game_of_one_card_is_listed_and_checked_in_the_singular(pnp, inside, tmp_path):
    """One player, one piece, and a count of one everywhere the list and the check say it."""
    assert pnp("new", "solo").exit_code == 0
    game = tmp_path / "components" / "solo"
    spec = game / "game.yaml"
    spec.write_text(spec.read_text().replace("players: 2-4", "players: 1"))
    (game / "cards.csv").write_text("title,type,text,count\nAlone,Action,Win.,1\n")
    listed = pnp("list", "solo")
    assert listed.exit_code == 0, listed.output
    assert "(1 player, a4, 2 sheets of paper double-sided, 4 pages)" in listed.output
    assert "deck 'Cards', 1 piece, " in listed.output and ", 1 piece, fill" in listed.output
    assert not re.search(r"\b1 (players|pieces|sheets|pages)\b", listed.output), listed.output
    checked = pnp("check", "solo")
    assert "printing: 2 sheets of paper (4 pages)" in checked.output, checked.output


def test_a_new_game_started_inside_a_game_folder_goes_beside_it(pnp, inside, tmp_path):
    """Not into a components/ inside the game, which its builds would take for the games
    from then on (building the new game instead of the one the designer is in)."""
    assert pnp("new", "first").exit_code == 0
    components = tmp_path / "components"
    inside(components / "first")
    result = pnp("new", "second", "--from", "orchard")
    assert result.exit_code == 0, result.output
    assert "created ../second/ beside this game" in result.output, result.output
    assert "cd ../second; pnp build" in result.output
    assert sorted(p.name for p in components.iterdir()) == ["first", "second"]
    assert not (components / "first" / "components").exists()
    result = pnp("build")
    assert result.exit_code == 0 and "first: output/first/first.pdf" in result.output, result.output
