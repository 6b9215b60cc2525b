"""Which backs the ink saver prints as their outline only: a plain back, the same on every
piece of its component, that prints no word. A back that carries text (a reference card's
rules side, a setup card's back, a deck's name), or whose look differs from piece to piece (a
token's colour, a player's back), carries meaning: the ink saver prints it lightened like the
fronts (the art store lightens its large dark areas), never blank."""

from __future__ import annotations

from generator.layout.pack import Pack
from generator.layout.sheets import Placement
from generator.svg.pdf import GROUP, PAINT, TEXT


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
    pack.plain_backs = frozenset(k for k in shared if not has_text(pack.art.drawing(k)))
    return pack.plain_backs


def has_text(artwork: object) -> bool:
    """Whether stored art prints any word (a compiled drawing, or a layer and the rest)."""
    if hasattr(artwork, "ops") and _ops_have_text(artwork.ops):
        return True
    return any(
        has_text(getattr(artwork, part)) for part in ("layer", "rest") if hasattr(artwork, part)
    )


def _ops_have_text(ops: tuple) -> bool:
    """Whether a drawing's operations print a text, groups and painted shapes followed in."""
    for op in ops:
        if op.__class__ is str:
            continue
        code = op[0]
        if code == TEXT and op[5].strip():
            return True
        if code == GROUP and _ops_have_text(op[3]):
            return True
        if code == PAINT and _ops_have_text(op[6]):
            return True
    return False
