"""Writing systems that need more than each character's glyph drawn in order, left to right
(right for Latin, Greek, Cyrillic, CJK and the like): scripts whose letters join and change
shape (Arabic), that are written right to left (Hebrew), or whose vowel signs and conjuncts are
placed by the font's shaping rules (Devanagari, Thai). Those in ``PRINTED`` are shaped, and
laid out right to left where they run so (``shaping``); Devanagari and Thai are drawn from the
bundled Noto faces when a stock font lacks them (``fonts``). Rather than print any other
unjoined, backwards or with its vowel signs astray, a string in one of them is an error at its
line (``model.loader``), so ``pnp check`` fails and ``pnp build`` refuses it.

The ranges are the Unicode blocks of those scripts (their presentation forms included); a
right-to-left or joining mark alone counts too (it only makes sense in such text)."""

from __future__ import annotations

from dataclasses import dataclass

from generator.limits import MAX_TEXT_LENGTH


@dataclass(frozen=True)
class Script:
    """A writing system pnp cannot print yet, and what it needs that pnp does not do."""

    name: str
    needs: str


RTL = "right-to-left layout"
JOINED = "letters joined into their contextual forms and right-to-left layout"
SHAPED = "shaping (vowel signs and conjuncts placed by the font's rules)"

HEBREW = Script("Hebrew", RTL)
ARABIC = Script("Arabic", JOINED)
RTL_MARK = Script("right-to-left", RTL)
DEVANAGARI = Script("Devanagari", SHAPED)
THAI = Script("Thai", SHAPED)
BLOCKS: tuple[tuple[int, int, Script], ...] = (
    (0x0590, 0x05FF, HEBREW),
    (0x0600, 0x06FF, ARABIC),
    (0x0700, 0x074F, Script("Syriac", JOINED)),
    (0x0750, 0x077F, ARABIC),
    (0x0780, 0x07BF, Script("Thaana", RTL)),
    (0x07C0, 0x07FF, Script("N'Ko", JOINED)),
    (0x0800, 0x085F, Script("Samaritan or Mandaic", RTL)),
    (0x0860, 0x08FF, ARABIC),
    (0x0900, 0x097F, DEVANAGARI),
    (0x0980, 0x09FF, Script("Bengali", SHAPED)),
    (0x0A00, 0x0A7F, Script("Gurmukhi", SHAPED)),
    (0x0A80, 0x0AFF, Script("Gujarati", SHAPED)),
    (0x0B00, 0x0B7F, Script("Oriya", SHAPED)),
    (0x0B80, 0x0BFF, Script("Tamil", SHAPED)),
    (0x0C00, 0x0C7F, Script("Telugu", SHAPED)),
    (0x0C80, 0x0CFF, Script("Kannada", SHAPED)),
    (0x0D00, 0x0D7F, Script("Malayalam", SHAPED)),
    (0x0D80, 0x0DFF, Script("Sinhala", SHAPED)),
    (0x0E00, 0x0E7F, THAI),
    (0x0E80, 0x0EFF, Script("Lao", SHAPED)),
    (0x0F00, 0x0FFF, Script("Tibetan", SHAPED)),
    (0x1000, 0x109F, Script("Myanmar", SHAPED)),
    (0x1780, 0x17FF, Script("Khmer", SHAPED)),
    (0x1800, 0x18AF, Script("Mongolian", JOINED)),
    (0xA8E0, 0xA8FF, DEVANAGARI),
    (0xFB1D, 0xFB4F, HEBREW),
    (0xFB50, 0xFDFF, ARABIC),
    (0xFE70, 0xFEFF, ARABIC),
    (0x200F, 0x200F, RTL_MARK),  # RIGHT-TO-LEFT MARK
    (0x202B, 0x202B, RTL_MARK),  # RIGHT-TO-LEFT EMBEDDING
    (0x202E, 0x202E, RTL_MARK),  # RIGHT-TO-LEFT OVERRIDE
    (0x2067, 0x2067, Script("right-to-left isolate", RTL)),  # RIGHT-TO-LEFT ISOLATE
)

# the scripts pnp shapes (and lays out right to left where they run so): not refused
PRINTED = frozenset((HEBREW, ARABIC, RTL_MARK, DEVANAGARI, THAI))
RIGHT_TO_LEFT = frozenset((HEBREW, ARABIC, RTL_MARK))


def script_of(char: str) -> Script | None:
    """The script needing more than glyphs in order that ``char`` belongs to (None for one
    that needs nothing more)."""
    code = ord(char)
    if code < 0x0590:  # Latin, Greek, Cyrillic, Armenian: below every block above
        return None
    return next((s for low, high, s in BLOCKS if low <= code <= high), None)


def unprintable(text: str) -> tuple[Script, str] | None:
    """The first script of ``text`` pnp cannot print yet (not in ``PRINTED``), and its
    characters in the text; None when it can print all of it."""
    if not text or max(text) < "\u0590":  # the common case, at C speed
        return None
    for char in text:
        script = script_of(char)
        if script is not None and script not in PRINTED:
            chars = "".join(dict.fromkeys(c for c in text if script_of(c) == script))
            return script, chars
    return None


def overlong(text: str) -> str | None:
    """Why a text is too long to print (shaped and laid out in one piece), or None: past
    ``MAX_TEXT_LENGTH`` characters, as much as a whole reference sheet may hold."""
    if len(text) <= MAX_TEXT_LENGTH:
        return None
    shown = text[:39] + "…"
    return (
        f"'{shown}' is {len(text):,} characters long; one text may have {MAX_TEXT_LENGTH:,} "
        "at most (about thirty pages): shorten it or split it"
    )


def message(text: str, script: Script, chars: str) -> str:
    """Why a string cannot be printed, and what to do."""
    shown = text if len(text) <= 40 else text[:39] + "…"
    printed = ", ".join(sorted({s.name for s in PRINTED if s is not RTL_MARK}))
    return (
        f"'{shown}' is written in {script.name} script ({chars[:8]}), which pnp cannot print "
        f"yet: it needs {script.needs}, and would print with its letters apart, left to "
        f"right (pnp shapes {printed}); leave this language out of the build until pnp "
        "supports the script"
    )
