"""A template that draws nothing of the piece (a deck's common back) is rendered once per
build and its SVG shared by every piece; one that reads the piece, records an overflow at it
or draws another template is rendered for each piece."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from generator.art.templates import TemplateRenderer
from generator.errors import ErrorList
from generator.model.loader import load_game
from generator.plan.pipeline import plan_pack

FACE = """<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <text x="5" y="10" font-size="4">{{ card.title }}</text>
</svg>
"""
BACKS = {
    "plain": '<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>'
    '<text x="5" y="10" font-size="4">{{ deck.title }} {{ side }}</text></svg>',
    "piece": '<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>'
    '<text x="5" y="10" font-size="4">{{ piece.title }}</text></svg>',
    "fits": '<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>'
    "{{ textbox(deck.title, 2, 2, 20, 10) }}</svg>",
    "includes": '<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>'
    '{% include "part.svg.j2" %}</svg>',
}


def _game(root: Path, back: str) -> Path:
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "face.svg.j2").write_text(FACE, encoding="utf-8")
    (root / "templates" / "back.svg.j2").write_text(BACKS[back], encoding="utf-8")
    part = '<text x="5" y="20" font-size="4">{{ card.title }}</text>'
    (root / "templates" / "part.svg.j2").write_text(part, encoding="utf-8")
    (root / "game.yaml").write_text("title: Shared\nplayers: 2\n", encoding="utf-8")
    cards = "".join(f"  - {{name: c{n}, count: 1, title: Card {n}}}\n" for n in range(1, 6))
    (root / "deck.yaml").write_text(
        "kind: deck\ntitle: Shared\nsize: poker\nface: face.svg.j2\nback: back.svg.j2\n"
        "cards:\n" + cards,
        encoding="utf-8",
    )
    return root


def _renders(root: Path, monkeypatch) -> Counter:
    """Plan the game on one core: the renders made of each template."""
    monkeypatch.setenv("PNP_JOBS", "1")
    made: Counter = Counter()
    render = TemplateRenderer.render

    def counted(self, name, *args, **kwargs):
        made[name] += 1
        return render(self, name, *args, **kwargs)

    monkeypatch.setattr(TemplateRenderer, "render", counted)
    game = load_game(root, ErrorList())
    assert game is not None
    plan_pack(game, game.spec.paper)
    return made


def test_a_back_that_draws_no_piece_is_rendered_once(tmp_path, monkeypatch):
    made = _renders(_game(tmp_path / "g", "plain"), monkeypatch)
    assert made == {"face.svg.j2": 5, "back.svg.j2": 1}


def test_a_common_backs_key_is_its_boxs_words_not_a_dump(tmp_path, monkeypatch):
    """A card's box (numbers and its ``svg_attrs`` markup) says all it holds in its repr: the
    back shared by every card is looked up without dumping its style to JSON for each."""
    from generator.art import templates

    dumps: list[object] = []
    real = templates.json.dumps
    monkeypatch.setattr(templates.json, "dumps", lambda *a, **k: dumps.append(a) or real(*a, **k))
    made = _renders(_game(tmp_path / "g", "plain"), monkeypatch)
    assert made == {"face.svg.j2": 5, "back.svg.j2": 1}
    assert dumps == []


@pytest.mark.parametrize("back", ["piece", "fits", "includes"])
def test_a_back_that_may_draw_the_piece_is_rendered_for_each(tmp_path, monkeypatch, back):
    made = _renders(_game(tmp_path / "g", back), monkeypatch)
    assert made == {"face.svg.j2": 5, "back.svg.j2": 5}


def _measures_counted(monkeypatch) -> list[int]:
    """How many pieces of art each call of the contrast check's ``measure`` is given."""
    from generator.check import contrast

    sizes: list[int] = []
    measure = contrast.measure

    def counted(artworks, *args):
        sizes.append(len(artworks))
        return measure(artworks, *args)

    monkeypatch.setattr(contrast, "measure", counted)
    return sizes


def test_contrast_is_measured_again_only_for_the_art_that_changed(tmp_path, monkeypatch):
    """pnp serve plans again after each save: the contrast of art measured before (by its
    SVG's hash) is kept, so a one-card edit renders that card's art alone."""
    from generator.check import contrast

    root = _game(tmp_path / "g", "plain")
    measured = _measures_counted(monkeypatch)
    monkeypatch.setenv("PNP_JOBS", "1")

    def check(title: str) -> tuple:
        deck = (root / "deck.yaml").read_text(encoding="utf-8")
        (root / "deck.yaml").write_text(
            deck.replace("title: Card 3}", f"title: {title}}}"), encoding="utf-8"
        )
        game = load_game(root, ErrorList())
        assert game is not None
        return contrast.low_contrast(plan_pack(game, game.spec.paper))

    first = check("Card 3")
    again = check("Card 3")
    assert check("Edited") == first == again  # nothing under ratio
    assert measured == [6, 1]  # 5 faces and the back; nothing (none measured); the edited face


def test_contrast_renders_a_large_pack_a_bounded_number_of_pieces_at_a_time(tmp_path, monkeypatch):
    """The grounds of a large pack are rendered ``ARTS_AT_ONCE`` pieces of art at a time, so
    the throwaway PDF and its patches stay small whatever the pack's size (a 5,400-card deck
    held every card's page at once); what is found is the same."""
    from generator.check import contrast

    root = _game(tmp_path / "g", "plain")
    game = load_game(root, ErrorList())
    assert game is not None
    pack = plan_pack(game, game.spec.paper)
    contrast._MEASURED.clear()
    whole = contrast.low_contrast(pack)
    sizes = _measures_counted(monkeypatch)
    monkeypatch.setattr(contrast, "ARTS_AT_ONCE", 4)
    contrast._MEASURED.clear()
    assert contrast.low_contrast(pack) == whole
    assert sizes == [4, 2]  # 5 faces and the back
