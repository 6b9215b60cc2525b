"""Player colours told apart: each pair of the game's player colours (``colours:`` in
``game.yaml``) compared as people with normal colour vision and with each common colour-vision
deficiency see them. A pair closer than ``CLOSE`` (CIEDE2000 colour difference) under any of
them is a warning, unless the two colours carry marks of their own (``mark:``, a letter or
symbol their pieces print), so that players tell the pieces apart without the colour.

The deficiencies are simulated with the matrices of Machado, Oliveira and Fernandes (2009,
"A Physiologically-based Model for Simulation of Color Vision Deficiency", severity 1.0),
applied to linear sRGB; colours are compared in CIELAB (D65).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from generator.model.loader import Game

CLOSE = 20.0  # CIEDE2000 below which two colours are hard to tell apart across a table
Matrix3 = tuple[tuple[float, float, float], ...]
VISIONS: dict[str, Matrix3 | None] = {
    "normal vision": None,
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
RGB = tuple[float, float, float]
WHITE = (0.95047, 1.0, 1.08883)  # D65


@dataclass(frozen=True)
class CloseColours:
    """Two player colours hard to tell apart: where they are given, and why."""

    path: Path
    line: int
    message: str


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


def seen(rgb: RGB, vision: str) -> RGB:
    """``rgb`` (sRGB, 0-1) as seen with ``vision`` (a key of ``VISIONS``)."""
    matrix = VISIONS[vision]
    if matrix is None:
        return rgb
    lin = [_linear(c) for c in rgb]
    r, g, b = (_gamma(sum(m * c for m, c in zip(row, lin, strict=True))) for row in matrix)
    return r, g, b


def lab(rgb: RGB) -> RGB:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in rgb)
    xyz = (
        0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
        0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
        0.0193339 * r + 0.1191920 * g + 0.9503041 * b,
    )

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, WHITE, strict=True))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(lab1: RGB, lab2: RGB) -> float:
    """The CIEDE2000 difference of two CIELAB colours (Sharma, Wu and Dalal, 2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    h_mean = h1p + h2p
    if c1p * c2p != 0:
        h_mean = (h1p + h2p + 360) / 2 if abs(h1p - h2p) > 180 else (h1p + h2p) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = (
        -2
        * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
    )
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)
    )


def hex_rgb(text: str) -> RGB:
    digits = text.lstrip("#")
    r, g, b = (int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b


def closest(first: str, second: str) -> tuple[float, str]:
    """How close two colours (``#rrggbb``) come, and with which vision."""
    pairs = [
        (delta_e(lab(seen(hex_rgb(first), v)), lab(seen(hex_rgb(second), v))), v) for v in VISIONS
    ]
    return min(pairs)


def close_colours(game: Game) -> list[CloseColours]:
    """Every pair of the game's player colours closer than ``CLOSE`` under some vision."""
    out = []
    colours = game.spec.colours
    for (_, a), (j, b) in combinations(enumerate(colours), 2):
        difference, vision = closest(a.colour, b.colour)
        if difference < CLOSE and (a.mark is None or b.mark is None or a.mark == b.mark):
            out.append(
                CloseColours(
                    game.doc.path,
                    game.doc.line_of(("colours", j)),
                    f"player colours '{a.label or a.name}' ({a.colour}) and "
                    f"'{b.label or b.name}' ({b.colour}) are hard to tell apart with "
                    f"{vision} (colour difference {difference:.1f}, under {CLOSE:g}): give "
                    "each colour a mark of its own (mark:) that its pieces print, or choose "
                    "colours further apart",
                )
            )
    return out
