"""The font files a pack may embed, and the characters they can draw.

The stock families ship with the SVG renderer (``generator.svg.fonts``); a game adds its own
under ``fonts:`` in ``game.yaml``. Loading checks every string of a spec against them, so a
character no font has is an error at its line, never a missing glyph in print; the art stage
registers them for drawing.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase.ttfonts import TTFError, TTFontFile

from generator.svg.fonts import FILES, FONT_DIR


class FontFileError(ValueError):
    """A file that cannot be used as a font (what is wrong, in the user's terms)."""


@cache
def coverage(path: Path) -> frozenset[int]:
    """The code points a font file has glyphs for; ``FontFileError`` when it cannot be read as
    a TrueType font (an OpenType font with PostScript outlines, say)."""
    try:
        face = TTFontFile(str(path))
    except TTFError as exc:
        message = str(exc)
        if "postscript" in message.lower() or "cff" in message.lower():
            raise FontFileError(
                "has PostScript (CFF) outlines, which cannot be embedded; use the font's "
                "TrueType (.ttf) version"
            ) from None
        raise FontFileError(f"is not a TrueType font ({message})") from None
    except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise FontFileError(f"cannot be read as a font ({type(exc).__name__})") from None
    return frozenset(face.charToGlyph)


@lru_cache(maxsize=8192)
def missing_glyphs(text: str, also: tuple[Path, ...] = ()) -> list[str]:
    """The characters of ``text`` that neither the default font nor any of ``also`` (a game's
    own font files) can draw (each text checked once, each character once: a text repeated
    through YAML aliases costs nothing more)."""
    covered = _default()
    lacking = {
        c for c in set(text) if ord(c) not in covered and c.isprintable() and not c.isspace()
    }
    for path in also:
        if not lacking:
            break
        lacking = {c for c in lacking if ord(c) not in coverage(path)}
    return sorted(lacking)


@cache
def _default() -> frozenset[int]:
    return coverage(FONT_DIR / FILES[("normal", "normal")])
