"""Colours a template works out from the colours it is given (``readable`` and ``tint`` in every
template): the ink that reads best on a ground (a counter in its side's colour, whatever that
colour is), and a light tint of a colour."""

from __future__ import annotations

import re

_HEX = re.compile(r"#[0-9a-fA-F]{6}")


def _channels(colour: object, helper: str) -> tuple[float, float, float]:
    """A '#rrggbb' colour's red, green and blue, 0 to 1."""
    text = str(colour)
    if not _HEX.fullmatch(text):
        raise ValueError(f"{helper}(): '{text}' is not a colour '#rrggbb'")
    r, g, b = (int(text[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return r, g, b


def linear(channel: float) -> float:
    """An sRGB channel (0-1) as linear light, as WCAG computes it."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def relative_luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG's relative luminance of an sRGB colour (0-1 channels): the one formula the
    templates' ink helpers, the grids' words and the contrast check all use."""
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _luminance(colour: object, helper: str) -> float:
    """WCAG's relative luminance of a '#rrggbb' colour."""
    return relative_luminance(_channels(colour, helper))


def readable(ground: object, *inks: object) -> str:
    """Of ``inks``, the one whose contrast with ``ground`` is highest (the first on a tie)."""
    if not inks:
        raise ValueError("readable(): give the ground and at least one ink")
    back = _luminance(ground, "readable")

    def contrast(ink: object) -> float:
        light, dark = sorted((_luminance(ink, "readable"), back), reverse=True)
        return (light + 0.05) / (dark + 0.05)

    return str(max(inks, key=contrast))


def tint(colour: object, share: float = 0.75) -> str:
    """``colour`` moved ``share`` (0 to 1) of the way to white."""
    if not isinstance(share, int | float) or not 0 <= share <= 1:
        raise ValueError("tint(): share must be a number from 0 to 1")
    moved = (round((c + (1 - c) * share) * 255) for c in _channels(colour, "tint"))
    return "#" + "".join(f"{c:02x}" for c in moved)
