"""The project's SVG renderer (generator.svg.compiler): every distinct art of every bundled
game looks the same drawn by it (into a PDF, rendered by pypdfium2) as drawn by resvg from the
same SVG text, and its pieces (path data, transforms, text, paint, groups, gradients, clip
paths, warnings, limits) do what SVG says."""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import numpy as np
import pytest
import resvg_py
from lxml import etree
from PIL import Image
from pixels import WITHIN, bad_share, on_white, pdf_of, render
from reportlab.pdfbase.pdfmetrics import stringWidth

from generator.art import clock
from generator.art.layers import Layered
from generator.art.store import ArtStore
from generator.errors import ErrorList, SpecError
from generator.model.loader import load_game
from generator.output.colour import Press
from generator.plan.pipeline import plan_pack
from generator.svg import css
from generator.svg.compiler import Drawer, SvgError, compile_svg
from generator.svg.fonts import FONT_DIR, register_fonts
from generator.svg.path import path_geometry
from generator.svg.pdf import FILL_ALPHA, GROUP, PAINT, RGB, TEXT, Colours
from generator.svg.safexml import SAFE_PARSER
from generator.svg.values import IDENTITY, colour, transform

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "components"
GAMES = sorted(p.name for p in BUNDLED.iterdir() if (p / "game.yaml").is_file())
DPI = 150
MIN_PIXELS = 300
# bundled cards are dense with small text, whose glyph edges pdfium and resvg anti-alias
# apart (pdfium hints them): twice the share of the suite's pictures may differ
WITHIN_CARDS = 2 * WITHIN
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10">'


def svg(body: str, head: str = SVG) -> etree._Element:
    return etree.fromstring((head + body + "</svg>").encode(), SAFE_PARSER)


def drawer(body: str, head: str = SVG) -> Drawer:
    return compile_svg(svg(body, head))


def sized(text: str, width: int, height: int) -> str:
    """The SVG inside an outer one of a whole number of pixels that stretches it exactly
    (resvg-py rounds a fractional size up before it scales, and a viewBox of another shape
    would leave a margin), its text without kerning, which we do not apply."""
    root = etree.fromstring(text.encode(), SAFE_PARSER)
    size = compile_svg(root)
    w, h = size.width / 0.75, size.height / 0.75
    root.set("width", str(w))
    root.set("height", str(h))
    for element in root.iter("{http://www.w3.org/2000/svg}text"):
        element.set("style", f"font-kerning: none; {element.get('style', '')}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {w} {h}" preserveAspectRatio="none">'
        f"{etree.tostring(root, encoding='unicode')}</svg>"
    )


def resvg(text: str, width: int, height: int, folder: Path | None = None) -> np.ndarray:
    """resvg's rendering of SVG text at a pixel size, with our fonts, over white."""
    png = resvg_py.svg_to_bytes(
        svg_string=sized(text, width, height),
        skip_system_fonts=True,
        font_dirs=[str(FONT_DIR)] + ([str(folder)] if folder else []),
        font_family="DejaVu Sans",
        sans_serif_family="DejaVu Sans",
        serif_family="DejaVu Serif",
        monospace_family="DejaVu Sans Mono",
        font_size=12,
        dpi=96,  # the CSS pixel: without it resvg-py reads mm as nothing
        resources_dir=str(folder) if folder else None,
    )
    return on_white(Image.open(io.BytesIO(png)))


def ours(drawings: list) -> list[np.ndarray]:
    """Our drawings on a page each, rendered by pypdfium2 at DPI, or larger for small art
    (at least MIN_PIXELS on its long side, as the suite's pictures)."""
    pdf = pdf_of([(d.width, d.height, d.draw) for d in drawings])
    sizes = []
    for d in drawings:
        scale = max(DPI / 72, MIN_PIXELS / max(d.width, d.height))
        sizes.append((round(d.width * scale), round(d.height * scale)))
    return render(pdf, sizes)


def looks_like_resvg(text: str, drawing: object, folder: Path | None = None) -> float:
    """The share of pixels where our drawing of ``text`` differs from resvg's."""
    (mine,) = ours([drawing])
    return bad_share(mine, resvg(text, mine.shape[1], mine.shape[0], folder))


# --- every bundled art, drawn both ways ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.acceptance
def test_bundled_art_looks_the_same_as_through_resvg(game, monkeypatch):
    register_fonts()
    loaded = load_game(BUNDLED / game, ErrorList())
    assert loaded is not None
    monkeypatch.setenv("PNP_JOBS", "1")  # every add() in this process, where it is noted
    sources: dict[str, str] = {}  # the store keeps no SVG, so note each one as it is added
    original = ArtStore.add

    def add(self, svg, source, where):
        key = original(self, svg, source, where)
        sources[key] = svg
        return key

    monkeypatch.setattr(ArtStore, "add", add)
    pack = plan_pack(loaded, loaded.spec.paper)
    keys = list(pack.art.art)
    assert keys
    drawings = [pack.art.drawing(key) for key in keys]  # as printed: whole or layered
    assert all(isinstance(d, (Drawer, Layered)) for d in drawings)
    problems = []
    for key, mine in zip(keys, ours(drawings), strict=True):
        theirs = resvg(sources[key], mine.shape[1], mine.shape[0], loaded.root)
        share = bad_share(mine, theirs)
        if share > WITHIN_CARDS:
            problems.append(f"{key}: {share:.2%} of the pixels differ")
    assert not problems, f"{game}: {len(problems)} of {len(keys)} arts differ: {problems[:10]}"
    assert pack.art.warnings == []  # the bundled art uses nothing that is not drawn


