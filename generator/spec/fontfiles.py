"""The font files every pack embeds, and the characters they can draw.

The family is DejaVu Sans (Bitstream Vera Sans with a far wider coverage: German umlauts and ß,
typographic quotes and dashes, arrows, Greek, Cyrillic). Its files come with matplotlib, a
well-kept package on PyPI, so a fresh machine gets them from the project's own install step.
Loading checks every string of a spec against them, so a character the font lacks is an error
at its line, never a missing glyph in print; the art stage registers them for drawing.
"""

from __future__ import annotations

from functools import cache
from importlib.util import find_spec
from pathlib import Path

from reportlab.pdfbase.ttfonts import TTFontFile

FONT_DIR = Path(find_spec("matplotlib").submodule_search_locations[0]) / "mpl-data/fonts/ttf"
FILES = {
    ("normal", "normal"): "DejaVuSans.ttf",
    ("bold", "normal"): "DejaVuSans-Bold.ttf",
    ("normal", "italic"): "DejaVuSans-Oblique.ttf",
    ("bold", "italic"): "DejaVuSans-BoldOblique.ttf",
}


@cache
def _covered() -> frozenset[int]:
    """The code points the regular font has glyphs for."""
    face = TTFontFile(str(FONT_DIR / FILES[("normal", "normal")]))
    return frozenset(face.charToGlyph)


def missing_glyphs(text: str) -> list[str]:
    """The characters of ``text`` the embedded font cannot draw."""
    covered = _covered()
    return sorted(
        {c for c in text if c.isprintable() and not c.isspace() and ord(c) not in covered}
    )
