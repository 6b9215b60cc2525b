"""Fuzzing ``pnp check``: generated and mutated specs end in exit 0, 1 or 2, never in a crash or
a hang.

Each example is a game folder: either the small valid game below with its YAML (or a template)
mutated as a person's typing or a broken editor would (characters deleted, doubled or replaced,
lines deleted, doubled, swapped or re-indented, numbers, scalar types and keys changed), or a
component spec generated from the keys the spec format knows, with values of any type. It is
checked in-process through click's CliRunner: the result may be exit 0 (all good), 1 (the
check fails) or 2 (spec errors, listed as ``file:LINE: message``), and ``result.exception``
must be None or the SystemExit of that status: any other exception is a crash.

The normal suite runs ``PNP_FUZZ_EXAMPLES`` (default 60) derandomized examples without
shrinking, so it is fast and repeatable; set the variable to run longer with fresh random
examples (shrunk when one fails), e.g.
``PNP_FUZZ_EXAMPLES=3000 pytest tests/test_fuzz.py --hypothesis-show-statistics``.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from datetime import timedelta
from functools import cache
from io import BytesIO
from pathlib import Path

import pytest
import yaml
from babel.messages.pofile import read_po, write_po
from click.testing import CliRunner
from fuzzing import ended_cleanly, run_within
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from generator.cli import cli

EXAMPLES = int(os.environ.get("PNP_FUZZ_EXAMPLES", "60"))
LONG_RUN = "PNP_FUZZ_EXAMPLES" in os.environ
HANG_SECONDS = 60  # one check of a small game takes well under a second

GAME = """\
title: Fuzz Game
players: 2-4
languages: [en, de]
colours:
  - {name: red, label: Red, colour: "#c0392b"}
  - {name: blue, label: Blue, colour: "#2e86c1"}
expect:
  deck: 2
  deck/a: 1
  tokens: 5
  tokens/crew: 2
recipes:
  deck:
    identify: [suit]
    cards:
      - {suit: [hearts, spades]}
"""
DECK = """\
kind: deck
title: Deck
size: poker
bleed: 3
face: card.svg.j2
back: back.svg.j2
fields:
  reminder: Trade freely.
cards:
  - name: a
    count: 1
    title: Alpha
    suit: hearts
  - name: b
    count: 1
    title: Beta
    suit: spades
"""
TOKENS = """\
kind: tokens
title: Tokens
shape: hex-flat
size: 16
bleed: 1
face: token.svg.j2
tokens:
  - name: crew
    per_player: 1
    label: Crew
  - name: move
    series: 1-3
    count: 1
"""
BOARD = """\
kind: board
title: Board
size: 120 x 80
icons: icons.svg.j2
groups:
  - {name: north, fill: "#dfe9f5"}
regions:
  - {name: field, group: north, polygon: [[10, 10], [50, 10], [50, 50]]}
spaces:
  - {name: camp, at: [80, 30], style: dashed}
tracks:
  - {name: score, values: 0-4, path: [[10, 70], [110, 70]], size: 8, count: 5}
icons_at:
  - {icon: star, at: [100, 50], points_to: field}
connections:
  - {from: camp, to: field}
"""
SHEET = """\
kind: sheet
title: Rules
columns: 2
pages: 1
icons: icons.svg.j2
sections:
  - heading: "Setup :star:"
    blocks:
      - text: "Take **two** cards."
      - bullets: [Draw, Play]
      - table: {header: [Card, Suit], from: deck, columns: [title, suit]}
"""
DICE = """\
kind: dice
title: Dice
size: 16
face: die.svg.j2
fields:
  ink: "#222222"
dice:
  - name: d6
    count: 2
    faces: [1, 2, 3, 4, 5, 6]
  - name: odd
    count: 1
    faces: [{label: Go}, 2, 2, 3, 3, 4]
"""
PAGES = """\
kind: token-pages
title: Move tokens
name: move
size: 20
header_height: 20
face: token.svg.j2
back: back.svg.j2
header: header.svg.j2
page_title: "Page [{n}]"
pages: 1
values: 1-3
each: 2
fields:
  note: Cut them out.
"""
STANDEES = """\
kind: standees
title: Figures
size: 20 x 30
base: 10
face: standee.svg.j2
back: standee.svg.j2
standees:
  - name: hero
    count: 2
    label: Hero
  - name: foe
    per_player: 1
    label: Foe
"""
QUOTES = """\
kind: deck
title: Quotes
size: poker
face: card.svg.j2
fields:
  reminder: Read it aloud.