KITCHEN_SINK = """\
<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40">
  <style>.accent { fill: #c03; } g > .soft { opacity: 0.5 }</style>
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#9cf"/><stop offset="1" stop-color="#fff" stop-opacity="0.4"/>
    </linearGradient>
    <radialGradient id="sun" cx="0.4" cy="0.4" r="0.6" fx="0.3" fy="0.3">
      <stop offset="0" stop-color="#ff0"/><stop offset="0.7" stop-color="orange"/>
      <stop offset="1" stop-color="#c30"/>
    </radialGradient>
    <clipPath id="window"><circle cx="46" cy="30" r="7"/><rect x="36" y="20" width="6" height="6"/>
    </clipPath>
    <symbol id="star" viewBox="0 0 10 10"><path d="M5 0 6.5 3.5 10 4 7.5 6.5 8 10 5 8 2 10 2.5
      6.5 0 4 3.5 3.5Z"/></symbol>
  </defs>
  <rect x="-1" y="-1" width="62" height="42" fill="url(#sky)"/>
  <rect x="2" y="2" width="16" height="10" rx="3" fill="rgb(200, 80, 40)" stroke="navy"
        stroke-width="0.6"/>
  <rect x="20" y="2" width="16" height="10" ry="2" class="accent"
        style="stroke: #000; stroke-width: 0.4"/>
  <ellipse cx="46" cy="7" rx="8" ry="4" fill="url(#sun)" stroke="#000"
           stroke-opacity="0.5" stroke-dasharray="1.5,0.8"/>
  <g transform="translate(10 22) rotate(20 2 2) scale(1.2 0.9)" fill="purple" stroke="black"
     stroke-width="0.3" opacity="0.7">
    <circle cx="0" cy="0" r="4"/>
    <circle cx="3" cy="1" r="4" fill="teal"/>
    <path d="M-3 6 q 3 -4 6 0 t 6 0 a 2 3 30 1 1 4 2 z" fill="none" stroke-linecap="round"/>
  </g>
  <g transform="matrix(1 0.2 -0.3 1 22 16) skewX(10)">
    <polygon points="0,0 10,0 10,10 2,4 8,4 0,10" fill="orange" fill-rule="evenodd"
             stroke="brown" stroke-linejoin="round" stroke-width="0.5"/>
    <polyline class="soft" points="12 0 16 8 20 0 24 8" fill="#ccddee" stroke="#224"
              stroke-width="0.8" stroke-linejoin="bevel" stroke-linecap="square"/>
  </g>
  <g clip-path="url(#window)"><rect x="30" y="18" width="30" height="22" fill="url(#sun)"/>
  </g>
  <use href="#star" x="2" y="28" width="8" height="8" fill="gold" stroke="#630"
       stroke-width="0.4"/>
  <path d="M12 36 C 16 28 20 28 24 36 S 32 44 36 36 H 40 V 32 L 44 34 l2 2 h2 v-3 Z"
        fill="#fc0" fill-opacity="0.8" stroke="#630" stroke-width="0.4"/>
  <g font-family="sans-serif" fill="#112233">
    <text x="45" y="16" font-size="3" text-anchor="middle" font-weight="bold">Middle ßÄ</text>
    <text x="58" y="19" font-size="2.5" text-anchor="end" font-style="italic">End text</text>
  </g>
</svg>
"""


def test_every_feature_draws_as_resvg_does():
    """Gradients (stop opacity, focal point), group opacity, clip paths of several shapes,
    symbols through use, CSS, arcs, smooth curves, rounded corners, transforms with centres,
    matrices and skews, even-odd fills, dashes, caps and joins and text anchors."""
    compiled = compile_svg(svg_root := etree.fromstring(KITCHEN_SINK.encode(), SAFE_PARSER))
    assert svg_root is not None and compiled.warnings == ()
    assert looks_like_resvg(KITCHEN_SINK, compiled) <= WITHIN


def _styled_cards(count: int) -> list[str]:
    """``count`` small cards, each with its own little style sheet (20 rules, 10 rects)."""
    rules = "".join(f"rect.c{n}, g rect {{ fill: red }}\n" for n in range(20))
    rects = '<rect width="1" height="1"/>' * 10
    return [
        f"{SVG}\n<style>{rules}</style><g>{rects}<text>card {n}</text></g></svg>"
        for n in range(count)
    ]


