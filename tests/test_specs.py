"""Spec errors: every mistake is reported as ``file:LINE: message`` with exit status 2.

Each test writes a small game folder (``game.yaml``, a deck and a face template) under
``tmp_path/components/game``, plants one mistake and runs ``pnp check`` on it from
``tmp_path`` (in this process, as a command line would: any exception but the exit status
is a crash and fails the test).
"""

from __future__ import annotations

import contextlib
import json
import re
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import cli
from generator.model.fields import MAX_COPIES
from generator.model.sizes import card_sizes

REPO = Path(__file__).resolve().parent.parent

GAME_YAML = """\
title: Spec Test
players: 2-4
expect:
  deck: 3
"""

DECK_YAML = """\
kind: deck
title: Deck
size: poker
face: face.svg.j2
cards:
  - name: a
    count: 2
    title: A
  - name: b
    count: 1
    title: B
"""

FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>
  <text x="5" y="10" font-family="sans-serif" font-size="4">{{ card.title }}</text>
</svg>
"""

# The bundled templates open with a Jinja comment like this one; with trim_blocks it renders to
# nothing, so template lines and rendered lines differ by two below it.
COMMENT = "{# A face for the spec tests.\n   Every word comes from the card's fields. #}\n"


def line_no(text: str, needle: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``text`` containing ``needle``."""
    hits = [i for i, line in enumerate(text.splitlines(), start=1) if needle in line]
    assert len(hits) >= nth, f"{needle!r} occurs {len(hits)} times"
    return hits[nth - 1]


def make_game(
    root: Path,
    files: dict[str, str] | None = None,
    templates: dict[str, str] | None = None,
    game: str | None = GAME_YAML,
) -> Path:
    """Write ``root/components/game`` and return the components folder."""
    components = root / "components"
    folder = components / "game"
    (folder / "templates").mkdir(parents=True)
    if game is not None:
        (folder / "game.yaml").write_text(game, encoding="utf-8")
    for name, text in (files if files is not None else {"deck.yaml": DECK_YAML}).items():
        (folder / name).write_text(text, encoding="utf-8")
    for name, text in (templates if templates is not None else {"face.svg.j2": FACE}).items():
        (folder / "templates" / name).write_text(text, encoding="utf-8")
    return components


def run_check(tmp_path: Path, components: Path, *extra: str) -> tuple[int, str]:
    """``pnp check`` run from ``tmp_path``; the exit status and all output."""
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(cli, ["check", "--components", str(components), *extra])
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not crashed, "".join(traceback.format_exception(result.exception)) + result.output
    out = result.stdout + result.stderr
    assert "internal error" not in out, out
    return result.exit_code, out


def spec_failure(tmp_path: Path, **game) -> str:
    """Run ``check`` on a game with a planted mistake; it must fail with exit status 2."""
    code, out = run_check(tmp_path, make_game(tmp_path, **game))
    assert code == 2, out
    assert "nothing was built" in out, out
    return out


def error_line(out: str, where: str, line: int | None) -> str:
    """The one output line starting ``components/game/<where>:<line>: ``."""
    prefix = f"components/game/{where}:{line}: " if line else f"components/game/{where}: "
    hits = [text for text in out.splitlines() if text.startswith(prefix)]
    assert hits, f"no line starts with {prefix!r}:\n{out}"
    return hits[0]


def error_lines(out: str) -> list[str]:
    """The ``file:LINE: message`` lines of the output."""
    return [text for text in out.splitlines() if re.match(r"^\S[^:]*\.(yaml|j2):\d+: ", text)]


def test_valid_game_passes(tmp_path):
    # The base game of every test below is valid: each failure comes from the planted mistake.
    code, out = run_check(tmp_path, make_game(tmp_path))
    assert code == 0, out
    assert re.search(r"^\s*deck\s+3\s+3\s+ok\s*$", out, re.M), out


# --- YAML syntax ----------------------------------------------------------------------------


def test_unclosed_quote_points_at_the_opening_quote(tmp_path):
    deck = DECK_YAML.replace("title: Deck", 'title: "Deck')
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, '"Deck'))
    assert "YAML syntax error" in message
    assert "quot" in message.lower(), message


@pytest.mark.parametrize(
    "old, new",
    [
        ("    count: 1", "\tcount: 1"),
        ("  - name: b", "\t- name: b"),
    ],
    ids=["tab-before-key", "tab-before-dash"],
)
def test_tab_indentation(tmp_path, old, new):
    deck = DECK_YAML.replace(old, new)
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, "\t"))
    assert "tab" in message.lower(), message
    assert "spaces" in message.lower(), message


