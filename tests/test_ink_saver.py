"""The ink saver keeps meaning (issue 37, item 5): it prints a plain back (wordless, the same
on every piece) as its outline, and every other back lightened, never blank: a back with
words (a reference card's rules side, a setup card's back) or one that differs from piece to
piece (coloured token backs). The check measures the lightened art, so text that the ink
saver would make hard to read is said in that mode."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from conftest import BUNDLED

from generator.layout.inksaver import has_text, plain_backs
from generator.options import PrintOptions
from generator.plan.games import load_games, plan_games

RULES_BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#ffffff"/>
  <text x="4" y="12" font-family="sans-serif" font-size="4" fill="#000000">Setup rules</text>
</svg>
"""
COLOURED_BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="{{ '#b3202a' if card.name == 'a' else '#1f3f8f' }}"/>
</svg>
"""
SAVER = PrintOptions(ink_saver=True)


def _pack(components: Path, game: str):
    (pack,) = plan_games(load_games(components, (game,), None), None, SAVER)
    return pack


def _back_text(pdf: Path) -> str:
    with pdfplumber.open(pdf) as doc:
        return " ".join(page.extract_text() or "" for page in doc.pages)


def test_a_back_with_words_keeps_them(make_deck_game, pnp, tmp_path):
    components = make_deck_game()
    templates = components / "synth" / "templates"
    (templates / "back.svg.j2").write_text(RULES_BACK, encoding="utf-8")
    assert not plain_backs(_pack(components, "synth"))
    out = tmp_path / "out"
    result = pnp("build", "synth", "--components", components, "--out", out, "--ink-saver")
    assert result.exit_code == 0, result.output
    assert _back_text(out / "synth" / "synth.pdf").split().count("rules") == 11


def test_backs_that_differ_or_mean_a_colour_are_kept_and_a_plain_back_is_an_outline(
    make_deck_game,
):
    components = make_deck_game()
    back = components / "synth" / "templates" / "back.svg.j2"
    back.write_text(COLOURED_BACK, encoding="utf-8")
    assert not plain_backs(_pack(components, "synth"))  # red and blue backs
    back.write_text(COLOURED_BACK.replace("card.name == 'a'", "true"), encoding="utf-8")
    assert not plain_backs(_pack(components, "synth"))  # every back red: the deck's colour
    grey = COLOURED_BACK.replace("'#b3202a' if card.name == 'a' else '#1f3f8f'", "'#444444'")
    back.write_text(grey, encoding="utf-8")
    assert len(plain_backs(_pack(components, "synth"))) == 1


def test_the_bundled_backs_that_carry_words_are_kept():
    pack = _pack(BUNDLED, "chocolate-coin")
    kept = {
        p.piece.component
        for sheet in pack.body
        for page in (sheet.back,)
        if page
        for p in page.placements
        if p.piece.back and p.piece.back not in plain_backs(pack)
    }
    assert {"setup-card", "event-deck"} <= kept
    setup = next(
        p.piece
        for s in pack.body
        if s.back
        for p in s.back.placements
        if p.piece.component == "setup-card"
    )
    assert setup.back is not None and has_text(pack.art.drawing(setup.back))


def test_a_used_counter_keeps_its_word_readable_in_the_ink_saver(pnp):
    result = pnp("check", "--strict", "--ink-saver", "chaos-cove")
    assert result.exit_code == 0, result.stderr
    assert "low contrast" not in result.stderr
