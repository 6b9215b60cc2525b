"""``pnp schema``: a JSON Schema of the spec format, for editors to validate and complete."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from generator.model.game import GameSpec
from generator.model.kinds import COMPONENT_KINDS, ENTRY_LISTS

DATA_FILE = {
    "type": "object",
    "description": "the entries read from a data file: {from: cards.csv} (CSV, TSV, Excel "
    ".xlsx, OpenDocument .ods, JSON or YAML), sheet: NAME for another sheet of a workbook",
    "properties": {
        "from": {"type": "string", "minLength": 1, "description": "the data file, in the game"},
        "sheet": {"type": "string", "description": "the sheet of a workbook (default: first)"},
    },
    "required": ["from"],
    "additionalProperties": False,
}


def spec_schema() -> dict[str, Any]:
    """One schema accepting ``game.yaml`` or any component file, in every form the loader
    reads: a list of entries may also be ``{from: FILE}``, read from a data file."""
    models: list[type[BaseModel]] = [GameSpec, *COMPONENT_KINDS.values()]
    _, schema = models_json_schema([(m, "validation") for m in models], title="pnp-generator spec")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["anyOf"] = [{"$ref": f"#/$defs/{m.__name__}"} for m in models]
    schema["$defs"]["DataFile"] = DATA_FILE
    for model in COMPONENT_KINDS.values():
        key = getattr(model, "entries_key", "")
        found = schema["$defs"][model.__name__].get("properties", {})
        if key in ENTRY_LISTS and key in found:  # the field's description stays on the field
            listed = found[key]
            found[key] = {
                "description": listed.pop("description"),
                "anyOf": [listed, {"$ref": "#/$defs/DataFile"}],
            }
    return schema


@click.command("schema")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file instead of standard output.",
)
def command(out: Path | None) -> None:
    """Write the JSON Schema of game.yaml and component specs."""
    text = json.dumps(spec_schema(), indent=2) + "\n"
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        click.echo(f"wrote {out}")