def test_duplicate_key_names_the_first_line(tmp_path):
    deck = DECK_YAML.replace("size: poker\n", "size: poker\ntitle: Other\n")
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, "title: Other"))
    assert "duplicate" in message and "'title'" in message, message
    assert f"line {line_no(deck, 'title: Deck')}" in message, message


# --- keys and values ------------------------------------------------------------------------


def test_unknown_key_suggests_the_right_one(tmp_path):
    deck = DECK_YAML.replace("title: Deck", "titel: Deck")
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, "titel:"))
    assert "'titel'" in message, message
    assert "did you mean 'title'" in message, message


def test_misspelt_count_suggests_count(tmp_path):
    # A card's extra keys are its template fields, so 'cuont' is not rejected as unknown; the
    # card then lacks 'count', and the message should point at the misspelling and name it.
    deck = DECK_YAML.replace("    count: 1", "    cuont: 1")
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, "cuont:"))
    assert "'cuont'" in message, message
    assert "did you mean 'count'" in message, message


@pytest.mark.parametrize(
    "value, expected",
    [
        ("many", [r"'many'", r"integer|whole number"]),
        ("-1", [r"-1", r"(at least|greater than or equal to) 1\b"]),
        ("2.5", [r"2\.5", r"integer|whole number"]),
        ("5000", [r"5000", rf"\b{MAX_COPIES}\b"]),
    ],
    ids=["word", "negative", "fraction", "absurd"],  # count 0 parks a card: test_designer_mistakes
)
def test_bad_count(tmp_path, value, expected):
    deck = DECK_YAML.replace("    count: 1", f"    count: {value}")
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, f"count: {value}"))
    assert "count" in message, message
    for pattern in expected:
        assert re.search(pattern, message), (pattern, message)
    assert len(error_lines(out)) == 1, out


def test_unknown_card_size_lists_the_sizes(tmp_path):
    deck = DECK_YAML.replace("size: poker", "size: pokr")
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, "size:"))
    assert "'pokr'" in message, message
    for name in card_sizes():
        assert name in message, (name, message)


def test_unknown_kind(tmp_path):
    deck = DECK_YAML.replace("kind: deck", "kind: dek")
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, "kind:"))
    assert "'dek'" in message and "deck" in message.replace("'dek'", ""), message


def test_template_path_with_dotdot(tmp_path):
    deck = DECK_YAML.replace("face: face.svg.j2", "face: ../face.svg.j2")
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, "face:"))
    assert "'..'" in message and "../face.svg.j2" in message, message


# --- templates ------------------------------------------------------------------------------


def test_missing_template_names_the_face_line(tmp_path):
    deck = DECK_YAML.replace("face: face.svg.j2", "face: missing.svg.j2")
    out = spec_failure(tmp_path, files={"deck.yaml": deck})
    message = error_line(out, "deck.yaml", line_no(deck, "face:"))
    assert "missing.svg.j2" in message and "not found" in message, message


def broken_syntax_template() -> str:
    return COMMENT + FACE.replace("{{ card.title }}", "{{ card.title }")


def test_template_syntax_error_names_template_and_line(tmp_path):
    face = broken_syntax_template()
    out = spec_failure(tmp_path, templates={"face.svg.j2": face})
    message = error_line(out, "templates/face.svg.j2", line_no(face, "{{ card.title }"))
    assert "syntax error" in message, message


def test_template_syntax_error_reported_once(tmp_path):
    # One mistake in one template is one error, however many cards use the template.
    face = broken_syntax_template()
    out = spec_failure(tmp_path, templates={"face.svg.j2": face})
    prefix = f"components/game/templates/face.svg.j2:{line_no(face, '{{ card.title }')}: "
    assert sum(text.startswith(prefix) for text in out.splitlines()) == 1, out


def test_undefined_variable_names_template_line_and_card(tmp_path):
    face = COMMENT + "{% set margin = 5 %}\n" + FACE.replace("card.title", "card.subtitle")
    out = spec_failure(tmp_path, templates={"face.svg.j2": face})
    line = line_no(face, "card.subtitle")
    for card in ("a", "b"):
        hits = [
            text
            for text in out.splitlines()
            if text.startswith(f"components/game/templates/face.svg.j2:{line}: ")
            and f"card '{card}'" in text
        ]
        assert hits, out
        assert "subtitle" in hits[0], hits[0]
        assert f"deck.yaml:{line_no(DECK_YAML, f'name: {card}')}" in hits[0], hits[0]


