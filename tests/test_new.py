"""``pnp new`` and working inside a game folder: every starter builds and checks at once, a
bundled game can be copied, nothing existing is touched, and build, check and list find the
game they run in (its own output never makes it look changed)."""

from __future__ import annotations

import pytest

from generator.cli.new import STARTERS


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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("new", "Bad Name"), "cannot name a game folder"),
        (("new", "../escape"), "cannot name a game folder"),
        (("new", "x", "--from", "no-such-game"), "no bundled game named 'no-such-game'"),
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
