"""The rules validator: rulebook counts in ``expect:`` against what the specs generate."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.check.rules import MISMATCH, NO_COUNT, NOT_YET, OK, check_counts, mismatches
from generator.cli import cli
from generator.errors import ErrorList
from generator.model.loader import Game, load_game

FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>
  <text x="5" y="10" font-family="sans-serif" font-size="4">{{ card.name }}</text>
</svg>
"""

# The rulebook says 10 cards, 4 of them 'a'; the specs make 9, 3 of them 'a'.
MISMATCHED_GAME = """\
title: Rules Test
players: 2
expect:
  deck: 10
  deck/a: 4
  deck/b: 6
"""

DECK = """\
kind: deck
title: Deck
size: mini-euro
face: face.svg.j2
cards:
  - name: a
    count: 3
  - name: b
    count: 6
"""


def line_no(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def make_game(root: Path, game: str, files: dict[str, str] | None = None) -> Path:
    """Write ``root/components/game`` and return the components folder."""
    folder = root / "components" / "game"
    (folder / "templates").mkdir(parents=True)
    (folder / "templates" / "face.svg.j2").write_text(FACE, encoding="utf-8")
    (folder / "game.yaml").write_text(game, encoding="utf-8")
    for name, text in (files if files is not None else {"deck.yaml": DECK}).items():
        (folder / name).write_text(text, encoding="utf-8")
    return root / "components"


def load(components: Path) -> Game:
    errors = ErrorList()
    game = load_game(components / "game", errors)
    assert not errors, [str(e) for e in errors]
    assert game is not None
    return game


def invoke(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str):
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(cli, list(args))


def row(output: str, key: str, expected: str, generated: str, status: str) -> bool:
    """Whether the check table has the row ``key expected generated status``."""
    pattern = rf"^\s*{re.escape(key)}\s+{expected}\s+{generated}\s+{re.escape(status)}\s*$"
    return re.search(pattern, output, re.M) is not None


# --- pnp check -------------------------------------------------------------------------------


def test_check_reports_mismatches_in_table_and_error_lines(tmp_path, monkeypatch):
    components = make_game(tmp_path, MISMATCHED_GAME)
    result = invoke(tmp_path, monkeypatch, "check", "--components", str(components))
    assert result.exit_code == 1, result.output
    assert row(result.stdout, "deck", "10", "9", MISMATCH), result.stdout
    assert row(result.stdout, "deck/a", "4", "3", MISMATCH), result.stdout
    assert row(result.stdout, "deck/b", "6", "6", OK), result.stdout

    total = line_no(MISMATCHED_GAME, "deck: 10")
    kind = line_no(MISMATCHED_GAME, "deck/a: 4")
    assert re.search(
        rf"^components/game/game\.yaml:{total}: deck: .*\b10\b.*\b9\b", result.stderr, re.M
    )
    assert re.search(
        rf"^components/game/game\.yaml:{kind}: deck/a: .*\b4\b.*\b3\b", result.stderr, re.M
    )
    # Only the mismatching rows get error lines.
    assert "deck/b:" not in result.stderr


def test_check_passes_when_counts_match(tmp_path, monkeypatch):
    game = MISMATCHED_GAME.replace("deck: 10", "deck: 9").replace("deck/a: 4", "deck/a: 3")
    result = invoke(tmp_path, monkeypatch, "check", "--components", str(make_game(tmp_path, game)))
    assert result.exit_code == 0, result.output
    assert row(result.stdout, "deck", "9", "9", OK)
    assert row(result.stdout, "deck/a", "3", "3", OK)
    assert MISMATCH not in result.output


def test_counts_not_yet_specified_pass_unless_strict(tmp_path, monkeypatch):
    game = "title: Rules Test\nplayers: 2\nexpect:\n  deck: 9\n  tokens: 12\n  tokens/red: 4\n"
    components = make_game(tmp_path, game)
    relaxed = invoke(tmp_path, monkeypatch, "check", "--components", str(components))
    assert relaxed.exit_code == 0, relaxed.output
    assert row(relaxed.stdout, "tokens", "12", "–", NOT_YET), relaxed.stdout
    assert row(relaxed.stdout, "tokens/red", "4", "–", NOT_YET), relaxed.stdout
    assert "2 rulebook count(s) not yet specified" in relaxed.stdout

    strict = invoke(tmp_path, monkeypatch, "check", "--strict", "--components", str(components))
    assert strict.exit_code == 1, strict.output
    assert row(strict.stdout, "tokens", "12", "–", NOT_YET), strict.stdout


# --- pnp build -------------------------------------------------------------------------------


def test_build_refuses_a_mismatching_game(tmp_path, monkeypatch):
    components = make_game(tmp_path, MISMATCHED_GAME)
    out = tmp_path / "out"
    result = invoke(
        tmp_path, monkeypatch, "build", "--components", str(components), "--out", str(out)
    )
    assert result.exit_code == 1, result.output
    assert not (out / "game" / "game.pdf").exists()
    assert not (out / "game" / "manifest.json").exists()
    kind = line_no(MISMATCHED_GAME, "deck/a: 4")
    assert re.search(
        rf"^components/game/game\.yaml:{kind}: deck/a: .*\b4\b.*\b3\b", result.stderr, re.M
    )
    assert "--force" in result.stderr


def test_build_force_builds_with_a_warning(tmp_path, monkeypatch):
    components = make_game(tmp_path, MISMATCHED_GAME)
    out = tmp_path / "out"
    result = invoke(
        tmp_path,
        monkeypatch,
        "build",
        "--force",
        "--components",
        str(components),
        "--out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert "warning" in result.stderr.lower() and "mismatch" in result.stderr.lower()
    pdf = out / "game" / "game.pdf"
    assert pdf.read_bytes().startswith(b"%PDF-")
    assert (out / "game" / "manifest.json").is_file()


# --- generator.rules.check_counts ------------------------------------------------------------


def test_check_counts_rows(tmp_path):
    game = load(make_game(tmp_path, MISMATCHED_GAME))
    rows = {r.key: r for r in check_counts(game)}
    assert set(rows) == {"deck", "deck/a", "deck/b"}
    assert (rows["deck"].expected, rows["deck"].generated, rows["deck"].status) == (
        10,
        9,
        MISMATCH,
    )
    assert (rows["deck/a"].expected, rows["deck/a"].generated, rows["deck/a"].status) == (
        4,
        3,
        MISMATCH,
    )
    assert rows["deck/b"].status == OK
    for key in rows:
        assert rows[key].line == line_no(MISMATCHED_GAME, f"  {key}:")
    assert [r.key for r in mismatches(list(rows.values()))] == ["deck", "deck/a"]


def test_check_counts_unknown_card_name_generates_zero(tmp_path):
    game = load(make_game(tmp_path, "title: T\nplayers: 2\nexpect:\n  deck: 9\n  deck/zzz: 2\n"))
    rows = {r.key: r for r in check_counts(game)}
    assert (rows["deck/zzz"].generated, rows["deck/zzz"].status) == (0, MISMATCH)
    assert rows["deck"].status == OK


def test_check_counts_not_yet_specified_and_no_count(tmp_path):
    game_yaml = "title: T\nplayers: 2\nexpect:\n  deck: 9\n  tokens: 12\n  tokens/red: 4\n"
    extra = DECK.replace("title: Deck", "id: extra\ntitle: Extra")
    game = load(make_game(tmp_path, game_yaml, {"deck.yaml": DECK, "extra.yaml": extra}))
    rows = {r.key: r for r in check_counts(game)}
    assert (rows["tokens"].status, rows["tokens"].generated) == (NOT_YET, None)
    assert rows["tokens/red"].status == NOT_YET
    # A component the rulebook does not count is listed, but never fails the check.
    assert (rows["extra"].status, rows["extra"].expected, rows["extra"].generated) == (
        NO_COUNT,
        None,
        9,
    )
    assert mismatches(list(rows.values())) == []


def test_check_counts_follows_the_specs(tmp_path):
    # Change a count in the spec and the generated number follows it.
    game = load(
        make_game(tmp_path, MISMATCHED_GAME, {"deck.yaml": DECK.replace("count: 3", "count: 4")})
    )
    rows = {r.key: r for r in check_counts(game)}
    assert (rows["deck"].generated, rows["deck"].status) == (10, OK)
    assert (rows["deck/a"].generated, rows["deck/a"].status) == (4, OK)
