"""The floor: the card workload drawn directly with reportlab's canvas, no SVG, no templates.

    .venv/bin/python benchmarks/floor_cards.py [--cards N] [--out FILE]

The same pack as benchmarks/bench_cards.py: poker cards 9 per A4 page (3 x 3, no bleed), each
face a frame, a title, a dozen shapes and two lines of text in the embedded DejaVu font, crop
marks around the grid, and a sheet of backs after each sheet of fronts (columns mirrored), the
back drawn once as a form. Output: ``cards=N cpu_seconds=X seconds=W pdf_bytes=N`` (the
drawing's own CPU and wall-clock seconds, without interpreter start and imports).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from cards import card_fields, cpu_seconds
from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

# the faces pnp's sans-serif prints in, registered by hand: the floor imports nothing of pnp
DEJAVU = Path(__file__).resolve().parent.parent / "generator" / "svg" / "dejavu"
REGULAR, BOLD, ITALIC = "FloorSans", "FloorSans-Bold", "FloorSans-Oblique"
FACES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf", ITALIC: "DejaVuSans-Oblique.ttf"}

W, H = 63.5, 88.9
PAGE = (210.0, 297.0)
X0, Y0 = (PAGE[0] - 3 * W) / 2, (PAGE[1] - 3 * H) / 2


def face(c: Canvas, x: float, y: float, n: int, cards: int) -> None:
    """One card face at (x, y) mm, lower-left, the SVG template's drawing in canvas calls."""
    f = card_fields(n, cards)
    top = y + H  # SVG y runs down from the top
    c.setFillColor(HexColor(f["colour"]))
    c.rect(x * mm, y * mm, W * mm, H * mm, stroke=0, fill=1)
    c.setFillColor(HexColor("#fbf6ee"))
    c.setStrokeColor(HexColor("#333333"))
    c.setLineWidth(0.5 * mm)
    c.roundRect((x + 3) * mm, (y + 3) * mm, (W - 6) * mm, (H - 6) * mm, 3 * mm, stroke=1, fill=1)
    c.setFillColor(HexColor("#222222"))
    c.setFont(BOLD, 6 * mm)
    c.drawCentredString((x + W / 2) * mm, (top - 12) * mm, f["title"])
    for i in range(12):
        sx, sy = 8 + (i % 4) * 13, 20 + (i // 4) * 16
        if (i + n) % 3 == 0:
            c.setFillColor(HexColor("#c0392b"), alpha=0.7)
            c.circle(
                (x + sx + 4) * mm, (top - sy - 4) * mm, (2 + (n + i) % 4) * mm, stroke=0, fill=1
            )
            c.setFillAlpha(1)
        elif (i + n) % 3 == 1:
            c.setFillColor(HexColor("#2980b9"))
            c.rect(
                (x + sx) * mm, (top - sy - 8) * mm, (4 + (n * i) % 6) * mm, 8 * mm, stroke=0, fill=1
            )
        else:
            c.setFillColor(HexColor("#27ae60"))
            p = c.beginPath()
            p.moveTo((x + sx) * mm, (top - sy - 8) * mm)
            p.lineTo((x + sx + 4) * mm, (top - sy) * mm)
            p.lineTo((x + sx + 8) * mm, (top - sy - 8) * mm)
            p.close()
            c.drawPath(p, stroke=0, fill=1)
    c.setFillColor(HexColor("#333333"))
    c.setFont(REGULAR, 3.2 * mm)
    c.drawCentredString((x + W / 2) * mm, (top - H + 16) * mm, f["line1"])
    c.setFillColor(HexColor("#555555"))
    c.setFont(ITALIC, 2.8 * mm)
    c.drawCentredString((x + W / 2) * mm, (top - H + 10) * mm, f["line2"])


def marks(c: Canvas) -> None:
    c.setLineWidth(0.3)
    c.setStrokeGray(0)
    for i in range(4):
        x, y = X0 + i * W, Y0 + i * H
        c.line(x * mm, (Y0 + 3 * H + 1) * mm, x * mm, (Y0 + 3 * H + 5) * mm)
        c.line(x * mm, (Y0 - 5) * mm, x * mm, (Y0 - 1) * mm)
        c.line((X0 - 5) * mm, y * mm, (X0 - 1) * mm, y * mm)
        c.line((X0 + 3 * W + 1) * mm, y * mm, (X0 + 3 * W + 5) * mm, y * mm)


def build(cards: int, path: Path) -> tuple[float, float]:
    """Draw the pack into ``path``: its CPU and wall-clock seconds."""
    start, cpu = time.perf_counter(), cpu_seconds()
    for name, file in FACES.items():
        pdfmetrics.registerFont(TTFont(name, DEJAVU / file))
    rl_config.useA85 = 0  # streams written binary, as pnp writes them (not ASCII85)
    c = Canvas(str(path), pagesize=(PAGE[0] * mm, PAGE[1] * mm), invariant=1)
    c.beginForm("back", 0, 0, W * mm, H * mm)
    c.setFillColor(HexColor("#2c3e50"))
    c.rect(0, 0, W * mm, H * mm, stroke=0, fill=1)
    c.setStrokeColor(HexColor("#ecf0f1"))
    c.setLineWidth(1.2 * mm)
    c.circle(W / 2 * mm, H / 2 * mm, 18 * mm)
    c.setFillColor(HexColor("#ecf0f1"))
    c.setFont(BOLD, 3.6 * mm)
    c.drawCentredString(W / 2 * mm, (H / 2 - 2) * mm, "Benchmark")
    c.endForm()
    for first in range(1, cards + 1, 9):
        numbers = range(first, min(first + 9, cards + 1))
        for slot, n in enumerate(numbers):
            face(c, X0 + (slot % 3) * W, Y0 + (2 - slot // 3) * H, n, cards)
        marks(c)
        c.showPage()
        for slot, _ in enumerate(numbers):
            c.saveState()
            c.translate((PAGE[0] - X0 - (slot % 3 + 1) * W) * mm, (Y0 + (2 - slot // 3) * H) * mm)
            c.doForm("back")
            c.restoreState()
        c.showPage()
    c.save()
    return cpu_seconds() - cpu, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=540)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.out or Path(tmp) / "floor.pdf"
        cpu, seconds = build(args.cards, path)
        print(
            f"cards={args.cards} cpu_seconds={cpu:.3f} seconds={seconds:.3f} "
            f"pdf_bytes={path.stat().st_size}"
        )


if __name__ == "__main__":
    main()
