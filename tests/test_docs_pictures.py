"""The docs' pictures are kept in git so that the Markdown shows them unbuilt (issue 42), and
they are current: ``docs/pictures/made.json`` records the hash of what they are made from
and of each picture, and a picture a page shows is there; small enough for git. The
acceptance tier makes them all again from the code of now and compares their pixels."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
sys.path.insert(0, str(DOCS))
import make_pictures  # noqa: E402 - the docs' own scripts

BUDGET = 700_000  # bytes of every picture together (370 KB when they came into git, 630 KB
# with the pictures of the wargame and roll-and-write examples)
FIX = "run `make pictures` and commit docs/pictures/"


def test_the_pictures_in_git_are_made_from_the_inputs_of_now():
    assert make_pictures.stale() == [], FIX


def test_every_picture_a_page_shows_is_in_git_and_they_are_small():
    tracked = subprocess.run(
        ["git", "ls-files", "docs/pictures"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    shown = make_pictures.shown()
    assert len(shown) >= 20, shown
    assert {f"docs/pictures/{name}" for name in shown} <= set(tracked), FIX
    sizes = {name: (DOCS / "pictures" / name).stat().st_size for name in shown}
    assert sum(sizes.values()) <= BUDGET, sizes


def test_a_changed_missing_or_unshown_picture_is_found(tmp_path):
    target = tmp_path / "pictures"
    shutil.copytree(DOCS / "pictures", target)
    assert make_pictures.stale(target) == []
    name = make_pictures.shown()[0]
    Image.new("RGB", (8, 8), "red").save(target / name)
    assert make_pictures.stale(target) == [f"{name} is not the picture made"]
    (target / name).unlink()
    assert any("holds" in why for why in make_pictures.stale(target))
    shutil.copy2(DOCS / "pictures" / name, target / name)
    shutil.copy2(target / name, target / "unshown.png")
    assert any("unshown.png" in why for why in make_pictures.stale(target))


def test_every_picture_a_page_links_is_seen():
    """Every image link of a page into pictures/, however written, is among those kept."""
    loose = re.compile(r"!\[[^\]]*\]\(([^)\s]*pictures/[^)\s]*)")
    linked = {Path(link).name for p in DOCS.rglob("*.md") for link in loose.findall(p.read_text())}
    assert linked and linked <= set(make_pictures.shown()), linked - set(make_pictures.shown())


MEAN = 3.0  # mean difference (0-255) of a picture made now from the one in git
SCREEN = 8.0  # pnp serve's page as Chromium draws it: its fonts and antialiasing vary more


@pytest.mark.acceptance
def test_the_pictures_in_git_are_those_the_code_makes_now(tmp_path):
    """Made again from the engine of now (which made.json's hash leaves out: a change of the
    code that changes how a piece looks), every picture is what git holds."""
    made = tmp_path / "made"
    made.mkdir()
    make_pictures.make_every(made)
    differ = {}
    for name in make_pictures.shown():
        now = make_pictures.small(made / name, tmp_path / name)
        ours = np.asarray(Image.open(DOCS / "pictures" / name).convert("RGB"), dtype=float)
        theirs = np.asarray(Image.open(now).convert("RGB"), dtype=float)
        if ours.shape != theirs.shape:
            differ[name] = f"size {ours.shape} in git, {theirs.shape} now"
            continue
        mean = float(np.abs(ours - theirs).mean())
        if mean > (SCREEN if name == "serve.png" else MEAN):
            differ[name] = f"mean difference {mean:.1f}"
    assert differ == {}, f"{differ}: {FIX}"
