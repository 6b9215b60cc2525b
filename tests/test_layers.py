"""A template's static layer (the leading elements all its faces share) is stored once in the
PDF and drawn by reference from every face, and the faces look exactly as they did whole."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pypdfium2
from conftest import CARD_BACK
from lxml import etree
from pdfread import form_xobject_count, read_pages
from reportlab.pdfgen.canvas import Canvas

from generator.art.layers import MIN_LAYER_BYTES, Layered, LayerFinder
from generator.svg.compiler import compile_svg
from generator.svg.safexml import SAFE_PARSER

# a frame of 24 ornaments drawn first (the static layer), then the card's own name and mark
FRAMED_FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#f3ead8"/>
  {% for i in range(24) %}
  <circle cx="{{ 4 + (i % 6) * 11 }}" cy="{{ 4 + (i // 6) * 26 }}" r="2.5" fill="#8a5a2b"
          stroke="#3b2410" stroke-width="0.4" fill-opacity="0.8"/>
  {% endfor %}
  <text x="{{ box.w / 2 }}" y="{{ box.h / 2 }}" font-family="sans-serif" font-size="6"
        text-anchor="middle">{{ card.name }}</text>
  <rect x="10" y="{{ 50 + card.number }}" width="{{ 5 + card.number }}" height="4"
        fill="#2a6f97"/>
</svg>
"""


def framed_game(tmp_path: Path, cards: int, face: str = FRAMED_FACE) -> Path:
    root = tmp_path / "components" / "framed"
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "face.svg.j2").write_text(face, encoding="utf-8")
    (root / "templates" / "back.svg.j2").write_text(CARD_BACK, encoding="utf-8")
    (root / "game.yaml").write_text(
        f"title: Framed\nplayers: 2\nexpect:\n  deck: {cards}\n", encoding="utf-8"
    )
    lines = "".join(
        f"  - name: card-{n}\n    count: 1\n    number: {n}\n" for n in range(1, cards + 1)
    )
    spec = textwrap.dedent(
        """\
        kind: deck
        title: Framed deck
        size: poker
        bleed: 3
        face: face.svg.j2
        back: back.svg.j2
        cards:
        """
    )
    (root / "deck.yaml").write_text(spec + lines, encoding="utf-8")
    return tmp_path / "components"


def build(pnp, components: Path, out: Path) -> Path:
    result = pnp("build", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    return out / "framed" / "framed.pdf"


def test_the_frame_all_faces_share_is_one_form_every_face_draws(pnp, tmp_path):
    pdf = build(pnp, framed_game(tmp_path, 12), tmp_path / "out")
    faces = [f for page in read_pages(pdf) for f in page.forms if f.inline is not None]
    assert len(faces) == 12  # each face drawn once, into its page
    layers = set()
    for face in faces:
        shown = [operands[0] for operands, op in face.inline if op == b"Do"]
        assert len(shown) == 1, shown  # the layer, first thing after the clip
        layers.add(str(shown[0]))
    assert len(layers) == 1
    assert form_xobject_count(pdf) == 2  # the layer and the back


def test_the_layer_saves_what_each_face_would_repeat(pnp, tmp_path):
    """Doubling the deck adds only the faces' own elements, not 24 ornaments a card."""
    small = build(pnp, framed_game(tmp_path / "a", 12), tmp_path / "a" / "out").stat().st_size
    large = build(pnp, framed_game(tmp_path / "b", 24), tmp_path / "b" / "out").stat().st_size
    # the same face with an id that differs per card on its first element: nothing shared
    loose_face = FRAMED_FACE.replace(
        '  <rect x="{{ -box.bleed }}"', '  <rect id="c{{ card.number }}" x="{{ -box.bleed }}"', 1
    )
    loose_small = build(pnp, framed_game(tmp_path / "c", 12, loose_face), tmp_path / "c" / "out")
    loose_large = build(pnp, framed_game(tmp_path / "d", 24, loose_face), tmp_path / "d" / "out")
    per_face_layered = (large - small) / 12
    per_face_whole = (loose_large.stat().st_size - loose_small.stat().st_size) / 12
    assert per_face_layered < per_face_whole * 0.6, (per_face_layered, per_face_whole)


def _render(tmp_path: Path, name: str, paint) -> np.ndarray:
    """What ``paint(canvas)`` draws on a page of its own, rendered at 150 dpi."""
    path = tmp_path / f"{name}.pdf"
    canvas = Canvas(str(path), pagesize=(200, 260), invariant=1)
    paint(canvas)
    canvas.showPage()
    canvas.save()
    page = pypdfium2.PdfDocument(str(path))[0]
    return np.asarray(page.render(scale=150 / 72).to_pil().convert("RGB"), dtype=np.int16)


def test_a_layered_face_draws_the_same_pixels_as_the_whole_face(tmp_path):
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="63.5mm" height="88.9mm" '
        'viewBox="0 0 63.5 88.9" font-family="sans-serif">'
        '<rect width="63.5" height="88.9" fill="#f3ead8"/>'
        + "".join(
            f'<circle cx="{4 + i * 6}" cy="8" r="2.5" fill="#8a5a2b" fill-opacity="0.6"/>'
            for i in range(10)
        )
        + '<g transform="rotate(8 30 40)"><rect x="12" y="30" width="30" height="14" '
        'fill="#2a6f97" opacity="0.7"/></g>'
        '<text x="31" y="70" font-size="6" text-anchor="middle">Layered</text></svg>'
    )
    other = svg.replace("Layered", "Another").replace("#2a6f97", "#972a2a")
    finder = LayerFinder(lambda text: etree.fromstring(text.encode(), SAFE_PARSER), tmp_path)
    for key, text in (("one", svg), ("two", other)):
        finder.add(Path("face.svg.j2"), key, text, None)
    drawings = finder.split()
    layered = drawings["one"]
    assert (
        isinstance(layered, Layered)
        and sum(len(x) for x in finder.templates[Path("face.svg.j2")].leading[:11])
        >= MIN_LAYER_BYTES
    )
    whole = compile_svg(etree.fromstring(svg.encode(), SAFE_PARSER))
    assert whole is not None
    before = _render(tmp_path, "whole", whole.draw)
    after = _render(tmp_path, "layered", layered.draw)
    assert before.shape == after.shape
    assert np.abs(before - after).max() <= 2  # anti-aliasing at most
    assert (before < 200).any()  # something was drawn


def test_faces_that_share_nothing_worth_a_form_stay_whole(tmp_path):
    finder = LayerFinder(lambda text: etree.fromstring(text.encode(), SAFE_PARSER), tmp_path)
    head = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
    frame = '<rect width="10" height="10" fill="#eeeeee"/>'
    for key, colour in (("a", "#ff0000"), ("b", "#00ff00")):
        finder.add(Path("t"), key, f'{head}{frame}<circle r="3" fill="{colour}"/></svg>', None)
    assert finder.templates[Path("t")].shared == 1
    assert finder.split() == {}  # one small rect is not worth a form
    finder.add(Path("u"), "c", f"{head}{frame * 40}<circle r='1'/></svg>", None)
    finder.add(Path("u"), "d", f"{head}<circle r='2'/>{frame * 40}</svg>", None)
    assert finder.templates[Path("u")].shared == 0 and finder.templates[Path("u")].faces == {}
