"""The ``pnp`` command line on the bundled game: list, check, schema and build."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pypdf
import pytest
import yaml
from click.testing import CliRunner
from waiting import PATIENCE

from generator.cli import cli
from generator.i18n.strings import english

REPO = Path(__file__).resolve().parent.parent
COMPONENTS = REPO / "components"
GAME = "chocolate-market"
GAME_DIR = COMPONENTS / GAME
MM = 72 / 25.4
ITEM_KEYS = {
    "component",
    "kind",
    "name",
    "copy",
    "page",
    "side",
    "x_mm",
    "y_mm",
    "w_mm",
    "h_mm",
}


def read_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


GAME_SPEC = read_yaml(GAME_DIR / "game.yaml")
DECK_SPEC = read_yaml(GAME_DIR / "ingredient-cards.yaml")
DECK_COUNTS = {card["name"]: card["count"] for card in DECK_SPEC["cards"]}
TOTAL = sum(DECK_COUNTS.values())


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The bundled game built once for this module; returns its output folder."""
    out = tmp_path_factory.mktemp("build")
    result = invoke("build", GAME, "--components", str(COMPONENTS), "--out", str(out))
    assert result.exit_code == 0, result.output
    return out / GAME


@pytest.fixture(scope="module")
def manifest(built) -> dict[str, Any]:
    return json.loads((built / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def reader(built) -> pypdf.PdfReader:
    return pypdf.PdfReader(built / f"{GAME}.pdf")


# --- help, list, check ----------------------------------------------------------------------


def test_python_m_generator_help():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=PATIENCE,
    )
    assert proc.returncode == 0, proc.stderr
    for command in ("build", "check", "list", "schema"):
        assert re.search(rf"^\s+{command}\s", proc.stdout, re.M), proc.stdout


def test_list_shows_the_bundled_game(monkeypatch):
    monkeypatch.chdir(REPO)  # the default --components is ./components
    result = invoke("list")
    assert result.exit_code == 0, result.output
    assert f"{GAME}: {GAME_SPEC['title']}" in result.output
    assert TOTAL == 60
    assert re.search(
        rf"ingredient-cards: deck '{DECK_SPEC['title']}', {TOTAL} pieces", result.output
    )
    kinds = ", ".join(f"{name} {count}" for name, count in DECK_COUNTS.items())
    assert kinds in result.output, result.output


def test_check_passes_on_the_bundled_games():
    result = invoke("check", "--components", str(COMPONENTS))
    assert result.exit_code == 0, result.output
    assert "MISMATCH" not in result.output
    for key, count in GAME_SPEC["expect"].items():
        if key.split("/")[0] == "ingredient-cards":
            assert re.search(rf"^\s*{key}\s+{count}\s+{count}\s+ok\s*$", result.output, re.M), key


def test_unknown_game_names_the_available_ones(tmp_path):
    out = tmp_path / "out"
    result = invoke("build", "no-such-game", "--components", str(COMPONENTS), "--out", str(out))
    assert result.exit_code == 2, result.output
    assert "no-such-game" in result.stderr
    assert GAME in result.stderr
    assert not out.exists()


# --- schema ---------------------------------------------------------------------------------


def schema_errors(schema: dict, value: Any, root: dict, where: str = "$") -> list[str]:
    """A small JSON Schema checker for the keywords ``pnp schema`` uses (jsonschema is not a
    dependency): $ref, anyOf, type, const, enum, string, number, object and array limits."""
    errors: list[str] = []
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        errors += schema_errors(root["$defs"][name], value, root, where)
    if "anyOf" in schema and all(schema_errors(s, value, root, where) for s in schema["anyOf"]):
        errors.append(f"{where}: matches none of anyOf")
    kinds = {
        "object": dict,
        "array": list,
        "string": str,
        "integer": int,
        "number": (int, float),
        "boolean": bool,
        "null": type(None),
    }
    if "type" in schema:
        wanted = kinds[schema["type"]]
        if not isinstance(value, wanted) or (
            isinstance(value, bool) and schema["type"] != "boolean"
        ):
            return [*errors, f"{where}: not of type {schema['type']}"]
    if "const" in schema and value != schema["const"]:
        errors.append(f"{where}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{where}: not one of {schema['enum']}")
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append(f"{where}: does not match {schema['pattern']}")
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 1e9):
            errors.append(f"{where}: wrong length")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if value < schema.get("minimum", -1e18) or value > schema.get("maximum", 1e18):
            errors.append(f"{where}: out of range")
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            errors.append(f"{where}: too small")
    if isinstance(value, dict):
        errors += [f"{where}: missing {k}" for k in schema.get("required", []) if k not in value]
        for key, item in value.items():
            if key in schema.get("properties", {}):
                errors += schema_errors(schema["properties"][key], item, root, f"{where}.{key}")
                continue
            patterns = [p for p in schema.get("patternProperties", {}) if re.search(p, key)]
            for p in patterns:
                sub = schema["patternProperties"][p]
                errors += schema_errors(sub, item, root, f"{where}.{key}")
            extra = schema.get("additionalProperties", True)
            if not patterns and extra is False:
                errors.append(f"{where}: unexpected key {key}")
            elif not patterns and isinstance(extra, dict):
                errors += schema_errors(extra, item, root, f"{where}.{key}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 1e9):
            errors.append(f"{where}: wrong number of items")
        for i, item in enumerate(value):
            if "items" in schema:
                errors += schema_errors(schema["items"], item, root, f"{where}[{i}]")
    return errors


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    result = invoke("schema")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_schema_is_json_schema_with_the_spec_models(schema):
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert {"GameSpec", "DeckSpec"} <= set(schema["$defs"])
    refs = {entry["$ref"] for entry in schema["anyOf"]}
    assert refs == {"#/$defs/GameSpec", "#/$defs/Component"}  # a component chosen by its kind
    kinds = {entry["$ref"] for entry in schema["$defs"]["Component"]["oneOf"]}
    assert "#/$defs/DeckSpec" in kinds
    assert {"title", "players"} <= set(schema["$defs"]["GameSpec"]["required"])


def test_schema_validates_game_yaml(schema):
    game_schema = {"$ref": "#/$defs/GameSpec"}
    assert schema_errors(game_schema, GAME_SPEC, schema) == []
    assert schema_errors(schema, GAME_SPEC, schema) == []
    # ... and the checker is not vacuous: mistakes in game.yaml are caught.
    misspelt = {("titel" if k == "title" else k): v for k, v in GAME_SPEC.items()}
    assert schema_errors(game_schema, misspelt, schema)
    assert schema_errors(game_schema, {**GAME_SPEC, "paper": "a5"}, schema)
    assert schema_errors(game_schema, {**GAME_SPEC, "expect": {"ingredient-cards": -1}}, schema)


def test_schema_accepts_the_bundled_deck(schema):
    # Editors validate component files with this schema; 'size: mini-euro' is a valid spec.
    assert schema_errors({"$ref": "#/$defs/DeckSpec"}, DECK_SPEC, schema) == []


def test_schema_out_writes_a_file(tmp_path):
    target = tmp_path / "schema.json"
    result = invoke("schema", "--out", str(target))
    assert result.exit_code == 0, result.output
    assert "GameSpec" in json.loads(target.read_text(encoding="utf-8"))["$defs"]


# --- build: files and manifest ---------------------------------------------------------------


def test_build_writes_pdf_and_manifest(built, manifest, reader):
    assert (built / f"{GAME}.pdf").read_bytes().startswith(b"%PDF-")
    assert {"game", "paper", "pages", "items"} <= set(manifest)
    assert manifest["game"] == GAME
    assert manifest["paper"] == GAME_SPEC.get("paper", "a4")
    assert manifest["pages"] == len(reader.pages)


def test_manifest_items(manifest):
    for item in manifest["items"]:
        assert set(item) >= ITEM_KEYS, item
        assert 1 < item["page"] <= manifest["pages"]
        assert item["w_mm"] > 0 and item["h_mm"] > 0
    items = [i for i in manifest["items"] if i["component"] == "ingredient-cards"]
    assert len(items) == 2 * TOTAL == 120
    assert {i["kind"] for i in items} == {"card"}
    fronts = [i for i in items if i["side"] == "front"]
    backs = [i for i in items if i["side"] == "back"]
    assert len(fronts) == len(backs) == TOTAL
    for side in (fronts, backs):
        copies = {(i["name"], i["copy"]) for i in side}
        expected = {(n, c) for n, count in DECK_COUNTS.items() for c in range(1, count + 1)}
        assert copies == expected


def test_build_paper_letter(tmp_path, reader):
    result = invoke(
        "build", GAME, "--components", str(COMPONENTS), "--out", str(tmp_path), "--paper", "letter"
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / GAME / "manifest.json").read_text(encoding="utf-8"))
    assert data["paper"] == "letter"
    letter = pypdf.PdfReader(tmp_path / GAME / f"{GAME}.pdf")
    box = letter.pages[0].mediabox
    assert float(box.width) == pytest.approx(215.9 * MM, abs=0.5)
    assert float(box.height) == pytest.approx(279.4 * MM, abs=0.5)
    assert float(reader.pages[0].mediabox.height) != pytest.approx(float(box.height), abs=0.5)


