"""Which fields a template uses is read from its own code (issue 37, item 1): a column the
code reads is not called unprinted, a column nothing reads still is, a fields block that
disagrees with the code is said at its line, a field read that no piece has is said with the
column it was probably meant for, and icon names are checked against the icons the template
really draws."""

from __future__ import annotations

from pathlib import Path

from generator.model.templateuse import STYLE_ICONS, template_reads

FACE_READS = """\
{#- fields
title: text   the name
-#}
{% from "my-icons.svg.j2" import icon %}
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <text x="4" y="8" font-size="5">{{ card.title }}</text>
  {% if card.mark is defined %}<text x="4" y="20" font-size="5">{{ card['mark'] }}</text>{% endif %}
  <text x="4" y="30" font-size="5">{{ card.get('flavour', '') }}</text>
  {{ icon(card.icon) }}
</svg>
"""
MY_ICONS = """\
{% macro icon(name) %}
<circle r="3" fill="{{ "#000000" if name == "bean" else "#888888" }}"/>
{% endmacro %}
"""


def _game(make_deck_game, face: str, cards: str) -> tuple[Path, Path]:
    """The one-deck game with ``face`` as its face template and ``cards`` as its entries."""
    components = make_deck_game()
    root = components / "synth"
    (root / "templates" / "face.svg.j2").write_text(face, encoding="utf-8")
    (root / "templates" / "my-icons.svg.j2").write_text(MY_ICONS, encoding="utf-8")
    deck = root / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text[: text.index("cards:")] + cards, encoding="utf-8")
    return components, root


def test_the_syntax_tree_gives_every_way_a_card_is_read(tmp_path):
    root = tmp_path / "g"
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "face.svg.j2").write_text(FACE_READS, encoding="utf-8")
    reads = template_reads(root, "face.svg.j2", {"card", "piece"})
    assert reads is not None
    assert set(reads.fields) == {"title", "mark", "flavour", "icon"}
    assert reads.fields["flavour"][1] == 8  # the line of card.get('flavour')
    assert reads.icon_sets == {"my-icons.svg.j2"}
    assert not reads.whole


def test_a_piece_handed_on_whole_makes_the_reads_unknown(tmp_path):
    root = tmp_path / "g"
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "f.svg.j2").write_text(
        '{% import style.icons as icons %}{{ helper(card) }}{{ icons.icon("x") }}',
        encoding="utf-8",
    )
    reads = template_reads(root, "f.svg.j2", {"card"})
    assert reads is not None and reads.whole
    assert reads.icon_sets == {STYLE_ICONS}


CARDS = """\
cards:
  - {name: a, count: 6, title: Alpha, mark: "▲", flavor: sweet, icon: bean, suit: red}
  - {name: b, count: 5, title: Beta, mark: "■", flavor: sour, icon: leaf, suit: blue}
"""


def test_columns_read_by_the_code_are_printed_and_the_rest_are_not(make_deck_game, pnp):
    components, root = _game(make_deck_game, FACE_READS, CARDS)
    result = pnp("check", "--components", components, "synth")
    said = result.output
    # read by the code though the block does not declare it: not called unprinted
    assert "column 'mark' is used by no field" not in said
    # the block forgets it: said at the block's line
    assert "face.svg.j2:1: warning: face.svg.j2 reads 'mark' (line 7), 'icon' (line 9) but" in said
    # read nowhere: still said
    assert "deck.yaml:1: warning: column 'suit' is used by no field" in said
    # a misspelt read, at the template's line, with the column meant
    assert "face.svg.j2:8: warning: the template reads field 'flavour'" in said
    assert "did you mean column 'flavor'?" in said
    # the game's own icon macro draws the icons: not checked against the stock icons
    assert "icon 'bean'" not in said


def test_a_declared_field_the_code_never_reads_is_said_at_its_line(make_deck_game, pnp):
    face = FACE_READS.replace("title: text   the name\n", "title: text   the name\nart: file x\n")
    components, _ = _game(make_deck_game, face, CARDS)
    said = pnp("check", "--components", components, "synth").output
    assert "face.svg.j2:3: warning: face.svg.j2 declares field 'art' but its code never" in said


def test_stock_icons_are_still_checked_through_style_icons(make_deck_game, pnp):
    face = FACE_READS.replace(
        '{% from "my-icons.svg.j2" import icon %}', "{% import style.icons as icons %}"
    ).replace("{{ icon(card.icon) }}", "{{ icons.icon(card.icon) }}")
    face = face.replace("title: text   the name\n", "title: text   the name\nicon: icons x\n")
    components, _ = _game(make_deck_game, face, CARDS)
    said = pnp("check", "--components", components, "synth").output
    assert "column 'icon': icon 'bean' is not one of icons.svg.j2's icons" in said
    assert "icon 'leaf'" not in said  # a stock icon


def test_the_bundled_games_own_icons_and_marks_are_not_reported(pnp):
    said = pnp("check", "chocolate-market", "chaos-cove").output
    assert "is not one of icons.svg.j2's icons" not in said
    assert "player_mark" not in said
    assert "used by no field" not in said
