"""SVG text laid out in runs of glyphs: white space as ``xml:space`` says, ``tspan`` and ``a``
children with their own style, per-character ``x``, ``y``, ``dx`` and ``dy`` lists, text chunks
anchored by ``text-anchor``, ``letter-spacing``, ``dominant-baseline`` and ``baseline-shift``.

Each run's font comes from ``fonts.font_for`` (a family it cannot find is a warning); a
character the font lacks is an ``SvgError`` naming it. What is not laid out (``textPath``,
``tref``, ``rotate``, ``textLength``, text decoration, vertical text, ``direction: rtl`` on
text that is not Arabic or Hebrew) is a warning. Arabic and Hebrew are shaped by the font
(``canvas.ShapedFont``); ``direction: rtl`` makes such a text's start its right end.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from lxml import etree
from reportlab.pdfbase import pdfmetrics

from generator.svg import scripts, shaping
from generator.svg.builder import NS, XLINK_HREF, XML_SPACE, Box, Ctx, SvgError
from generator.svg.compiling import Compiling
from generator.svg.fonts import face_for, families_generation, font_file, font_for, missing_in
from generator.svg.properties import attr_length, inherit, user
from generator.svg.values import length, numbers

SPANS = frozenset(("tspan", "a"))
POSITIONS = ("x", "y", "dx", "dy")


class Run(NamedTuple):
    """Glyphs drawn as one piece of text: where its baseline starts, the text, its font,
    size and letter spacing (user units), the context it inherits and its width."""

    x: float
    y: float
    text: str
    font: str
    size: float
    spacing: float
    ctx: Ctx
    width: float
    rtl: bool | None = None  # the direction its text is shaped in (None: the text's own)


# per character: x, y, dx and dy, None where not given
Position = tuple[float | None, float | None, float | None, float | None]


class _Text:
    """The characters of a text element as they are collected: pieces (start, text,
    context of the element holding them), the count so far, whether the last is a space,
    and each element's position lists (start, end, depth, lists)."""

    __slots__ = ("parts", "length", "space", "spans")

    def __init__(self) -> None:
        self.parts: list[tuple[int, str, Ctx]] = []
        self.length = 0
        self.space = True  # nothing yet: a leading space is dropped
        self.spans: list[tuple[int, int, int, dict[str, tuple[float, ...]]]] = []

    def add(self, text: str | None, ctx: Ctx, preserve: bool) -> None:
        """Append text: newlines dropped and spaces collapsed (xml:space default, across
        pieces too, none at the start), or newlines and tabs as spaces (preserve)."""
        if not text:
            return
        if preserve:
            text = text.translate(_PRESERVE)
        else:
            text = _SPACES.sub(" ", text.replace("\r", "").replace("\n", "").replace("\t", " "))
            if self.space and text.startswith(" "):
                text = text[1:]
        if text:
            self.parts.append((self.length, text, ctx))
            self.length += len(text)
            self.space = text.endswith(" ")

    def strip_end(self) -> None:
        """Drop the spaces at the very end (xml:space default)."""
        while self.parts and self.parts[-1][1].endswith(" "):
            start, text, ctx = self.parts.pop()
            text = text.rstrip(" ")
            if text:
                self.parts.append((start, text, ctx))
            self.length = start + len(text)


_PRESERVE = str.maketrans("\r\n\t", "   ")
_SPACES = re.compile(" {2,}")


def layout(
    compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx
) -> list[Run]:
    """The runs of a ``text`` element."""
    if len(element) == 0 and SIMPLE_TEXT.isdisjoint(attrs) and SIMPLE_STYLE.isdisjoint(ctx.style):
        return _plain(compiler, element, attrs, ctx)
    return _layout(compiler, element, attrs, ctx)


# what the common case, one line of text at one x and y, has none of
SIMPLE_TEXT = frozenset(("dx", "dy", "rotate", "textLength", "text-decoration"))
SIMPLE_STYLE = frozenset(
    (
        "letter-spacing",
        "dominant-baseline",
        "alignment-baseline",
        "baseline-shift",
        "writing-mode",
        "direction",
        XML_SPACE,
    )
)
_ONE_NUMBER = re.compile(r"\s*[^\s,]+\s*")