# --- build: PDF metadata, outline and inventory ----------------------------------------------


def test_pdf_metadata(reader):
    meta = reader.metadata
    assert GAME_SPEC["title"] in meta.title
    assert meta.author == GAME_SPEC["designer"]


def test_pdf_outline(reader, manifest):
    entries = {item.title: reader.get_destination_page_number(item) for item in reader.outline}
    assert entries[english().text("bookmark_inventory")] == 0
    first_card_page = min(
        i["page"] for i in manifest["items"] if i["component"] == "ingredient-cards"
    )
    assert entries[DECK_SPEC["title"]] == first_card_page - 1


def test_inventory_page(reader, manifest):
    page_text = reader.pages[0].extract_text()
    assert DECK_SPEC["title"] in page_text
    assert re.search(rf"\b{TOTAL}\b", page_text)
    # the deck's pages, as the manifest places its cards: one run of consecutive pages
    pages = sorted({i["page"] for i in manifest["items"] if i["component"] == "ingredient-cards"})
    assert pages == list(range(pages[0], pages[-1] + 1))
    assert f"{pages[0]}–{pages[-1]}" in page_text
    assert "50 mm" in page_text
    assert "100%" in page_text
    titles = {card["name"]: card["title"] for card in DECK_SPEC["cards"]}
    for name, count in DECK_COUNTS.items():
        kind = f"{titles[name]} × {count}"  # each kind by its title, then its count
        assert kind in page_text.replace("\u00a0", " "), name


