"""Fonts embedded in every PDF, registered once for reportlab and text measuring, the mapping
from a CSS ``font-family`` to one of them, and the measuring itself: widths, wrapped lines.

The stock families ship beside this module (``dejavu/``, DejaVu, whose licence allows
embedding): DejaVu Sans for ``sans-serif`` (Bitstream Vera Sans with a far wider coverage:
German umlauts and ß, typographic quotes and dashes, arrows, Greek, Cyrillic), DejaVu Serif
for ``serif``, DejaVu Sans Mono for ``monospace`` and DejaVu Sans Condensed for
``sans-condensed`` (words on small pieces: a wargame's counters); they also answer to the
common names of fonts like them (Helvetica, Arial, Times, Courier, Arial Narrow ...). What
DejaVu lacks of Devanagari and Thai, each stock face draws from Noto Sans Devanagari and
Noto Sans Thai of its weight (``noto/``, under the SIL Open Font License). Other fonts are
registered by family name (``register_game_fonts``: a game's ``fonts:``). Templates ask for
``font-family="sans-serif"`` with ``font-weight="bold"`` / ``font-style="italic"``.
"""

from __future__ import annotations

import hashlib
import io
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics

from generator.errors import display_path
from generator.paths import read_bytes, within
from generator.svg import shaping
from generator.svg.canvas import ShapedFont

FONT_DIR = Path(__file__).resolve().parent / "dejavu"  # the stock faces, with their licence
VARIANT_KEYS = (("normal", "normal"), ("bold", "normal"), ("normal", "italic"), ("bold", "italic"))
STOCK = {
    "sans-serif": dict(
        zip(
            VARIANT_KEYS,
            (
                "DejaVuSans.ttf",
                "DejaVuSans-Bold.ttf",
                "DejaVuSans-Oblique.ttf",
                "DejaVuSans-BoldOblique.ttf",
            ),
            strict=True,
        )
    ),
    "serif": dict(
        zip(
            VARIANT_KEYS,
            (
                "DejaVuSerif.ttf",
                "DejaVuSerif-Bold.ttf",
                "DejaVuSerif-Italic.ttf",
                "DejaVuSerif-BoldItalic.ttf",
            ),
            strict=True,
        )
    ),
    "monospace": dict(
        zip(
            VARIANT_KEYS,
            (
                "DejaVuSansMono.ttf",
                "DejaVuSansMono-Bold.ttf",
                "DejaVuSansMono-Oblique.ttf",
                "DejaVuSansMono-BoldOblique.ttf",
            ),
            strict=True,
        )
    ),
    "sans-condensed": dict(  # for small pieces: a counter's words in 13 mm
        zip(
            VARIANT_KEYS,
            (
                "DejaVuSansCondensed.ttf",
                "DejaVuSansCondensed-Bold.ttf",
                "DejaVuSansCondensed-Oblique.ttf",
                "DejaVuSansCondensed-BoldOblique.ttf",
            ),
            strict=True,
        )
    ),
}
FILES = STOCK["sans-serif"]  # the default family, which the engine's own words use
NOTO_DIR = Path(__file__).resolve().parent / "noto"  # faces for scripts DejaVu lacks
# what draws the Devanagari and Thai a stock face lacks, for its weight (scripts without
# italics: every style takes the upright)
FALLBACK_FILES = {
    "normal": ("NotoSansDevanagari-Regular.ttf", "NotoSansThai-Regular.ttf"),
    "bold": ("NotoSansDevanagari-Bold.ttf", "NotoSansThai-Bold.ttf"),
}