def test_rendered_svg_not_well_formed(tmp_path):
    face = FACE.replace("<text ", "<text < ")
    out = spec_failure(tmp_path, templates={"face.svg.j2": face})
    # Output lines cannot be mapped back to template lines, so the error names the template
    # and the line of the SVG it rendered.
    message = error_line(out, "templates/face.svg.j2", None)
    assert "not well-formed" in message, message
    assert f"line {line_no(face, '<text <')} of its output" in message, message
    assert "card 'a'" in message and f"deck.yaml:{line_no(DECK_YAML, 'name: a')}" in message


def test_bad_svg_does_not_claim_a_wrong_template_line(tmp_path):
    # Below a Jinja comment the rendered SVG's line 3 is the template's line 5; reporting the
    # rendered line as a template line sends the user to a line that is fine.
    face = COMMENT + FACE.replace("<text ", "<text < ")
    out = spec_failure(tmp_path, templates={"face.svg.j2": face})
    rendered_line = line_no(FACE, "<text ")
    assert rendered_line != line_no(face, "<text <")
    assert f"face.svg.j2:{rendered_line}: " not in out, out
    assert any("not well-formed" in text and "card 'a'" in text for text in out.splitlines())


# --- game folders ---------------------------------------------------------------------------


def test_game_folder_without_game_yaml(tmp_path):
    out = spec_failure(tmp_path, game=None)
    hits = [text for text in out.splitlines() if text.startswith("components/game: ")]
    assert hits and "game.yaml" in hits[0], out


def test_two_components_with_the_same_id(tmp_path):
    second = DECK_YAML.replace("title: Deck", "id: first\ntitle: Deck")
    out = spec_failure(tmp_path, files={"first.yaml": DECK_YAML, "second.yaml": second})
    message = error_line(out, "second.yaml", line_no(second, "id: first"))
    assert "'first'" in message and "first.yaml" in message, message


# --- all mistakes in one run ----------------------------------------------------------------


def test_all_mistakes_in_two_files_reported_in_one_run(tmp_path):
    first = DECK_YAML.replace("size: poker", "size: huge").replace("count: 1", "count: -1")
    second = DECK_YAML.replace("face: face.svg.j2", "face: ../x.svg.j2").replace(
        "count: 2", "count: many"
    )
    out = spec_failure(tmp_path, files={"first.yaml": first, "second.yaml": second})
    expected = [
        ("first.yaml", line_no(first, "size: huge")),
        ("first.yaml", line_no(first, "count: -1")),
        ("second.yaml", line_no(second, "face: ../")),
        ("second.yaml", line_no(second, "count: many")),
    ]
    for where, line in expected:
        error_line(out, where, line)
    assert len(error_lines(out)) == len(expected), out
    assert f"{len(expected)} errors" in out, out


def test_missing_template_reported_with_the_other_spec_errors(tmp_path):
    # A wrong count in one file must not hide a missing template in another.
    first = DECK_YAML.replace("count: 1", "count: -1")
    second = DECK_YAML.replace("face: face.svg.j2", "face: missing.svg.j2")
    out = spec_failure(tmp_path, files={"first.yaml": first, "second.yaml": second})
    error_line(out, "first.yaml", line_no(first, "count: -1"))
    assert "missing.svg.j2" in error_line(out, "second.yaml", line_no(second, "face:"))


# --- file names -----------------------------------------------------------------------------


def test_file_name_with_spaces_and_umlaut_gets_a_slug_id(tmp_path, monkeypatch):
    game = GAME_YAML.replace("deck: 3", "zutaten-karten-a: 3")
    components = make_game(tmp_path, files={"Zutaten Karten ä.yaml": DECK_YAML}, game=game)
    code, out = run_check(tmp_path, components)
    assert code == 0, out
    assert re.search(r"^\s*zutaten-karten-a\s+3\s+3\s+ok\s*$", out, re.M), out

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        cli, ["build", "--components", str(components), "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "game" / "manifest.json").read_text("utf-8"))
    assert {item["component"] for item in manifest["items"]} == {"zutaten-karten-a"}
    assert len(manifest["items"]) == 3
