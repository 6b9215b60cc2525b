"""The fast path for art (generator.svgdraw): every distinct art of every bundled game looks the
same drawn by it as drawn by svglib, and its pieces (path data, transforms, text anchors,
opacity, what it refuses) do what SVG says."""

from __future__ import annotations

import copy
import io
import math
import re
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from lxml import etree
from reportlab.graphics import renderPDF
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from svglib.svglib import SvgRenderer

from generator.art.fonts import register_fonts
from generator.art.layers import Layered
from generator.art.store import SAFE_PARSER, ArtStore, SvglibArt
from generator.art.svgdraw import (
    FILL_ALPHA,
    STROKE_ALPHA,
    TEXT,
    Drawer,
    Unsupported,
    _path_data,
    _transform,
    compile_svg,
)
from generator.build.pipeline import plan_pack
from generator.errors import ErrorList, SpecError
from generator.spec.loader import load_game

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "components"
GAMES = sorted(p.name for p in BUNDLED.iterdir() if (p / "game.yaml").is_file())
DPI = 150
# Per pixel, 0-255: anti-aliasing along edges differs a little, and svglib fills open
# straight paths (fill defaults to black) as a closed copy, which pdfium paints as a dark
# hairline inside faint strokes; the fast path fills nothing there, as SVG says. That is the
# largest difference in the bundled art (up to about 50 on a few arts).
TOLERANCE = 64
WITHIN = 0.99  # share of pixels that must be within the tolerance
MEAN = 2.0  # mean absolute difference per pixel, 0-255
# what the fast path leaves to svglib; bundled art outside the subset must use one of these
EXCLUDED = re.compile(
    r"<(clipPath|mask|filter|pattern|image|use|style|linearGradient|radialGradient)\b"
    r"|\b(clip-path|mask|filter|class)="
)

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10">'


def svg(body: str, head: str = SVG) -> etree._Element:
    return etree.fromstring((head + body + "</svg>").encode(), SAFE_PARSER)


def drawer(body: str, head: str = SVG) -> Drawer:
    result = compile_svg(svg(body, head))
    assert result is not None, body
    return result