def test_many_small_style_sheets_together_pass_the_builds_budget(tmp_path, monkeypatch):
    """Each card's sheet is far within a document's budget, but a build's cards together
    may take only ``MAX_BUILD_SELECTOR_STEPS``: past it, an error at the template's <style>
    line, then one 'the build stopped' line for the rest; the next build (another preview
    of ``pnp serve``) starts afresh, and art kept from an earlier build still counts."""
    cards = _styled_cards(10)
    template = tmp_path / "face.svg.j2"
    template.write_text("<svg>\n<style>\n</style></svg>\n", encoding="utf-8")
    one = compile_svg(etree.fromstring(cards[0].encode())).css_steps
    assert 0 < one * 100 < css.MAX_SELECTOR_STEPS
    monkeypatch.setattr(clock, "MAX_BUILD_SELECTOR_STEPS", one * 5 + one // 2)  # 5 cards
    for build in ("first", "again, from the cache"):
        store = ArtStore(tmp_path)
        with clock.new_build():
            for card in cards[:5]:
                store.add(card, template, "a card")
            with pytest.raises(SpecError) as refused:
                store.add(cards[5], template, "card 6")
            assert refused.value.path == template and refused.value.line == 2, build
            assert "art take more than" in str(refused.value), build
            assert "steps to match in all" in str(refused.value), build
            with pytest.raises(SpecError, match="the build stopped at the first template"):
                store.add(cards[6], template, "card 7")
    made = []
    for share in (cards[:3], cards[3:6]):  # two cores, each within the budget with its share
        with clock.new_build():  # a forked worker counts in its own copy
            worker = ArtStore(tmp_path / "share", record=True)
            for card in share:
                worker.add(card, template, "a card")
            made += worker.recorded()
    with clock.new_build():  # the build counts the art it takes from them
        taker = ArtStore(tmp_path / "share")
        for art in made[:5]:
            taker.adopt(*art)
        with pytest.raises(SpecError, match="steps to match in all"):
            taker.adopt(*made[5])


def test_the_store_draws_everything_itself(tmp_path):
    store = ArtStore(tmp_path)
    plain = store.add(SVG + '<rect width="5" height="5" fill="red"/></svg>', tmp_path, "here")
    assert isinstance(store.drawing(plain), Drawer)
    clipped = (
        SVG + '<clipPath id="c"><rect width="5" height="5"/></clipPath>'
        '<circle cx="5" cy="5" r="5" clip-path="url(#c)"/></svg>'
    )
    art = store.drawing(store.add(clipped, tmp_path, "here"))
    assert isinstance(art, Drawer)
    assert (art.width, art.height) == pytest.approx((20 * 72 / 25.4, 10 * 72 / 25.4))
    from generator.errors import SpecError

    with pytest.raises(SpecError, match="not well-formed"):
        store.add(SVG + "<rect></svg>", tmp_path, "here")


def test_a_drawer_holds_no_tree_and_pickles():
    import pickle

    compiled = drawer(
        '<linearGradient id="g"><stop stop-color="red"/><stop offset="1" stop-color="blue"/>'
        '</linearGradient><g fill="blue" opacity="0.5"><rect width="5" height="5"/>'
        '<text y="5" fill="url(#g)">A</text></g>'
    )
    assert not hasattr(compiled, "__dict__")

    def flat(ops: tuple) -> list:
        out = []
        for op in ops:
            for value in op if isinstance(op, tuple) else (op,):
                out.extend(flat(value) if isinstance(value, tuple) else [value])
        return out

    values = flat(compiled.ops)
    assert all(v is None or isinstance(v, (str, int, float, bytes, Path)) for v in values)
    again = pickle.loads(pickle.dumps(compiled))
    assert (again.width, again.height, again.ops) == (compiled.width, compiled.height, compiled.ops)


# --- path data -------------------------------------------------------------------------------


def path_data(d: str) -> str:
    return path_geometry(d).pdf


def curves(ops: str) -> list[tuple[float, ...]]:
    """The path's pieces from its PDF operators: each as its points, start first."""
    out, numbers, current, start = [], [], None, None
    for word in ops.split():
        if word in ("m", "l", "c", "h"):
            points = list(zip(numbers[0::2], numbers[1::2], strict=True))
            if word == "m":
                current = start = points[0]
            elif word == "h":
                current = start
            else:
                out.append((current, *points))
                current = points[-1]
            numbers = []
        else:
            numbers.append(float(word))
    return out


def bezier(piece: tuple, t: float) -> tuple[float, float]:
    if len(piece) == 2:
        (x0, y0), (x1, y1) = piece
        return x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
    p0, p1, p2, p3 = piece
    u = 1 - t
    return tuple(
        u**3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t**3 * d
        for a, b, c, d in zip(p0, p1, p2, p3, strict=True)
    )


def test_an_arc_becomes_beziers_on_its_circle():
    pieces = curves(path_data("M0 0 A10 10 0 0 1 20 0"))
    assert len(pieces) >= 2
    assert pieces[-1][-1] == (20, 0)
    for piece in pieces:
        for t in (0, 0.25, 0.5, 0.75, 1):
            x, y = bezier(piece, t)
            assert math.hypot(x - 10, y) == pytest.approx(10, abs=0.01)
            assert y <= 1e-6  # sweep 1 from (0,0) to (20,0) goes through y = -10 (SVG: up)


def test_the_large_arc_flag_rotation_and_radii_too_small():
    small = curves(path_data("M0 0 A10 5 30 0 0 10 0"))
    large = curves(path_data("M0 0 A10 5 30 1 0 10 0"))
    assert len(large) > len(small)
    assert large[-1][-1] == small[-1][-1] == (10, 0)
    half = curves(path_data("M0 0 A1 1 0 0 1 10 0"))  # scaled up to a half circle
    assert bezier(half[0], 1)[1] == pytest.approx(-5, abs=0.01) or len(half) == 2


def test_relative_commands_equal_absolute_ones():
    relative = "m10 10 l5 0 h3 v4 c1 1 2 1 3 0 s2 -1 3 0 q1 2 2 0 t2 0 a2 2 0 0 1 4 0 z"
    absolute = (
        "M10 10 L15 10 H18 V14 C19 15 20 15 21 14 S23 13 24 14 Q25 16 26 14 T28 14 "
        "A2 2 0 0 1 32 14 Z"
    )
    assert path_data(relative) == path_data(absolute)


def test_path_data_details():
    # further pairs after a moveto are lines; flags may run together
    assert path_data("M0 0 10 0 10 10") == path_data("M0 0 L10 0 L10 10")
    assert path_data("m1 1 2 2") == path_data("M1 1 L3 3")
    assert path_data("M0 0 a5 5 0 0110 0") == path_data("M0 0 a5 5 0 0 1 10 0")
    assert path_data("M0,0L1e1-5.5.5-1") == path_data("M0 0 L10 -5.5 L0.5 -1")
    # a quadratic curve as the cubic it equals; S and T reflect the previous control point
    assert path_data("M0 0 Q6 9 9 0") == "0 0 m 4 6 7 6 9 0 c"
    assert path_data("M0 0 C0 10 10 10 10 0 S20 -10 20 0") == path_data(
        "M0 0 C0 10 10 10 10 0 C10 -10 20 -10 20 0"
    )
    assert path_data("M0 0 Q5 10 10 0 T20 0") == path_data("M0 0 Q5 10 10 0 Q15 -10 20 0")
    # after a closepath the next segment starts from the subpath's start
    assert path_data("M10 10 l5 0 l0 5 z l1 1") == "10 10 m 15 10 l 15 15 l h 10 10 m 11 11 l"
    # an arc to its own start is nothing, one with a zero radius a line
    assert path_data("M1 1 A5 5 0 0 1 1 1 L2 2") == "1 1 m 2 2 l"
    assert path_data("M1 1 A0 5 0 0 1 4 1") == "1 1 m 4 1 l"


@pytest.mark.parametrize(
    ("data", "drawn"),
    [
        ("L1 1", ""),  # must begin with a moveto
        ("M0 0 L1", ""),  # a lone moveto draws nothing
        ("M0 0 L5 5 X1 1", "0 0 m 5 5 l"),  # drawn up to the error
        ("M0 0 L5 5 L1", "0 0 m 5 5 l"),
        ("M0 0 L5 5 A1 1 0 2 1 3 3", "0 0 m 5 5 l"),  # a flag must be 0 or 1
        ("M0 0 L5 5 L1e999 0", "0 0 m 5 5 l"),  # a number out of range is an error
    ],
)
def test_bad_path_data_draws_up_to_the_error(data, drawn):
    assert path_data(data) == drawn


# --- transforms ------------------------------------------------------------------------------


def apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@pytest.mark.parametrize(
    ("text", "point", "expected"),
    [
        ("translate(10 20) scale(2)", (1, 1), (12, 22)),
        ("translate(10,20)scale(2 3)", (1, 1), (12, 23)),
        ("translate(5)", (1, 1), (6, 1)),
        ("rotate(90)", (1, 0), (0, 1)),
        ("rotate(90 5 5)", (10, 5), (5, 10)),
        ("scale(2) rotate(90 5 5)", (10, 5), (10, 20)),
        ("matrix(1 2 3 4 5 6)", (1, 1), (9, 12)),
        ("  matrix ( 1,2 3 , 4 5 6 ) ", (1, 1), (9, 12)),
        ("skewX(45)", (1, 1), (2, 1)),
        ("skewY(45)", (1, 1), (1, 2)),
    ],
)
def test_transforms(text, point, expected):
    assert apply(transform(text), *point) == pytest.approx(expected)


def test_identity_transforms_add_nothing():
    assert transform("rotate(0) translate(0 0) scale(1)") == IDENTITY
    assert (
        drawer('<rect width="5" height="5" transform="rotate(0)"/>').ops
        == drawer('<rect width="5" height="5"/>').ops
    )


@pytest.mark.parametrize("text", ["rotate(1 2)", "scale()", "spin(3)", "translate(1 2"])
def test_bad_transforms_are_ignored(text):
    with pytest.raises(ValueError):
        transform(text)
    body = '<rect width="1" height="1"/>'
    assert drawer(f'<g transform="{text}">{body}</g>').ops == drawer(body).ops


def test_a_transform_that_squashes_everything_draws_nothing():
    assert drawer('<rect width="5" height="5" transform="scale(0 1)"/>').ops == drawer("").ops


# --- text ------------------------------------------------------------------------------------


def texts(compiled: Drawer) -> list[tuple]:
    return [op[1:6] for op in compiled.ops if isinstance(op, tuple) and op[0] == TEXT]


def test_text_anchors():
    compiled = drawer(
        '<g font-family="sans-serif" font-size="4">'
        '<text x="10" y="5">Ab</text>'
        '<text x="10" y="5" text-anchor="middle">Ab</text>'
        '<text x="10" y="5" text-anchor="end" font-weight="bold">Ab</text></g>'
    )
    width = stringWidth("Ab", "PnpSans", 4)
    bold = stringWidth("Ab", "PnpSans-Bold", 4)
    assert texts(compiled) == [
        ("PnpSans", 4.0, pytest.approx(10), 5.0, "Ab"),
        ("PnpSans", 4.0, pytest.approx(10 - width / 2), 5.0, "Ab"),
        ("PnpSans-Bold", 4.0, pytest.approx(10 - bold), 5.0, "Ab"),
    ]


def test_a_text_with_tspans_anchors_as_one_piece():
    compiled = drawer(
        '<text x="10" y="5" font-size="3" text-anchor="middle">\n  one '
        '<tspan font-style="italic" fill="#ff0000">two</tspan> three\n</text>'
    )
    pieces = texts(compiled)
    assert [(p[0], p[4]) for p in pieces] == [
        ("PnpSans", "one "),
        ("PnpSans-Italic", "two"),
        ("PnpSans", " three"),
    ]
    widths = [stringWidth(p[4], p[0], 3) for p in pieces]
    assert pieces[0][2] == pytest.approx(10 - sum(widths) / 2)
    assert pieces[1][2] == pytest.approx(pieces[0][2] + widths[0])
    assert pieces[2][2] == pytest.approx(pieces[1][2] + widths[1])


def test_per_character_positions_start_new_chunks():
    compiled = drawer('<text x="1 5" y="4" dy="0 1" font-size="2">AB<tspan x="9">C</tspan></text>')
    assert [(p[2], p[3], p[4]) for p in texts(compiled)] == [
        (1.0, 4.0, "A"),
        (5.0, 5.0, "B"),
        (9.0, 5.0, "C"),
    ]


def test_every_family_name_finds_a_font():
    for family in ("sans-serif", "Vera", "PnpSans", "Helvetica", "Arial", "'Arial', serif"):
        compiled = drawer(f'<text font-family="{family}" font-weight="bold">A</text>')
        assert texts(compiled)[0][0] == "PnpSans-Bold"
    assert texts(drawer("<text>A</text>"))[0][:2] == ("PnpSans", 12.0)  # resvg's default size
    assert texts(drawer('<text font-family="Times">A</text>'))[0][0] == "PnpSerif"
    unknown = drawer('<text font-family="Comic Zans">A</text>')
    assert texts(unknown)[0][0] == "PnpSans"
    assert any("Comic Zans" in message for _, message in unknown.warnings)


def test_a_character_no_font_has_is_an_error():
    with pytest.raises(SvgError, match="no glyph for 漢 in 'Snow 漢'"):
        drawer("<text>Snow 漢</text>")


def test_text_in_a_script_pnp_cannot_shape_is_refused_not_drawn_apart():
    """Bengali and Khmer need shaping and faces pnp does not ship: the renderer refuses them,
    in a plain text and in a tspan alike (Arabic, Hebrew: test_shaping; Devanagari and Thai:
    test_complex_scripts)."""
    with pytest.raises(SvgError, match="'নমস্কার' is written in Bengali script"):
        drawer("<text>নমস্কার</text>")
    with pytest.raises(SvgError, match="Khmer script"):
        drawer('<text x="1" y="2">A <tspan>សួស្តី</tspan></text>')


# --- paint -----------------------------------------------------------------------------------


def alphas(compiled: Drawer, code: int) -> list[float]:
    return [op[1] for op in compiled.ops if isinstance(op, tuple) and op[0] == code]


def literal(body: str) -> str:
    return " ".join(op for op in drawer(body).ops if isinstance(op, str))


def test_opacity_of_one_paint_multiplies_into_it():
    compiled = drawer('<g><rect width="5" height="5" fill-opacity="0.5" opacity="0.8"/></g>')
    assert alphas(compiled, FILL_ALPHA) == [pytest.approx(0.4)]
    assert not [op for op in compiled.ops if isinstance(op, tuple) and op[0] == GROUP]
    compiled = drawer(
        '<g fill-opacity="0.5"><rect width="5" height="5" fill="#ff000080"/>'
        '<circle r="2" fill="green" style="fill-opacity: 0.1; fill: blue" fill-opacity="0.9"/>'
        "</g>"
    )
    assert alphas(compiled, FILL_ALPHA) == [pytest.approx(0.5 * 128 / 255), pytest.approx(0.1)]
    assert "0 0 1 rg" in literal(
        '<circle r="2" fill="green" style="fill-opacity: 0.1; fill: blue"/>'
    )


def test_group_opacity_is_one_transparency_group():
    compiled = drawer(
        '<g opacity="0.5"><rect width="5" height="5" fill="red"/>'
        '<rect x="2" width="5" height="5" fill="blue"/></g>'
    )
    groups = [op for op in compiled.ops if isinstance(op, tuple) and op[0] == GROUP]
    assert len(groups) == 1 and alphas(compiled, FILL_ALPHA) == [0.5]
    inside = " ".join(op for op in groups[0][3] if isinstance(op, str))
    assert "1 0 0 rg" in inside and "0 0 1 rg" in inside
    # a shape with a fill and a stroke is a group too: the stroke is not seen through the fill
    both = drawer('<rect width="5" height="5" stroke="red" opacity="0.5"/>')
    assert [op[0] for op in both.ops if isinstance(op, tuple)].count(GROUP) == 1


def test_group_opacity_prints_as_one_layer(tmp_path):
    """Where two shapes of a half-transparent group overlap, the one on top hides the other
    (per-shape alpha would mix them)."""
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">'
        '<g opacity="0.5"><rect width="30" height="20" fill="#f00"/>'
        '<rect x="10" width="30" height="20" fill="#00f"/></g></svg>'
    )
    (image,) = ours([compile_svg(etree.fromstring(text.encode(), SAFE_PARSER))])
    middle = image[image.shape[0] // 2, image.shape[1] // 2]
    assert abs(int(middle[0]) - 127) <= 3 and abs(int(middle[2]) - 255) <= 3, middle
    assert looks_like_resvg(text, compile_svg(etree.fromstring(text.encode(), SAFE_PARSER))) == 0


def test_paint_operators():
    assert literal('<rect width="5" height="5"/>').endswith("0 0 5 5 re f")
    assert literal('<rect width="5" height="5" fill="none" stroke="red"/>').endswith("re S")
    assert literal('<rect width="5" height="5" stroke="red" fill-rule="evenodd"/>').endswith("B*")
    assert literal('<line x2="5" stroke="red" fill="blue"/>').endswith("0 0 m 5 0 l S")
    assert "[1 2] 0.5 d" in literal(
        '<line x2="5" stroke="red" stroke-dasharray="1,2" stroke-dashoffset="0.5"/>'
    )
    assert "[1 2 3 1 2 3] 0 d" in literal('<line x2="5" stroke="red" stroke-dasharray="1 2 3"/>')
    for solid in ("1 -2", "0 0", "none", "1 x"):
        assert "[] 0 d" in literal(f'<line x2="5" stroke="red" stroke-dasharray="{solid}"/>')
    caps = literal(
        '<polyline points="0 0 5 5 10 0" fill="none" stroke="red" stroke-width="0.5mm" '
        'stroke-linecap="round" stroke-linejoin="bevel" stroke-miterlimit="3"/>'
    )
    assert f"{0.5 * 96 / 25.4:.4f} w".replace("0 w", " w") in caps
    assert "1 J" in caps and "2 j" in caps and "3 M" in caps
    # a stroke that is not opaque is painted apart from the fill (PDF's B knocks the fill out)
    assert (
        literal('<rect width="5" height="5" stroke="red" stroke-opacity="0.5"/>').count("re") == 2
    )
    # nothing to paint: no fill, no stroke, a zero stroke width, display and visibility
    for body in (
        '<rect width="5" height="5" fill="none"/>',
        '<rect width="5" height="5" fill="none" stroke="red" stroke-width="0"/>',
        '<rect width="5" height="5" display="none"/>',
        '<g visibility="hidden"><rect width="5" height="5"/></g>',
        '<rect width="0" height="5"/>',
        '<rect width="-5" height="5"/>',
        '<rect width="5" height="5" fill="transparent"/>',
    ):
        assert drawer(body).ops == drawer("").ops, body


def test_colours_in_every_notation():
    for text, rgba in (
        ("#f00", (1, 0, 0, 1)),
        ("#ff000080", (1, 0, 0, 128 / 255)),
        ("RED", (1, 0, 0, 1)),
        ("rgb(100%, 50%, 0%)", (1, 0.5, 0, 1)),
        ("rgb(-10%, 50%, 120%)", (0, 0.5, 1, 1)),
        ("rgba(0, 127.5, 255, 0.5)", (0, 0.5, 1, 0.5)),
        ("hsl(120, 100%, 25%)", (0, 0.5, 0, 1)),
        ("hsla(0, 200%, 50%, 2)", (1, 0, 0, 1)),
        ("rgb(0 255 0 / 50%)", (0, 1, 0, 0.5)),
        ("transparent", (0, 0, 0, 0)),
    ):
        assert colour(text) == pytest.approx(rgba), text
    for bad in ("#qqq", "#12345", "rgb(1,2)", "red icc-color(x, 1)", "nonsense"):
        with pytest.raises(ValueError):
            colour(bad)


def test_paints_with_fallbacks_and_current_colour():
    assert "0 0.502 0 rg" in literal(
        '<rect width="5" height="5" fill="url(#missing) green"/>'.replace("0.502", "0.502")
    )
    assert "0 0 1 rg" in literal(
        '<g color="blue"><rect width="5" height="5" fill="currentColor"/></g>'
    )
    # currentColor takes the color of the element painted, as CSS inherits it
    assert "0 0 1 RG" in literal(
        '<g stroke="currentColor"><rect width="5" height="5" fill="none" color="blue"/></g>'
    )
    assert drawer('<rect width="5" height="5" fill="url(#missing)"/>').ops == drawer("").ops
    # an invalid value counts as not given: the default (black) or the inherited paint
    assert "0 0 0 rg" in literal('<rect width="5" height="5" fill="#qqq"/>')
    assert "1 0 0 rg" in literal('<g fill="red"><rect width="5" height="5" fill="bad"/></g>')


def content_and_spaces(pdf: bytes) -> tuple[str, set[str]]:
    """The content streams of the first page and the XObjects it draws, and the colour
    spaces of the shadings they use."""
    import pypdf

    page = pypdf.PdfReader(io.BytesIO(pdf)).pages[0]
    texts, spaces = [page.get_contents().get_data().decode("latin-1")], set()

    def visit(resources) -> None:  # noqa: ANN001 - pypdf's dictionaries
        resources = resources.get_object() if resources is not None else {}
        for pattern in (resources.get("/Pattern") or {}).values():
            spaces.add(str(pattern.get_object()["/Shading"]["/ColorSpace"]))
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                texts.append(xobject.get_data().decode("latin-1"))
                visit(xobject.get("/Resources"))
            for state in (resources.get("/ExtGState") or {}).values():
                mask = state.get_object().get("/SMask")
                if mask is not None and not isinstance(mask, str):
                    group = mask.get_object()["/G"].get_object()
                    texts.append(group.get_data().decode("latin-1"))
                    visit(group.get("/Resources"))

    visit(page["/Resources"])
    return "\n".join(texts), spaces


CMYK = Colours("cmyk", Press().colour)  # a print shop's colours


def test_cmyk_mode_sets_every_colour_in_cmyk():
    compiled = drawer(
        '<linearGradient id="g"><stop stop-color="red"/><stop offset="1" stop-color="#00f"/>'
        '</linearGradient><rect width="5" height="5" fill="#336699" stroke="rgb(255,0,0)"/>'
        '<rect width="5" height="5" fill="url(#g)"/>'
        '<text x="1" y="5" fill="hsl(120, 50%, 50%)">A</text>'
    )
    for cmyk in (False, True):
        pdf = pdf_of(
            [
                (
                    compiled.width,
                    compiled.height,
                    lambda c, k=cmyk: compiled.draw(c, CMYK if k else RGB),
                )
            ]
        )
        content, spaces = content_and_spaces(pdf)
        operators = set(re.findall(r"\b(rg|RG|k|K)\b", content))
        assert operators == ({"k", "K"} if cmyk else {"rg", "RG"}), operators
        assert spaces == ({"/DeviceCMYK"} if cmyk else {"/DeviceRGB"})


# --- gradients and clip paths ----------------------------------------------------------------


GRADIENTS = [
    '<linearGradient id="p" x1="0.2" x2="0.8"><stop offset="0.1" stop-color="red"/>'
    '<stop offset="0.5" stop-color="yellow" stop-opacity="0.5"/>'
    '<stop offset="0.9" stop-color="green"/></linearGradient>',
    '<linearGradient id="p" href="#q" x2="0.3" gradientTransform="rotate(30 .5 .5)"/>'
    '<linearGradient id="q" spreadMethod="reflect"><stop stop-color="navy"/>'
    '<stop offset="1" stop-color="#fc0"/></linearGradient>',
    '<radialGradient id="p" cx="60" cy="30" r="20" fx="50" fy="25" gradientUnits='
    '"userSpaceOnUse" spreadMethod="repeat"><stop stop-color="#fff"/>'
    '<stop offset="1" stop-color="#a00"/></radialGradient>',
]


@pytest.mark.parametrize("gradient", GRADIENTS)
def test_gradients_draw_as_resvg_does(gradient):
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">'
        f"{gradient}"
        '<rect x="5" y="5" width="110" height="50" fill="url(#p)" stroke="url(#p)"'
        ' stroke-width="6"/></svg>'
    )
    compiled = compile_svg(etree.fromstring(text.encode(), SAFE_PARSER))
    assert [op[0] for op in compiled.ops if isinstance(op, tuple)].count(PAINT) == 2
    assert looks_like_resvg(text, compiled) <= WITHIN


