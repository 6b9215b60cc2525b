"""The docs' pictures, made by the project itself from the example games the tests build:
the sample game ``docs/stock-templates`` gets its pictures (``sample_art``), is built with
``pnp build``, and each component's first piece is cut out of its page (where the manifest
says it lies), turned upright and saved as ``<component>.png``, with its back and the whole
page it is on; the same for the example games in ``docs/examples/`` (``<game>-<component>.png``).
A page folded for a single-sided printer, the calibration sheet and the page of ``pnp serve``
are made too (``serve.png``: served from a copy of the sample game in which a tile says too
much, screenshot in Chromium, Debian's chromium and chromium-driver, as the tests use).

Of those, the pictures a page shows (``pictures/NAME.png`` in any ``docs/**/*.md``: a new
component's picture comes in as soon as a page shows it) are kept in git in ``docs/pictures/``,
palette PNGs, so that the Markdown shows them wherever it is read unbuilt; ``made.json``
beside them records the hash of what they are made from and of each picture.
``mkdocs build`` makes them again (``docs/hooks.py``) when those inputs changed, ``make
pictures`` at once; ``tests/test_docs_pictures.py`` fails while git holds pictures older than
their inputs, or other than the code makes them now (acceptance tier).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw, ImageOps
from sample_art import draw_all

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
SAMPLE = "stock-templates"
EXAMPLES = DOCS / "examples"  # example games the docs quote, each built by the tests
PICTURES = DOCS / "pictures"  # kept in git: what the pages show
RECORD = "made.json"  # beside them: the hash of their inputs and of each picture
SHOWN = re.compile(r"\((?:\.\./)*pictures/([\w.-]+\.png)\)")  # ](pictures/x.png) in a page
COLOURS = 256  # a palette PNG: a third of the bytes, no difference seen at this size
DPI = 150
PAGE_DPI = 60  # whole pages: an A4 page 496 pixels wide
README_PICTURE = DOCS / "assets" / "pieces.png"  # kept in git: the README shows it anywhere
README_PIECES = ("general-cards", "general-cards-back", "playing-cards", "tiles", "tokens", "dice")
README_HEIGHT = 150
MM = 72 / 25.4  # points per mm
WINDOW = (1366, 1000)  # a laptop's screen, a little taller: the tile's finding in view
TOO_MUCH = (
    " Then swap this tile with any tile beside it, and draw a card if the meadow now touches"
    " a river; if it touches two rivers, every other player discards a card."
)
# the components the picture leaves out, so that the tile and its finding are in view
HIDDEN = (
    "board,card-box,dice,general-cards,hex-tokens,markers,playing-cards,rules,score-pad,"
    "standees,text-cards,token-pages,unit-counters"
)


def build(out: Path, components: Path = DOCS, game: str = SAMPLE, *options: str) -> Path:
    """Build ``game`` (in ``components``) into ``out``, with no printer profile but the
    defaults; the folder of its pack."""
    command = [sys.executable, "-m", "generator", "build", game, "--components", str(components)]
    _run([*command, "--out", str(out), *options], out)
    return out / game


def _run(command: list[str], where: Path) -> None:
    """Run a pnp command in ``where``, with no user config nor ``pnp.toml`` of the caller's."""
    where.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PNP_CONFIG": str(where / "no-config.toml")}
    subprocess.run(command, check=True, cwd=where, env=env, stdout=subprocess.DEVNULL)


def pictures(pack: Path, target: Path, prefix: str = "") -> list[Path]:
    """One PNG per component (``<prefix><component>.png``): its first front, cut at the bleed
    and turned upright; its first back, if it has backs (``-back.png``); and the whole page
    its first front is on (``-page.png``)."""
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    pdf = pdfium.PdfDocument(pack / f"{pack.name}.pdf")
    firsts: dict[str, dict] = {}
    for item in manifest["items"]:
        suffix = "" if item["side"] == "front" else "-back"
        firsts.setdefault(item["component"] + suffix, item)
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for component, item in firsts.items():
        page = pdf[item["page"] - 1]
        image = page.render(scale=DPI / 72).to_pil()
        scale = DPI / 25.4  # pixels per mm
        bleed = 0.0 if item.get("butt") else item["bleed_mm"]  # butted: its neighbours' art
        left = (item["x_mm"] - bleed) * scale
        right = (item["x_mm"] + item["w_mm"] + bleed) * scale
        top = image.height - (item["y_mm"] + item["h_mm"] + bleed) * scale
        bottom = image.height - (item["y_mm"] - bleed) * scale
        piece = image.crop((round(left), round(top), round(right), round(bottom)))
        if item["rotation"]:
            piece = piece.rotate(-item["rotation"], expand=True)
        path = target / f"{prefix}{component}.png"
        piece.save(path, optimize=True)
        written.append(path)
        if item["side"] == "front":
            written.append(page_image(pdf, item["page"], target / f"{prefix}{component}-page.png"))
    pdf.close()
    return written


