"""Text in scripts whose letters join or run right to left (Arabic, Hebrew), or whose vowel
signs and conjuncts the font places (Devanagari, Thai), shaped: the
Unicode bidirectional algorithm gives each character its level (python-bidi), the runs of one
level are reordered for display (rule L2) and HarfBuzz (uharfbuzz) shapes each run with the
whole text as context, giving the glyphs to draw, in visual order, with their advances and
offsets. Text in any other script never comes here (``needed``), so its output is untouched.

``canvas.ShapedFont`` draws the glyphs; ``richtext`` orders the words of a right-to-left line.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import uharfbuzz as hb
from bidi import algorithm as uba  # the pure-Python UBA: the one that gives levels

from generator.limits import MAX_TEXT_LENGTH
from generator.svg import scripts
from generator.svg.scripts import PRINTED, RIGHT_TO_LEFT, script_of

SHAPED_CACHE = 4096  # shaped strings kept per process (words and lines of a pack)
CONTEXT = 5  # characters HarfBuzz reads around a run as its context (HB_BUFFER_CONTEXT_LENGTH)


def runs_right_to_left(char: str) -> bool:
    """Whether ``char`` is of a script written right to left (Hebrew, Arabic, their marks)."""
    return char >= "\u0590" and script_of(char) in RIGHT_TO_LEFT


def needed(text: str) -> bool:
    """Whether ``text`` has characters pnp must shape (a script in ``scripts.PRINTED``)."""
    if not text or max(text) < "\u0590":  # the common case, at C speed
        return False
    return any(script_of(c) in PRINTED for c in text)


def reordered(text: str, rtl: bool | None) -> bool:
    """Whether ``text`` with no letters that need shaping still changes in a right-to-left
    run: a bracket drawn mirrored, or digits and the neutrals beside them at two levels
    (a word "(8" or "3–8:" of a Hebrew line, which reportlab would set left to right)."""
    if not rtl or len(text) < 2:
        return False
    return any(unicodedata.mirrored(c) for c in text) or len(set(levels(text, True))) > 1


def base_rtl(text: str) -> bool:
    """Whether a paragraph of ``text`` runs right to left (its first strong character is
    Hebrew or Arabic: rules P2 and P3)."""
    return needed(text) and uba.get_base_level(text) == 1


# the isolates (Unicode 6.3), which python-bidi's algorithm predates and fails on, read as
# the embeddings nearest them: each character stays where it is
ISOLATES = str.maketrans(
    {"\u2066": "\u202a", "\u2067": "\u202b", "\u2068": "\u202a", "\u2069": "\u202c"}
)


class ShapingProblem(ValueError):
    """A text the shaper refuses (too long) or the bidi algorithm cannot order, in words."""


def levels(text: str, rtl: bool | None = None) -> list[int]:
    """The bidi embedding level of each character of ``text`` (``rtl``: the paragraph's
    direction, None to take it from the text); ``ShapingProblem`` for a text past
    ``MAX_TEXT_LENGTH`` or one the algorithm fails on (never an internal error)."""
    if len(text) > MAX_TEXT_LENGTH:
        raise ShapingProblem(scripts.overlong(text))
    text = text.translate(ISOLATES)
    try:
        return _levels(text, rtl)
    except Exception as exc:  # noqa: BLE001 - python-bidi asserts on what it cannot order
        raise ShapingProblem(
            f"the direction controls in '{text[:39]}' cannot be ordered ({type(exc).__name__}); "
            "remove the invisible embedding or isolate characters"
        ) from None


def _levels(text: str, rtl: bool | None) -> list[int]:
    """``levels`` by python-bidi's algorithm (rules P2 to I2, then X9's dropped characters)."""
    base = uba.get_base_level(text) if rtl is None else int(rtl)
    storage = uba.get_empty_storage()
    storage["base_level"], storage["base_dir"] = base, "LR"[base]
    uba.get_embedding_levels(text, storage, False)
    uba.explicit_embed_and_overrides(storage, False)  # drops X9 characters (ZWJ, marks...)
    uba.resolve_weak_types(storage, False)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    kept, out, previous = iter(storage["chars"]), [], base
    for char in text:  # a dropped character takes the level before it
        if uba.bidirectional(char) not in uba.X9_REMOVED:
            previous = next(kept)["level"]
        out.append(previous)
    return out


STRONG = frozenset(("L", "R", "AL"))


def strong(char: str) -> str | None:
    """The direction a character runs in by itself: "L", "R" (Hebrew, Arabic), or None for
    one that takes its neighbours' (digits, punctuation, spaces, marks)."""
    kind = uba.bidirectional(char)
    return "R" if kind in ("R", "AL") else "L" if kind == "L" else None


def word_levels(words: list[str], rtl: bool) -> list[int]:
    """The level of each word of a line (words joined by single spaces, in a paragraph of
    direction ``rtl``): that of its first strong character, else its lowest."""
    at = levels(" ".join(words), rtl)
    out, start = [], 0
    for word in words:
        mine = at[start : start + len(word)] or [int(rtl)]
        strong = [lv for c, lv in zip(word, mine, strict=False) if uba.bidirectional(c) in STRONG]
        out.append(strong[0] if strong else min(mine))
        start += len(word) + 1
    return out


