"""The engine's own printed words, read from ``strings.yaml`` (see there), in the
language being built: translations come from ``generator/i18n/locale/<lang>.po`` (the key is the
message context), falling back to English."""

from __future__ import annotations

from functools import cache
from importlib import resources

import yaml

from generator.i18n import catalogs

_language = "en"


@cache
def _strings() -> dict[str, str]:
    text = resources.files("generator.i18n").joinpath("strings.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


@cache
def _translations(language: str) -> dict[str, str]:
    """key → translated text for the engine's strings in ``language`` (those usable)."""
    path = catalogs.ENGINE_LOCALE / f"{language}.po"
    if not path.is_file():
        return {}
    catalog = catalogs.read_catalog(path)
    source = _strings()
    out = {}
    for message in catalog:
        key = message.context
        usable = key in source and message.string and not message.fuzzy
        if usable and not catalogs.placeholders_differ(source[key], message.string):
            out[key] = message.string
    return out


def set_language(language: str) -> None:
    """Print the engine's words in ``language`` from now on."""
    global _language
    _language = language


def text(key: str, **values: object) -> str:
    """The string ``key`` in the current language with its ``{placeholders}`` filled in."""
    template = _translations(_language).get(key, _strings()[key])
    return template.format(**values)


def missing(language: str) -> list[str]:
    """The engine strings that have no usable translation in ``language``."""
    if language == "en":
        return []
    have = _translations(language)
    return [key for key in _strings() if key not in have]


def engine_catalog(language: str | None = None) -> catalogs.Catalog:
    """A catalog of the engine's strings (key as context), for translators."""
    catalog = catalogs.Catalog(
        project="pnp-generator", locale=language, creation_date=catalogs.FIXED_DATE, fuzzy=False
    )
    for key, source in _strings().items():
        catalog.add(source, context=key, locations=[("generator/i18n/strings.yaml", 0)])
    return catalog
