"""The font files a pack may embed, and the characters they can draw.

The stock families ship with the SVG renderer (``generator.svg.fonts``); a game adds its own
under ``fonts:`` in ``game.yaml``. Loading checks every string of a spec against them, so a
character no font has is an error at its line, never a missing glyph in print; the art stage
registers them for drawing.
"""

from __future__ import annotations

import hashlib
from functools import cache, lru_cache

from reportlab.pdfbase.ttfonts import TTFError, TTFontFile

from generator.model.fonterrors import FontFileError
from generator.svg import shaping
from generator.svg.fonts import FILES, FontFile, fallback_files, stock_font
from generator.svg.scripts import PRINTED, script_of

__all__ = ["FontFileError", "coverage", "missing_glyphs", "truetype"]

_COVERAGE: dict[str, frozenset[int]] = {}  # a font's code points, by the hash of its bytes
_CONVERTED: dict[tuple[str, str | None, str, str], FontFile] = {}  # made TrueType, by source
CONVERTED_KEPT = 16  # fonts kept converted for the next loading (pnp serve, --watch)


def truetype(
    font: FontFile, face: str | None = None, weight: str = "normal", style: str = "normal"
) -> FontFile:
    """The font as reportlab embeds it: TrueType outlines, one face (``face`` of a
    collection), one instance of a variable font (``weight``, ``style``), its licence
    letting a PDF embed a subset; a static TrueType file is itself.
    Each file converted once a process, named by the hash of what it became, and keeping
    its own path (another game's file of the same bytes may have been converted first)."""
    key = (font.digest, face, weight, style)
    done = _CONVERTED.get(key)
    if done is None:
        from generator.model.fontforms import as_truetype  # fontTools: for a game's own fonts

        data = as_truetype(font.data, face, weight, style)
        digest = font.digest if data is font.data else hashlib.sha1(data).hexdigest()
        done = FontFile(font.name, digest, data)
        if len(_CONVERTED) >= CONVERTED_KEPT:
            _CONVERTED.pop(next(iter(_CONVERTED)))
        _CONVERTED[key] = done
    return done if done.name == font.name else FontFile(font.name, done.digest, done.data)


def coverage(font: FontFile) -> frozenset[int]:
    """The code points a font has glyphs for (each font parsed once, by its content);
    ``FontFileError`` when it cannot be read as a TrueType font (an OpenType font with
    PostScript outlines, WOFF, a damaged or cut file, random bytes)."""
    found = _COVERAGE.get(font.digest)
    if found is None:
        found = _COVERAGE[font.digest] = frozenset(_parsed(font).charToGlyph)
    return found


def _parsed(font: FontFile) -> TTFontFile:
    """The font parsed by reportlab, whatever its parser raises on a damaged file said in
    the user's terms."""
    try:
        parsed = TTFontFile(font.stream())
    except TTFError as exc:
        message = str(exc)
        if "subsetting/embedding" in message:
            raise FontFileError(
                "may be embedded only whole (its licence flag forbids subsetting), and it has "
                "more than 255 glyphs; use another font or ask its foundry"
            ) from None
        if "postscript" in message.lower() or "cff" in message.lower():
            raise FontFileError(
                "has PostScript (CFF) outlines, which cannot be embedded; use the font's "
                "TrueType (.ttf) version"
            ) from None
        raise FontFileError(f"is not a TrueType font ({message})") from None
    except Exception as exc:  # noqa: BLE001 - a damaged table raises anything in reportlab
        raise FontFileError(
            f"cannot be read as a font ({type(exc).__name__}); use a TrueType (.ttf) file"
        ) from None
    return parsed


# printable ASCII and Latin-1, which DejaVu Sans draws every one of (tests/test_fonts.py): a
# game written in them is checked without parsing the stock faces' character maps
LATIN_1 = frozenset(chr(c) for c in (*range(0x20, 0x7F), *range(0xA0, 0x100)))
_DRAWN: set[str] = set(LATIN_1)  # characters the stock faces are known to draw (or need not)


@lru_cache(maxsize=8192)
def missing_glyphs(text: str, also: tuple[FontFile, ...] = ()) -> list[str]:
    """The characters of ``text`` that neither the default font nor any of ``also`` (a game's
    own fonts) can draw (each text checked once, each character once: a text repeated
    through YAML aliases costs nothing more)."""
    new = set(text).difference(_DRAWN)
    if not new:
        return []
    covered = _default()
    lacking = {c for c in new if ord(c) not in covered and c.isprintable() and not c.isspace()}
    _DRAWN.update(new.difference(lacking))
    for font in also:
        if not lacking:
            break
        lacking = {c for c in lacking if ord(c) not in coverage(font)}
    return sorted(lacking)


@cache
def _default() -> frozenset[int]:
    """What the stock faces draw: DejaVu Sans and the Noto faces it falls back on."""
    covered = coverage(stock_font(FILES[("normal", "normal")]))
    return covered.union(*(coverage(font) for font in fallback_files()))


def scripts_lacking(font: FontFile, texts: list[str]) -> list[tuple[str, str]]:
    """The scripts pnp shapes (Arabic, Hebrew, Devanagari, Thai) that ``texts`` are written
    in and ``font`` has not one of their letters of: (script's name, a text in it) each."""
    have = coverage(font)
    letters: dict[str, tuple[set[str], str]] = {}  # script -> its letters used, a text
    for text in texts:
        if not shaping.needed(text):
            continue
        for char in text:
            script = script_of(char)
            if script in PRINTED and script is not None and char.isalpha():
                letters.setdefault(script.name, (set(), text))[0].add(char)
    return [
        (name, text)
        for name, (used, text) in letters.items()
        if not any(ord(c) in have for c in used)
    ]