def test_gradients_without_stops_one_stop_and_no_size():
    assert drawer('<linearGradient id="g"/><rect width="5" height="5" fill="url(#g)"/>').ops == (
        drawer("").ops
    )
    one = literal(
        '<linearGradient id="g"><stop stop-color="red"/></linearGradient>'
        '<rect width="5" height="5" fill="url(#g)"/>'
    )
    assert "1 0 0 rg" in one
    # objectBoundingBox on a line (no height): not painted, its fallback is
    assert "0 0 1 RG" in literal(
        '<linearGradient id="g"><stop stop-color="red"/><stop offset="1"/></linearGradient>'
        '<line x2="5" stroke="url(#g) blue"/>'
    )


CLIPS = [
    '<clipPath id="c"><circle cx="30" cy="30" r="25"/></clipPath>',
    '<clipPath id="c" clipPathUnits="objectBoundingBox"><circle cx=".3" cy=".5" r=".3"/>'
    '<rect x=".5" y=".1" width=".4" height=".8" transform="rotate(10 .7 .5)"/></clipPath>',
    '<clipPath id="d"><rect width="60" height="60"/></clipPath>'
    '<clipPath id="c" clip-path="url(#d)"><path d="M10 10 L110 30 L30 55 Z" '
    'clip-rule="evenodd"/><text x="60" y="50" font-size="20">Ab</text></clipPath>',
]


@pytest.mark.parametrize("clip", CLIPS)
def test_clip_paths_draw_as_resvg_does(clip):
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">'
        f'{clip}<g clip-path="url(#c)"><rect width="120" height="60" fill="#27a"/>'
        '<circle cx="60" cy="30" r="20" fill="#e84"/></g></svg>'
    )
    compiled = compile_svg(etree.fromstring(text.encode(), SAFE_PARSER))
    assert looks_like_resvg(text, compiled) <= WITHIN


PATTERNS = [
    '<pattern id="p" width="0.25" height="0.5"><circle cx="8" cy="8" r="6" fill="teal"/>'
    '<rect x="10" y="10" width="5" height="5" fill="orange" opacity="0.5"/></pattern>',
    '<pattern id="q" patternUnits="userSpaceOnUse" width="16" height="12" viewBox="0 0 4 3">'
    '<path d="M0 0 L4 3 M4 0 L0 3" stroke="navy" stroke-width="0.5"/></pattern>'
    '<pattern id="p" href="#q" x="2" patternTransform="rotate(20) translate(3 1)"/>',
    '<linearGradient id="g"><stop stop-color="gold"/><stop offset="1" stop-color="red"/>'
    '</linearGradient><pattern id="p" patternContentUnits="objectBoundingBox" width=".2" '
    'height=".5"><rect width=".1" height=".25" fill="url(#g)"/></pattern>',
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_patterns_draw_as_resvg_does(pattern):
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">'
        f'{pattern}<rect x="5" y="5" width="110" height="50" rx="8" fill="url(#p)" '
        'stroke="url(#p)" stroke-width="4" fill-opacity="0.8"/></svg>'
    )
    compiled = compile_svg(etree.fromstring(text.encode(), SAFE_PARSER))
    assert compiled.warnings == ()
    assert looks_like_resvg(text, compiled) <= WITHIN


