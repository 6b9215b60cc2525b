"""Backs alike (issue 37, item 4): a card's own look (a style column, a style mapped by a
column) changes its face only; its back takes it only when the deck says ``backs: differ``;
``pnp check`` warns of a deck whose backs differ, at its ``back:`` line, unless it says so."""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.options import DEFAULT_OPTIONS
from generator.plan.games import load_games, plan_games

STYLED_BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="{{ style.accent }}"/>
</svg>
"""
NAMED_BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#553322"/>
  <text x="4" y="12" font-size="5" fill="#ffffff">{{ card.name }}</text>
</svg>
"""


def _deck(make_deck_game, back: str, extra: str = "") -> Path:
    """The one-deck game whose cards a and b have accents of their own, and this back."""
    components = make_deck_game()
    root = components / "synth"
    (root / "templates" / "back.svg.j2").write_text(back, encoding="utf-8")
    deck = root / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    text = text.replace("  - name: a\n", '  - name: a\n    accent: "#b3202a"\n')
    text = text.replace("  - name: b\n", '  - name: b\n    accent: "#1f3f8f"\n')
    deck.write_text(text.replace("cards:\n", extra + "cards:\n"), encoding="utf-8")
    return components


def test_a_cards_own_style_does_not_reach_its_back(make_deck_game, pnp):
    components = _deck(make_deck_game, STYLED_BACK)
    result = pnp("check", "--strict", "--components", components, "synth")
    assert result.exit_code == 0, result.stderr
    assert "backs of deck" not in result.stderr


def test_backs_that_differ_are_said_at_the_back_line(make_deck_game, pnp):
    components = _deck(make_deck_game, NAMED_BACK)
    result = pnp("check", "--components", components, "synth")
    assert result.exit_code == 0, result.stderr  # a warning
    assert "deck.yaml:6: warning: the backs of deck 'deck' differ (2 looks: 'a', 'b')" in (
        result.stderr
    )
    assert "say 'backs: differ'" in result.stderr
    strict = pnp("check", "--strict", "--components", components, "synth")
    assert strict.exit_code == 1


def test_backs_meant_to_differ_take_the_cards_style_and_pass(make_deck_game, pnp):
    for back in (STYLED_BACK, NAMED_BACK):
        components = _deck(make_deck_game, back, "backs: differ\n")
        result = pnp("check", "--strict", "--json", "--components", components, "synth")
        assert result.exit_code == 0, result.stderr
        assert "backs of deck" not in result.stderr
        shutil.rmtree(components)


def test_a_styled_back_meant_to_differ_is_drawn_in_each_cards_colour(make_deck_game):
    looks = {}
    for extra in ("", "backs: differ\n"):
        components = _deck(make_deck_game, STYLED_BACK, extra)
        (pack,) = plan_games(load_games(components, ("synth",), None), None, DEFAULT_OPTIONS)
        backs = {p.piece.back for s in pack.sheets if s.back for p in s.back.placements}
        looks[extra] = len(backs)
        shutil.rmtree(components)
    assert looks == {"": 1, "backs: differ\n": 2}
