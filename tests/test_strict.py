"""``pnp check --strict`` fails on every warning (issue 37, item 2), and every bundled game and
docs example passes it, with no warning at all, in every language it declares and every print
mode (the acceptance test: each game is checked twelve ways)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import BUNDLED, REPO

EXAMPLES = REPO / "docs" / "examples"
GAMES = [
    *((BUNDLED, p.parent.name) for p in sorted(BUNDLED.glob("*/game.yaml"))),
    *((EXAMPLES, p.parent.name) for p in sorted(EXAMPLES.glob("*/game.yaml"))),
]
MODES = {
    "duplex": (),
    "short-edge": ("--duplex", "short"),
    "fold": ("--layout", "fold"),
    "ink-saver": ("--ink-saver",),
    "fold, ink-saver": ("--layout", "fold", "--ink-saver"),
    "letter": ("--paper", "letter"),
}
THIN_FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="2" y="2" width="20" height="20" fill="#dde8f0" stroke="#000000" stroke-width="0.02"/>
  <text x="{{ box.w / 2 }}" y="{{ box.h / 2 }}" font-size="6">{{ card.name }}</text>
</svg>
"""


def test_a_thin_line_is_a_warning_that_strict_fails_on(make_deck_game, pnp):
    components = make_deck_game()
    (components / "synth" / "templates" / "face.svg.j2").write_text(THIN_FACE, encoding="utf-8")
    plain = pnp("check", "--components", components, "synth")
    assert plain.exit_code == 0, plain.output
    assert "face.svg.j2:2: warning: a line" in plain.stderr
    strict = pnp("check", "--strict", "--components", components, "synth")
    assert strict.exit_code == 1, strict.output
    assert "synth: 1 warning(s) above fail the check (--strict)" in strict.stderr


def test_the_help_says_what_strict_fails_on(pnp):
    said = " ".join(pnp("check", "--help").output.split())
    assert "Also fail on every warning" in said
    docs = " ".join((REPO / "docs" / "check.md").read_text(encoding="utf-8").split())
    assert "`pnp check --strict`, which fails on every warning" in docs


def _check(pnp, folder: Path, game: str, mode: tuple[str, ...]):
    return pnp("check", "--strict", "--lang", "all", *mode, "--components", folder, game)


@pytest.mark.acceptance
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize(("folder", "game"), GAMES, ids=[g for _, g in GAMES])
def test_every_game_passes_strict_with_no_warning(pnp, folder, game, mode):
    result = _check(pnp, folder, game, MODES[mode])
    assert result.exit_code == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    assert result.stderr.strip() == "", result.stderr