def test_use_symbol_and_nested_svg_draw_as_resvg_does():
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="120" height="60" viewBox="0 0 120 60"><defs><symbol id="s" viewBox="0 0 10 10" '
        'preserveAspectRatio="xMinYMid slice"><circle cx="5" cy="5" r="6" fill="teal"/></symbol>'
        '<g id="g"><rect width="10" height="10"/></g></defs>'
        '<use xlink:href="#s" x="5" y="5" width="30" height="20"/>'
        '<use href="#g" x="40" y="5" fill="purple" transform="rotate(10)"/>'
        '<svg x="60" y="5" width="50" height="50" viewBox="0 0 20 10">'
        '<circle cx="10" cy="5" r="8" fill="orange"/></svg></svg>'
    )
    compiled = compile_svg(etree.fromstring(text.encode(), SAFE_PARSER))
    assert looks_like_resvg(text, compiled) <= WITHIN


# --- what is not drawn, and the limits -------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "feature"),
    [
        ('<filter id="f"/><rect width="5" height="5" filter="url(#f)"/>', "filter"),
        ('<rect width="5" height="5" mask="linear-gradient(red, blue)"/>', "mask"),
        (
            '<pattern id="p" width="1e-4" height="1e-4" patternUnits="userSpaceOnUse">'
            '<rect width="1" height="1"/></pattern><rect width="5" height="5" fill="url(#p)"/>',
            "pattern",
        ),
        ('<marker id="m"/><path d="M0 0 L5 5" stroke="red" marker-end="url(#m)"/>', "marker"),
        ("<foreignObject><p>x</p></foreignObject>", "foreignObject"),
        ('<text><textPath href="#p">x</textPath></text>', "textPath"),
        ('<text x="1" y="5" rotate="30">A</text>', "rotate"),
        ('<rect width="5" height="5" clip-path="circle(2px)"/>', "clip-path"),
        ("<style>@import url(x.css);</style>", "@import"),
        ("<style>rect:hover { fill: red }</style>", ":hover"),
        ('<image href="http://example.com/a.png" width="5" height="5"/>', "outside"),
    ],
)
def test_what_is_not_drawn_is_a_warning_naming_it_and_its_line(body, feature):
    compiled = drawer('<rect width="2" height="2" fill="blue"/>' + body)
    assert "0 0 1 rg" in " ".join(op for op in compiled.ops if isinstance(op, str))
    assert any(feature in message for _, message in compiled.warnings), compiled.warnings
    assert all("line" in message for _, message in compiled.warnings if "<" in message)


def test_the_store_notes_each_warning_once_with_its_template_line(tmp_path):
    template = tmp_path / "face.svg.j2"
    template.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>\n'
        "  <defs>\n"
        '    <filter id="blur"><feGaussianBlur stdDeviation="2"/></filter>\n'
        "  </defs>\n"
        '  <rect width="5" height="5" filter="url(#blur)"/>\n'
        "</svg>\n",
        encoding="utf-8",
    )
    store = ArtStore(tmp_path)
    for colour_name in ("red", "blue"):  # two faces of the template, one warning
        store.add(
            SVG + f'<filter id="blur"/>\n\n\n<rect width="5" height="5" fill="{colour_name}" '
            'filter="url(#blur)"/></svg>',
            template,
            "card",
        )
    assert len(store.warnings) == 1
    path, line, message = store.warnings[0]
    assert path == template and line == 5
    assert "filter" in message and "<rect>" in message and "line 4 of the SVG" in message