ENGINE_MODULES = (
    "generator.model.loader",
    "generator.model.kinds",
    "generator.art",
    "generator.layout",
    "generator.output.pdf",
    "generator.plan.pipeline",
    "reportlab",
    "jinja2",
)


def test_a_build_with_nothing_to_do_does_not_load_the_engine(bundled_build):
    """Finding that every pack is up to date needs the game folders and a hash of their
    files, not the spec models, templates or reportlab: so it answers at once."""
    out = bundled_build()
    code = (
        "import sys\nfrom generator.cli import main\nsys.argv = ['pnp', 'build', '--out', "
        f"{str(out)!r}, '--paper', 'a4']\ntry:\n    main()\nexcept SystemExit as exit:\n"
        "    loaded = [m for m in sys.modules if m.split('.')[0] in ('generator', 'reportlab',"
        " 'jinja2') and m.startswith(" + repr(ENGINE_MODULES) + ")]\n"
        "    print(exit.code, loaded)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=PATIENCE
    )
    assert run.returncode == 0, run.stderr
    assert "is up to date" in run.stdout
    assert run.stdout.strip().splitlines()[-1] == "0 []", run.stdout


def test_a_command_collects_cycles_less_often_and_not_at_exit(make_deck_game, tmp_path):
    """A command raises the collector's young threshold to ``GC_YOUNG`` (its passes over the
    engine's long-lived objects cost a build a tenth of its CPU) and freezes every object as
    the process ends, so the collections at exit have none to walk: an exit handler
    registered before the command runs after its own and finds them frozen."""
    components = make_deck_game(cards={"a": 2})
    code = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 1000))\n"
        "from generator.cli import GC_YOUNG, main\n"
        "print('before', gc.get_threshold()[0])\n"
        "sys.argv = ['pnp', '-q', 'build', "
        f"'--components', {str(components)!r}, '--out', {str(tmp_path / 'out')!r}]\n"
        "try:\n    main()\nexcept SystemExit as exit:\n"
        "    print('after', exit.code, gc.get_threshold()[0] == GC_YOUNG, gc.get_freeze_count())\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=PATIENCE
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["before", "700", "after", "0", "True", "0", "frozen", "True"]
    assert (tmp_path / "out").is_dir()