Variant = tuple[str, str]  # (weight, style): ("normal" | "bold", "normal" | "italic")
STOCK_NAMES = {
    "sans-serif": "PnpSans",
    "serif": "PnpSerif",
    "monospace": "PnpMono",
    "sans-condensed": "PnpSansCondensed",
}
SUFFIX = {
    ("normal", "normal"): "",
    ("bold", "normal"): "-Bold",
    ("normal", "italic"): "-Italic",
    ("bold", "italic"): "-BoldItalic",
}
# family names (lower case) that mean a stock family
ALIASES = {
    **dict.fromkeys(
        (
            "sans-serif",
            "sans",
            "vera",
            "pnpsans",
            "helvetica",
            "arial",
            "dejavu sans",
            "verdana",
            "system-ui",
        ),  # fmt: skip
        "sans-serif",
    ),
    **dict.fromkeys(
        ("serif", "times", "times new roman", "georgia", "dejavu serif", "pnpserif"), "serif"
    ),
    **dict.fromkeys(
        ("monospace", "courier", "courier new", "dejavu sans mono", "consolas", "pnpmono"),
        "monospace",
    ),
    **dict.fromkeys(
        (
            "sans-condensed",
            "condensed",
            "dejavu sans condensed",
            "arial narrow",
            "helvetica condensed",
            "pnpsanscondensed",
        ),
        "sans-condensed",
    ),
}
NAMES = {key: STOCK_NAMES["sans-serif"] + SUFFIX[key] for key in VARIANT_KEYS}
VARIANTS = {key: (NAMES[key], STOCK["sans-serif"][key]) for key in VARIANT_KEYS}
FAMILIES = ("sans-serif", "Vera", "PnpSans", "Helvetica", "Arial")  # svglib's names for it
REGULAR, BOLD = NAMES[("normal", "normal")], NAMES[("bold", "normal")]

ZWSP = "\u200b"  # a zero-width space: where a line may break between words written without
# spaces (Thai), as a translator marks them; not a gap
# what parts two words on a line (a space wins; a no-break space parts none)
BREAKS = re.compile(r"((?:[^\S\u00a0\u2007\u202f\u2060]|\u200b)+)")
_families: dict[str, dict[Variant, str]] = {}  # family (lower case) -> variant -> font name
_files: dict[str, str] = {}  # a game font's registered name -> the file it was last read from
_generation = [0]  # bumped when _families changes (families_generation)


@dataclass(frozen=True)
class FontFile:
    """A font file's bytes, read once through the gate and named by their hash, so that the
    same font is parsed and registered once, and never opened again by a path."""

    name: str  # the file's real path, for reportlab's messages
    digest: str  # sha1 of the bytes
    data: bytes = field(repr=False, compare=False)

    def stream(self) -> io.BytesIO:
        """The bytes as a file for reportlab's parsers (named as the file was)."""
        stream = io.BytesIO(self.data)
        stream.name = self.name
        return stream


def read_font(root: Path, path: Path) -> FontFile:
    """The font file ``path`` inside ``root``, read through the gate (``PathRefused`` for a
    link out, a pipe, a device or a file past the size of a font)."""
    data = read_bytes(root, path, "font")
    return FontFile(str(within(root, path)), hashlib.sha1(data).hexdigest(), data)


@cache
def stock_font(filename: str) -> FontFile:
    """One of the stock faces shipped beside this module."""
    return read_font(FONT_DIR, FONT_DIR / filename)


@cache
def fallback_font(filename: str) -> FontFile:
    """One of the Noto faces shipped beside this module (``FALLBACK_FILES``)."""
    return read_font(NOTO_DIR, NOTO_DIR / filename)


@cache
def register_fonts() -> None:
    """Make the stock families known to reportlab, each face parsed when it is first drawn
    or measured (``_made_on_first_use``: a pack in one family pays for its faces alone), each
    drawing the Devanagari and Thai it lacks from the Noto face of its weight."""
    fallbacks: dict[str, tuple[str, ...]] = {}
    for weight, filenames in FALLBACK_FILES.items():
        fallbacks[weight] = tuple(f"Pnp{Path(f).stem}" for f in filenames)
        for filename, name in zip(filenames, fallbacks[weight], strict=True):
            _STOCK_FACES[name] = (fallback_font, filename, ())
    for generic, files in STOCK.items():
        base = STOCK_NAMES[generic]
        names = {key: base + SUFFIX[key] for key in files}
        for key, filename in files.items():
            _STOCK_FACES[names[key]] = (stock_font, filename, fallbacks[key[0]])
        _families[generic] = names
        _tie(base, names)
    pdfmetrics.findFontAndRegister = _made_on_first_use


