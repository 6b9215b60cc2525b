"""Numbers as a language writes them: sizes and counts in the contents and on the sheets
('63,5 × 88,9 mm' in German, '63.5 × 88.9 mm' in English), through Babel's CLDR data."""

from __future__ import annotations

from functools import cache

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal

SIGNIFICANT = 6  # digits a measure keeps, as Python's 'g' format does


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
    if isinstance(value, float):
        value = float(f"{value:.{SIGNIFICANT}g}")
        if value.is_integer():
            value = int(value)
    return format_decimal(value, locale=_locale(language), decimal_quantization=False)
