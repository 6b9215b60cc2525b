"""Fonts embedded in every PDF, registered once for reportlab, svglib and text measuring.

The default family is Bitstream Vera Sans, which ships inside reportlab itself (so a fresh
machine needs nothing more) and covers Latin-1: German umlauts and ß included. Templates ask for
``font-family="sans-serif"`` (or ``Vera``) with ``font-weight="bold"`` / ``font-style="italic"``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from svglib.fonts import get_global_font_map

FONT_DIR = Path(reportlab.__file__).parent / "fonts"
VARIANTS = {
    ("normal", "normal"): ("PnpSans", "Vera.ttf"),
    ("bold", "normal"): ("PnpSans-Bold", "VeraBd.ttf"),
    ("normal", "italic"): ("PnpSans-Italic", "VeraIt.ttf"),
    ("bold", "italic"): ("PnpSans-BoldItalic", "VeraBI.ttf"),
}
FAMILIES = ("sans-serif", "Vera", "PnpSans", "Helvetica", "Arial")
REGULAR, BOLD = "PnpSans", "PnpSans-Bold"


@cache
def register_fonts() -> None:
    """Register the embedded font family with reportlab and map SVG family names to it."""
    font_map = get_global_font_map()
    for (weight, style), (name, filename) in VARIANTS.items():
        for family in FAMILIES:
            font_map.register_font(family, str(FONT_DIR / filename), weight, style, name)
    names = {key: name for key, (name, _) in VARIANTS.items()}
    pdfmetrics.registerFontFamily(
        REGULAR,
        normal=names[("normal", "normal")],
        bold=names[("bold", "normal")],
        italic=names[("normal", "italic")],
        boldItalic=names[("bold", "italic")],
    )


def font_name(weight: str = "normal", style: str = "normal") -> str:
    """The reportlab font name for a weight and style of the embedded family."""
    register_fonts()
    return VARIANTS[("bold" if weight == "bold" else "normal", style)][0]


def text_width(text: str, size: float, weight: str = "normal", style: str = "normal") -> float:
    """Width of ``text`` at font ``size``, in the same unit as ``size``."""
    return pdfmetrics.stringWidth(text, font_name(weight, style), size)


def wrap(text: object, width: float, size: float, weight: str = "normal") -> list[str]:
    """Break ``text`` into lines no wider than ``width`` at font ``size`` (same units)."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if line and text_width(candidate, size, weight) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines
