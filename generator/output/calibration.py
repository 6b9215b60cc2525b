"""The duplex alignment test page: print it double-sided, read the back offset off a scale.

The front carries two long reference lines through a centre point. The back carries a scale
across each of them, drawn around the point that lies behind the centre when the sheet flips
on the chosen edge; each tick is labelled with the back offset that would bring it onto the
line. Held against a light, the front's lines show through the back: the tick under each line
is the X and the Y to pass as ``--back-offset X,Y``.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from generator.i18n.strings import english
from generator.output.atomic import replacing
from generator.svg import canvas as rl
from generator.svg.fonts import BOLD, REGULAR, register_fonts

RANGE = 8.0  # mm either way: duplex printers are commonly 1-4 mm out
STEP = 0.5  # mm between ticks
LINE_REACH = 45.0  # mm the reference lines run from the centre
SCALE_AT = 25.0  # mm from the centre where the scales cross the lines
LABEL_EVERY = 4  # ticks (of STEP mm) between labels: every 2 mm
LABEL_PT = 6  # the smallest text anything prints


def behind(x: float, y: float, paper: tuple[float, float], duplex: str) -> tuple[float, float]:
    """The point on the back page that lies behind (x, y) of the front page."""
    return (x, paper[1] - y) if duplex == "short" else (paper[0] - x, y)


@rl.binary_streams()
def write_calibration(path: Path, paper: tuple[float, float], duplex: str) -> None:
    """Write the two-page test sheet to ``path`` (atomically)."""
    register_fonts()
    with replacing(path) as tmp:
        canvas = Canvas(
            str(tmp), pagesize=(paper[0] * mm, paper[1] * mm), invariant=1, initialFontName=REGULAR
        )
        canvas.setTitle(english().text("calibrate_title"))
        canvas.setCreator("pnp-generator")
        cx, cy = paper[0] / 2, paper[1] / 2
        _front(canvas, paper, cx, cy, duplex)
        canvas.showPage()
        _back(canvas, paper, *behind(cx, cy, paper, duplex), duplex)
        canvas.showPage()
        canvas.save()


def _front(canvas: Canvas, paper: tuple[float, float], cx: float, cy: float, duplex: str) -> None:
    canvas.setLineWidth(0.4)
    canvas.line(cx * mm, (cy - LINE_REACH) * mm, cx * mm, (cy + LINE_REACH) * mm)
    canvas.line((cx - LINE_REACH) * mm, cy * mm, (cx + LINE_REACH) * mm, cy * mm)
    canvas.circle(cx * mm, cy * mm, 3 * mm)
    canvas.setFont(BOLD, 16)
    canvas.drawCentredString(cx * mm, (paper[1] - 25) * mm, english().text("calibrate_title"))
    canvas.setFont(REGULAR, 9.5)
    y = paper[1] - 35
    for key in ("calibrate_step1", "calibrate_step2", "calibrate_step3"):
        canvas.drawCentredString(
            cx * mm, y * mm, english().text(key, duplex=english().text(f"duplex_{duplex}"))
        )
        y -= 6


def _back(canvas: Canvas, paper: tuple[float, float], bx: float, by: float, duplex: str) -> None:
    """Scales around the point behind the front's centre: X across the vertical line, Y
    across the horizontal one; the label of a tick is the offset that puts it on the line."""
    fx, fy = bx, by + SCALE_AT if duplex != "short" else by - SCALE_AT
    gx, gy = bx + SCALE_AT if duplex == "short" else bx - SCALE_AT, by
    canvas.setLineWidth(0.25)
    canvas.setFont(REGULAR, LABEL_PT)
    steps = int(RANGE / STEP)
    for i in range(-steps, steps + 1):
        t = i * STEP
        length = 4 if i % LABEL_EVERY == 0 else 2
        canvas.line((fx + t) * mm, fy * mm, (fx + t) * mm, (fy + length) * mm)
        canvas.line(gx * mm, (gy + t) * mm, (gx + length) * mm, (gy + t) * mm)
        if i % LABEL_EVERY == 0:
            stagger = 2.5 * ((i // LABEL_EVERY) % 2)  # neighbours' labels never touch
            canvas.drawCentredString((fx + t) * mm, (fy + 5 + stagger) * mm, f"{t:+g}")
            canvas.drawString((gx + 5 + 2 * stagger) * mm, (gy + t) * mm - 2, f"{t:+g}")
    canvas.setFont(BOLD, 8)
    canvas.drawCentredString(fx * mm, (fy + 11) * mm, "X")
    canvas.drawString((gx + 16) * mm, gy * mm - 2, "Y")
    canvas.setFont(REGULAR, 9)
    canvas.drawCentredString(paper[0] / 2 * mm, 20 * mm, english().text("calibrate_back"))
