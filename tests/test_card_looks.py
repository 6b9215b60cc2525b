"""A look per card from data (issue 26): pieces whose rows set ``accent`` print each in its
own colour, in every stock template (pixels read back from the page); a style mapped from a
column does the same."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pixels import card_area

DPI = 60
RED, BLUE = (224, 16, 16), (16, 16, 224)
# template: the component's spec without its entries, the key of its entries, extra fields
TEMPLATES = {
    "card.svg.j2": ("kind: deck\nsize: poker\nface: card.svg.j2\n", "cards", "title: X"),
    "card-back.svg.j2": (
        # a back takes a card's own look only when the deck says its backs differ
        "kind: deck\nsize: poker\nface: text-card.svg.j2\nback: card-back.svg.j2\nbacks: differ\n",
        "cards",
        "text: x",
    ),
    "playing-card.svg.j2": (
        "kind: deck\nsize: poker\nface: playing-card.svg.j2\n",
        "cards",
        "rank: Q, title: Queen",
    ),
    "text-card.svg.j2": ("kind: deck\nsize: poker\nface: text-card.svg.j2\n", "cards", "text: x"),
    "token.svg.j2": (
        "kind: tokens\nshape: circle\nsize: 30\nface: token.svg.j2\n",
        "tokens",
        "value: 3",
    ),
    "tile.svg.j2": (
        "kind: tokens\nshape: square\nsize: 40\nface: tile.svg.j2\n",
        "tokens",
        "title: X",
    ),
    "standee.svg.j2": (
        "kind: standees\nsize: 28 x 45\nbase: 14\nface: standee.svg.j2\n",
        "standees",
        "title: X",
    ),
    "die.svg.j2": ("kind: dice\nsize: 16\nface: die.svg.j2\n", "dice", "faces: [1, 2, 3, 4, 5, 6]"),
}


def _share(area: np.ndarray, colour: tuple[int, int, int]) -> float:
    """The share of a piece's pixels that are ``colour`` (within what anti-aliasing moves)."""
    near = np.abs(area.astype(np.int16) - np.array(colour, np.int16)).max(axis=-1) < 40
    return float(near.mean())


def _printed(tmp_path: Path, pnp, template: str, style: str = "", accents: bool = True):
    spec, key, fields = TEMPLATES[template]
    root = tmp_path / "components" / "looks"
    root.mkdir(parents=True)
    (root / "game.yaml").write_text("title: Looks\nplayers: 2\n")
    own = ('accent: "#e01010", ', 'accent: "#1010e0", ') if accents else ("", "")
    entries = "".join(
        f"  - {{name: {name}, count: 1, suit: {suit}, {colour}{fields}}}\n"
        for name, suit, colour in zip(("red", "blue"), ("Lanterns", "Teas"), own, strict=True)
    )
    (root / "looks.yaml").write_text(f"{spec}title: Looks\n{style}{key}:\n{entries}")
    result = pnp("build", "--components", tmp_path / "components", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    out = tmp_path / "out" / "looks"
    items = json.loads((out / "manifest.json").read_text())["items"]
    side = "back" if template in ("card-back.svg.j2", "alike") else "front"
    found = {}
    with pdfium.PdfDocument(str(out / "looks.pdf")) as doc:
        for item in items:
            if (
                item["component"] == "looks"
                and item["side"] == side
                and item["name"] in ("red", "blue")
            ):
                page = np.asarray(
                    doc[item["page"] - 1].render(scale=DPI / 72).to_pil().convert("RGB")
                )
                w, h = (
                    (item["h_mm"], item["w_mm"])
                    if item["rotation"] in (90, 270)
                    else (item["w_mm"], item["h_mm"])
                )
                found.setdefault(item["name"], card_area(page, item, (0, 0, w, h), DPI))
    return found


def test_a_back_keeps_the_decks_look_when_backs_are_alike(tmp_path, pnp):
    spec, key, fields = TEMPLATES["card-back.svg.j2"]
    TEMPLATES["alike"] = (spec.replace("backs: differ\n", ""), key, fields)
    try:
        areas = _printed(tmp_path, pnp, "alike")
    finally:
        del TEMPLATES["alike"]
    assert set(areas) == {"red", "blue"}, areas.keys()
    for name in ("red", "blue"):
        assert _share(areas[name], RED) == 0 and _share(areas[name], BLUE) == 0, name


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_each_piece_prints_in_the_accent_its_row_sets(tmp_path, pnp, template):
    areas = _printed(tmp_path, pnp, template)
    assert set(areas) == {"red", "blue"}, areas.keys()
    for name, own, other in (("red", RED, BLUE), ("blue", BLUE, RED)):
        shares = _share(areas[name], own), _share(areas[name], other)
        assert shares[0] > 0.002 and shares[1] == 0, (name, shares)


def test_a_colour_mapped_from_a_column_prints_on_each_piece(tmp_path, pnp):
    style = 'style:\n  accent: {by: suit, map: {Lanterns: "#e01010", Teas: "#1010e0"}}\n'
    areas = _printed(tmp_path, pnp, "card.svg.j2", style, accents=False)
    assert _share(areas["red"], RED) > 0.002 and _share(areas["red"], BLUE) == 0
    assert _share(areas["blue"], BLUE) > 0.002 and _share(areas["blue"], RED) == 0
