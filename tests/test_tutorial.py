"""The docs' tutorial (``docs/getting-started.md``, "Designers"), followed command by command:
its shell blocks run as they are written, in an empty folder, with a picture in ~/Pictures; the
pack they make holds every card's title and text, and the new card's picture."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pymupdf
from PIL import Image, ImageDraw

REPO = Path(__file__).resolve().parent.parent
TUTORIAL = REPO / "docs" / "getting-started.md"
SECTION = "## Designers"


def tutorial_script() -> str:
    """The shell blocks of the tutorial section, in order."""
    page = TUTORIAL.read_text(encoding="utf-8")
    section = page.split(SECTION, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    assert len(blocks) >= 2, "the tutorial has lost its commands"
    return "set -e\n" + "\n".join(blocks)


def _pnp_on_path(folder: Path) -> str:
    """A ``pnp`` command running this checkout's engine, first on PATH."""
    pnp = folder / "pnp"
    pnp.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m generator "$@"\n', encoding="utf-8")
    pnp.chmod(pnp.stat().st_mode | stat.S_IEXEC)
    return f"{folder}{os.pathsep}{os.environ['PATH']}"


def _dragon(path: Path) -> tuple[int, int, int]:
    """A picture of a dragon (a green blob on red), as a designer would bring; its main
    colour."""
    path.parent.mkdir(parents=True)
    image = Image.new("RGB", (300, 200), (200, 40, 40))
    ImageDraw.Draw(image).ellipse((60, 30, 240, 170), fill=(40, 160, 60))
    image.save(path)
    return (40, 160, 60)


def test_the_tutorial_makes_a_game_with_a_picture_in_five_commands(tmp_path):
    work, home, bin_dir = tmp_path / "work", tmp_path / "home", tmp_path / "bin"
    for folder in (work, bin_dir):
        folder.mkdir()
    green = _dragon(home / "Pictures" / "dragon.png")
    env = {
        **os.environ,
        "HOME": str(home),
        "PATH": _pnp_on_path(bin_dir),
        "PYTHONPATH": str(REPO),
    }
    run = subprocess.run(
        ["bash", "-c", tutorial_script()],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    game = work / "components" / "my-game"
    pdf = pymupdf.open(game / "output" / "my-game" / "my-game.pdf")
    text = " ".join(" ".join(page.get_text().split()) for page in pdf)
    for title in ("First Light", "Lucky Coin", "Storm", "Dragon"):
        assert title in text, title
    for words in ("Draw two cards, then discard one.", "Roar! Every player discards one card."):
        assert words in text, words
    assert "It was asleep." in text
    dragon_page = next(page for page in pdf if "Roar!" in page.get_text())
    pixels = dragon_page.get_pixmap(dpi=50)
    colours = {pixels.pixel(x, y) for x in range(pixels.width) for y in range(pixels.height)}
    drawn = any(sum(abs(a - b) for a, b in zip(c, green, strict=False)) < 30 for c in colours)
    assert drawn, "the dragon's picture is not drawn on its page"
