"""``pnp schema`` says what the loader accepts, form by form (issue 42): each form below (a
game.yaml, or a component beside the sample game's), and every kind's sample with each of its
required fields taken away, is given to the loader and, through ``jsonschema``, to the
schema, and both must give the same verdict. ``FORMS`` grows with the spec format; a new kind
comes in by itself through the sample game (``docs/stock-templates/``, one component per kind).

What the schema cannot say (a rule across two fields or entries, a file that must be there)
is in ``LOADER_ONLY``: forms the loader refuses and the schema lets by, each with why, held
to that so that one the schema learns to refuse moves up."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from generator.cli.schema import spec_schema
from generator.errors import ErrorList
from generator.model.kinds import COMPONENT_KINDS
from generator.model.loader import load_game

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "docs" / "stock-templates"
GAME = {"title": "Forms", "players": 2}
DECK = {
    "kind": "deck",
    "title": "Cards",
    "size": "poker",
    "face": "card.svg.j2",
    "cards": [{"name": "a", "count": 2}],
}
TOKENS = {
    "kind": "tokens",
    "title": "Tokens",
    "shape": "circle",
    "size": 20,
    "face": "token.svg.j2",
    "tokens": [{"name": "coin", "count": 3}],
}
DICE = {"kind": "dice", "title": "Dice", "face": "die.svg.j2", "dice": [{"name": "d", "count": 1}]}
PAGES = {
    "kind": "token-pages",
    "title": "Moves",
    "face": "token.svg.j2",
    "header": "page-header.svg.j2",
    "pages": 1,
    "values": "1-6",
    "each": 2,
    "page_title": "Page {n}",
}
STANDEES = {
    "kind": "standees",
    "title": "Figures",
    "size": "28 x 45",
    "face": "standee.svg.j2",
    "standees": [{"name": "hero", "count": 1}],
}
SHEET = {
    "kind": "sheet",
    "title": "Rules",
    "sections": [{"heading": "Setup", "blocks": [{"text": "Deal the cards."}]}],
}
BOARD = {"kind": "board", "title": "Board", "size": "120 x 80"}


def _with(start: dict[str, Any], /, **changes: Any) -> dict[str, Any]:
    """``start`` with keys changed (``None`` takes one away); entries' changes by ``entry``."""
    form = copy.deepcopy(start)
    entry = changes.pop("entry", None)
    for key, value in changes.items():
        if value is None:
            form.pop(key, None)
        else:
            form[key] = value
    if entry:
        key = next(k for k in ("cards", "tokens", "dice", "standees") if k in form)
        form[key][0] = {**form[key][0], **entry}
    return form