# a stock face not parsed yet: its registered name -> (how its file is read, the file, the
# names of the faces it falls back on)
_STOCK_FACES: dict[str, tuple[Callable[[str], FontFile], str, tuple[str, ...]]] = {}
_MAKING = threading.RLock()
_FIND_AND_REGISTER = pdfmetrics.findFontAndRegister  # reportlab's own, for any other name


def _made_on_first_use(name: str) -> Any:
    """reportlab's lookup of a font that is not registered (``pdfmetrics.getFont``): a stock
    face is parsed and registered now, once even when two threads ask; any other name goes
    to reportlab's own lookup."""
    if name not in _STOCK_FACES:
        return _FIND_AND_REGISTER(name)  # which may look up another font (Helvetica's)
    with _MAKING:
        made = pdfmetrics._fonts.get(name)
        if made is not None:
            return made
        read, filename, fallback_names = _STOCK_FACES[name]
        font = read(filename)
        face = ShapedFont(name, font.stream(), font.data)
        face.fallback_names = fallback_names
        pdfmetrics.registerFont(face)  # which maps the face's name to itself for <b> and <i>
        for generic, names in _families.items():
            if generic in STOCK and name in names.values():  # tied again to its family
                _tie(STOCK_NAMES[generic], names)
        return pdfmetrics._fonts[name]  # an earlier face of its file, when reportlab kept one


def fallback_files() -> list[FontFile]:
    """The faces the stock fonts draw the scripts they lack from (every weight)."""
    return [fallback_font(f) for files in FALLBACK_FILES.values() for f in files]


def _tie(base: str, names: dict[Variant, str]) -> None:
    """Tie a family's variants together, so that ``<b>`` and ``<i>`` in paragraphs pick them;
    reportlab unties them whenever one of the fonts is registered again."""
    regular = names[("normal", "normal")]
    pdfmetrics.registerFontFamily(
        base,
        normal=regular,
        bold=names.get(("bold", "normal"), regular),
        italic=names.get(("normal", "italic"), regular),
        boldItalic=names.get(("bold", "italic"), names.get(("bold", "normal"), regular)),
    )


def register_game_fonts(fonts: list[tuple[str, str, str, FontFile]]) -> None:
    """Register a game's own fonts, (family, weight, style, file read at loading) each, under
    names of their own (a hash of the file), so that two games' fonts of one family name
    never mix."""
    register_fonts()
    for family, weight, style, font in fonts:
        name = f"G{font.digest[:10]}-{weight[0]}{style[0]}"
        if name not in pdfmetrics.getRegisteredFontNames():
            face = ShapedFont(name, font.stream(), font.data)
            # its PostScript name made its file's own: reportlab hands a name it has seen the
            # font first registered with it, so a bold that kept its regular's name (or a
            # newer version of a stock face) would print in the other file's glyphs
            face.face.name += b"-" + font.digest[:8].encode()
            pdfmetrics.registerFont(face)
        _files[name] = font.name  # the game's own file, though another game's had these bytes
        faces = _families.setdefault(family.strip().lower(), {})
        if faces.get((weight, style)) != name:
            faces[(weight, style)] = name
            _generation[0] += 1


def families_generation() -> int:
    """A number that changes whenever a family name comes to mean other fonts (a game's own
    fonts registered): what ``font_for`` answers may be kept until it changes."""
    return _generation[0]


def _variant(weight: str, style: str) -> Variant:
    """A CSS weight and style as one of the four variants."""
    weight = weight.strip().lower()
    bold = weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)
    italic = style.strip().lower() in ("italic", "oblique")
    return ("bold" if bold else "normal", "italic" if italic else "normal")


def font_for(
    families: str, weight: str = "normal", style: str = "normal"
) -> tuple[str, str | None]:
    """The registered font for a CSS ``font-family`` list: the first family that is a game
    font, a stock family or a name for one; else sans-serif, with a warning saying so. A
    variant the family lacks falls back to its regular face, also with a warning."""
    register_fonts()
    wanted = _variant(weight, style)
    names = [f.strip().strip("'\"").strip() for f in families.split(",") if f.strip()]
    for name in names:
        key = name.lower()
        found = _families.get(key) or _families.get(ALIASES.get(key, ""))
        if found:
            if wanted in found:
                return found[wanted], None
            regular = found.get(("normal", "normal")) or next(iter(found.values()))
            return regular, f"font '{name}' has no {' '.join(wanted)} face; its regular is used"
    fallback = _families["sans-serif"][wanted]
    if not names:
        return fallback, None
    known = ", ".join(sorted(k for k in _families if k not in STOCK))
    return fallback, (
        f"no font '{families.strip()}' (a game's fonts: {known or 'none'}; or sans-serif, "
        "serif, monospace, sans-condensed); sans-serif is used"
    )


