"""Print-shop preflight: text inside a vendor's safe zone is warned of (``pnp check`` at 1/8 in,
``pnp export --shop VENDOR`` at that vendor's margin), and no bundled card prints any there."""

from __future__ import annotations

import pytest
from conftest import BUNDLED
from test_printing import deck

from generator.check.safezone import SAFE_MM, near_cut
from generator.cli.common import load_games, plan_games

# a poker card (63.5 x 88.9 mm) with a word whose lowest point is ``gap`` mm above the cut:
# its baseline a quarter of its size (the font's descent) above that
NEAR_EDGE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{{{ box.svg_attrs }}}}>
  <rect x="{{{{ -box.bleed }}}}" y="{{{{ -box.bleed }}}}" width="{{{{ box.full_w }}}}"
        height="{{{{ box.full_h }}}}" fill="#f4ecd8"/>
  <text x="20" y="{baseline}" font-family="sans-serif" font-size="4">Index</text>
</svg>
"""


def near_edge(make_deck_game, gap: float):
    return deck(make_deck_game, face=NEAR_EDGE.format(baseline=88.9 - gap - 1), cards={"a": 1})


def test_text_inside_the_safe_zone_is_warned_of(pnp, make_deck_game) -> None:
    components = near_edge(make_deck_game, 1.65)
    result = pnp("check", "synth", "--components", components)
    assert result.exit_code == 0, (result.output, result.stderr, result.exception)
    said = (
        "warning: text 1.65 mm from the cut at the bottom (deck 'a', face): print shops cut "
        "within 3.175 mm of the trim line"
    )
    assert said in result.stderr, result.stderr
    assert "deck.yaml: warning" in result.stderr, "the component's file"
    (pack,) = plan_games(load_games(components, ("synth",), None), None)
    (found,) = near_cut(pack)
    assert (found.distance, found.edge) == (pytest.approx(1.65, abs=0.01), "bottom")
    assert near_cut(pack, 1.5) == (), "1.65 mm is outside a 1.5 mm safe zone"


def test_a_vendor_export_warns_at_its_own_safe_margin(pnp, make_deck_game, tmp_path) -> None:
    components = near_edge(make_deck_game, 3.1)  # inside 1/8 in (3.175), outside 0.12 in
    out = tmp_path / "out"
    for vendor, warned in (("thegamecrafter", True), ("makeplayingcards", False)):
        result = pnp("export", "--shop", vendor, "--components", components, "--out", out)
        assert result.exit_code == 0, result.output
        assert ("mm from the cut at the bottom" in result.stderr) is warned, result.stderr
        assert ("within 3.175 mm" in result.stderr) is warned


def test_text_clear_of_the_safe_zone_is_not_warned_of(pnp, make_deck_game) -> None:
    result = pnp("check", "synth", "--components", near_edge(make_deck_game, SAFE_MM + 0.1))
    assert result.exit_code == 0 and "from the cut" not in result.stderr, result.stderr


def test_no_bundled_card_prints_text_in_the_safe_zone() -> None:
    games = tuple(sorted(p.name for p in BUNDLED.iterdir() if (p / "game.yaml").is_file()))
    packs = plan_games(load_games(BUNDLED, games, None), None)
    assert len(packs) == 5
    found = [n.message() for pack in packs for n in near_cut(pack)]
    assert found == []
