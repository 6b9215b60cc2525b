"""The contrast check renders one patch for all the texts with one scene behind them (the
paths that reach the patch, from the last opaque fill covering it up): the pixels are the
very ones each ground's own page gives, on grounds made at random to meet at their edges."""

from __future__ import annotations

import random

import pytest
from lxml import etree

from generator.check import contrast, scenes
from generator.svg.compiler import compile_svg
from generator.svg.safexml import SAFE_PARSER

WIDTH, HEIGHT = 180, 252  # px of the art, 135 x 189 points, 180 x 252 pixels at 96 dpi
PANEL = '<rect x="20" y="150" width="140" height="80" rx="8" fill="#fbf6ee"/>'
BOXES = {(40, 170, 140, 190), (30, 200, 150, 222), (10, 160, 60, 175), (0, 0, 180, 30)}


def _ground(svg_body: str) -> list:
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}">'
    return [compile_svg(etree.fromstring(f"{svg}{svg_body}</svg>".encode(), SAFE_PARSER))]


def _shape(pick: random.Random) -> str:
    """A random path: anywhere, often at a panel's edge, some translucent, some stroked,
    some turned or scaled."""
    x, y = (
        pick.choice([pick.uniform(-10, 170), pick.choice([18, 20, 22, 158, 160])]),
        (pick.choice([pick.uniform(-10, 240), pick.choice([148, 150, 152, 228, 230])])),
    )
    fill = f"#{pick.randrange(0x1000000):06x}"
    paint = f'fill="{fill}" fill-opacity="{pick.choice([1, 1, 0.6])}"'
    if pick.random() < 0.4:
        paint += f' stroke="#203040" stroke-width="{pick.choice([0.2, 1, 4])}"'
    shape = pick.choice(
        [
            f'<rect x="{x:.2f}" y="{y:.2f}" width="{pick.uniform(1, 60):.2f}" '
            f'height="{pick.uniform(1, 40):.2f}" rx="{pick.choice([0, 3])}" {paint}/>',
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{pick.uniform(1, 30):.2f}" {paint}/>',
            f'<path d="M{x:.2f} {y:.2f} l20 5 l-8 18 l-3 -9 z" {paint}/>',
            f'<polyline points="{x:.2f},{y:.2f} {x + 30:.2f},{y + 4:.2f} {x + 9:.2f},'
            f'{y + 20:.2f}" {paint}/>',
        ]
    )
    if pick.random() < 0.25:
        angle, scale = pick.uniform(-40, 40), pick.uniform(0.7, 1.3)
        turn = f"rotate({angle:.1f} {x:.1f} {y:.1f}) scale({scale:.2f})"
        shape = f'<g transform="{turn}">{shape}</g>'
    return shape


def _without_scenes(grounds: dict, monkeypatch: pytest.MonkeyPatch) -> dict:
    """Every patch rendered from its own ground's page."""
    with monkeypatch.context() as patch:
        patch.setattr(scenes, "painted", lambda drawings: None)
        return contrast._render(grounds, contrast.DPI)


def test_patches_with_one_scene_are_the_pixels_of_each_grounds_own_page(monkeypatch):
    """Sixty grounds: a card colour, a panel (opaque or translucent), shapes from one pool
    under and over it (so that scenes with shapes in them meet too): each patch read through
    a shared scene is byte for byte its own page's, and many are rendered once for all."""
    pick = random.Random(5)
    pool = [_shape(pick) for _ in range(24)]
    grounds = {}
    for index in range(60):
        under = "".join(pick.sample(pool, pick.randint(0, 4)))
        over = "".join(pick.sample(pool, pick.randint(0, 2)))
        panel = PANEL if index % 5 else PANEL.replace("/>", ' fill-opacity="0.8"/>')
        card = f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#{pick.randrange(0x1000000):06x}"/>'
        boxes = set(BOXES)
        for _ in range(3):
            x, y = pick.randrange(WIDTH), pick.randrange(HEIGHT)
            boxes.add(
                (x, y, min(WIDTH, x + pick.randint(1, 60)), min(HEIGHT, y + pick.randint(1, 20)))
            )
        grounds[f"g{index}"] = (_ground(card + under + panel + over), boxes)
    rendered: list[int] = []
    real = contrast._patches

    def counted(data: bytes, pages: list, dpi: float) -> dict:
        rendered.append(sum(len(boxes) for _, boxes in pages))
        return real(data, pages, dpi)

    with monkeypatch.context() as patch:
        patch.setattr(contrast, "_patches", counted)
        shared = contrast._render(grounds, contrast.DPI)
    alone = _without_scenes(grounds, monkeypatch)
    assert shared.keys() == alone.keys()
    assert {k: v.tobytes() for k, v in shared.items()} == {k: v.tobytes() for k, v in alone.items()}
    asked = sum(len(boxes) for _, boxes in grounds.values())
    assert asked - sum(rendered) >= 50, (rendered, asked)  # 65 with this seed


