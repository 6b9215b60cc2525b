"""The engine's own printed words, read from ``strings.yaml`` (see there), in the language
of a pack (``Words``): translations come from ``generator/i18n/locale/<lang>.po`` (the key is
the message context), falling back to English."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from generator.i18n import catalogs
from generator.paths import read_text

HERE = Path(__file__).resolve().parent  # the package's own data: strings.yaml


@cache
def _strings() -> dict[str, str]:
    return yaml.safe_load(read_text(HERE, HERE / "strings.yaml", "package"))


@dataclass(frozen=True)
class Words:
    """The engine's printed words in one language: the usable translations of its catalog
    (key → text), English for every key it lacks. A pack carries the words of its language."""

    language: str
    translated: dict[str, str]

    def text(self, key: str, **values: object) -> str:
        """The string ``key`` with its ``{placeholders}`` filled in."""
        return self.translated.get(key, _strings()[key]).format(**values)

    def missing(self) -> list[str]:
        """The keys with no usable translation (none in English)."""
        if self.language == "en":
            return []
        return [key for key in _strings() if key not in self.translated]


@cache
def words(language: str) -> Words:
    """The engine's words in ``language``: from ``locale/<language>.po``, those usable."""
    path = catalogs.ENGINE_LOCALE / f"{language}.po"
    if not path.is_file():
        return Words(language, {})
    source = _strings()
    out: dict[str, str] = {}
    for message in catalogs.read_catalog(catalogs.ENGINE_LOCALE, path):
        key, string = message.context, message.string
        if key is None or key not in source or not isinstance(string, str) or not string:
            continue
        if not message.fuzzy and not catalogs.placeholders_differ(source[key], string):
            out[key] = string
    return Words(language, out)


def english() -> Words:
    """The engine's words in English, for what is said to the person running pnp."""
    return words("en")


def engine_catalog(language: str | None = None) -> catalogs.Catalog:
    """A catalog of the engine's strings (key as context), for translators."""
    catalog = catalogs.Catalog(
        project="pnp-generator", locale=language, creation_date=catalogs.FIXED_DATE, fuzzy=False
    )
    for key, source in _strings().items():
        catalog.add(source, context=key, locations=[("generator/i18n/strings.yaml", 0)])
    return catalog