HOSTILE = [
    '<rect width="NaN" height="5"/><rect x="inf" width="1e999" height="1e308"/>',
    '<circle r="-5"/><ellipse rx="-1" ry="2"/><rect width="5" height="5" rx="-3"/>',
    '<path d="M1e308 1e308 L-1e308 1e308 Z" stroke="red" stroke-width="1e300"/>',
    '<use href="#u"/><use id="u" href="#u"/><g id="a"><use href="#b"/></g>'
    '<g id="b"><use href="#a"/></g>',
    '<linearGradient id="g" href="#h"/><linearGradient id="h" href="#g"/>'
    '<rect width="5" height="5" fill="url(#g)" stroke="url(#nothing)"/>',
    '<clipPath id="c" clip-path="url(#c)"><rect width="5" height="5" clip-path="url(#c)"/>'
    '</clipPath><rect width="5" height="5" clip-path="url(#c)"/>',
    '<line x2="5" stroke="red" stroke-dasharray="' + " ".join(["0.0001"] * 5000) + '"/>',
    '<line x2="5" stroke="red" stroke-dasharray="1e-9"/>',
    '<svg width="0" height="-3"><rect width="5" height="5"/></svg>',
    '<text x="1e308" y="NaN" font-size="-4">A</text><text font-size="1e20">B</text>',
    '<rect width="5" height="5" transform="matrix(0 0 0 0 0 0)"/>',
    '<radialGradient id="r" r="0" fr="-1" fx="1e300"><stop/><stop offset="1"/>'
    '</radialGradient><rect width="5" height="5" fill="url(#r)"/>',
    '<linearGradient id="r" spreadMethod="repeat" x2="1e-9"><stop/><stop offset="1" '
    'stop-color="red"/></linearGradient><rect width="5" height="5" fill="url(#r)"/>',
    '<image href="../../etc/passwd" width="5" height="5"/><image href="data:,xyz"/>',
    "<g>" * 60 + '<rect width="5" height="5"/>' + "</g>" * 60,
]


@pytest.mark.parametrize("body", HOSTILE)
def test_hostile_svg_ends_in_a_drawing_or_a_clear_error(body):
    try:
        compiled = drawer(body)
    except SvgError as exc:
        assert str(exc)
        return
    pdf_of([(compiled.width, compiled.height, compiled.draw)])  # and it draws


def test_limits_are_errors_naming_them(tmp_path):
    with pytest.raises(SvgError, match="levels deep"):
        drawer("<g>" * 120 + "</g>" * 120)
    laughs = '<rect id="l0" width="1" height="1"/>' + "".join(
        f'<g id="l{n}">' + f'<use href="#l{n - 1}"/>' * 10 + "</g>" for n in range(1, 8)
    )
    with pytest.raises(SvgError, match="more than"):
        drawer(laughs)
    (tmp_path / "self.svg").write_text(SVG + '<image href="self.svg" width="5" height="5"/></svg>')
    store = ArtStore(tmp_path)
    from generator.errors import SpecError

    with pytest.raises(SpecError, match="levels deep"):
        store.add(SVG + '<image href="self.svg" width="5" height="5"/></svg>', tmp_path, "x")
    with pytest.raises(SpecError, match="positive width and height"):
        store.add('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="5"/>', tmp_path, "x")


def test_images_keep_their_aspect_ratio_and_svg_images_are_drawn(tmp_path):
    Image.new("RGB", (200, 100), (200, 30, 30)).save(tmp_path / "wide.png")
    (tmp_path / "inner.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<circle cx="5" cy="5" r="5" fill="green"/></svg>'
    )
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">'
        '<image href="wide.png" x="4" y="4" width="48" height="48"/>'
        '<image href="wide.png" x="60" y="4" width="24" height="48" '
        'preserveAspectRatio="xMinYMin slice"/>'
        '<image href="inner.svg" x="90" y="4" width="24" height="48"/></svg>'
    )  # every edge on a whole pixel: pdfium does not anti-alias the edges of images
    store = ArtStore(tmp_path)
    art = store.drawing(store.add(text, tmp_path, "here"))
    assert looks_like_resvg(text, art, tmp_path) <= WITHIN


# --- a card template with a gradient, a clip path and group opacity, printed -----------------

ART_CARD = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#1d4e89"/><stop offset="1" stop-color="#f7c873"/>
    </linearGradient>
    <clipPath id="window"><circle cx="{{ box.cx }}" cy="{{ box.cy - 10 }}" r="18"/></clipPath>
  </defs>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="url(#sky)"/>
  <g clip-path="url(#window)">
    {% for i in range(8) %}
    <rect x="{{ i * 9 }}" y="0" width="5" height="{{ box.h }}" fill="#e4572e"/>
    {% endfor %}
  </g>
  <g opacity="0.5">
    <rect x="8" y="{{ box.h - 30 }}" width="30" height="20" fill="#2e7d32"/>
    <rect x="24" y="{{ box.h - 24 }}" width="30" height="20" fill="#6a1b9a"/>
  </g>