def test_a_card_game_builds_without_the_libraries_of_fonts_and_boards_it_has_none_of(
    make_deck_game, tmp_path
):
    """A deck in the stock fonts builds without importing fontTools (a game's own fonts are
    converted with it), svgwrite (boards are drawn with it), uniseg (a catalog written
    back is wrapped with its line-break tables), tomllib (a printer profile: there is none),
    HarfBuzz (text in scripts that need shaping), the plan steps of kinds it has none of or
    multiprocessing (one game is planned in this process), nor urllib.request (with
    http.client, email and ssl: xml.sax.saxutils imports it, for an ``escape`` the contents
    page needs): each costs every command a hundredth of a second or more; nor is reportlab's
    paragraph URL pattern compiled (a stand-in, until a URL needs breaking)."""
    components = make_deck_game(cards={"a": 2, "b": 1})
    code = (
        "import sys\nfrom generator.cli import main\nsys.argv = ['pnp', 'build', "
        f"'--components', {str(components)!r}, '--out', {str(tmp_path / 'out')!r}]\n"
        "try:\n    main()\nexcept SystemExit as exit:\n"
        "    print(exit.code, sorted({m.split('.')[0] for m in sys.modules} & "
        "{'fontTools', 'svgwrite', 'uniseg', 'multiprocessing', 'reportlab', 'tomllib'}), "
        "'urllib.request' in sys.modules, 'uharfbuzz._harfbuzz' in sys.modules, "
        "sorted(m for m in sys.modules if m.startswith('generator.plan.steps.')), "
        "type(sys.modules['reportlab.platypus.paragraph'].uri_pat).__name__)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=PATIENCE
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == (
        "0 ['reportlab'] False False ['generator.plan.steps.deck'] DeferredPattern"
    ), run.stdout


def test_pydantic_looks_for_no_plugins_and_loads_no_package_metadata_to_look(make_deck_game):
    """model/__init__.py stands in for pydantic's plugin loader (it would import
    ``importlib.metadata`` to find none): pydantic still takes its plugins from that loader, a
    deck's specs validate with the stand-in, and it finds what pydantic's own loader finds
    with plugins turned off."""
    import inspect

    from pydantic.plugin import _schema_validator

    source = inspect.getsource(_schema_validator.create_schema_validator)
    assert "from ._loader import get_plugins" in source
    components = make_deck_game(cards={"a": 2})
    code = (
        "import sys\nfrom pathlib import Path\nfrom generator.errors import ErrorList\n"
        "from generator.model.loader import load_game\n"
        f"game = load_game(Path({str(components / 'synth')!r}), ErrorList())\n"
        "from pydantic.plugin._loader import get_plugins\n"
        "print(game is not None, 'importlib.metadata' in sys.modules, list(get_plugins()))\n"
    )
    own = "from pydantic.plugin._loader import get_plugins\nprint(list(get_plugins()))\n"
    runs = [
        subprocess.run([sys.executable, "-c", text], cwd=REPO, capture_output=True, text=True,
                       timeout=PATIENCE, env={**os.environ, **env})
        for text, env in ((code, {}), (own, {"PYDANTIC_DISABLE_PLUGINS": "__all__"}))
    ]  # fmt: skip
    assert [run.stdout.strip() for run in runs] == ["True False []", "[]"], runs


def _authored_pack(make_deck_game, pnp, out: Path, game_note: str) -> list[str]:
    """A deck game whose game.yaml and deck say what was authored; its pages' text."""
    components = make_deck_game(cards={"alpha-one": 2, "beta-two": 1})
    root = components / "synth"
    with open(root / "game.yaml", "a", encoding="utf-8") as handle:
        handle.write(f'authored: "{game_note}"\n')
    deck = (root / "deck.yaml").read_text(encoding="utf-8")
    deck = deck.replace("title: Test deck\n", 'title: Test deck\nauthored: "Backs drawn by us."\n')
    (root / "deck.yaml").write_text(deck, encoding="utf-8")
    result = pnp("build", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(out / "synth" / "synth.pdf")
    return [" ".join(page.extract_text().split()) for page in reader.pages]


def test_about_this_edition_follows_the_contents_on_their_page_when_it_fits(
    make_deck_game, pnp, tmp_path
):
    """The game's and each component's ``authored`` note print under 'About this edition',
    after the contents, on their page when all of it fits there; kinds the spec gives no
    printed name are counted, never listed by their ids."""
    note = "Ties are shared: the rulebook names no tie-break."
    contents = _authored_pack(make_deck_game, pnp, tmp_path / "out", note)[0]
    heading = english().text("about_heading")
    assert heading in contents and "alpha-one" not in contents
    assert contents.index(english().text("inventory_kinds", count=2)) < contents.index(heading)
    assert note in contents and "Test deck: Backs drawn by us." in contents


def test_a_long_about_this_edition_takes_the_contents_back(make_deck_game, pnp, tmp_path):
    """'About this edition' too long for the room under the contents starts on the next page
    (the contents' back, printed double-sided), whole."""
    note = " ".join(["Ties are shared: the rulebook names no tie-break."] * 120)
    contents, about = _authored_pack(make_deck_game, pnp, tmp_path / "out", note)[:2]
    assert english().text("about_heading") not in contents
    assert about.startswith(english().text("about_heading")), about
    assert "Test deck: Backs drawn by us." in about


def test_the_contents_say_what_is_optional_and_how_long_it_takes_to_make(
    make_deck_game, pnp, tmp_path
):
    """``optional`` and ``minutes_to_make`` print under the component's name; a kind's name
    that ends in a number keeps its count apart ('Wave 2 × 1')."""
    components = make_deck_game(cards={"alpha": 2, "beta": 1})
    deck = components / "synth" / "deck.yaml"
    text = deck.read_text(encoding="utf-8").replace(
        "title: Test deck\n",
        "title: Test deck\noptional: a deck of playing cards does as well\nminutes_to_make: 12\n",
    )
    text = text.replace("  - name: alpha\n", "  - name: alpha\n    title: Wave 2\n")
    deck.write_text(text.replace("  - name: beta\n", "  - name: beta\n    title: Wave 3\n"))
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    page = pypdf.PdfReader(tmp_path / "out" / "synth" / "synth.pdf").pages[0]
    contents = " ".join(page.extract_text().split())
    words = english()
    optional = words.text("inventory_optional", instead="a deck of playing cards does as well")
    assert f"{optional} · {words.text('inventory_minutes', minutes='12')}" in contents
    assert "Wave 2 × 2 · Wave 3 × 1" in contents.replace("\u00a0", " ")


def test_a_pack_with_nothing_authored_has_no_about_page(make_deck_game, pnp, tmp_path):
    components = make_deck_game(cards={"a": 1})
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "out" / "synth" / "synth.pdf")
    assert all(english().text("about_heading") not in page.extract_text() for page in reader.pages)


def test_help_lists_every_command_without_importing_one():
    """``pnp --help`` answers from a table: no command module (nor the engine) is loaded, and
    every command it lists exists."""
    code = (
        "import sys\nfrom generator.cli import cli\ntry:\n    cli(['--help'])\n"
        "except SystemExit:\n    pass\n"
        "print([m for m in sys.modules if m.startswith('generator.cli.')])\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert run.stdout.strip().splitlines()[-1] == "[]", run.stdout
    from generator.cli import COMMANDS

    for name in COMMANDS:
        assert f"  {name} " in run.stdout, name
        assert cli.get_command(None, name).name == name


def test_quiet_prints_only_errors_and_json_is_a_document(make_deck_game, pnp, tmp_path):
    components = make_deck_game(cards={"a": 6, "b": 5})
    result = pnp("-q", "check", "--components", components)
    assert result.exit_code == 0 and result.stdout == "", result.stdout
    result = pnp("check", "--components", components, "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["passed"] is True
    (game,) = found["games"]
    assert {r["key"]: r["generated"] for r in game["counts"]}["deck/a"] == 6
    assert game["printing"]["sheets"] >= 1 and game["overflows"] == []
    listed = json.loads(pnp("list", "--components", components, "--json").stdout)
    (deck,) = listed["games"][0]["components"]
    assert deck["count"] == 11 and [k["name"] for k in deck["kinds"]] == ["a", "b"]
    (components / "synth" / "game.yaml").write_text(
        (components / "synth" / "game.yaml").read_text().replace("deck/a: 6", "deck/a: 7")
    )
    result = pnp("check", "--components", components, "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["passed"] is False
    result = pnp("-q", "check", "--components", components)
    assert result.exit_code == 1 and result.stdout == "" and "deck/a" in result.stderr


def test_what_the_art_does_not_draw_is_a_warning_at_its_template_line(
    make_deck_game, pnp, tmp_path
):
    """A filter is not drawn: the build says so at the template's line (once, though every
    card uses it), the rest is drawn, and check --json carries it."""
    components = make_deck_game(cards={"a": 2, "b": 1})
    face = components / "synth" / "templates" / "face.svg.j2"
    lines = face.read_text().splitlines()
    lines.insert(1, '  <filter id="soft"><feGaussianBlur stdDeviation="1"/></filter>')
    lines.insert(2, '  <rect width="5" height="5" filter="url(#soft)"/>')
    face.write_text("\n".join(lines) + "\n")
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    warned = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert len(warned) == 1 and "face.svg.j2:3: warning:" in warned[0], result.stderr
    assert "filter" in warned[0]
    found = json.loads(pnp("check", "--components", components, "--json").stdout)
    (warning,) = found["games"][0]["warnings"]
    assert warning["line"] == 3 and warning["file"].endswith("face.svg.j2")
