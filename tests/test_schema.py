"""``pnp schema`` describes every form the loader accepts (issue 26): every bundled game's
specs, the stock templates' sample game, the docs' example games and what ``pnp new`` writes
validate against it with ``jsonschema``, a card list read from a data file included; and it
still refuses mistakes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from generator.cli.schema import spec_schema

REPO = Path(__file__).resolve().parent.parent
FILES = [
    *(REPO / "components").glob("*/*.yaml"),
    *(REPO / "docs" / "stock-templates").glob("*.yaml"),
    *(REPO / "docs" / "examples").glob("*/*.yaml"),  # the docs' example games
]
# the specs: every YAML file of those folders that is a mapping (a YAML list is a card list)
SPECS = sorted(p for p in FILES if isinstance(yaml.safe_load(p.read_text(encoding="utf-8")), dict))


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = spec_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _problems(validator: jsonschema.Draft202012Validator, data: object) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
        for e in validator.iter_errors(json.loads(json.dumps(data, default=str)))
    ]


@pytest.mark.parametrize("path", SPECS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_bundled_spec_validates_against_the_schema(validator, path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert _problems(validator, data) == []


def test_the_specs_are_all_there():
    assert len(SPECS) > 60 and len(SPECS) >= len(FILES) - 2, (len(SPECS), len(FILES))


@pytest.mark.parametrize("template", ["card", "playing-card", "text-card"])
def test_what_pnp_new_writes_validates_against_the_schema(validator, pnp, tmp_path, template):
    result = pnp("new", "mine", "--components", tmp_path, "--template", template)
    assert result.exit_code == 0, result.output
    written = sorted((tmp_path / "mine").glob("*.yaml"))
    assert {p.name for p in written} >= {"game.yaml", "cards.yaml"}
    for path in written:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert _problems(validator, data) == [], path
    assert yaml.safe_load((tmp_path / "mine" / "cards.yaml").read_text())["cards"] == {
        "from": "cards.csv"
    }


@pytest.mark.parametrize(
    "spec",
    [
        {"kind": "deck", "title": "A", "size": "poker", "face": "f.svg.j2", "cards": {}},
        {"kind": "deck", "title": "A", "size": "poker", "face": "f.svg.j2", "cards": {"form": "x"}},
        {"kind": "deck", "title": "A", "size": "poker", "face": "f.svg.j2", "cards": "cards.csv"},
    ],
)
def test_a_data_file_given_wrong_is_refused(validator, spec):
    assert _problems(validator, spec)