def _plain(
    compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx
) -> list[Run]:
    """The common case, kept short: a text without children, at one x and y."""
    x_text, y_text = attrs.get("x", "0"), attrs.get("y", "0")
    if not (_ONE_NUMBER.fullmatch(x_text) and _ONE_NUMBER.fullmatch(y_text)):
        return _layout(compiler, element, attrs, ctx)
    text = _SPACES.sub(" ", (element.text or "").replace("\r", "").replace("\n", ""))
    text = text.replace("\t", " ").strip(" ")
    if not text:
        return []
    x, y = attr_length(attrs, "x", ctx, "x"), attr_length(attrs, "y", ctx, "y")
    font = face_for(_font(compiler, ctx.style), text)
    size = ctx.font_size
    _drawable(font, text, text)
    width: float = pdfmetrics.stringWidth(text, font, size)
    anchor = ctx.style.get("text-anchor", "start")
    if anchor == "middle":
        x -= width / 2
    elif anchor == "end":
        x -= width
    if size <= 0:
        return []
    return [Run(x, y, text, font, size, 0.0, ctx, width)]


def _layout(
    compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx
) -> list[Run]:
    """Any text: its characters collected, positioned, laid out in runs."""
    collected = _Text()
    _collect(compiler, element, attrs, ctx, collected, 0, _preserve(ctx))
    if not _preserve(ctx):
        collected.strip_end()
    if not collected.parts:
        return []
    _warn_unsupported(compiler, element, attrs, ctx)
    return _runs(compiler, collected, _positions(collected))


def _drawable(font: str, piece: str, text: str) -> None:
    """An error naming the text when ``piece`` of it is in a script the renderer cannot lay
    out (it would print its letters apart, left to right) or has a character ``font``
    lacks, or when the whole text is longer than one may be (``scripts.overlong``)."""
    too_long = scripts.overlong(text)
    if too_long is not None:
        raise SvgError(too_long)
    unprintable = scripts.unprintable(piece)
    if unprintable is not None:
        raise SvgError(scripts.message(text.strip(), *unprintable))
    lacking = _missing(font, piece)
    if lacking:
        _no_glyph(lacking, text, font)


def _no_glyph(lacking: list[str], text: str, font: str) -> None:
    """A character the font lacks: an error naming it, the text and the font's file."""
    raise SvgError(
        f"the font {font_file(font)} has no glyph for {' '.join(lacking)} in '{text.strip()}'; "
        "use other characters or a font that has them"
    )


def _preserve(ctx: Ctx) -> bool:
    """Whether white space is kept as it is (xml:space="preserve")."""
    return ctx.style.get(XML_SPACE) == "preserve"


def _collect(
    compiler: Compiling,
    element: etree._Element,
    attrs: dict[str, str],
    ctx: Ctx,
    collected: _Text,
    depth: int,
    preserve: bool,
) -> None:
    """The characters of an element and its spans, white space handled as SVG says."""
    start = collected.length
    collected.add(element.text, ctx, preserve)
    for child in element:
        tag = child.tag
        if tag.__class__ is str and tag.startswith(NS):
            name = tag[len(NS) :]
            if name in SPANS:
                child_attrs = compiler.specified(child)
                if (child_attrs.get("display") or "").strip() != "none":
                    child_ctx = inherit(child_attrs, ctx)
                    _collect(compiler, child, child_attrs, child_ctx, collected, depth + 1,
                             _preserve(child_ctx))  # fmt: skip
            elif name == "tref":
                _tref(compiler, child, ctx, collected, preserve)
            elif name == "textPath":
                compiler.warn("<textPath", f"{compiler.where(child)} is not drawn")
        collected.add(child.tail, ctx, preserve)
    lists: dict[str, tuple[float, ...]] = {}
    for name in POSITIONS:
        if name in attrs:
            try:
                lists[name] = tuple(
                    user(length(v), ctx, "x" if name in ("x", "dx") else "y")
                    for v in attrs[name].replace(",", " ").split()
                )
            except ValueError:
                continue
    if lists:
        collected.spans.append((start, collected.length, depth, lists))


