"""The mkdocs hooks of the docs site: before a build, the pictures the pages show are made
from the example games into docs/pictures/ (``make_pictures``, kept in git, again only when
their inputs changed); in each page, a line
``<!-- fields: KIND -->`` becomes the fields of one kind and ``<!-- model: NAME -->`` one
model's, written from the models (``reference``) so that they cannot drift."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import make_pictures  # noqa: E402 - the scripts beside this file
import reference  # noqa: E402

FIELDS = re.compile(r"^<!-- fields: ([a-z-]+) -->$", re.MULTILINE)
MODEL = re.compile(r"^<!-- model: (\w+) -->$", re.MULTILINE)


def on_pre_build(config: Any) -> None:
    """Make the pictures the pages show, before mkdocs gathers the files."""
    made = make_pictures.make_all()
    if made:
        print(f"docs: made {len(made)} pictures", file=sys.stderr)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """The generated tables in place of their markers."""
    markdown = MODEL.sub(lambda m: reference.one_model(m[1]), markdown)
    return FIELDS.sub(lambda m: reference.kind_fields(m[1]), markdown)