def page_image(pdf: pdfium.PdfDocument, number: int, path: Path) -> Path:
    """Page ``number`` of ``pdf``, whole, at ``PAGE_DPI``, with a thin frame for the paper."""
    image = pdf[number - 1].render(scale=PAGE_DPI / 72).to_pil()
    ImageDraw.Draw(image).rectangle((0, 0, image.width - 1, image.height - 1), outline="#999")
    image.save(path, optimize=True)
    return path


def printing_pictures(out: Path, target: Path) -> list[Path]:
    """A sheet of the sample game laid out to fold (``fold-page.png``) and the calibration
    sheet's two sides (``calibration.png``, ``calibration-back.png``)."""
    fold = build(out / "fold", DOCS, SAMPLE, "--layout", "fold")
    manifest = json.loads((fold / "manifest.json").read_text(encoding="utf-8"))
    page = next(i["page"] for i in manifest["items"] if i["component"] == "general-cards")
    with closing(pdfium.PdfDocument(fold / f"{SAMPLE}.pdf")) as pdf:
        written = [page_image(pdf, page, target / "fold-page.png")]
    _run([sys.executable, "-m", "generator", "calibrate", "--out", str(out / "cal")], out)
    with closing(pdfium.PdfDocument(out / "cal" / "calibration-a4-long.pdf")) as pdf:
        written.append(page_image(pdf, 1, target / "calibration.png"))
        written.append(page_image(pdf, 2, target / "calibration-back.png"))
        written.append(_scales(pdf, target / "calibration-scales.png"))
    return written