# (what the form is, the form, whether it is sound): the loader and the schema must agree
FORMS: list[tuple[str, dict[str, Any], bool]] = [
    ("game: title and players", GAME, True),
    ("game: players '2-4'", _with(GAME, players="2-4"), True),
    ("game: players '1+'", _with(GAME, players="1+"), True),
    ("game: players 'two'", _with(GAME, players="two"), False),
    ("game: players 2.5", _with(GAME, players=2.5), False),
    ("game: no title", _with(GAME, title=None), False),
    ("game: empty title", _with(GAME, title=""), False),
    ("game: no players", _with(GAME, players=None), False),
    ("game: paper 'letter'", _with(GAME, paper="letter"), True),
    ("game: paper 'b7'", _with(GAME, paper="b7"), False),
    ("game: languages [en, de_DE]", _with(GAME, languages=["en", "de_DE"]), True),
    ("game: languages [EN]", _with(GAME, languages=["EN"]), False),
    ("game: min_text_pt '7'", _with(GAME, min_text_pt="7"), True),
    ("game: min_text_pt 3", _with(GAME, min_text_pt=3), False),
    ("game: expect {deck: 3}", _with(GAME, expect={"deck": 3}), True),
    ("game: expect {deck: '3'}", _with(GAME, expect={"deck": "3"}), False),
    ("game: expect {Deck/Card: 3}", _with(GAME, expect={"Deck/Card": 3}), False),
    ("game: unknown key 'titel'", _with(GAME, titel="x"), False),
    ("game: style accent 'red'", _with(GAME, style={"accent": "red"}), False),
    (
        "game: style accent by a field",
        _with(GAME, style={"accent": {"by": "suit", "map": {"hearts": "#aa0000"}}}),
        True,
    ),
    (
        "game: colour with colour 'red'",
        _with(GAME, colours=[{"name": "red", "label": "Red", "colour": "red"}]),
        False,
    ),
    ("game: font file '../x.ttf'", _with(GAME, fonts=[{"family": "X", "file": "../x.ttf"}]), False),
    ("deck: sound", DECK, True),
    ("deck: size 'pokr'", _with(DECK, size="pokr"), False),
    ("deck: size '63 x 88'", _with(DECK, size="63 x 88"), True),
    ("deck: size '63x88mm'", _with(DECK, size="63x88mm"), True),
    ("deck: size [63, 88]", _with(DECK, size=[63, 88]), True),
    ("deck: size {w: 63, h: 88}", _with(DECK, size={"w": 63, "h": 88}), True),
    ("deck: size [63]", _with(DECK, size=[63]), False),
    ("deck: size 'big x 88'", _with(DECK, size="big x 88"), False),
    ("deck: face '../card.svg.j2'", _with(DECK, face="../card.svg.j2"), False),
    ("deck: face '/etc/card.svg.j2'", _with(DECK, face="/etc/card.svg.j2"), False),
    ("deck: bleed '3'", _with(DECK, bleed="3"), True),
    ("deck: bleed 'three'", _with(DECK, bleed="three"), False),
    ("deck: bleed 11", _with(DECK, bleed=11), False),
    ("deck: butt 'yes'", _with(DECK, butt="yes"), True),
    ("deck: butt 'maybe'", _with(DECK, butt="maybe"), False),
    ("deck: butt 1", _with(DECK, butt=1), True),
    ("deck: no cards", _with(DECK, cards=None), False),
    ("deck: cards []", _with(DECK, cards=[]), False),
    ("deck: cards from a data file", _with(DECK, cards={"from": "general-cards.csv"}), True),
    ("deck: cards {form: x}", _with(DECK, cards={"form": "x"}), False),
    ("deck: card count '2'", _with(DECK, entry={"count": "2"}), False),
    ("deck: card count 1001", _with(DECK, entry={"count": 1001}), False),
    ("deck: the only card count 0", _with(DECK, entry={"count": 0}), False),
    (
        "deck: a card count 0 beside one counted",
        _with(DECK, cards=[{"name": "a", "count": 0}, {"name": "b", "count": 1}]),
        True,
    ),
    ("deck: card name 'Big Card'", _with(DECK, entry={"name": "Big Card"}), False),
    ("deck: card field 'my-field'", _with(DECK, entry={"my-field": "x"}), False),
    ("deck: card field 'my_field'", _with(DECK, entry={"my_field": "x"}), True),
    ("deck: kind 'decks'", _with(DECK, kind="decks"), False),
    ("deck: stock 'cardboard'", _with(DECK, stock="cardboard"), False),
    ("deck: tally", _with(DECK, tally={"field": "grid", "symbols": {"D": "dark"}}), True),
    ("component: no kind", _with(DECK, kind=None), False),
    ("tokens: sound", TOKENS, True),
    ("tokens: size '20'", _with(TOKENS, size="20"), True),
    ("tokens: size 'twenty'", _with(TOKENS, size="twenty"), False),
    ("tokens: rounded '20 x 30'", _with(TOKENS, shape="rounded", size="20 x 30"), True),
    ("tokens: shape 'oval'", _with(TOKENS, shape="oval"), False),
    ("tokens: count and per_player", _with(TOKENS, entry={"per_player": 2}), False),
    (
        "tokens: per_player",
        _with(
            TOKENS,
            tokens=[{"name": "pawn", "per_player": 2}],
        ),
        True,  # the sample game has colours
    ),
    ("tokens: neither count nor per_player", _with(TOKENS, tokens=[{"name": "x"}]), False),
    ("tokens: series '1-9'", _with(TOKENS, entry={"series": "1-9"}), True),
    ("tokens: series '1,3,5'", _with(TOKENS, entry={"series": "1,3,5"}), True),
    ("tokens: series 'a-b'", _with(TOKENS, entry={"series": "a-b"}), False),
    ("tokens: counts without a series", _with(TOKENS, entry={"counts": [1, 2]}), False),
    ("dice: sound", DICE, True),
    ("dice: size '16'", _with(DICE, size="16"), True),
    ("dice: size 5", _with(DICE, size=5), False),
    ("dice: five faces", _with(DICE, entry={"faces": [1, 2, 3, 4, 5]}), False),
    ("token-pages: sound", PAGES, True),
    ("token-pages: pages '2'", _with(PAGES, pages="2"), False),
    ("token-pages: each 0", _with(PAGES, each=0), False),
    ("token-pages: no header", _with(PAGES, header=None), False),
    ("standees: sound", STANDEES, True),
    ("standees: base '12'", _with(STANDEES, base="12"), True),
    ("sheet: sound", SHEET, True),
    ("sheet: columns 5", _with(SHEET, columns=5), False),
    ("sheet: columns '3'", _with(SHEET, columns="3"), True),
    (
        "sheet: a block with text and bullets",
        _with(SHEET, sections=[{"heading": "S", "blocks": [{"text": "a", "bullets": ["b"]}]}]),
        False,
    ),
    ("sheet: an empty block", _with(SHEET, sections=[{"heading": "S", "blocks": [{}]}]), False),
    ("board: sound", BOARD, True),
    ("board: size 'huge'", _with(BOARD, size="huge"), False),
]

# forms the loader refuses and the schema cannot: why it cannot
LOADER_ONLY: list[tuple[str, dict[str, Any], str]] = [
    (
        "deck: two cards named alike",
        _with(DECK, cards=[{"name": "a", "count": 1}, {"name": "a", "count": 1}]),
        "names unique within a list: JSON Schema compares whole items only",
    ),
    (
        "deck: face 'missing.svg.j2'",
        _with(DECK, face="missing.svg.j2"),
        "a template must be a file in templates/: the schema sees no files",
    ),
    (
        "tokens: a circle '20 x 30'",
        _with(TOKENS, size="20 x 30"),
        "a circle's two sizes equal: a rule across two fields' values",
    ),
    (
        "tokens: series '9-1'",
        _with(TOKENS, entry={"series": "9-1"}),
        "a series rises: a rule across two numbers in one text",
    ),
    ("deck: bleed '11'", _with(DECK, bleed="11"), "the range of a number written as text"),
    (
        "deck: card count 2.0",
        _with(DECK, entry={"count": 2.0}),
        "JSON Schema's integers include 2.0; a count is written whole",
    ),
    (
        "sheet: min_font_size above font_size",
        _with(SHEET, font_size=8, min_font_size=9),
        "a rule across two fields' values",
    ),
]


def _required_removed() -> list[tuple[str, dict[str, Any], bool]]:
    """Every kind's component of the sample game with each of its required fields taken
    away: refused by both (and the component itself accepted by both)."""
    forms = []
    for path in sorted(SAMPLE.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("kind") not in COMPONENT_KINDS:
            continue
        forms.append((f"sample {path.name}", data, True))
        model = COMPONENT_KINDS[data["kind"]]
        for name, field in model.model_fields.items():
            if field.is_required() and name != "kind":
                forms.append(
                    (f"sample {path.name} without {name}", _with(data, **{name: None}), False)
                )
    return forms


def _kinds_in_sample() -> set[str]:
    found = {yaml.safe_load(p.read_text("utf-8")).get("kind") for p in SAMPLE.glob("*.yaml")}
    return found & set(COMPONENT_KINDS)


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = spec_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("forms")


def loader_accepts(folder: Path, form: dict[str, Any]) -> bool:
    """The loader's verdict: a game.yaml form alone in a game; a component beside the sample
    game's components (so that what it may name is there)."""
    if "kind" in form or "cards" in form:
        shutil.copytree(SAMPLE, folder, ignore=shutil.ignore_patterns("art"))
        (folder / "form.yaml").write_text(yaml.safe_dump({"id": "form", **form}), "utf-8")
    else:
        folder.mkdir()
        (folder / "game.yaml").write_text(yaml.safe_dump(form), "utf-8")
    errors = ErrorList()
    game = load_game(folder, errors)
    return game is not None and not errors.errors


def schema_accepts(validator: jsonschema.Draft202012Validator, form: dict[str, Any]) -> bool:
    return validator.is_valid(json.loads(json.dumps(form)))


ALL = FORMS + _required_removed()


@pytest.mark.parametrize(("what", "form", "sound"), ALL, ids=[f[0] for f in ALL])
def test_the_schema_and_the_loader_agree(validator, folders, what, form, sound):
    folder = folders / str(ALL.index((what, form, sound)))
    verdicts = (loader_accepts(folder, form), schema_accepts(validator, form))
    assert verdicts == (sound, sound), f"{what}: loader {verdicts[0]}, schema {verdicts[1]}"


@pytest.mark.parametrize(("what", "form", "why"), LOADER_ONLY, ids=[f[0] for f in LOADER_ONLY])
def test_what_only_the_loader_refuses(validator, folders, what, form, why):
    folder = folders / f"only-{[f[0] for f in LOADER_ONLY].index(what)}"
    assert not loader_accepts(folder, form), what
    assert schema_accepts(validator, form), f"the schema now refuses {what}: move it to FORMS"


def test_there_are_enough_forms_and_every_kind_is_tried():
    assert len(FORMS) >= 40
    assert _kinds_in_sample() == set(COMPONENT_KINDS)


NAMES = ["a.svg.j2", "dir/a.svg", "../a", "a/../b", "a/..", "..", "/abs", "C:/x", "http://x"]
NAMES += ["a:b/c", "a/b:c", " ", "", "a\x01b", "a\\..\\b", "..\\a", "a..b", "..a", "x\tb"]


def test_the_schemas_path_pattern_is_the_gates_rule():
    """A template or file name: the schema's pattern lets by what ``relative_problem`` does."""
    import re

    from generator.paths import RELATIVE_PATTERN, relative_problem

    verdicts = {name: (relative_problem(name) is None, bool(re.search(RELATIVE_PATTERN, name)))
                for name in NAMES}  # fmt: skip
    assert all(ours == theirs for ours, theirs in verdicts.values()), verdicts
    assert sum(ok for ok, _ in verdicts.values()) == 5  # some pass, most do not


def test_a_components_kind_chooses_its_fields(validator):
    """The discriminator an editor completes by: one branch per kind, chosen by ``kind``."""
    component = spec_schema()["$defs"]["Component"]
    mapping = component["discriminator"]["mapping"]
    assert list(mapping) == list(COMPONENT_KINDS)
    assert [b["$ref"] for b in component["oneOf"]] == list(mapping.values())
    for kind, model in COMPONENT_KINDS.items():
        own = spec_schema()["$defs"][model.__name__]["properties"]["kind"]
        assert own["const"] == kind
    deck = {**spec_schema(), "anyOf": [{"$ref": "#/$defs/DeckSpec"}]}
    errors = jsonschema.Draft202012Validator(deck).iter_errors({"kind": "deck", "title": "A"})
    said = sorted(e.message for error in errors for e in error.context or [error])
    assert said == [f"'{key}' is a required property" for key in ("cards", "face", "size")]