def rasterise(pages: list[tuple[float, float, object]]) -> list[np.ndarray]:
    """Each (width, height, draw(canvas)) on a page of its own, rendered at DPI."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    for width, height, draw in pages:
        canvas.setPageSize((width, height))
        draw(canvas)
        canvas.showPage()
    canvas.save()
    document = pdfium.PdfDocument(buffer.getvalue())
    try:
        return [
            page.render(scale=DPI / 72).to_numpy()[..., :3].astype(np.int16) for page in document
        ]
    finally:
        document.close()


def svglib_drawing(root: etree._Element, base: Path):
    renderer = SvgRenderer(str(base / "art.svg"), external_reference_root=str(base))
    return renderer.render(copy.deepcopy(root))  # svglib writes into the tree it renders


# --- every bundled art, drawn both ways ------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_bundled_art_looks_the_same_as_through_svglib(game, monkeypatch):
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
    fast, slow, names, fallbacks = [], [], [], []
    for key in pack.art.art:
        root = etree.fromstring(sources[key].encode(), SAFE_PARSER)
        drawing = svglib_drawing(root, loaded.root)
        compiled = compile_svg(root)
        if compiled is None:
            text = sources[key]
            assert EXCLUDED.search(text), f"{key} falls back to svglib but uses nothing excluded"
            fallbacks.append(key)
            continue
        stored = pack.art.drawing(key)  # as printed: whole, or a static layer and the rest
        assert isinstance(stored, (Drawer, Layered))
        assert compiled.width == pytest.approx(drawing.width, abs=1e-6)
        assert compiled.height == pytest.approx(drawing.height, abs=1e-6)
        slow.append(
            (drawing.width, drawing.height, lambda c, d=drawing: renderPDF.draw(d, c, 0, 0))
        )
        fast.append((compiled.width, compiled.height, stored.draw))
        names.append(key)
    assert names, "no art took the fast path"
    assert len(fallbacks) <= 4, fallbacks  # CandiesCollectors' board icons clip
    problems = []
    for name, a, b in zip(names, rasterise(slow), rasterise(fast), strict=True):
        assert a.shape == b.shape, name
        diff = np.abs(a - b).max(axis=2)
        mean, within = float(diff.mean()), float((diff <= TOLERANCE).mean())
        if mean > MEAN or within < WITHIN:
            problems.append(f"{name}: mean {mean:.2f}, {within:.2%} within {TOLERANCE}")
    assert not problems, f"{game}: {len(problems)} of {len(names)} arts differ: {problems[:10]}"


KITCHEN_SINK = """\
<svg xmlns="http://www.w3.org/2000/svg" width="60mm" height="40mm" viewBox="0 0 60 40">
  <rect x="-1" y="-1" width="62" height="42" fill="#fffbe8"/>
  <rect x="2" y="2" width="16" height="10" rx="3" fill="rgb(200, 80, 40)" stroke="navy"
        stroke-width="0.6"/>
  <rect x="20" y="2" width="16" height="10" ry="2" fill="red"
        style="fill: hsl(200, 60%, 50%); stroke: #000; stroke-width: 0.4"/>
  <ellipse cx="46" cy="7" rx="8" ry="4" fill="#3a3" fill-opacity="0.6" stroke="#000"
           stroke-opacity="0.5" stroke-dasharray="1.5,0.8"/>
  <g transform="translate(10 22) rotate(20 2 2) scale(1.2 0.9)" fill="purple" stroke="black"
     stroke-width="0.3">
    <circle cx="0" cy="0" r="4"/>
    <path d="M-3 6 q 3 -4 6 0 t 6 0 a 2 3 30 1 1 4 2 z" fill="none" stroke-linecap="round"/>
  </g>
  <g transform="matrix(1 0.2 -0.3 1 30 18) skewX(10)">
    <polygon points="0,0 10,0 10,10 2,4 8,4 0,10" fill="orange" fill-rule="evenodd"
             stroke="brown" stroke-linejoin="round" stroke-width="0.5"/>
    <polyline points="12 0 16 8 20 0 24 8" fill="#ccddee" stroke="#224" stroke-width="0.8"
              stroke-linejoin="bevel" stroke-linecap="square"/>
  </g>
  <path d="M2 36 C 6 28 10 28 14 36 S 22 44 26 36 H 30 V 32 L 34 34 l2 2 h2 v-3 Z"
        fill="#fc0" stroke="#630" stroke-width="0.4"/>
  <line x1="40" y1="30" x2="58" y2="38" stroke="#900" stroke-width="1" stroke-linecap="round"
        stroke-dasharray="2 1 0.5 1"/>
  <g font-family="sans-serif" fill="#112233">
    <text x="45" y="22" font-size="3" text-anchor="middle" font-weight="bold">Middle ßÄ</text>
    <text x="58" y="27" font-size="2.5" text-anchor="end" font-style="italic">End text</text>
    <text x="40" y="32" font-size="2">Start</text>
  </g>