def _scales(pdf: pdfium.PdfDocument, path: Path) -> Path:
    """The scales of the calibration sheet's back, at ``DPI``: what is drawn in the middle of
    the page, cut out with a margin."""
    page = pdf[1].render(scale=DPI / 72).to_pil().convert("L")
    middle = page.crop((0, page.height // 4, page.width, page.height * 3 // 4))
    left, top, right, bottom = ImageOps.invert(middle).getbbox()
    pad = 30
    middle.crop((left - pad, top - pad, right + pad, bottom + pad)).save(path, optimize=True)
    return path


def shown() -> list[str]:
    """The pictures the pages show: every ``pictures/NAME.png`` a page of the docs links."""
    pages = sorted(DOCS.rglob("*.md"))
    return sorted({name for page in pages for name in SHOWN.findall(page.read_text("utf-8"))})


def fingerprint() -> str:
    """A hash of everything the pictures are made from: the example games (not their drawn
    art), the stock templates, these scripts and which pictures the pages show. Not the
    engine: a change of the code that changes how a piece looks is found by the acceptance
    test that makes them again and compares (the pictures would be made on every commit)."""
    digest = hashlib.sha256()
    for folder in (DOCS / SAMPLE, EXAMPLES, REPO / "templates"):
        for path in sorted(folder.rglob("*")):
            skipped = {"art", "__pycache__"} & set(path.relative_to(folder).parts)
            if path.is_file() and not skipped:
                digest.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes())
    for script in (DOCS / "make_pictures.py", DOCS / "sample_art.py"):
        digest.update(script.read_bytes())
    digest.update("\0".join(shown()).encode())
    return digest.hexdigest()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def recorded(target: Path = PICTURES) -> dict:
    """What ``made.json`` says: the inputs' hash and each picture's (empty when missing)."""
    record = target / RECORD
    return json.loads(record.read_text("utf-8")) if record.is_file() else {}


def stale(target: Path = PICTURES) -> list[str]:
    """Why the pictures in ``target`` are not those of the inputs now (empty when they are)."""
    record = recorded(target)
    why = [] if record.get("inputs") == fingerprint() else ["their inputs changed"]
    kept = record.get("pictures", {})
    if sorted(kept) != shown():
        why.append(f"the pages show {shown()}, {RECORD} lists {sorted(kept)}")
    on_disk = sorted(p.name for p in target.glob("*.png"))
    if on_disk != sorted(kept):
        why.append(f"{target.name}/ holds {on_disk}, {RECORD} lists {sorted(kept)}")
    changed = [n for n in kept if n in on_disk and _sha(target / n) != kept[n]]
    return why + [f"{name} is not the picture made" for name in changed]


def make_every(folder: Path) -> None:
    """Every picture the project makes for its docs, into ``folder`` (full colour)."""
    draw_all()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        pictures(build(out / "sample"), folder)
        for game in sorted(p.name for p in EXAMPLES.iterdir() if (p / "game.yaml").is_file()):
            pictures(build(out / "examples", EXAMPLES, game), folder, f"{game}-")
        printing_pictures(out, folder)
    page_picture(folder)


def small(source: Path, path: Path) -> Path:
    """``source`` as a palette PNG of ``COLOURS`` colours, optimised, at ``path``."""
    image = Image.open(source)
    image = image.convert("L") if image.mode == "L" else image.convert("RGB").quantize(COLOURS)
    image.save(path, optimize=True)
    return path


def make_all(target: Path = PICTURES, force: bool = False) -> list[Path]:
    """The pictures the pages show, in ``target`` with their record, unless they are there
    and made from the same inputs (``force``: made again all the same); the pictures made.
    A page that shows a picture nothing makes fails."""
    if not force and not stale(target):
        return []
    wanted = shown()
    with tempfile.TemporaryDirectory() as tmp:
        made = Path(tmp)
        make_every(made)
        missing = [name for name in wanted if not (made / name).is_file()]
        if missing:
            raise SystemExit(f"docs show pictures that nothing makes: {', '.join(missing)}")
        target.mkdir(parents=True, exist_ok=True)
        for old in target.glob("*.png"):
            if old.name not in wanted:
                old.unlink()
        written = [small(made / name, target / name) for name in wanted]
    record = {"inputs": fingerprint(), "pictures": {p.name: _sha(p) for p in written}}
    (target / RECORD).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return written


def _hears_ctrl_c() -> None:
    """In the server's process: Ctrl-C delivered as a terminal delivers it (a build of the
    docs started in the background, as CI scripts do, ignores SIGINT, and a child inherits
    that: the server would never hear the Ctrl-C that stops it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


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
        env = {**os.environ, "PNP_CONFIG": str(components / "no-config.toml")}
        server = subprocess.Popen(
            [*command, "--components", str(components)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=components,
            env=env,
            preexec_fn=_hears_ctrl_c,
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


def readme_picture(path: Path = README_PICTURE) -> Path:
    """The README's one picture, small enough to keep in git: a few pieces of the sample game
    side by side, each ``README_HEIGHT`` pixels high."""
    with tempfile.TemporaryDirectory() as tmp:
        made = Path(tmp)
        make_every(made)
        pieces = [Image.open(made / f"{name}.png").convert("RGB") for name in README_PIECES]
    scaled = [p.resize((round(p.width * README_HEIGHT / p.height), README_HEIGHT)) for p in pieces]
    gap = 12
    strip = Image.new("RGB", (sum(p.width + gap for p in scaled) - gap, README_HEIGHT), "white")
    x = 0
    for piece in scaled:
        strip.paste(piece, (x, 0))
        x += piece.width + gap
    strip.quantize(colors=128).save(path, optimize=True)
    return path


def main() -> None:
    """``make pictures``: the pictures the pages show, made again now (``--readme``: the
    README's)."""
    if "--readme" in sys.argv[1:]:
        print(readme_picture().relative_to(REPO))
        return
    for path in make_all(force=True):
        print(path.relative_to(REPO))


if __name__ == "__main__":
    main()
