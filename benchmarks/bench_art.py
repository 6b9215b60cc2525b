"""Workload 2: 540 art cards, every face its own 300 dpi PNG (744 x 1039 px), one back PNG.

    .venv/bin/python benchmarks/bench_art.py [--cards N] [--runs R]

The PNGs are generated first (not timed); the build is timed in CPU (all processes).
Prints one line: ``cards=N cpu_seconds=X pdf_bytes=N png_bytes=N images_in_pdf=N
drawn_diff=D``. The target: under 5 CPU seconds, each PNG embedded once, and the art real:
``drawn_diff`` is the mean difference (0-255) between the first card as pdfium renders it
and its PNG, which must stay small (a PNG drawn black or streaked differs by 100 and more).
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageDraw, ImageStat
from workload import build, colour, median, write_game

FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     {{ box.svg_attrs }}>
  <image x="0" y="0" width="{{ box.w }}" height="{{ box.h }}"
         xlink:href="{{ asset(card.art) }}"/>
</svg>
"""


def make_pngs(folder: Path, cards: int) -> int:
    """Card art: a 744 x 1039 px PNG per card, each different; returns their total bytes."""
    (folder / "art").mkdir(parents=True, exist_ok=True)
    total = 0
    for n in range(1, cards + 1):
        image = Image.new("RGB", (744, 1039), colour(n))
        draw = ImageDraw.Draw(image)
        for i in range(12):
            x, y = 60 + (i % 4) * 160, 200 + (i // 4) * 220
            draw.ellipse((x, y, x + 40 + (n * i) % 90, y + 120), fill=colour(n + i * 7))
        draw.text((60, 80), f"Card {n}", fill="white")
        path = folder / "art" / f"card-{n:05d}.png"
        image.save(path, optimize=False)
        total += path.stat().st_size
    return total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=540)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pnp-art-") as tmp:
        root = Path(tmp)
        folder = write_game(root, args.cards, FACE, lambda n: {"art": f"art/card-{n:05d}.png"})
        png_bytes = make_pngs(folder, args.cards)
        times = []
        for run in range(args.runs):
            seconds, pdf, _ = build(folder, root / f"out-{run}")
            times.append(seconds)
        data = pdf.read_bytes()
        images = len(re.findall(rb"/Subtype\s*/Image", data))
        diff = drawn_diff(pdf, folder / "art" / "card-00001.png")
    print(
        f"cards={args.cards} cpu_seconds={median(times):.2f} pdf_bytes={len(data)} "
        f"png_bytes={png_bytes} images_in_pdf={images} drawn_diff={diff:.1f}"
    )


def drawn_diff(pdf: Path, png: Path) -> float:
    """The mean difference between the first card's art as pdfium renders it and its PNG,
    both scaled to a tenth of the PNG (the manifest says where the card is)."""
    manifest = json.loads((pdf.parent / "manifest.json").read_text(encoding="utf-8"))
    item = next(i for i in manifest["items"] if i["copy"] == 1 and i["side"] == "front")
    paper_w, paper_h = manifest["paper_mm"]
    with pdfium.PdfDocument(str(pdf)) as document:
        page = document[item["page"] - 1].render(scale=150 / 72).to_pil().convert("RGB")
    px = page.width / paper_w
    x, y, w, h = item["x_mm"], item["y_mm"], item["w_mm"], item["h_mm"]
    box = (x * px, (paper_h - y - h) * px, (x + w) * px, (paper_h - y) * px)
    card = page.crop(tuple(round(v) for v in box))
    if item["rotation"] % 360:
        card = card.rotate(-item["rotation"], expand=True)
    with Image.open(png) as source:
        size = (source.width // 10, source.height // 10)
        expected = source.convert("RGB").resize(size, Image.Resampling.BOX)
    shown = card.resize(size, Image.Resampling.BOX)
    return sum(ImageStat.Stat(ImageChops.difference(shown, expected)).mean) / 3


if __name__ == "__main__":
    main()
