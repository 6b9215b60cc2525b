"""Which backs the ink saver prints as their outline only: a plain back, the same on every
piece of its component, that prints no word and no colour (greys only). A back that carries
text (a reference card's rules side, a setup card's back, a deck's name), a colour (a
faction's token backs), or whose look differs from piece to piece (a player's back) carries
meaning: the ink saver prints it lightened like the fronts (the art store lightens its large
dark areas), never blank."""

from __future__ import annotations

import re
from collections.abc import Callable

from generator.layout.pack import Pack
from generator.layout.sheets import Placement
from generator.svg.pdf import GROUP, PAINT, TEXT

GREY = 0.12  # a colour whose channels differ by less than this is a grey, and means nothing
_COLOUR = re.compile(r"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)\b")


def outlined(pack: Pack, p: Placement) -> bool:
    """Whether placement ``p`` is drawn as its outline only (an ink-saver back of no
    meaning)."""
    if p.side != "back" or not pack.options.ink_saver or p.piece.back is None:
        return False
    return p.piece.back in plain_backs(pack)


def plain_backs(pack: Pack) -> frozenset[str]:
    """The back art the ink saver leaves out: shared by every piece of its component, and
    wordless; worked out once per pack."""
    if pack.plain_backs is not None:
        return pack.plain_backs
    backs: dict[str, set[str]] = {}
    for sheet in pack.body:
        for page in (sheet.front, sheet.back):
            for placed in page.placements if page else ():
                if placed.piece.back and not placed.piece.flowed:
                    backs.setdefault(placed.piece.component, set()).add(placed.piece.back)
    shared = {next(iter(keys)) for keys in backs.values() if len(keys) == 1}
    pack.plain_backs = frozenset(k for k in shared if not _meaningful(pack.art.drawing(k)))
    return pack.plain_backs


def has_text(artwork: object) -> bool:
    """Whether stored art prints any word (a compiled drawing, or a layer and the rest)."""
    return _finds(artwork, _is_text)


def _meaningful(artwork: object) -> bool:
    """Whether stored art prints a word or a colour (anything but greys)."""
    return _finds(artwork, lambda op: _is_text(op) or _is_colour(op))


def _finds(artwork: object, wanted: Callable[[object], bool]) -> bool:
    """Whether an operation of stored art is ``wanted``."""
    if hasattr(artwork, "ops") and _ops_find(artwork.ops, wanted):
        return True
    parts = [getattr(artwork, part) for part in ("layer", "rest") if hasattr(artwork, part)]
    return any(_finds(part, wanted) for part in parts)


def _ops_find(ops: tuple, wanted: Callable[[object], bool]) -> bool:
    """Whether a drawing's operations hold a ``wanted`` one, groups and painted shapes
    followed in."""
    for op in ops:
        if wanted(op):
            return True
        if op.__class__ is str:
            continue
        if op[0] == GROUP and _ops_find(op[3], wanted):
            return True
        if op[0] == PAINT and _ops_find(op[6], wanted):
            return True
    return False


def _is_text(op: object) -> bool:
    """Whether an operation prints a word."""
    return isinstance(op, tuple) and op[0] == TEXT and bool(str(op[5]).strip())


def _is_colour(op: object) -> bool:
    """Whether a literal operation sets a colour that is not a grey."""
    if not isinstance(op, str):
        return False
    for match in _COLOUR.finditer(op):
        channels = [float(v) for v in match.groups()]
        if max(channels) - min(channels) >= GREY:
            return True
    return False
