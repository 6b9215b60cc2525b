"""Fonts embedded in every PDF (the files of ``spec.fontfiles``), registered once for
reportlab, svglib and text measuring, and the measuring itself: widths and wrapped lines.

Templates ask for ``font-family="sans-serif"`` with ``font-weight="bold"`` /
``font-style="italic"``.
"""

from __future__ import annotations

from functools import cache
from unittest.mock import patch

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from svglib import fonts as svglib_fonts
from svglib.fonts import get_global_font_map

from generator.spec.fontfiles import FILES, FONT_DIR

NAMES = {
    ("normal", "normal"): "PnpSans",
    ("bold", "normal"): "PnpSans-Bold",
    ("normal", "italic"): "PnpSans-Italic",
    ("bold", "italic"): "PnpSans-BoldItalic",
}
VARIANTS = {key: (name, FILES[key]) for key, name in NAMES.items()}
FAMILIES = ("sans-serif", "Vera", "PnpSans", "Helvetica", "Arial")
REGULAR, BOLD = "PnpSans", "PnpSans-Bold"


@cache
def register_fonts() -> None:
    """Register the embedded font family with reportlab, each file parsed once."""
    for name, filename in VARIANTS.values():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))
    _register_family()


def _register_family() -> None:
    """Tie the four variants together, so that ``<b>`` and ``<i>`` in paragraphs pick them;
    reportlab unties them whenever one of the fonts is registered again."""
    names = {key: name for key, (name, _) in VARIANTS.items()}
    pdfmetrics.registerFontFamily(
        REGULAR,
        normal=names[("normal", "normal")],
        bold=names[("bold", "normal")],
        italic=names[("normal", "italic")],
        boldItalic=names[("bold", "italic")],
    )


@cache
def map_svg_families() -> None:
    """Map the SVG family names to the embedded fonts in svglib's font map, for the art svglib
    draws. svglib parses a font file on every mapping (20 here, half a second), so its parser
    is handed the fonts already registered instead."""
    register_fonts()
    font_map = get_global_font_map()
    with patch.object(svglib_fonts, "TTFont", lambda name, _path: pdfmetrics.getFont(name)):
        for (weight, style), (name, filename) in VARIANTS.items():
            for family in FAMILIES:
                font_map.register_font(family, str(FONT_DIR / filename), weight, style, name)
    _register_family()


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
