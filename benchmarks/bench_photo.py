"""Workload 6: a phone's photo on a card (issue 26): one JPEG of 50 megapixels (8,660 x 5,774)
drawn 30 x 40 mm on a poker card, built by ``pnp build`` in a process of its own, against
the same card without the photo: the time and peak memory the photo adds, and the pixels the
PDF holds of it (at most 600 dpi at its printed size).

    .venv/bin/python benchmarks/bench_photo.py [--megapixels 50]

Prints one line: ``megapixels=50 seconds=… extra_seconds=… peak_mb=… extra_mb=…
image=WxH pdf_kb=…``. The target: under 2 s and 500 MB more than the card without it.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
FACE = """<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>
  {% if card.art is defined %}<image href="{{ asset(card.art) }}" x="10" y="10" width="30"
         height="40" preserveAspectRatio="xMidYMid slice"/>{% endif %}
</svg>
"""


def game(root: Path, photo: str | None) -> Path:
    """A one-card game drawing ``photo`` (a file of art/), or nothing."""
    folder = root / "photo"
    (folder / "templates").mkdir(parents=True)
    (folder / "templates" / "face.svg.j2").write_text(FACE, encoding="utf-8")
    (folder / "game.yaml").write_text("title: Photo\nplayers: 2\n", encoding="utf-8")
    art = f", art: {photo}" if photo else ""
    (folder / "deck.yaml").write_text(
        f"kind: deck\ntitle: Photo\nsize: poker\nface: face.svg.j2\n"
        f"cards:\n  - {{name: a, count: 1{art}}}\n",
        encoding="utf-8",
    )
    return folder


def photo(path: Path | str, megapixels: float) -> None:
    """A JPEG of ``megapixels`` at a phone's 3:2, of gradients (as a photo compresses)."""
    width = round(math.sqrt(megapixels * 1e6 * 1.5))
    height = round(width / 1.5)
    ramp = Image.linear_gradient("L").resize((width, height))
    flipped = ramp.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    Image.merge("RGB", (ramp, flipped, ramp.rotate(180))).save(path, quality=88)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megapixels", type=float, default=50)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    import pymupdf
    from bench_exports import export

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        game(root / "plain", None)
        base_seconds, base_peak = export(
            ["build", "--components", str(root / "plain"), "--out", str(root / "out0")]
        )
        with_photo = game(root / "with", "art/photo.jpg")
        (with_photo / "art").mkdir()
        # made in a process of its own: a child's peak memory starts at its parent's
        target = str(with_photo / "art" / "photo.jpg")
        made = f"from bench_photo import photo; photo({target!r}, {args.megapixels})"
        subprocess.run([sys.executable, "-c", made], cwd=HERE, check=True)
        seconds, peak = export(
            ["build", "--components", str(root / "with"), "--out", str(root / "out1")]
        )
        pdf = root / "out1" / "photo" / "photo.pdf"
        with pymupdf.open(str(pdf)) as doc:
            sizes = [(i[2], i[3]) for page in doc for i in page.get_images(full=True)]
        size = "x".join(map(str, max(sizes))) if sizes else "none"
        kb = pdf.stat().st_size / 1024
    print(
        f"megapixels={args.megapixels:g} seconds={seconds:.2f} "
        f"extra_seconds={seconds - base_seconds:.2f} peak_mb={peak:.0f} "
        f"extra_mb={peak - base_peak:.0f} image={size} pdf_kb={kb:.0f}"
    )


if __name__ == "__main__":
    main()