def visual_order(runs: list[int]) -> list[int]:
    """The display order of items at these levels (rule L2: from the highest level down to
    the lowest odd one, every sequence at that level or above is reversed)."""
    order = list(range(len(runs)))
    if not runs:
        return order
    for level in range(max(runs), (min(runs) | 1) - 1, -1):
        k = 0
        while k < len(order):
            if runs[order[k]] >= level:
                end = k
                while end < len(order) and runs[order[end]] >= level:
                    end += 1
                order[k:end] = order[k:end][::-1]
                k = end
            else:
                k += 1
    return order


@dataclass(frozen=True)
class Glyph:
    """One glyph to draw: its id in the font, its offsets and advance (font units) and the
    text it stands for (what a PDF reader extracts for it)."""

    gid: int
    dx: int
    dy: int
    advance: int
    text: str
    source: str = ""  # the characters of its cluster (an extractor's text for them all)
    rtl: bool = False  # in a right-to-left run
    cluster: int = 0  # where its cluster starts in the text (glyphs of one cluster share it)


@dataclass(frozen=True)
class Shaped:
    """A string shaped: its glyphs in display order, left to right, and its width in ems."""

    glyphs: tuple[Glyph, ...]
    width: float


class Shaper:
    """HarfBuzz's view of one font file."""

    def __init__(self, data: bytes) -> None:
        self.face = hb.Face(hb.Blob(data))
        self.font = hb.Font(self.face)  # scale = units per em: positions in font units
        self.upem = self.face.upem
        self.nominal: dict[int, list[int]] = {}  # glyph id -> the characters mapped to it
        for code in sorted(self.face.unicodes):
            gid = self.font.get_nominal_glyph(code)
            if gid is not None:
                self.nominal.setdefault(gid, []).append(code)
        self.shape = lru_cache(maxsize=SHAPED_CACHE)(self._shape)

    def _shape(self, text: str, rtl: bool | None = None) -> Shaped:
        """``text`` shaped as one line (``rtl``: the paragraph's direction, None to take it
        from the text); trailing white space is not drawn (rule L1)."""
        end = len(text.rstrip())
        at = levels(text, rtl)[:end]
        runs: list[tuple[int, int, int]] = []  # start, end, level
        start = 0
        for i in range(1, end + 1):
            if i == end or at[i] != at[start]:
                runs.append((start, i, at[start]))
                start = i
        glyphs: list[Glyph] = []
        for k in visual_order([r[2] for r in runs]):
            glyphs += self._run(text, *runs[k])
        return Shaped(tuple(glyphs), sum(g.advance for g in glyphs) / self.upem)

    def _run(self, text: str, start: int, end: int, level: int) -> list[Glyph]:
        """One run of one level shaped, with the characters around it as its context (what
        HarfBuzz looks at: ``CONTEXT`` on each side, so a run costs its own length only)."""
        low = max(0, start - CONTEXT)
        buffer = hb.Buffer()
        buffer.add_codepoints([ord(c) for c in text[low : end + CONTEXT]], start - low, end - start)
        buffer.direction = "rtl" if level % 2 else "ltr"
        buffer.guess_segment_properties()
        hb.shape(self.font, buffer)
        infos, positions = buffer.glyph_infos, buffer.glyph_positions
        starts = sorted({info.cluster + low for info in infos} | {end})
        spans = {c: text[c : starts[k + 1]] for k, c in enumerate(starts[:-1])}
        members: dict[int, set[int]] = {}  # cluster -> the glyph ids in it
        for info in infos:
            members.setdefault(info.cluster + low, set()).add(info.codepoint)
        said: dict[tuple[int, int], str] = {}  # (cluster, glyph id) -> its text, made once
        out = []
        rtl = level % 2 == 1
        for info, pos in zip(infos, positions, strict=True):
            cluster = info.cluster + low
            span = spans[cluster]
            key = (cluster, info.codepoint)
            if key not in said:
                said[key] = self._text(info.codepoint, members[cluster], span, rtl)
            out.append(
                Glyph(info.codepoint, pos.x_offset, pos.y_offset, pos.x_advance,
                      said[key], span, rtl, cluster)
            )  # fmt: skip
        return out

    def _text(self, gid: int, members: set[int], span: str, rtl: bool) -> str:
        """What a reader extracts for glyph ``gid`` (of a cluster of glyphs ``members`` and
        characters ``span``): its own character when it is one of its cluster's (a nominal
        glyph, or a bracket mirrored); else the cluster's characters no other glyph of the
        cluster stands for (a ligature, a contextual form), reversed in a right-to-left run,
        as readers reverse right-to-left text they find."""
        own = [chr(c) for c in self.nominal.get(gid, ())]
        mine = [c for c in own if c in span]
        if mine:
            return mine[0]
        if rtl and len(span) == 1 and unicodedata.mirrored(span) and own:
            return own[0]
        others = {chr(c) for g in members if g != gid for c in self.nominal.get(g, ())}
        text = "".join(c for c in span if c not in others) or span
        return text[::-1] if rtl else text