def _tref(
    compiler: Compiling, tref: etree._Element, ctx: Ctx, collected: _Text, preserve: bool
) -> None:
    """A ``tref``: the text of the element it refers to, in the tref's own style."""
    attrs = compiler.specified(tref)
    if (attrs.get("display") or "").strip() == "none":
        return
    href = (attrs.get("href") or attrs.get(XLINK_HREF) or "").strip()
    target = compiler.lookup(href[1:]) if href.startswith("#") else None
    if target is not None:
        collected.add("".join(target.itertext()), inherit(attrs, ctx), preserve)


def _positions(collected: _Text) -> dict[int, Position]:
    """x, y, dx and dy of the characters that have any, the innermost element's lists
    winning over its ancestors'."""
    out: dict[int, list[float | None]] = {}
    for start, end, _, lists in sorted(collected.spans, key=lambda s: s[2]):
        end = min(end, collected.length)
        for k, name in enumerate(POSITIONS):
            for offset, value in enumerate(lists.get(name, ())[: max(0, end - start)]):
                out.setdefault(start + offset, [None, None, None, None])[k] = value
    return {index: (p[0], p[1], p[2], p[3]) for index, p in out.items()}


UNSUPPORTED = frozenset(("textLength", "rotate", "text-decoration"))


def _warn_unsupported(
    compiler: Compiling, element: etree._Element, attrs: dict[str, str], ctx: Ctx
) -> None:
    """Warn of what text layout leaves out."""
    style = ctx.style
    if UNSUPPORTED.isdisjoint(attrs) and "writing-mode" not in style and "direction" not in style:
        return
    where = compiler.where(element)
    for name in ("textLength", "rotate"):
        if name in attrs:
            try:
                zero = name == "rotate" and not any(numbers(attrs[name]))
            except ValueError:
                zero = True
            if not zero:
                compiler.warn(name, f"{name} on {where} is not applied")
    decoration = attrs.get("text-decoration")
    if decoration is not None and decoration.strip() not in ("none", ""):
        compiler.warn("text-decoration", f"text-decoration on {where} is not drawn")
    mode = ctx.style.get("writing-mode", "lr")
    if mode not in ("lr", "lr-tb", "horizontal-tb", "rl", "rl-tb"):
        compiler.warn("writing-mode", f"vertical text ({where}) is drawn horizontally")
    text = "".join(element.itertext())
    if ctx.style.get("direction") == "rtl" and not shaping.needed(text) and _moved(text):
        compiler.warn("direction", f"right-to-left text ({where}) is drawn left to right")


MIRRORED = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))


def _moved(text: str) -> bool:
    """Whether right-to-left text with no letters that need shaping reads otherwise than
    drawn left to right (from its right end): "Go!" would show "!Go"; "—" or "(2)" in an
    Arabic line shows as it is written."""
    at = shaping.levels(text, True)
    shown = "".join(
        MIRRORED.get(text[i], text[i]) if at[i] % 2 else text[i] for i in shaping.visual_order(at)
    )
    return shown != text


def _font(compiler: Compiling, style: dict[str, str]) -> str:
    """The registered font for a style (a family not found is a warning)."""
    key = (
        style.get("font-family", "sans-serif"),
        style.get("font-weight", "normal"),
        style.get("font-style", "normal"),
        families_generation(),  # a game's fonts registered since
    )
    found = _FONTS.get(key)
    if found is None:
        found = _FONTS[key] = font_for(*key[:3])
    font, problem = found
    if problem:
        compiler.warn("font-family", problem)
    return font


_FONTS: dict[tuple[str, str, str, int], tuple[str, str | None]] = {}  # font_for's answers


def _baseline(
    compiler: Compiling, style: dict[str, str], ctx: Ctx, font: str, size: float
) -> float:
    """How far down the baseline moves for dominant-baseline and baseline-shift."""
    if not (
        "dominant-baseline" in style or "alignment-baseline" in style or "baseline-shift" in style
    ):
        return 0.0
    face = pdfmetrics.getFont(font).face
    ascent: float = face.ascent / 1000 * size
    descent: float = face.descent / 1000 * size
    shifts = {
        "middle": ascent * 0.35,
        "central": (ascent + descent) / 2,
        "hanging": ascent * 0.8,
        "text-before-edge": ascent,
        "text-top": ascent,
        "text-after-edge": descent,
        "text-bottom": descent,
        "ideographic": descent,
        "mathematical": ascent * 0.5,
    }
    baseline = style.get("dominant-baseline") or style.get("alignment-baseline") or "auto"
    shift = shifts.get(baseline.strip(), 0.0)
    raised = style.get("baseline-shift")
    if raised:
        shift -= _baseline_shift(raised, ctx, size)
    return shift