cards: {from: quotes.csv}
"""
QUOTES_CSV = """\
Title,Count,Suit,Text
First words,2,hearts,"Well begun, half done."
Last words,1,spades,All is well.
"""
SVG = '<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>\n'
TEMPLATES = {
    "card.svg.j2": SVG
    + '  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>\n'
    + "  {% set f = fit(card.reminder, box.w - 10, 20, 4, 2) %}\n"
    + '  <text x="5" y="10" font-family="sans-serif" font-size="4">{{ card.title }}</text>\n'
    + '  <text x="5" y="40" font-size="{{ f.size }}">{{ f.lines | join(" ") }}</text>\n'
    + "</svg>\n",
    "back.svg.j2": SVG + '  <rect x="0" y="0" width="10" height="10" fill="#553322"/>\n</svg>\n',
    "token.svg.j2": SVG
    + '  <circle cx="{{ box.cx }}" cy="{{ box.cy }}" r="6" fill="#eeeeee"/>\n'
    + '  <text x="2" y="8" font-size="3">{{ token.name }}</text>\n</svg>\n',
    "die.svg.j2": SVG
    + '  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>\n'
    + '  <text x="8" y="9" font-size="5" fill="{{ die.ink }}">'
    + "{{ face.label if face is mapping else face }}</text>\n</svg>\n",
    "header.svg.j2": SVG
    + '  <text x="2" y="8" font-size="6">{{ page.title }}</text>\n'
    + '  <text x="2" y="16" font-size="3">{{ fields.note }}</text>\n</svg>\n',
    "standee.svg.j2": SVG
    + '  <path d="M2 {{ box.h }} L{{ box.cx }} 2 L{{ box.w - 2 }} {{ box.h }} Z" fill="#ccaa88"/>\n'
    + '  <text x="3" y="{{ box.h - 3 }}" font-size="4">{{ piece.label }}</text>\n</svg>\n',
    "icons.svg.j2": '{% macro icon(name) -%}\n{% if name == "star" -%}\n'
    '<circle cx="0" cy="0" r="8" fill="#1a7a3a"/>\n{%- endif %}\n{%- endmacro %}\n',
}
BASE = {
    "game.yaml": GAME,
    "deck.yaml": DECK,
    "tokens.yaml": TOKENS,
    "board.yaml": BOARD,
    "sheet.yaml": SHEET,
    "dice.yaml": DICE,
    "pages.yaml": PAGES,
    "standees.yaml": STANDEES,
    "quotes.yaml": QUOTES,
    "quotes.csv": QUOTES_CSV,
    **{f"templates/{name}": text for name, text in TEMPLATES.items()},
}


@cache
def base() -> dict[str, str]:
    """The base game with a complete German catalog (``pnp i18n init``, every string kept as it
    is), so a check in German of the unmutated game passes too."""
    with tempfile.TemporaryDirectory() as folder:
        game = write_game(Path(folder), BASE)
        result = CliRunner().invoke(
            cli, ["i18n", "init", "game", "de", "--components", str(game.parent)]
        )
        assert result.exit_code == 0, result.output
        with open(game / "locale" / "de.po", "rb") as handle:
            catalog = read_po(handle)
        for message in catalog:
            if message.id:
                message.string = message.id
        text = BytesIO()
        write_po(text, catalog)
    return {**BASE, "locale/de.po": text.getvalue().decode("utf-8")}


def write_game(folder: Path, files: dict[str, str]) -> Path:
    """The game ``files`` written as ``folder/components/game``; returns that game folder."""
    game = folder / "components" / "game"
    for name, text in files.items():
        path = game / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return game


# --- mutations ------------------------------------------------------------------------------------

ALPHABET = list(" :-[]{},&*!#|>'\"%@`\\\t\n0123456789.xyzäß漢") + ["\u00a0", "\x00", "\u200b"]
NUMBERS = ["0", "-1", "1", "2", "3", "1.5", "999", "1000", "1001", "1e309", "-0", "0x10", "1_000"]
SCALARS = [
    "[]",
    "{}",
    "~",
    "null",
    "true",
    "no",
    "[1, 2]",
    "{a: 1}",
    '"text"',
    "''",
    "-1",
    "2.5",
    ".nan",
    ".inf",
    "&anchor x",
    "*anchor",
    "!!str 3",
    "!!binary aGk=",
    "!!set {a, b}",
    "2024-01-01",
    "[[1, 2], [3]]",
    "poker",
    "circle",
    "../x.svg.j2",
    "/etc/passwd",
    "漢字",
]
# keys of the spec format, misspellings of them and odd keys
KEYS = """
kind title size face back bleed cards tokens dice standees fields count per_player series
counts group shape corner pages each values header page_title name id icons sections
blocks text bullets table heading columns rows widths from spaces regions groups tracks
connections labels at path players expect colours paper languages recipes identify piles
copies border background label polygon to titel cuont per_playr shpe 0 null <<
""".split()  # noqa: SIM905
NUMBER = r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])"


def _line_mutation(draw, lines: list[str], op: str) -> list[str]:
    i = draw(st.integers(0, len(lines) - 1))
    if op == "delete-line":
        return lines[:i] + lines[i + 1 :]
    if op == "duplicate-line":
        return lines[: i + 1] + lines[i:]
    if op == "swap-lines":
        j = draw(st.integers(0, len(lines) - 1))
        lines = list(lines)
        lines[i], lines[j] = lines[j], lines[i]
        return lines
    if op == "indent":
        delta = draw(st.sampled_from([-4, -2, -1, 1, 2, 4]))
        line = lines[i]
        line = line[-delta:] if delta < 0 and line.startswith(" " * -delta) else " " * delta + line
        return lines[:i] + [line] + lines[i + 1 :]
    if op == "insert-line":
        other = draw(st.sampled_from(sorted(BASE.values())))
        donor = other.split("\n")
        return lines[:i] + [donor[draw(st.integers(0, len(donor) - 1))]] + lines[i:]
    raise AssertionError(op)


def _value_mutation(draw, text: str, op: str) -> str:
    if op == "number":
        spans = [m.span() for m in re.finditer(NUMBER, text)]
        replacement = draw(st.sampled_from(NUMBERS))
    elif op == "scalar":
        spans = [(m.start(1), m.end(1)) for m in re.finditer(r": ([^\n]+)", text)]
        replacement = draw(st.sampled_from(SCALARS))
    else:  # key
        spans = [(m.start(1), m.end(1)) for m in re.finditer(r"^[ -]*([A-Za-z_]\w*):", text, re.M)]
        replacement = draw(st.sampled_from(KEYS))
    if not spans:
        return text
    start, end = draw(st.sampled_from(spans))
    return text[:start] + replacement + text[end:]


def _char_mutation(draw, text: str, op: str) -> str:
    if not text:
        return draw(st.sampled_from(ALPHABET))
    i = draw(st.integers(0, len(text) - 1))
    if op == "delete-char":
        return text[:i] + text[i + 1 :]
    if op == "duplicate-char":
        return text[: i + 1] + text[i:]
    return text[:i] + draw(st.sampled_from(ALPHABET)) + text[i + 1 :]  # replace-char


LINE_OPS = ["delete-line", "duplicate-line", "swap-lines", "indent", "insert-line"]
VALUE_OPS = ["number", "scalar", "key"]
CHAR_OPS = ["delete-char", "duplicate-char", "replace-char"]
# changed values keep the YAML well-formed more often, so they reach rendering more often
OPS = LINE_OPS + VALUE_OPS * 3 + CHAR_OPS


# what a translator's editor or a careless hand leaves in a catalog's strings
PO_VALUES = [
    "",
    "%s",
    "{n}",
    "{",
    "}{",
    "[{n}]",
    "\\",
    '\\"',
    "\\n",
    "\\t",
    "\\x00",
    "\\u0007",
    "**",
    ":star:",
    ":nothing:",
    "漢字" * 40,
    "Wort " * 300,
    "Ünïcödé",
]


def _catalog_mutation(draw, text: str) -> str:
    """A msgid or msgstr of the catalog replaced, or a ``#, fuzzy`` flag added."""
    spans = [(m.start(1), m.end(1)) for m in re.finditer(r'^msg(?:id|str) "(.*)"$', text, re.M)]
    if not spans or draw(st.integers(0, 4)) == 0:
        i = draw(st.integers(0, max(0, text.count("\nmsgid"))))
        parts = text.split("\nmsgid")
        return "\nmsgid".join(
            parts[:i] + ["\n#, fuzzy" + p for p in parts[i : i + 1]] + parts[i + 1 :]
        )
    start, end = draw(st.sampled_from(spans))
    return text[:start] + draw(st.sampled_from(PO_VALUES)) + text[end:]


def _mutate(draw, name: str, text: str) -> str:
    """One mutation of the file ``name``: of its lines, a value, a character, or (in a
    catalog) a string."""
    ops = OPS + ["catalog"] * 4 if name.endswith(".po") else OPS
    op = draw(st.sampled_from(ops))
    event(f"mutation: {op}")
    if op == "catalog":
        return _catalog_mutation(draw, text)
    if op in LINE_OPS:
        return "\n".join(_line_mutation(draw, text.split("\n"), op))
    if op in VALUE_OPS:
        return _value_mutation(draw, text, op)
    return _char_mutation(draw, text, op)


@st.composite
def mutated_game(draw) -> dict[str, str]:
    """The base game (half the time with its German catalog, and checked in German) with one
    to four mutations: mostly in its YAML, sometimes in a template, the catalog or the table
    of cards."""
    files = dict(base() if draw(st.booleans()) else BASE)
    groups = [
        sorted(n for n in files if n.endswith(".yaml")),
        sorted(n for n in files if n.startswith("templates/")),
        sorted(n for n in files if n.endswith((".po", ".csv"))),
    ]
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 2, 3, 4]))):
        name = draw(st.one_of([st.sampled_from(group) for group in groups if group]))
        files[name] = _mutate(draw, name, files[name])
    return files