</svg>
"""


def test_every_feature_both_draw_looks_the_same():
    """Arcs, smooth curves, rounded corners, transforms with centres, matrices and skews,
    even-odd fills, dashes, caps and joins, styles, colour notations and text anchors."""
    register_fonts()
    root = etree.fromstring(KITCHEN_SINK.encode(), SAFE_PARSER)
    compiled = compile_svg(root)
    drawing = svglib_drawing(root, Path("."))
    a, b = rasterise(
        [
            (drawing.width, drawing.height, lambda c: renderPDF.draw(drawing, c, 0, 0)),
            (compiled.width, compiled.height, compiled.draw),
        ]
    )
    diff = np.abs(a - b).max(axis=2)
    assert diff.mean() < 0.1 and (diff <= 16).mean() > 0.999, (diff.mean(), diff.max())


def test_the_store_takes_the_fast_path_and_falls_back(tmp_path):
    store = ArtStore(tmp_path)
    plain = store.add(SVG + '<rect width="5" height="5" fill="red"/></svg>', tmp_path, "here")
    assert isinstance(store.drawing(plain), Drawer)
    clipped = (
        SVG + '<clipPath id="c"><rect width="5" height="5"/></clipPath>'
        '<circle cx="5" cy="5" r="5" clip-path="url(#c)"/></svg>'
    )
    key = store.add(clipped, tmp_path, "here")
    art = store.drawing(key)
    assert isinstance(art, SvglibArt)
    assert (art.width, art.height) == pytest.approx((20 * 72 / 25.4, 10 * 72 / 25.4))
    with pytest.raises(SpecError, match="not well-formed"):
        store.add(SVG + "<rect></svg>", tmp_path, "here")


def test_a_drawer_holds_no_tree():
    compiled = drawer('<g fill="blue"><rect width="5" height="5"/><text y="5">A</text></g>')
    assert not hasattr(compiled, "__dict__")
    assert all(isinstance(op, (str, tuple)) for op in compiled.ops)
    flat = [v for op in compiled.ops for v in (op if isinstance(op, tuple) else (op,))]
    assert all(isinstance(v, (str, int, float, tuple)) for v in flat)


# --- path data -------------------------------------------------------------------------------


def curves(ops: str) -> list[tuple[float, ...]]:
    """The path's pieces from its PDF operators: each as its points, start first."""
    words = ops.split()
    out, numbers, current, start = [], [], None, None
    for word in words:
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
    pieces = curves(_path_data("M0 0 A10 10 0 0 1 20 0"))
    assert len(pieces) >= 2
    assert pieces[-1][-1] == (20, 0)
    for piece in pieces:
        for t in (0, 0.25, 0.5, 0.75, 1):
            x, y = bezier(piece, t)
            assert math.hypot(x - 10, y) == pytest.approx(10, abs=0.01)
            assert y <= 1e-6  # sweep 1 from (0,0) to (20,0) goes through y = -10 (SVG: up)


def test_the_large_arc_flag_and_rotation():
    small = curves(_path_data("M0 0 A10 5 30 0 0 10 0"))
    large = curves(_path_data("M0 0 A10 5 30 1 0 10 0"))
    assert len(large) > len(small)
    for piece in small + large:
        x, y = bezier(piece, 0.5)
        assert math.isfinite(x) and math.isfinite(y)
    assert large[-1][-1] == small[-1][-1] == (10, 0)


def test_relative_commands_equal_absolute_ones():
    relative = "m10 10 l5 0 h3 v4 c1 1 2 1 3 0 s2 -1 3 0 q1 2 2 0 t2 0 a2 2 0 0 1 4 0 z"
    absolute = (
        "M10 10 L15 10 H18 V14 C19 15 20 15 21 14 S23 13 24 14 Q25 16 26 14 T28 14 "
        "A2 2 0 0 1 32 14 Z"
    )
    assert _path_data(relative) == _path_data(absolute)