def test_a_patch_under_an_opaque_panel_has_one_scene_whatever_lies_outside_it():
    """Two cards of other colours and pictures share the scene of a text on their panel; a
    translucent panel, or a shape reaching the text, makes a scene of its own."""

    def scene(body: str, box: tuple[int, int, int, int] = (40, 170, 140, 190)) -> tuple:
        drawings = _ground(body)
        items = scenes.painted(drawings)
        assert items is not None
        return scenes.scene(items, (135.0, 189.0), (WIDTH, HEIGHT), box)

    red = '<rect width="180" height="252" fill="#aa2222"/>'
    blue = '<rect width="180" height="252" fill="#2222aa"/><circle cx="90" cy="40" r="30"/>'
    assert scene(red + PANEL) == scene(blue + PANEL)
    assert len(scene(red + PANEL)[-1]) == 1  # the panel alone
    translucent = PANEL.replace("/>", ' fill-opacity="0.9"/>')
    assert scene(red + translucent) != scene(blue + translucent)
    near = '<circle cx="90" cy="194" r="3"/>'  # 1 px below the text's box
    assert scene(red + PANEL + near) != scene(red + PANEL)
    far = '<circle cx="90" cy="205" r="3"/>'  # 11 px below it
    assert scene(red + PANEL + far) == scene(red + PANEL)


def test_only_convex_outlines_cover_and_unknown_operators_give_no_scene():
    """A rounded rectangle and a circle are convex; an L, a five-pointed star (turning twice)
    and two rectangles in one path are not; a clip or a text in a literal is not followed."""
    rounded = (
        "6 3 m 57.5 3 l 59.2 3 60.5 4.3 60.5 6 c 60.5 82.9 l 60.5 84.6 59.2 85.9 57.5 85.9 c "
        "6 85.9 l 4.3 85.9 3 84.6 3 82.9 c 3 6 l 3 4.3 4.3 3 6 3 c h f"
    )
    circle = (
        "10 0 m 10 5.5 5.5 10 0 10 c -5.5 10 -10 5.5 -10 0 c -10 -5.5 -5.5 -10 0 -10 c "
        "5.5 -10 10 -5.5 10 0 c h f"
    )
    ell = "0 0 m 10 0 l 10 4 l 4 4 l 4 10 l 0 10 l h f"
    star = "0 10 m 6 -8 l -9.5 3 l 9.5 3 l -6 -8 l h f"
    two = "0 0 5 5 re 10 10 5 5 re f"

    def chord(literal: str) -> object:
        found = scenes.events(literal)
        assert found is not None
        return scenes.chord(found[-1][1].written)

    assert chord(rounded) is not None and chord(circle) is not None
    assert chord("0 0 5 5 re f") == ((0, 0), (5, 0), (5, 5), (0, 5))
    assert chord(ell) is None and chord(star) is None and chord(two) is None
    assert scenes.events("0 0 5 5 re W n 1 0 0 rg 0 0 9 9 re f") is None
    assert scenes.events("BT /F1 12 Tf (a) Tj ET") is None
    assert scenes.events("0.5 w [1 2] 0 d 0 0 m 5 5 l S") is not None
    for odd in ["0 0 m 5 l S", "w 0 0 m 5 5 l S", "0 0 m 5 5 l 3 f", "0 0 5 re f", "0 x m f"]:
        assert scenes.events(odd) is None, odd  # numbers a scene cannot read: not followed