def _baseline_shift(text: str, ctx: Ctx, size: float) -> float:
    """How far baseline-shift raises the text (sub, super, a length or a percentage)."""
    text = text.strip()
    if text == "sub":
        return -0.2 * size
    if text == "super":
        return 0.4 * size
    try:
        value = length(text)
    except ValueError:
        return 0.0
    if value.unit == "%":
        return value.value / 100 * size
    return user(value, ctx, "y")


def _runs(compiler: Compiling, collected: _Text, positions: dict[int, Position]) -> list[Run]:
    """Pieces of text placed, chunks anchored, and made runs."""
    text = "".join(part[1] for part in collected.parts)
    owners = {part[0]: part[2] for part in collected.parts}
    breaks = sorted({*owners, *positions, len(text)})
    pen_x = pen_y = 0.0
    chunks: list[list[Run]] = []  # runs that start where a text chunk starts
    ctx = collected.parts[0][2]
    for start, end in zip(breaks, breaks[1:], strict=False):
        ctx = owners.get(start, ctx)
        x, y, dx, dy = positions.get(start, _NO_POSITION)
        if x is not None or y is not None or not chunks:
            chunks.append([])
        pen_x = pen_x if x is None else x
        pen_y = pen_y if y is None else y
        pen_x += dx or 0.0
        pen_y += dy or 0.0
        piece = text[start:end]
        style = ctx.style
        font = face_for(_font(compiler, style), piece)
        size = ctx.font_size
        spacing = attr_length(style, "letter-spacing", ctx, "x")  # "normal" is 0
        shaped = shaping.needed(piece)
        spacing = 0.0 if shaped else spacing  # joined letters are never spaced apart
        width: float = pdfmetrics.stringWidth(piece, font, size) + spacing * len(piece)
        shift = _baseline(compiler, style, ctx, font, size)
        direction = style.get("direction", "")
        # right to left: shaped so, and its start is its right end, whatever it holds (a dash
        # or a number in an Arabic line is placed as the line's words are)
        rtl = {"rtl": True, "ltr": False}.get(direction) if shaped or direction == "rtl" else None
        chunks[-1].append(Run(pen_x, pen_y + shift, piece, font, size, spacing, ctx, width, rtl))
        pen_x += width
        _drawable(font, piece, text)
    runs: list[Run] = []
    for chunk in chunks:
        runs.extend(run for run in _anchored(chunk) if run.size > 0 and run.text.strip())
    return runs


_NO_POSITION = (None, None, None, None)
_COVERED: dict[str, set[str]] = {}  # characters each font is known to have


def _missing(font: str, text: str) -> list[str]:
    """The characters of ``text`` the font lacks (each character looked up once)."""
    covered = _COVERED.setdefault(font, set())
    new = set(text) - covered
    if not new:
        return []
    lacking = missing_in(font, "".join(new))
    covered.update(new.difference(lacking))
    return lacking


def _anchored(chunk: list[Run]) -> list[Run]:
    """A chunk moved as its first character's text-anchor says."""
    anchor = chunk[0].ctx.style.get("text-anchor", "start")
    if chunk[0].rtl:  # in right-to-left text, start is the right end
        anchor = {"start": "end", "end": "start"}.get(anchor, anchor)
    if anchor not in ("middle", "end"):
        return chunk
    start = chunk[0].x
    end = max(run.x + run.width for run in chunk)
    shift = (end - start) / 2 if anchor == "middle" else end - start
    return [run._replace(x=run.x - shift) for run in chunk]


def bbox(runs: list[Run]) -> Box | None:
    """The box the runs' em boxes cover."""
    if not runs:
        return None
    boxes = []
    for run in runs:
        face = pdfmetrics.getFont(run.font).face
        top = run.y - face.ascent / 1000 * run.size
        bottom = run.y - face.descent / 1000 * run.size
        boxes.append((run.x, top, run.x + run.width, bottom))
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