def test_path_data_details():
    # further pairs after a moveto are lines; flags may run together
    assert _path_data("M0 0 10 0 10 10") == _path_data("M0 0 L10 0 L10 10")
    assert _path_data("m1 1 2 2") == _path_data("M1 1 L3 3")
    assert _path_data("M0 0 a5 5 0 0110 0") == _path_data("M0 0 a5 5 0 0 1 10 0")
    assert _path_data("M0,0L1e1-5.5.5-1") == _path_data("M0 0 L10 -5.5 L0.5 -1")
    # a quadratic curve as the cubic it equals; S and T reflect the previous control point
    assert _path_data("M0 0 Q6 9 9 0") == "0 0 m 4 6 7 6 9 0 c"
    assert _path_data("M0 0 C0 10 10 10 10 0 S20 -10 20 0") == _path_data(
        "M0 0 C0 10 10 10 10 0 C10 -10 20 -10 20 0"
    )
    assert _path_data("M0 0 Q5 10 10 0 T20 0") == _path_data("M0 0 Q5 10 10 0 Q15 -10 20 0")
    # after a closepath the next segment starts from the subpath's start
    assert _path_data("M10 10 l5 0 l0 5 z l1 1") == "10 10 m 15 10 l 15 15 l h 10 10 m 11 11 l"
    # an arc to its own start is nothing, one with a zero radius a line
    assert _path_data("M1 1 A5 5 0 0 1 1 1") == "1 1 m"
    assert _path_data("M1 1 A0 5 0 0 1 4 1") == "1 1 m 4 1 l"


@pytest.mark.parametrize("data", ["L1 1", "M0 0 L1", "M0 0 X1 1", "M0 0 1", "M0 0 A1 1 0 2 1 3 3"])
def test_bad_path_data_is_unsupported(data):
    with pytest.raises(Unsupported):
        _path_data(data)
    assert compile_svg(svg(f'<path d="{data}"/>')) is None


# --- transforms ------------------------------------------------------------------------------


