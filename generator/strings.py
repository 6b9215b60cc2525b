"""The engine's own printed words, read from ``data/strings.yaml`` (see there)."""

from __future__ import annotations

from functools import cache
from importlib import resources

import yaml


@cache
def _strings() -> dict[str, str]:
    text = resources.files("generator").joinpath("data/strings.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def text(key: str, **values: object) -> str:
    """The string ``key`` with its ``{placeholders}`` filled in."""
    return _strings()[key].format(**values)
