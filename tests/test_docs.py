"""The documentation (``docs/``, built by ``make docs``) stays true to the code: every field of
the spec format has a description (the spec reference is written from them), every example
on a page is a snippet of a file of an example game, and those games build and pass the check
in every language they list; the README stays a short front door whose picture is in git."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from test_bundled import CHECK_MODES

from generator.cli.schema import spec_schema
from generator.profile import load_profile

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
sys.path.insert(0, str(DOCS))
import reference  # noqa: E402 - the docs' own scripts

EXAMPLES = DOCS / "examples"
GAMES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "game.yaml").is_file())
BUILT = (DOCS / "stock-templates", EXAMPLES)  # the folders of files the tests build or load
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
SNIPPET = re.compile(r'^--8<-- "([^":]+)(?::([a-z][-_0-9a-z]*))?"$')  # a file, or a section of it
PROSE = {"", "text", "sh"}  # commands and their output: not examples of a file
# Harbour with a mistake put in for each rule of the check: file, text, what it becomes. The
# messages docs/check.md quotes are what pnp check prints for these.
MISTAKES = [
    (
        "game.yaml",
        "      - {goods: [fish, salt, wool], value: [1, 2, 3]}    # every card twice\n",
        "",
    ),
    ("game.yaml", "piles: [3, 6]", "piles: [9, 9]"),
    ("board.yaml", "size: 34, h: 18", "size: 18"),
    ("board.yaml", "size: 180 x 130", "size: 380 x 130"),
    (
        "board.yaml",
        "path: [[110, 110], [160, 110]], count: 3, size: 12",
        "path: [[8, 110], [372, 110]], count: 28, size: 14",
    ),
    ("templates/cargo-face.svg.j2", '"wool": ("#4f6b22"', '"wool": ("#7a9a3a"'),
    ("templates/cargo-face.svg.j2", 'bold" font-size="6"', 'bold" font-size="1.8"'),
    (
        "templates/sailor.svg.j2",
        'fill="#ffffff"/>',
        'fill="#ffffff" stroke="#222" stroke-width="0.03"/>',
    ),
    (
        "cargo.yaml",
        "keep it for the end.",
        "keep it for the end of the game, when every player counts the value of the cargo "
        "cards kept in hand and the player with the most wins the harbour master's favour and a "
        "ship of their own.",
    ),
    ("locale/de.po", 'msgid "Yarn"\nmsgstr "Garn"', 'msgid "Yarn"\nmsgstr ""'),
]
MESSAGE = re.compile(r"^harbour/\S+:\d+: .*$", re.M)
README_LIMIT = 8_000  # bytes: what a visitor reads first, the rest is in docs/
PICTURE_LIMIT = 100_000  # bytes of the README's picture, kept in git


@pytest.mark.unit
def test_every_spec_field_has_a_description():
    assert reference.missing_descriptions() == []


@pytest.mark.unit
def test_a_field_without_a_description_is_found():
    schema = spec_schema()
    schema["$defs"]["DeckSpec"]["properties"]["bleed"].pop("description")
    schema["$defs"]["Track"]["properties"]["fill"]["description"] = "  "
    assert reference.missing_descriptions(schema) == ["DeckSpec.bleed", "Track.fill"]


@pytest.mark.unit
def test_the_reference_has_every_field_of_every_model():
    text = reference.reference()
    for model, body in spec_schema()["$defs"].items():
        assert f"### {model}\n" in text
        for field, schema in body.get("properties", {}).items():
            row = re.search(rf"^\| `{field}` \|.*$", text, re.M)
            assert row, f"{model}.{field} is not in the reference"
            assert schema["description"].split()[0] in text


@pytest.mark.unit
def test_the_reference_page_is_what_the_code_says():
    """docs/reference.md is kept in git, to read unbuilt: python docs/reference.py writes it."""
    assert reference.PAGE.read_text(encoding="utf-8") == reference.page(), (
        "docs/reference.md is stale: run .venv/bin/python docs/reference.py"
    )


@pytest.mark.unit
@pytest.mark.parametrize("kind", ["deck", "board", "sheet"])
def test_a_kinds_fields_link_what_every_component_shares(kind):
    text = reference.kind_fields(kind)
    assert "[Style](../reference.md#style)" in text
    assert "### Style" not in text  # shown once, on the reference page


def _blocks() -> list[tuple[Path, str, str]]:
    """Every fenced block of every page: its page, language and text."""
    return [
        (page, match[1], match[2])
        for page in sorted(DOCS.rglob("*.md"))
        for match in FENCE.finditer(page.read_text(encoding="utf-8"))
    ]


@pytest.mark.unit
def test_every_example_is_a_snippet_of_a_file_the_tests_build():
    """A block showing a file (YAML, a template, a catalog, TOML) holds nothing but snippet
    includes, each of a file in the sample game or an example game, or of a section of it
    (``file:name``, between the file's ``--8<-- [start:name]`` and ``[end:name]`` lines)."""
    snippets = 0
    for page, language, text in _blocks():
        lines = text.strip().splitlines()
        included = [SNIPPET.match(line) for line in lines]
        if language in PROSE and not any(included):
            continue
        where = f"{page.relative_to(REPO)}: a ```{language} block"
        assert all(included), f"{where} is not a snippet include: {lines[0]!r}"
        for match in included:
            assert match
            path = REPO / match[1]
            assert path.is_file(), f"{where} includes {match[1]}, which is not there"
            assert any(path.is_relative_to(folder) for folder in BUILT), (where, match[1])
            if match[2]:
                marks = re.findall(r"--8<-- \[(start|end):([-\w]+)\]", path.read_text("utf-8"))
                missing = {"start", "end"} - {kind for kind, name in marks if name == match[2]}
                assert not missing, f"{where} includes {match[1]}:{match[2]}: no {missing} mark"
            snippets += 1
    assert snippets >= 20


def test_the_example_games_build_and_pass_the_check_in_every_language(pnp, tmp_path):
    for game in GAMES:
        result = pnp("check", game, "--components", EXAMPLES, "--lang", "all", "--strict")
        assert result.exit_code == 0, result.output
        result = pnp("build", game, "--components", EXAMPLES, "--lang", "all", "--out", tmp_path)
        assert result.exit_code == 0, result.output
        languages = yaml.safe_load((EXAMPLES / game / "game.yaml").read_text("utf-8"))["languages"]
        for language in languages:
            assert (tmp_path / game / language / f"{game}.pdf").is_file()
    assert {"harbour", "lanterns", "ridge", "orchard"} <= set(GAMES)


@pytest.mark.acceptance
@pytest.mark.parametrize("mode", CHECK_MODES)
def test_the_example_games_pass_every_rule_in_every_print_mode(pnp, mode):
    """The docs' example games (the wargame's gang-cut double-sided counters and tiled map, the
    pad, the decks) print right in every mode the check simulates, with no warning at all."""
    result = pnp("check", "--components", EXAMPLES, "--lang", "all", "--strict", *CHECK_MODES[mode])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr, result.stderr
    for game in ("ridge", "orchard"):
        assert f"({game})" in result.output
    assert result.output.count("every back behind its own front") >= len(GAMES)


def test_the_check_prints_each_message_as_the_docs_quote_it(pnp, tmp_path, monkeypatch):
    shutil.copytree(EXAMPLES / "harbour", tmp_path / "harbour")
    for name, before, after in MISTAKES:
        path = tmp_path / "harbour" / name
        text = path.read_text(encoding="utf-8")
        assert before in text, (name, before)
        path.write_text(text.replace(before, after), encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # messages name files from here: harbour/cargo.yaml:16
    printed = ""
    for language in ("en", "de"):
        result = pnp("check", "harbour", "--components", tmp_path, "--lang", language)
        assert result.exit_code == 1, result.output
        printed += result.output
    quoted = MESSAGE.findall((DOCS / "check.md").read_text(encoding="utf-8"))
    assert len(quoted) >= 9
    for message in quoted:
        assert message in printed.splitlines(), message


@pytest.mark.unit
def test_the_printer_profile_example_is_read_as_written(tmp_path, monkeypatch):
    shutil.copy(EXAMPLES / "pnp.toml", tmp_path / "pnp.toml")
    monkeypatch.chdir(tmp_path)
    profile = load_profile(("a4", "letter", "a3", "a4-letter"))
    assert profile.values == {
        "paper": "letter",
        "duplex": "short",
        "back_offset": (1.5, -0.5),
        "layout": "duplex",
        "ink_saver": False,
    }


@pytest.mark.unit
def test_the_readme_is_short_and_its_picture_and_links_are_in_git():
    readme = REPO / "README.md"
    assert readme.stat().st_size <= README_LIMIT
    text = readme.read_text(encoding="utf-8")
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", text)
    assert len(pictures) == 1
    assert pictures[0] in tracked, f"{pictures[0]} is not kept in git"
    assert (REPO / pictures[0]).stat().st_size <= PICTURE_LIMIT
    links = re.findall(r"(?<!!)\[[^\]]+\]\((docs/[^)#]+)", text)
    assert len(links) >= 15
    for link in links:
        assert (REPO / link).is_file(), link
