"""The README's pictures of the stock templates, made by the project itself: the sample game
``docs/stock-templates`` gets its pictures (``sample_art``), is built with ``pnp build``, and
each component's first piece is cut out of its page (where the manifest says it lies), turned
upright and saved as ``docs/pictures/<component>.png``. The page of ``pnp serve`` is shown
too (``docs/pictures/serve.png``): served from a copy of the sample game in which a tile
says too much, screenshot in Chromium (Debian's chromium and chromium-driver, as the tests
use). Run ``make pictures`` to see them: they are made, not kept in git.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pypdfium2 as pdfium
from sample_art import draw_all

DOCS = Path(__file__).resolve().parent
SAMPLE = "stock-templates"
DPI = 150
MM = 72 / 25.4  # points per mm
WINDOW = (1366, 1000)  # a laptop's screen, a little taller: the tile's finding in view
TOO_MUCH = (
    " Then swap this tile with any tile beside it, and draw a card if the meadow now touches"
    " a river; if it touches two rivers, every other player discards a card."
)
HIDDEN = "hex-tokens,playing-cards,standees,text-cards"  # the components the picture leaves out


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


def page_picture(target: Path) -> Path:
    """``serve.png``: pnp serve's page for a copy of the sample game in which a tile's text
    no longer fits (the page outlines the box and says what is missing), some of its
    components filtered out so that the tile is in view."""
    with tempfile.TemporaryDirectory() as tmp:
        components = Path(tmp)
        shutil.copytree(DOCS / SAMPLE, components / SAMPLE)
        tiles = components / SAMPLE / "tiles.yaml"
        text = tiles.read_text(encoding="utf-8")
        tiles.write_text(text.replace("move here.", "move here." + TOO_MUCH), "utf-8")
        command = [sys.executable, "-m", "generator", "serve", SAMPLE, "--port", "0"]
        server = subprocess.Popen(
            [*command, "--components", str(components)], stdout=subprocess.PIPE, text=True
        )
        try:
            url = re.search(r"http://\S+", server.stdout.readline())[0]
            target.mkdir(exist_ok=True)
            return _screenshot(f"{url}&hide={HIDDEN}", target / "serve.png")
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)


def _screenshot(url: str, path: Path) -> Path:
    """The page at ``url`` once every picture on screen is loaded, as headless Chromium
    shows it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="pnp-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--force-device-scale-factor=1",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(argument)  # fmt: skip
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        driver.get(url)
        loaded = (
            "const i = [...document.querySelectorAll('#pieces-view img')];"
            "return i.length > 0 && i.every(x => x.complete && x.naturalWidth > 0);"
        )
        deadline = time.monotonic() + 60
        while not driver.execute_script(loaded) and time.monotonic() < deadline:
            time.sleep(0.1)
        driver.save_screenshot(str(path))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    return path


def main() -> None:
    draw_all()
    with tempfile.TemporaryDirectory() as out:
        for path in pictures(build(Path(out)), DOCS / "pictures"):
            print(path.relative_to(DOCS.parent))
    print(page_picture(DOCS / "pictures").relative_to(DOCS.parent))


if __name__ == "__main__":
    main()
