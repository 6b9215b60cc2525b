"""The README's pictures of the stock templates, made by the project itself: the sample game
``docs/stock-templates`` gets its pictures (``sample_art``), is built with ``pnp build``, and
each component's first piece is cut out of its page (where the manifest says it lies), turned
upright and saved as ``docs/pictures/<component>.png``. Run ``make pictures`` to see them:
they are made, not kept in git.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from sample_art import draw_all

DOCS = Path(__file__).resolve().parent
SAMPLE = "stock-templates"
DPI = 150
MM = 72 / 25.4  # points per mm


def build(out: Path, components: Path = DOCS) -> Path:
    """Build the sample game (in ``components``) into ``out``; the folder of its pack."""
    command = [sys.executable, "-m", "generator", "build", SAMPLE, "--components", str(components)]
    subprocess.run([*command, "--out", str(out)], check=True)
    return out / SAMPLE


def pictures(pack: Path, target: Path) -> list[Path]:
    """One PNG per component (``<component>.png``): its first front, cut at the bleed and
    turned upright; and its first back, if it has backs (``<component>-back.png``)."""
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    pdf = pdfium.PdfDocument(pack / f"{SAMPLE}.pdf")
    firsts: dict[str, dict] = {}
    for item in manifest["items"]:
        suffix = "" if item["side"] == "front" else "-back"
        firsts.setdefault(item["component"] + suffix, item)
    target.mkdir(exist_ok=True)
    written = []
    for component, item in firsts.items():
        page = pdf[item["page"] - 1]
        image = page.render(scale=DPI / 72).to_pil()
        scale = DPI / 25.4  # pixels per mm
        bleed = item["bleed_mm"]
        left = (item["x_mm"] - bleed) * scale
        right = (item["x_mm"] + item["w_mm"] + bleed) * scale
        top = image.height - (item["y_mm"] + item["h_mm"] + bleed) * scale
        bottom = image.height - (item["y_mm"] - bleed) * scale
        piece = image.crop((round(left), round(top), round(right), round(bottom)))
        if item["rotation"]:
            piece = piece.rotate(-item["rotation"], expand=True)
        path = target / f"{component}.png"
        piece.save(path, optimize=True)
        written.append(path)
    pdf.close()
    return written


def main() -> None:
    draw_all()
    with tempfile.TemporaryDirectory() as out:
        for path in pictures(build(Path(out)), DOCS / "pictures"):
            print(path.relative_to(DOCS.parent))


if __name__ == "__main__":
    main()
