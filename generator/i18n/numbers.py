"""Numbers as a language writes them: sizes and counts in the contents and on the sheets
('63,5 × 88,9 mm' in German, '63.5 × 88.9 mm' in English), through Babel's CLDR data."""

from __future__ import annotations

from functools import cache, lru_cache

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal

SIGNIFICANT = 6  # digits a measure keeps, as Python's 'g' format does
WRITTEN_KEPT = 4096  # numbers kept as written (labels, counts, sizes)


@cache
def _locale(language: str) -> Locale:
    """Babel's locale for a language code; English for one Babel does not know."""
    try:
        return Locale.parse(language)
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en")


def number(value: object, language: str) -> str:
    """``value`` written for ``language`` when it is a number (else as it is): grouping
    and the decimal sign of the language, at most six significant digits."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return _written(value, isinstance(value, float), language)


@lru_cache(maxsize=WRITTEN_KEPT)
def _written(value: float, _float: bool, language: str) -> str:
    """A number as ``number`` writes it, kept: a pack writes the same page numbers and
    counts on every label, and Babel takes about 10 microseconds a number (whether it is a
    float is part of the key: 2 and 2.0 are one key to a cache)."""
    if isinstance(value, float):
        value = float(f"{value:.{SIGNIFICANT}g}")
        if value.is_integer():
            value = int(value)
    return format_decimal(value, locale=_locale(language), decimal_quantization=False)
