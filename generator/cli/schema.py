"""``pnp schema``: a JSON Schema of the spec format, for editors to validate and complete.

It is written from the models, as the loader reads them: a number or a yes/no the loader
takes written as text (``bleed: "3"``, ``butt: "yes"``) the schema takes too; a kind's fields
are chosen by its ``kind`` (a discriminator an editor completes by), for every kind of
``COMPONENT_KINDS``; a list of entries may come from a data file and holds entries set aside
with ``count: 0``. ``tests/test_schema_forms.py`` holds the schema to the loader, form by
form."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue, models_json_schema
from pydantic_core import core_schema

from generator.model.fields import NUMBER_PATTERN
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
LAX = "x-lax"  # marks a form the loader also reads: the reference page does not list them
# an entry set aside (``count: 0``): listed by pnp list, never printed, nothing else checked
PARKED = {
    "type": "object",
    "required": ["count"],
    "properties": {"count": {"const": 0}},
    "description": "an entry set aside: count 0",
}
INTEGER_PATTERN = r"^\s*[-+]?\d+(?:_\d+)*\s*$"
YES_NO = ("0", "off", "f", "false", "n", "no", "1", "on", "t", "true", "y", "yes")


def _any_case(word: str) -> str:
    """A pattern matching ``word`` in any case (ECMA regexes have no inline flag)."""
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


def _also(schema: JsonSchemaValue, *forms: JsonSchemaValue) -> JsonSchemaValue:
    """``schema`` or any of ``forms``: what a field also takes in lax mode."""
    return {"anyOf": [schema, *({**form, LAX: True} for form in forms)]}


class LoaderSchema(GenerateJsonSchema):
    """The JSON Schema of what pydantic's lax mode accepts, as the loader validates: a number
    field (unless strict) takes a number written as text and true/false, a yes/no field
    takes yes, no, on, off ... and 0 or 1."""

    def float_schema(self, schema: core_schema.FloatSchema) -> JsonSchemaValue:
        found = super().float_schema(schema)
        if schema.get("strict"):
            return found
        text = {"type": "string", "pattern": NUMBER_PATTERN, "description": "read as a number"}
        return _also(found, text, {"type": "boolean", "description": "read as 1 or 0"})

    def int_schema(self, schema: core_schema.IntSchema) -> JsonSchemaValue:
        found = super().int_schema(schema)
        if schema.get("strict"):
            return found
        text = {"type": "string", "pattern": INTEGER_PATTERN, "description": "read as a number"}
        return _also(found, text, {"type": "boolean", "description": "read as 1 or 0"})

    def dict_schema(self, schema: core_schema.DictSchema) -> JsonSchemaValue:
        found = super().dict_schema(schema)
        if "patternProperties" in found and "additionalProperties" not in found:
            found["additionalProperties"] = False  # a key that does not fit is refused
        return found

    def bool_schema(self, schema: core_schema.BoolSchema) -> JsonSchemaValue:
        found = super().bool_schema(schema)
        if schema.get("strict"):
            return found
        words = "|".join(_any_case(word) for word in YES_NO)
        return _also(found, {"type": "string", "pattern": f"^(?:{words})$"}, {"enum": [0, 1]})


def _entries(listed: JsonSchemaValue) -> JsonSchemaValue:
    """A list of entries as the loader reads it: each an entry or one set aside with
    ``count: 0``, at least one not set aside; or ``{from: FILE}``."""
    listed = {**listed, "items": {"anyOf": [listed["items"], {**PARKED, LAX: True}]}}
    listed["contains"] = {"not": PARKED}
    return {
        "description": listed.pop("description"),
        "anyOf": [listed, {"$ref": "#/$defs/DataFile"}],
    }


def spec_schema() -> dict[str, Any]:
    """One schema accepting ``game.yaml`` or any component file, in every form the loader
    reads; a component's fields chosen by its ``kind``."""
    models: list[type[BaseModel]] = [GameSpec, *COMPONENT_KINDS.values()]
    _, schema = models_json_schema(
        [(m, "validation") for m in models],
        title="pnp-generator spec",
        schema_generator=LoaderSchema,
    )
    defs = schema["$defs"]
    refs = {kind: f"#/$defs/{model.__name__}" for kind, model in COMPONENT_KINDS.items()}
    defs["Component"] = {
        "description": "every file of a game but game.yaml is a component, whose kind "
        "chooses its fields",
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "kind", "mapping": refs},
    }
    defs["DataFile"] = DATA_FILE
    for model in COMPONENT_KINDS.values():
        key = getattr(model, "entries_key", "")
        found = defs[model.__name__].get("properties", {})
        if key in ENTRY_LISTS and key in found:  # the field's description stays on the field
            found[key] = _entries(found[key])
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["anyOf"] = [{"$ref": f"#/$defs/{GameSpec.__name__}"}, {"$ref": "#/$defs/Component"}]
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
