"""The sample game's pictures (``docs/stock-templates/art/``), drawn with Pillow as the PNGs a
designer brings: a figure on transparency (RGBA), a landscape (RGB) and an orb (a radial
shading). Drawn, not kept in git: ``make pictures`` and the tests make them."""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

ART = Path(__file__).resolve().parent / "stock-templates" / "art"


def hero() -> Image.Image:
    """A standing figure in a red robe on a transparent ground."""
    image = Image.new("RGBA", (300, 500), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.polygon([(70, 200), (150, 125), (230, 200), (240, 470), (60, 470)], fill="#9e303c")
    draw.rectangle((60, 250, 240, 270), fill="#dfb43c")
    draw.ellipse((105, 40, 195, 130), fill="#ecbd96", outline="#3a2418", width=3)
    draw.polygon([(95, 40), (150, 0), (205, 40)], fill="#3a3c96")
    return image


def meadow() -> Image.Image:
    """Rolling green hills under a sky that pales towards the horizon, and a sun."""
    image = Image.new("RGB", (600, 400))
    draw = ImageDraw.Draw(image)
    for y in range(400):
        t = min(1.0, y / 300)
        sky = (round(110 + 100 * t), round(160 + 65 * t), round(220 - 5 * t))
        draw.line((0, y, 600, y), fill=sky)
    draw.ellipse((400, 60, 500, 160), fill="#f8cb50")
    for base, amplitude, phase, colour in ((240, 30, 0.0, "#5a964f"), (330, 30, 2.0, "#3a783c")):
        hill = [(x, base - amplitude * math.sin(x / 95 + phase)) for x in range(0, 601, 10)]
        draw.polygon([(0, 400), *hill, (600, 400)], fill=colour)
    return image


def orb() -> Image.Image:
    """A blue sphere, light from the upper middle, on a dark ground."""
    image = Image.new("RGB", (200, 200), "#24243a")
    draw = ImageDraw.Draw(image)
    for r in range(100, 0, -2):
        t = r / 100
        colour = (round(110 - 80 * t), round(200 - 110 * t), round(240 - 90 * t))
        centre = 100 - (1 - t) * 10  # the highlight sits a little above the middle
        draw.ellipse((100 - r, centre - r, 100 + r, centre + r), fill=colour)
    return image


def draw_all(folder: Path = ART) -> list[Path]:
    """Save every picture of the sample game into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in (("hero", hero), ("meadow", meadow), ("orb", orb)):
        path = folder / f"{name}.png"
        make().save(path, optimize=True)
        written.append(path)
    return written


if __name__ == "__main__":
    for path in draw_all():
        print(path)