def apply(m: tuple, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@pytest.mark.parametrize(
    ("transform", "point", "expected"),
    [
        ("translate(10 20) scale(2)", (1, 1), (12, 22)),
        ("translate(10,20)scale(2 3)", (1, 1), (12, 23)),
        ("translate(5)", (1, 1), (6, 1)),
        ("rotate(90)", (1, 0), (0, 1)),
        ("rotate(90 5 5)", (10, 5), (5, 10)),
        ("scale(2) rotate(90 5 5)", (10, 5), (10, 20)),
        ("matrix(1 2 3 4 5 6)", (1, 1), (9, 12)),
        ("skewX(45)", (1, 1), (2, 1)),
        ("skewY(45)", (1, 1), (1, 2)),
    ],
)
def test_transforms(transform, point, expected):
    assert apply(_transform(transform), *point) == pytest.approx(expected)


def test_identity_transforms_add_nothing():
    assert _transform("rotate(0) translate(0 0) scale(1)") is None
    assert (
        drawer('<rect width="5" height="5" transform="rotate(0)"/>').ops
        == drawer('<rect width="5" height="5"/>').ops
    )


@pytest.mark.parametrize("transform", ["rotate(1 2)", "scale()", "spin(3)", "translate(1 2"])
def test_bad_transforms_are_unsupported(transform):
    assert compile_svg(svg(f'<g transform="{transform}"><rect width="1" height="1"/></g>')) is None


def test_the_viewport_maps_like_svglib():
    root = svg(
        '<rect x="-2" y="-1" width="4" height="3"/>',
        '<svg xmlns="http://www.w3.org/2000/svg" width="40mm" height="30pt" '
        'viewBox="-2 -1 40 20" preserveAspectRatio="xMaxYMin meet">',
    )
    compiled = compile_svg(root)
    drawing = svglib_drawing(root, Path("."))
    assert (compiled.width, compiled.height) == pytest.approx((drawing.width, drawing.height))
    a, b = rasterise(
        [
            (drawing.width, drawing.height, lambda cv: renderPDF.draw(drawing, cv, 0, 0)),
            (compiled.width, compiled.height, compiled.draw),
        ]
    )
    assert (a < 128).any()
    assert np.abs(a - b).max() <= TOLERANCE


# --- text ------------------------------------------------------------------------------------


def texts(compiled: Drawer) -> list[tuple]:
    return [op[1:] for op in compiled.ops if isinstance(op, tuple) and op[0] == TEXT]


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


def test_every_family_of_ours_draws_in_the_embedded_font():
    for family in ("sans-serif", "Vera", "PnpSans", "Helvetica", "Arial", "'Arial', serif"):
        compiled = drawer(f'<text font-family="{family}" font-weight="bold">A</text>')
        assert texts(compiled)[0][0] == "PnpSans-Bold"
    assert texts(drawer("<text>A</text>"))[0][:2] == ("PnpSans", 16.0)  # svglib's 12 pt
    assert compile_svg(svg('<text font-family="Times">A</text>')) is None


# --- paint -----------------------------------------------------------------------------------


def alphas(compiled: Drawer, code: int) -> list[float]:
    return [op[1] for op in compiled.ops if isinstance(op, tuple) and op[0] == code]


def test_opacity_multiplies_into_fill_and_stroke():
    compiled = drawer(
        '<g opacity="0.5"><rect width="5" height="5" fill-opacity="0.5" opacity="0.8" '
        'stroke="#000" stroke-opacity="0.25"/></g>'
    )
    assert alphas(compiled, FILL_ALPHA) == [pytest.approx(0.2)]
    assert alphas(compiled, STROKE_ALPHA) == [pytest.approx(0.1)]
    # inherited fill-opacity, a colour's own alpha, and style over attributes
    compiled = drawer(
        '<g fill-opacity="0.5"><rect width="5" height="5" fill="#ff000080"/>'
        '<circle r="2" fill="green" style="fill-opacity: 0.1; fill: blue" fill-opacity="0.9"/>'
        "</g>"
    )
    assert alphas(compiled, FILL_ALPHA) == [pytest.approx(0.5 * 128 / 255), pytest.approx(0.1)]
    assert "0 0 1 rg" in " ".join(op for op in compiled.ops if isinstance(op, str))
    # text too (svglib leaves fill-opacity off text)
    compiled = drawer('<text fill-opacity="0.75" opacity="0.5">A</text>')
    assert alphas(compiled, FILL_ALPHA) == [pytest.approx(0.375)]


def test_paint_operators():
    def literal(body: str) -> str:
        return " ".join(op for op in drawer(body).ops if isinstance(op, str))

    assert literal('<rect width="5" height="5"/>').endswith("0 0 5 5 re f")
    assert literal('<rect width="5" height="5" fill="none" stroke="red"/>').endswith("re S")
    assert literal('<rect width="5" height="5" stroke="red" fill-rule="evenodd"/>').endswith("B*")
    assert literal('<line x2="5" stroke="red" fill="blue"/>').endswith("0 0 m 5 0 l S")
    assert "[1 2] 0.5 d" in literal(
        '<line x2="5" stroke="red" stroke-dasharray="1,2" stroke-dashoffset="0.5"/>'
    )
    caps = literal(
        '<polyline points="0 0 5 5 10 0" fill="none" stroke="red" stroke-width="0.5mm" '
        'stroke-linecap="round" stroke-linejoin="bevel" stroke-miterlimit="3"/>'
    )
    assert f"{0.5 * 96 / 25.4:.4f} w".replace("0 w", " w") in caps
    assert "1 J" in caps and "2 j" in caps and "3 M" in caps
    # nothing to paint: no fill, no stroke, a zero stroke width, display and visibility
    for body in (
        '<rect width="5" height="5" fill="none"/>',
        '<rect width="5" height="5" fill="none" stroke="red" stroke-width="0"/>',
        '<rect width="5" height="5" display="none"/>',
        '<g visibility="hidden"><rect width="5" height="5"/></g>',
        '<rect width="0" height="5"/>',
    ):
        assert drawer(body).ops == drawer("").ops, body


def test_straight_paths_have_no_fill():
    def literal(body: str) -> str:
        return " ".join(op for op in drawer(body).ops if isinstance(op, str))

    assert literal('<path d="M0 0 L5 5" stroke="red"/>').endswith("0 0 m 5 5 l S")
    assert literal('<path d="M0 0 L5 5 10 10 Z M1 0 H5" stroke="red"/>').endswith("S")
    assert literal('<polyline points="0 0 5 0 9 0" stroke="red"/>').endswith("S")
    assert literal('<path d="M0 0 L5 5 L5 0" stroke="red"/>').endswith("B")
    assert literal('<path d="M0 0 Q5 5 10 0" stroke="red"/>').endswith("B")
    assert drawer('<path d="M0 0 L5 5"/>').ops == drawer("").ops  # only a fill: nothing


def test_cmyk_mode_sets_every_colour_in_cmyk():
    compiled = drawer(
        '<rect width="5" height="5" fill="#336699" stroke="rgb(255,0,0)"/>'
        '<text x="1" y="5" fill="hsl(120, 50%, 50%)">A</text>'
    )
    for cmyk in (False, True):
        canvas = Canvas(io.BytesIO(), enforceColorSpace="cmyk" if cmyk else None)
        compiled.draw(canvas, cmyk=cmyk)
        code = "\n".join(canvas._code)
        operators = set(re.findall(r"\b(rg|RG|k|K|g|G)\b", code))
        assert operators == ({"k", "K"} if cmyk else {"rg", "RG"}), code


# --- what is left to svglib ------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        '<image width="5" height="5" href="a.png"/>',
        '<use href="#a"/>',
        '<defs><linearGradient id="g"/></defs><rect width="5" height="5" fill="url(#g)"/>',
        '<rect width="5" height="5" fill="url(#g)"/>',
        '<g clip-path="url(#c)"><rect width="5" height="5"/></g>',
        '<rect width="5" height="5" mask="url(#m)"/>',
        '<rect width="5" height="5" filter="url(#f)"/>',
        '<pattern id="p"/>',
        "<style>rect { fill: red }</style>",
        '<rect class="a" width="5" height="5"/>',
        '<rect width="50%" height="5"/>',
        '<rect width="2em" height="5"/>',
        '<rect width="2cm" height="5"/>',
        '<rect width="5" height="5" style="fill: red; marker-end: url(#m)"/>',
        '<rect width="5" height="5" marker-end="url(#m)"/>',
        '<rect width="5" height="5" fill="nonsense"/>',
        '<rect width="5" height="5" fill="currentColor"/>',
        "<foo/>",
        '<svg width="5" height="5"/>',
        '<text x="1 2 3" y="5">A</text>',
        '<text x="1" y="5"><tspan x="3">A</tspan></text>',
        '<text x="1" y="5" xml:space="preserve">A</text>',
        '<text x="1" y="5" font-weight="600">A</text>',
        '<text x="1" y="5" dominant-baseline="middle">A</text>',
        '<polygon points="0 0 5"/>',
        '<line x2="5" stroke="red" stroke-linejoin="arcs"/>',
        '<rect width="5" height="5" fill-rule="winding"/>',
    ],
)
def test_outside_the_subset_is_left_to_svglib(body):
    assert compile_svg(svg(body)) is None


def test_the_root_needs_its_size_and_viewbox():
    head = '<svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm">'
    assert compile_svg(svg("", head)) is None
    head = '<svg xmlns="http://www.w3.org/2000/svg" width="20in" height="1in" viewBox="0 0 2 1">'
    assert compile_svg(svg("", head)) is None
    assert compile_svg(etree.fromstring(b"<svg><rect/></svg>")) is None  # no SVG namespace


def test_harmless_extras_are_fine():
    compiled = drawer(
        '<title>t</title><desc>d</desc><defs/><g id="a" shape-rendering="crispEdges" '
        'xmlns:ink="http://www.inkscape.org/namespaces/inkscape" ink:label="layer">'
        '<rect width="5" height="5" style="fill: red;"/></g>'
    )
    assert "1 0 0 rg" in " ".join(op for op in compiled.ops if isinstance(op, str))