</svg>
"""


def test_a_card_with_a_gradient_a_clip_path_and_group_opacity_prints_right(pnp, tmp_path):
    """Built with ``pnp build``: the card on its page (rendered by pypdfium2) looks as resvg
    draws the SVG its template rendered, and the build warns of nothing."""
    import json

    import pypdfium2 as pdfium

    root = tmp_path / "components" / "art"
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "face.svg.j2").write_text(ART_CARD, encoding="utf-8")
    (root / "game.yaml").write_text("title: Art\nplayers: 2\nexpect:\n  deck: 1\n")
    (root / "deck.yaml").write_text(
        "kind: deck\ntitle: Deck\nsize: poker\nbleed: 3\nface: face.svg.j2\n"
        "cards:\n  - name: one\n    count: 1\n"
    )
    svgs: list[str] = []
    original = ArtStore.add

    def add(self, svg, source, where):
        svgs.append(svg)
        return original(self, svg, source, where)

    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setattr(ArtStore, "add", add)
    monkeypatch.setenv("PNP_JOBS", "1")
    try:
        result = pnp("build", "--components", tmp_path / "components", "--out", tmp_path / "out")
    finally:
        monkeypatch.undo()
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output.lower()
    manifest = json.loads((tmp_path / "out" / "art" / "manifest.json").read_text())
    (face,) = [item for item in manifest["items"] if item["side"] == "front"]
    document = pdfium.PdfDocument(str(tmp_path / "out" / "art" / "art.pdf"))
    page = document[face["page"] - 1]
    scale = DPI / 25.4  # pixels per mm
    image = page.render(scale=DPI / 72).to_pil().convert("RGB")
    document.close()
    bleed = face["bleed_mm"]
    left = (face["x_mm"] - bleed) * scale
    top = image.height - (face["y_mm"] + face["h_mm"] + bleed) * scale
    width, height = (face["w_mm"] + 2 * bleed) * scale, (face["h_mm"] + 2 * bleed) * scale
    crop = image.crop((round(left), round(top), round(left + width), round(top + height)))
    crop = crop.rotate(-face["rotation"], expand=True)  # the art as it stands on the card
    if face["rotation"] % 180:
        width, height = height, width
    printed = np.asarray(crop).astype(np.int16)
    theirs = resvg(svgs[0], printed.shape[1], printed.shape[0])
    assert bad_share(printed, theirs) <= WITHIN
    row = round(height - 17 * scale)  # 14 mm above the bottom of the card
    overlap, background = printed[row, round(31 * scale)], printed[row, round(60 * scale)]
    purple = np.array([0x6A, 0x1B, 0x9A])
    expected = (purple + background) / 2  # the group at half: no green shows through
    assert np.abs(overlap - expected).max() <= 6, (overlap, expected)


def test_images_from_data_uris_raster_and_svg():
    buffer = io.BytesIO()
    Image.new("RGB", (100, 50), (30, 90, 200)).save(buffer, format="PNG")
    png = "data:image/png;base64," + __import__("base64").b64encode(buffer.getvalue()).decode()
    inner = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<rect width="10" height="10" fill="orange"/></svg>'
    )
    svg_uri = "data:image/svg+xml;utf8," + __import__("urllib.parse").parse.quote(inner)
    text = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">'
        f'<image href="{png}" x="4" y="4" width="48" height="24"/>'
        f'<image href="{svg_uri}" x="60" y="4" width="40" height="40"/></svg>'
    )
    compiled = compile_svg(etree.fromstring(text.encode(), SAFE_PARSER))
    assert compiled.warnings == ()
    assert looks_like_resvg(text, compiled) <= WITHIN


def test_faces_whose_parts_refer_to_each_other_are_not_split_into_layers(tmp_path):
    """A style sheet or a gradient in the elements a template's faces share would be lost
    to the rest of each face: such faces stay whole."""
    store = ArtStore(tmp_path)
    head = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">'
    shared = (
        "<style>.a { fill: red }</style>"
        '<linearGradient id="g"><stop stop-color="red"/><stop offset="1"/></linearGradient>'
        + '<rect width="10" height="10" fill="url(#g)"/>'
        * 40
    )
    keys = [
        store.add(f'{head}{shared}<circle r="{r}" class="a"/></svg>', tmp_path / "t", "x")
        for r in (1, 2)
    ]
    store.split_layers()
    assert all(isinstance(store.drawing(key), Drawer) for key in keys)


# --- a page drawn in layers for a print shop, every line at least its thinnest --------------

LAYERED = (
    '<rect width="20" height="10" fill="#336699"/>'
    '<text x="1" y="3" font-size="2" fill="#000">Top</text>'
    '<text x="1" y="6" font-size="2" fill="#000" fill-opacity="0.5">Faint</text>'
    '<g opacity="0.5"><text x="1" y="9" font-size="2" fill="#000">Group</text></g>'
)


def layered(colours: Colours, body: str = LAYERED, scale: float = 1.0) -> str:
    """The content a drawing writes in ``colours`` (scaled on the page by ``scale``)."""
    compiled = drawer(body)

    def draw(canvas) -> None:  # noqa: ANN001 - reportlab's canvas
        canvas.scale(scale, scale)
        compiled.draw(canvas, colours)

    content, _ = content_and_spaces(pdf_of([(compiled.width, compiled.height, draw)]))
    return content


def shown(content: str) -> list[str]:
    """The strings the content shows, in order."""
    return re.findall(r"\((\w+)\) Tj", content)


def test_the_text_layer_holds_the_opaque_text_outside_groups_alone():
    sizes = []

    def text_colour(rgb: tuple[float, ...], size: float) -> tuple[float, ...]:
        sizes.append(round(size, 2))
        return (0.0, 0.0, 0.0, 1.0)

    text = Colours("text", lambda rgb: rgb, layer="text", text=text_colour)
    content = layered(text, scale=2)
    assert shown(content) == ["Top"], "only the opaque text outside any group"
    assert not re.search(r"\b(f|F|f\*|S|s|B|b)\b", content), "no path is painted"
    assert "0 0 0 1 k" in content and not re.search(r"\brg\b", content), "its colour as told"
    assert sizes == [pytest.approx(2 * 2 * 72 / 25.4, abs=0.01)], "its size on the page, in pt"


def test_the_art_layer_holds_everything_but_that_text():
    art = Colours("art", lambda rgb: rgb, layer="art")
    assert shown(layered(art)) == ["Faint", "Group"]
    assert shown(layered(RGB)) == ["Top", "Faint", "Group"]
    assert " re f" in layered(art), "the shapes are drawn"


def test_strokes_thinner_than_min_line_are_thickened_where_they_are_drawn():
    body = (
        '<line x1="0" y1="1" x2="20" y2="1" stroke="#000" stroke-width="0.1"/>'
        '<line x1="0" y1="5" x2="20" y2="5" stroke="#000" stroke-width="2"/>'
    )
    thin = Colours("rgb-shop", lambda rgb: rgb, min_line=0.25)
    widths = [float(w) for w in re.findall(r"([\d.]+) w\b", layered(thin, body, scale=0.5))]
    # a user unit is a mm, drawn at half size: 0.1 is 0.14 pt, 2 is 2.83 pt
    assert widths == [pytest.approx(0.25 / (72 / 25.4 / 2), rel=1e-3), 2.0], widths
    plain = [float(w) for w in re.findall(r"([\d.]+) w\b", layered(RGB, body, scale=0.5))]
    assert plain == [0.1, 2.0], "home packs draw every line as designed"


def test_a_tagged_document_names_each_font_subset_by_its_glyphs():
    from reportlab.pdfgen.canvas import Canvas

    from generator.svg import canvas as rl
    from generator.svg.fonts import REGULAR

    def subsets(text: str, tagged: bool) -> set[str]:
        register_fonts()
        out = io.BytesIO()
        canvas = Canvas(out, invariant=1)
        if tagged:
            rl.tag_subsets_by_glyphs(canvas)
        canvas.setFont(REGULAR, 12)
        canvas.drawString(10, 10, text)
        canvas.showPage()
        canvas.save()
        return set(re.findall(r"/BaseFont /([A-Z]{6})\+", out.getvalue().decode("latin-1")))

    # reportlab's first subset holds all of ASCII and then each other character a file uses:
    # its AAAAAA+ names different glyphs in different files
    assert subsets("Hello Ω", False) == subsets("World Ж", False) == {"AAAAAA"}
    omega, zhe = subsets("Hello Ω", True), subsets("World Ж", True)
    assert omega != zhe and len(omega) == len(zhe) == 1, "Ω and Ж: two glyph sets"
    assert subsets("Hello", True) == subsets("World", True), "ASCII alone: the same glyphs"
    assert subsets("Hello Ω", True) == omega, "the same glyphs, the same tag"


def test_an_outline_kept_by_its_numbers_prints_zero_alike_whichever_sign_came_first():
    """Outlines are kept by their numbers, and -0.0 equals 0.0: a rect at -0 (a box whose
    bleed is 0) and one at 0 have the same operators and box in either order, so a pack's
    bytes do not depend on what the process drew before (CandiesCollectors' frames printed
    '-0 -0' after one and '0 0' after the other)."""
    from generator.svg import path

    def outlines(order: list[float]) -> list[str]:
        for kept in (path._rect, path._ellipse, path._polyline):
            kept.cache_clear()
        shapes = [
            lambda z: repr(path.rect_geometry(z, z, 192.0, 216.0, 0.0, 0.0)),
            lambda z: repr(path.ellipse_geometry(z, 5.0, 3.0, 3.0)),
            lambda z: repr(path.polyline_geometry((z, z, 10.0, z), False)),
        ]
        return [shape(zero) for zero in order for shape in shapes]

    negative_first = outlines([-0.0, 0.0])
    positive_first = outlines([0.0, -0.0])
    assert negative_first == positive_first[3:] + positive_first[:3]
    assert negative_first[:3] == negative_first[3:]
    assert all("-0" not in text for text in negative_first), negative_first
    assert path.fmt(-0.0, -0.00001, -0.5, 0.00004) == "0 0 -0.5 0"