SPEC_KEYS = KEYS + ["size", "face", "title", "kind", "cards", "tokens"]
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 1200)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(
        ["poker", "16", "1-3", "30 x 50", "card.svg.j2", "token.svg.j2", "icons.svg.j2", "a"]
    )
    | st.text(max_size=8)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(SPEC_KEYS) | st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)
entries = st.lists(
    st.fixed_dictionaries(
        {"name": st.sampled_from(["a", "b", "crew", "x-1"]) | st.text(max_size=4)},
        optional={
            "count": st.integers(-2, 1002) | scalars,
            "per_player": st.integers(0, 3),
            "series": st.sampled_from(["1-3", "2,4", "3-1", "x"]) | values,
            "title": scalars,
            "label": scalars,
            "faces": values,
        },
    ),
    max_size=4,
)


@st.composite
def generated_game(draw) -> dict[str, str]:
    """The base game plus one generated component: a known kind (or not) with keys the spec
    format knows (or not) and values of any type."""
    kind = draw(
        st.sampled_from(["deck", "tokens", "dice", "token-pages", "board", "sheet", "standees"])
        | scalars
    )
    spec = {"kind": kind}
    spec |= draw(
        st.fixed_dictionaries(
            {},
            optional={
                "title": scalars,
                "size": scalars,
                "face": st.sampled_from(["card.svg.j2", "token.svg.j2"]) | scalars,
                "shape": st.sampled_from(["circle", "square", "rounded", "hex-flat"]) | scalars,
                "cards": entries,
                "tokens": entries,
                "dice": entries,
                "standees": entries,
                "header": scalars,
                "pages": st.integers(-1, 201) | scalars,
                "each": st.integers(-1, 101) | scalars,
                "values": scalars,
                "page_title": scalars,
                "icons": scalars,
                "sections": values,
                "spaces": values,
                "fields": values,
            },
        )
    )
    spec |= draw(st.dictionaries(st.sampled_from(SPEC_KEYS), values, max_size=2))
    known = kind in ("deck", "tokens", "dice", "token-pages", "board", "sheet", "standees")
    event(f"generated kind: {kind if known else 'other'}")
    text = yaml.safe_dump(spec, allow_unicode=True, sort_keys=False)
    return {**BASE, "generated.yaml": text}


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def check(folder: Path, files: dict[str, str]):
    """``pnp check`` of the game ``files`` written under ``folder``, in German when the files
    hold a catalog."""
    game = write_game(folder, files)
    language = ["--lang", "de"] if "locale/de.po" in files else []
    return run_within(["check", "--components", str(game.parent), *language], HANG_SECONDS)


@pytest.mark.parametrize("german", [False, True])
def test_the_base_game_checks_clean(fuzz_dir: Path, german: bool) -> None:
    """The game every mutation starts from is valid, in English and in German, so each failure
    comes from a mutation."""
    result = check(Path(tempfile.mkdtemp(dir=fuzz_dir)), base() if german else BASE)
    assert result.exit_code == 0, result.output
    assert ("translation" in result.output) == german, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


@settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=20),
    database=None,
    derandomize=not LONG_RUN,
    # a long run shrinks what it finds; the normal suite reports the failing example as found
    phases=list(Phase) if LONG_RUN else [Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(files=mutated_game() | generated_game())
def test_check_ends_in_0_1_or_2_never_a_crash(fuzz_dir: Path, files: dict[str, str]) -> None:
    folder = Path(tempfile.mkdtemp(dir=fuzz_dir))
    try:
        result = check(folder, files)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    ended_cleanly(result, folder, "check")
    if result.exit_code == 2:
        assert "nothing was built" in result.stderr, result.stderr