def missing_in(font: str, text: str) -> list[str]:
    """The characters of ``text`` that the registered font ``font`` has no glyph for (nor
    the faces it falls back on for them: ``ShapedFont.segments``)."""
    face = pdfmetrics.getFont(font)
    if isinstance(face, ShapedFont):
        drawn = [(f.cmap, piece) for f, piece in face.segments(text)]
    else:
        drawn = [(frozenset(face.face.charToGlyph), text)]
    return sorted(
        {
            c
            for cmap, piece in drawn
            for c in piece
            if c.isprintable() and not c.isspace() and ord(c) not in cmap
        }
    )


def font_file(font: str) -> str:
    """The file a registered font was read from, as the user should see it (for messages
    about what the font lacks)."""
    name = _files.get(font) or getattr(pdfmetrics.getFont(font).face, "filename", font)
    return display_path(Path(name)) if isinstance(name, str) else font


def covering(font: str, text: str) -> str:
    """The font to draw ``text`` in for ``font``: its upright face when it is an italic one
    lacking characters the upright has (DejaVu's obliques have no Arabic: Arabic has no
    italics, and is printed upright)."""
    if not missing_in(font, text):
        return font
    for faces in _families.values():
        for (weight, style), name in faces.items():
            upright = faces.get((weight, "normal"))
            if name == font and style == "italic" and upright and not missing_in(upright, text):
                return upright
    return font


def font_name(weight: str = "normal", style: str = "normal", family: str = "sans-serif") -> str:
    """The reportlab font name for a weight and style of a family (the stock sans-serif by
    default)."""
    return font_for(family, weight, style)[0]


def text_width(
    text: str,
    size: float,
    weight: str = "normal",
    style: str = "normal",
    family: str = "sans-serif",
) -> float:
    """Width of ``text`` at font ``size``, in the same unit as ``size`` (shaped, in the face
    that draws it, when it needs shaping)."""
    width: float = pdfmetrics.stringWidth(text, drawing_font(text, weight, style, family), size)
    return width


def drawing_font(
    text: str, weight: str = "normal", style: str = "normal", family: str = "sans-serif"
) -> str:
    """The registered font that draws ``text`` in a weight and style of a family (its
    upright face for text its italic lacks: ``covering``)."""
    return face_for(font_name(weight, style, family), text)


def face_for(font: str, text: str) -> str:
    """The registered font that draws ``text`` for ``font``: itself, or its upright face
    when it is an italic one lacking the text's script (``covering``)."""
    return covering(font, text) if shaping.needed(text) else font


def wrap(
    text: object, width: float, size: float, weight: str = "normal", family: str = "sans-serif"
) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` at font ``size`` (same units), at
    spaces and at zero-width spaces (where words written without spaces, as in Thai, may
    part; on one line they stay joined by it)."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        line, joint = "", ""
        for token in BREAKS.split(paragraph.strip()):
            if not token or BREAKS.fullmatch(token):
                joint = " " if token.strip(ZWSP) else ZWSP
                continue
            candidate = f"{line}{joint}{token}" if line else token
            if line and text_width(candidate, size, weight, "normal", family) > width:
                lines.append(line)
                line = token
            else:
                line = candidate
        lines.append(line)
    return lines


def variant_of(font: str) -> tuple[str, str, str]:
    """The family, weight and style a registered font is (sans-serif's regular for a font
    no family has), so that text set in a font by name can be measured as a family's."""
    register_fonts()
    for family, faces in _families.items():
        for (weight, style), name in faces.items():
            if name == font:
                return family, weight, style
    return "sans-serif", "normal", "normal"
