"""The printer profile: a calibrated offset is saved once and used by every later build; the
folder's pnp.toml wins over the user config and a flag over both; a broken profile is an error
at its file and line, never a silent default."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def game(make_deck_game, monkeypatch, tmp_path):
    """A one-deck game; the command runs in ``tmp_path`` with its own user config."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PNP_CONFIG", str(tmp_path / "user" / "config.toml"))
    return make_deck_game(cards={"a": 2})


def _backs(out) -> list[tuple[float, float]]:
    manifest = json.loads((out / "synth" / "manifest.json").read_text())
    return [(i["x_mm"], i["y_mm"]) for i in manifest["items"] if i["side"] == "back"]


def test_a_saved_offset_is_used_by_every_later_build(pnp, game, tmp_path):
    result = pnp("build", "--components", game, "--out", tmp_path / "plain")
    assert result.exit_code == 0 and "printer profile" not in result.output
    result = pnp("calibrate", "--duplex", "short", "--save", "1.5,-0.5")
    assert result.exit_code == 0, result.output
    assert "saved back offset 1.5,-0.5 (paper a4, duplex short)" in result.output
    config = (tmp_path / "user" / "config.toml").read_text()
    assert "[printer]" in config and "back_offset = [1.5, -0.5]" in config
    result = pnp("build", "--components", game, "--out", tmp_path / "profiled")
    assert result.exit_code == 0, result.output
    assert "printer profile" in result.stderr and "back offset 1.5,-0.5" in result.stderr
    manifest = json.loads((tmp_path / "profiled" / "synth" / "manifest.json").read_text())
    assert manifest["duplex"] == "short"
    plain, moved = _backs(tmp_path / "plain"), _backs(tmp_path / "profiled")
    assert plain != moved  # the backs moved by the saved offset


def test_the_folder_wins_over_the_user_and_a_flag_over_both(pnp, game, tmp_path):
    pnp("calibrate", "--save", "1,1")
    (tmp_path / "pnp.toml").write_text('[printer]\nlayout = "fold"\npaper = "letter"\n')
    result = pnp("build", "--components", game, "--out", tmp_path / "a")
    assert result.exit_code == 0, result.output
    assert "layout fold" in result.stderr and "paper letter" in result.stderr
    manifest = json.loads((tmp_path / "a" / "synth" / "manifest.json").read_text())
    assert manifest["duplex"] is None and manifest["paper"] == "letter"
    result = pnp(
        "build",
        "--components",
        game,
        "--out",
        tmp_path / "b",
        "--layout",
        "duplex",
        "--paper",
        "a4",
    )
    assert result.exit_code == 0, result.output
    assert "layout fold" not in result.stderr and "back offset 1,1" in result.stderr
    manifest = json.loads((tmp_path / "b" / "synth" / "manifest.json").read_text())
    assert manifest["duplex"] == "long" and manifest["paper"] == "a4"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[printer]\nduplex = "sideways"\n', "pnp.toml: duplex = 'sideways'; allowed: long, short"),
        ("[printer]\nback_offset = [1, 99]\n", "back_offset = [X, Y] in mm, each within ±20"),
        ("[printer]\ncolour = true\n", "unknown key 'colour' in [printer]"),
        ("[printer\n", "pnp.toml:1: not valid TOML"),
    ],
)
def test_a_broken_profile_is_an_error_at_its_file(pnp, game, tmp_path, text, message):
    (tmp_path / "pnp.toml").write_text(text)
    result = pnp("check", "--components", game)
    assert result.exit_code == 2 and message in result.stderr, result.output


def test_saving_never_writes_through_a_link_and_keeps_what_it_does_not_change(tmp_path):
    """A link planted under the writer's temporary name is replaced, not written through;
    the file is TOML a parser reads back (a table name with a space, which the hand-made
    writer got wrong), its comments and other tables kept."""
    import os
    import tomllib

    from generator.profile import save

    victim = tmp_path / "victim"
    victim.write_text("precious")
    path = tmp_path / "pnp.toml"
    path.write_text('# mine\n["a b"]\nx = 1  # kept\n', encoding="utf-8")
    (tmp_path / f".pnp.toml.tmp-{os.getpid()}").symlink_to(victim)
    save(path, {"paper": "letter", "back_offset": [1.5, -0.5]})
    assert victim.read_text() == "precious"
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data == {"a b": {"x": 1}, "printer": {"paper": "letter", "back_offset": [1.5, -0.5]}}
    assert "# mine" in text and "# kept" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pnp.toml", "victim"]
