"""Boards (``kind: board``), read back from the PDF.

Every game here is synthetic, written under a temporary folder. Expected numbers come from the
spec (the board's size), the README (tiles share a 10 mm strip, labels A1, A2, B1 ...) and the
sheet constants of ``generator/model/sizes.yaml`` (margin, footer band, crop-mark room), never
from the engine's own layout code. The PDF is read with ``tests/pdfread.py``: the board's art
is one form XObject per page; a tile shows the part of it inside the clipping rectangle in
force where the form is drawn, and the form's matrix says where every board point lands.

Board coordinates in this file are millimetres from the board's lower-left corner (x right,
y up), as in the manifest's ``board_x_mm``/``board_y_mm``; the YAML specs use the designer's
top-left coordinates.

The pixel test renders the tiles (A4) and the whole board (A3) with pypdfium2 and resamples
each tile's window, turned back upright, onto the same board grid as the whole board.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
import yaml
from pdfread import MM_PER_PT, Box, FormUse, Matrix, PageContent, read_pages, text_of
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageStat

from generator.model.kinds.board import BoardSpec

REPO = Path(__file__).resolve().parent.parent
SHEET = yaml.safe_load((REPO / "generator" / "model" / "sizes.yaml").read_text("utf-8"))["sheet"]
MARGIN = float(SHEET["margin"])
FOOTER = float(SHEET["footer"])
MARK_GAP = float(SHEET["mark_gap"])
LINE_ROOM = float(SHEET["line_room"])  # marks end this far inside the margin
MARK_ROOM = MARK_GAP + float(SHEET["mark_min_length"]) + LINE_ROOM  # room left for crop marks
OVERLAP = 10.0  # README: neighbouring tiles share a 10 mm strip
PAPER = {"a4": (210.0, 297.0), "a3": (297.0, 420.0), "letter": (215.9, 279.4)}
TOL = 0.1  # mm: sizes the README promises
EPS = 0.01  # mm: positions the manifest states to the micrometre
PT = 1 / MM_PER_PT  # points per mm

# --- synthetic games ----------------------------------------------------------------------

ICONS = """\
{% macro icon(name) -%}
{% if name == "star" -%}
<polygon points="0,-9 3,-3 9,-3 4,2 6,9 0,5 -6,9 -4,2 -9,-3 -3,-3" fill="#d4a017"
         stroke="#333333" stroke-width="0.6"/>
{%- else -%}
<circle cx="0" cy="0" r="8" fill="#2e86c1" stroke="#333333" stroke-width="0.6"/>
<rect x="-4" y="-4" width="8" height="8" fill="#ffffff"/>
{%- endif %}
{%- endmacro %}
"""

# Everything a board can hold, inside 400 x 280 mm (the README's example size).
FULL_BOARD = """\
kind: board
title: Big board
size: {size}
background: "#fbf6ea"
border: 0.8
icons: icons.svg.j2
groups:
  - {{name: north, label: North, fill: "#dfe9f5"}}
  - {{name: south, label: South, fill: "#f5e0d0"}}
  - {{name: towns, label: Towns}}
regions:
  - {{name: workshop, label: Workshop, group: north,
     polygon: [[20, 20], [150, 20], [140, 110], [20, 120]]}}
  - {{name: harbour, label: Harbour, group: north,
     polygon: [[160, 20], [300, 30], [290, 120], [150, 110]]}}
  - {{name: market, label: Market, group: south,
     polygon: [[20, 140], [200, 130], [210, 240], [30, 230]]}}
  - {{name: keep, label: Keep, group: south, fill: "#e8d8f0",
     polygon: [[230, 140], [380, 150], [370, 250], [220, 230]]}}
grids:
  - {{prefix: hex, layout: hex-pointy, origin: [305, 20], size: 18, cols: 4, rows: 4, group: north}}
spaces:
  - {{name: town-1, shape: circle, at: [120, 60], size: 14, style: double, group: towns, label: T1}}
  - {{name: town-2, shape: square, at: [250, 70], size: 14, style: dashed, group: towns,
     icon: star}}
  - {{name: town-3, at: [190, 135], size: 16, style: dotted, group: towns, label: T3,
     label_pos: below}}
rows:
  - {{name: reserve, path: [[40, 250], [180, 250]], count: 5, style: dashed,
     labels: [a, b, c, d, e]}}
tracks:
  - {{name: score, values: 0-29, around: 2, size: 11, count: 30, marks: {{10: star, 20: coin}}}}
tables:
  - {{name: scoring, at: [235, 175], widths: [30, 50], header: [Tiles, Points],
     rows: [["1", "2"], ["2", "5"], ["3", "9"]]}}
icons_at:
  - {{icon: star, at: [185, 190], size: 12, points_to: market}}
  - {{icon: coin, at: [200, 60], size: 10}}
labels:
  - {{text: Support, at: [200, 20], size: 6, bold: true}}
  - {{text: Sideways, at: [205, 150], size: 5, rotate: 90, colour: "#aa2222"}}
connections:
  - {{from: town-1, to: town-2, style: dashed}}
  - {{from: town-2, to: town-3, style: solid, via: [[240, 120]]}}
  - {{from: workshop, to_point: [395, 5], style: dotted, end: square}}
  - {{from: keep, to: hex-2-3, style: double, end: arrow}}
"""

# A plain board of any size: a frame of regions and a label, so every tile has art on it.
PLAIN_BOARD = """\
kind: board
title: Plain board
size: {w:g} x {h:g}
bleed: {bleed:g}
background: "#f4efe0"
regions:
  - {{name: left, fill: "#dfe9f5",
     polygon: [[2, 2], [{half:g}, 2], [{half:g}, {bottom:g}], [2, {bottom:g}]]}}
labels:
  - {{text: Plain, at: [{cx:g}, {cy:g}], size: 5}}
"""


def plain_board(w: float, h: float, bleed: float = 0.0) -> str:
    # the label off the middle, where nothing moves a seam: the tiles are of one size
    return PLAIN_BOARD.format(w=w, h=h, bleed=bleed, half=w / 2, bottom=h - 2, cx=w / 4, cy=h / 4)


def write_game(
    components: Path, board: str, expect: str = "", name: str = "g", paper: str = "a4"
) -> Path:
    """A game ``components/name`` with one board (``board.yaml``, component id ``board``) and
    the icon macros; ``expect`` is the YAML of its ``expect:`` mapping. Returns the game
    folder."""
    root = components / name
    (root / "templates").mkdir(parents=True, exist_ok=True)
    game = f"title: Board test\nplayers: 2-4\npaper: {paper}\n"
    if expect:
        game += "expect:\n" + textwrap.indent(textwrap.dedent(expect), "  ")
    (root / "game.yaml").write_text(game, encoding="utf-8")
    (root / "board.yaml").write_text(board, encoding="utf-8")
    (root / "templates" / "icons.svg.j2").write_text(ICONS, encoding="utf-8")
    return root


# --- a built board read back --------------------------------------------------------------


def invert(m: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    det = a * d - b * c
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def through(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def on_board(form: FormUse, bleed: float, box: Box) -> Box:
    """A rectangle on the page (mm) in board mm: the form's origin is the corner of the
    board's bleed box, its unit the point."""
    back = invert(form.matrix)
    corners = [through(back, x * PT, y * PT) for x in (box.x0, box.x1) for y in (box.y0, box.y1)]
    return Box.around([(x / PT - bleed, y / PT - bleed) for x, y in corners])


@dataclass(frozen=True, eq=False)
class Tile:
    """One page showing (part of) the board, read from the PDF, with its manifest item."""

    page: int
    item: dict
    form: FormUse  # the board's art as drawn on the page
    window_page: Box  # the clip in force where the art is drawn (page mm)
    window: Box  # the same rectangle in board mm, through the form's matrix
    bleed: float

    def box_to_board(self, box: Box) -> Box:
        """A rectangle on the page in board mm, through the form's matrix."""
        return on_board(self.form, self.bleed, box)

    @property
    def label(self) -> str:
        return self.item["tile"]


@dataclass(eq=False)
class BoardPack:
    """A built board game read back: PDF pages, characters, manifest and the board's size."""

    pdf: Path
    paper: tuple[float, float]
    size: tuple[float, float]  # the board's trim size from its spec
    bleed: float
    pages: list[PageContent]
    chars: list[list[dict]]
    manifest: dict

    @property
    def items(self) -> list[dict]:
        return [i for i in self.manifest["items"] if i["component"] == "board"]

    @property
    def tiles(self) -> list[Tile]:
        """Every page of the board, in page order."""
        out = []
        for item in sorted(self.items, key=lambda i: i["page"]):
            page = self.pages[item["page"] - 1]
            assert len(page.forms) == 1, f"page {page.number}: {len(page.forms)} forms"
            form = page.forms[0]
            window_page = form.box.intersect(form.clip_box)
            assert window_page is not None, f"page {page.number}: the board is clipped away"
            window = on_board(form, self.bleed, window_page)
            out.append(Tile(item["page"], item, form, window_page, window, self.bleed))
        return out

    def text(self, page: int, outside: Box | None = None) -> str:
        chars = self.chars[page - 1]
        if outside is not None:
            chars = [c for c in chars if char_box(c).distance(outside) > 0]
        return text_of(chars)


def char_box(char: dict) -> Box:
    return Box(*(char[k] * MM_PER_PT for k in ("x0", "y0", "x1", "y1")))


def build_board(
    pnp, base: Path, board: str, paper: str, size: tuple[float, float], bleed: float = 0.0
) -> BoardPack:
    write_game(base / "components", board)
    components, out = base / "components", base / "out"
    result = pnp("build", "g", "--components", components, "--out", out, "--paper", paper)
    assert result.exit_code == 0, result.output
    pdf = base / "out" / "g" / "g.pdf"
    with pdfplumber.open(pdf) as doc:
        chars = [list(page.chars) for page in doc.pages]
    manifest = json.loads((base / "out" / "g" / "manifest.json").read_text("utf-8"))
    return BoardPack(pdf, PAPER[paper], size, bleed, read_pages(pdf), chars, manifest)


@pytest.fixture(scope="module")
def packs(tmp_path_factory: pytest.TempPathFactory, pnp) -> Callable[..., BoardPack]:
    """``packs(size, paper)``: the full board of ``size`` ("W x H") built on ``paper``, once
    per module."""
    built: dict[tuple[str, str], BoardPack] = {}

    def get(size: str, paper: str) -> BoardPack:
        if (size, paper) not in built:
            w, h = (float(v) for v in size.split("x"))
            base = tmp_path_factory.mktemp("board")
            built[size, paper] = build_board(pnp, base, FULL_BOARD.format(size=size), paper, (w, h))
        return built[size, paper]

    return get


# --- what the layout allows, from the sheet constants alone ---------------------------------


def tile_area(paper: tuple[float, float], footer: bool = False) -> tuple[float, float]:
    """The largest window a tile can show upright: the printable area inside the margin and
    room for crop marks on every side (with ``footer``, less the footer band of the page
    label, which a tile gives up when that saves a tile)."""
    pw, ph = paper
    band = FOOTER if footer else 0.0
    return pw - 2 * MARGIN - 2 * MARK_ROOM, ph - 2 * MARGIN - band - 2 * MARK_ROOM


def tiles_along(length: float, window: float) -> int:
    """The fewest windows of ``window`` mm, each sharing OVERLAP mm with the next, that span
    ``length`` mm: n windows span n * window - (n - 1) * OVERLAP."""
    if length <= window + 1e-9:
        return 1
    return math.ceil((length - OVERLAP) / (window - OVERLAP) - 1e-9)


def fewest_tiles(size: tuple[float, float], paper: tuple[float, float]) -> int:
    aw, ah = tile_area(paper)
    w, h = size
    upright = tiles_along(w, aw) * tiles_along(h, ah)
    turned = tiles_along(w, ah) * tiles_along(h, aw)
    return min(upright, turned)


TILED = [  # (board size, paper)
    ("400 x 280", "a4"),  # fewest when the tiles are turned: 2 x 2 rather than 3 x 2
    ("420 x 300", "a4"),
    ("380 x 270", "a4"),  # fewest upright: 3 x 1 rather than 2 x 2
    ("250 x 400", "letter"),
    # A 420 x 297 board cannot print whole on A3 (297 x 420): the 5 mm margin a home printer
    # cannot print leaves 287 x 410 mm. It takes two A3 tiles.
    ("420 x 297", "a3"),
]


@pytest.mark.parametrize("size, paper", TILED)
def test_a_large_board_takes_as_few_tiles_as_the_layout_allows(packs, size, paper):
    pack = packs(size, paper)
    tiles = pack.tiles
    assert all(t.label != "whole" for t in tiles)
    assert len(tiles) == fewest_tiles(pack.size, pack.paper)
    # one sheet of paper a tile (its front; a tile has no back to print), nothing after them
    pages = [t.page for t in tiles]
    assert pages == list(range(pages[0], pages[0] + 2 * len(tiles), 2)), pages
    assert pack.manifest["pages"] == pages[-1] + 1
    # every window fits the area left by the margin, the footer band and the crop marks
    aw, ah = tile_area(pack.paper)
    for t in tiles:
        assert t.window_page.w <= aw + EPS and t.window_page.h <= ah + EPS, (t.label, t.window)


@pytest.mark.parametrize("size, paper", TILED)
def test_tiles_are_labelled_in_reading_order(packs, size, paper):
    """Rows of tiles from the top (A, B ...), each numbered from the left; a row's seams may
    fall elsewhere than the next row's (each row is split where it cuts least)."""
    pack = packs(size, paper)
    tiles = pack.tiles
    tops = sorted({round(t.window.y1, 3) for t in tiles}, reverse=True)  # top row first
    rows = [
        sorted((t for t in tiles if round(t.window.y1, 3) == top), key=lambda t: t.window.x0)
        for top in tops
    ]
    assert len({len(row) for row in rows}) == 1  # as many tiles in every row
    expected = {
        t.page: f"{chr(ord('A') + r)}{c + 1}"
        for r, row in enumerate(rows)
        for c, t in enumerate(row)
    }
    assert [t.label for t in tiles] == [expected[t.page] for t in tiles]
    reading = [t for row in rows for t in row]
    assert [t.page for t in reading] == sorted(t.page for t in tiles)  # pages in that order
    unglued = []
    for t in tiles:  # each tile's name: on its glue strip, or beside the last one's art
        strips = strips_on_page(pack, t)
        on_strip = [
            c for c in pack.chars[t.page - 1] if any(char_box(c).centre_in(b) for b in strips)
        ]
        if strips:
            assert t.label in re.findall(r"[A-Z]\d+", text_of(on_strip)), (t.label, strips)
            continue
        unglued.append(t)
        above = [  # small type within 4 mm above the art (the board's own text is clipped)
            c
            for c in pack.chars[t.page - 1]
            if 0 <= char_box(c).y0 - t.window_page.y1 < 4 and abs(c["size"] - 6.5) < 0.01
        ]
        assert text_of(above).split() == [t.label], (t.label, text_of(above))
        if t.page < len(pack.chars):  # nothing printed behind its art
            assert t.label not in text_of(pack.chars[t.page]).split(), t.label
    assert [t.label for t in unglued] == [reading[-1].label]  # only the last lies on the rest


@pytest.mark.parametrize("size, paper", TILED)
def test_tiles_windows_marks_and_glue_are_inside_the_margin(packs, size, paper):
    pack = packs(size, paper)
    pw, ph = pack.paper
    printable = Box(MARGIN, MARGIN, pw - MARGIN, ph - MARGIN)
    for t in pack.tiles:
        page = pack.pages[t.page - 1]
        where = f"tile {t.label} (page {t.page})"
        assert t.window_page.inside(printable), (where, t.window_page)
        for path in page.paths:  # what is visible of every path: glue hatching, fills, marks
            visible = path.box.intersect(path.clip_box)
            if visible is not None and not path.clip:
                assert visible.inside(printable, EPS), (where, path.op, visible)
        # crop marks: unclipped straight strokes on each of the four trim lines, outside the
        # window by at least the mark gap and never across it
        marks = [s for s in page.strokes if s.clip_box is None]
        assert marks, f"{where}: no crop marks"
        w = t.window_page
        for s in marks:
            assert s.vertical or s.horizontal, (where, s)
            assert w.distance(s.box) >= MARK_GAP - EPS, (where, s)
        for x in (w.x0, w.x1):
            on_line = [s for s in marks if s.vertical and abs(s.x0 - x) < EPS]
            assert {s.box.y0 > w.y1 for s in on_line} == {True, False}, (where, "x", x)
        for y in (w.y0, w.y1):
            on_line = [s for s in marks if s.horizontal and abs(s.y0 - y) < EPS]
            assert {s.box.x0 > w.x1 for s in on_line} == {True, False}, (where, "y", y)


@pytest.mark.parametrize("size, paper", TILED)
def test_nothing_of_a_tile_page_is_printed_in_the_margin(packs, size, paper):
    """Rendered, so that clipping and text count: the 5 mm band round every tile page (and the
    assembly map) stays blank paper."""
    pack = packs(size, paper)
    pages = sorted({t.page for t in pack.tiles} | {min(t.page for t in pack.tiles) - 1})
    pw, ph = pack.paper
    for number, image in render(pack.pdf, pages, dpi=100).items():
        gray = image.convert("L")
        px = gray.width / pw  # pixels per mm
        inner = MARGIN * px - 1  # pixels lying wholly in the margin
        bands = [
            (0, 0, gray.width, inner),
            (0, gray.height - inner, gray.width, gray.height),
            (0, 0, inner, gray.height),
            (gray.width - inner, 0, gray.width, gray.height),
        ]
        for band in bands:
            darkest = gray.crop(tuple(round(v) for v in band)).getextrema()[0]
            assert darkest == 255, f"page {number}: ink in the margin band {band}: {darkest}"


def neighbours(tiles: list[Tile]) -> list[tuple[Tile, Tile, str]]:
    """(covered, covering, side) for every pair of tiles side by side: the covering tile is
    the one to the right in a row, or in the row below (rows may be split differently)."""
    pairs = []
    for a, b in itertools.permutations(tiles, 2):
        same_row = abs(a.window.y0 - b.window.y0) < EPS and abs(a.window.y1 - b.window.y1) < EPS
        across = min(a.window.x1, b.window.x1) - max(a.window.x0, b.window.x0) > EPS
        if same_row and a.window.x0 < b.window.x0 < a.window.x1:
            pairs.append((a, b, "right"))
        if not same_row and across and a.window.y0 < b.window.y1 < a.window.y1:
            pairs.append((a, b, "below"))
    return pairs


@pytest.mark.parametrize("size, paper", TILED)
def test_neighbouring_tiles_share_exactly_10_mm_and_cover_the_board(packs, size, paper):
    pack = packs(size, paper)
    tiles = pack.tiles
    w, h = pack.size
    board = Box(0, 0, w, h)
    for t in tiles:
        assert t.window.inside(board, EPS), (t.label, t.window)
    pairs = neighbours(tiles)
    for covered, covering, side in pairs:
        dx, dy = covered.window.overlap(covering.window)
        shared = dx if side == "right" else dy
        assert abs(shared - OVERLAP) < EPS, (covered.label, covering.label, shared)
    # tiles that are not side by side share at most a corner of the 10 mm strips
    for a, b in itertools.combinations(tiles, 2):
        dx, dy = a.window.overlap(b.window)
        if (a, b) not in {(p, q) for p, q, _ in pairs} | {(q, p) for p, q, _ in pairs}:
            assert min(dx, dy) <= OVERLAP + EPS, (a.label, b.label, dx, dy)
    rows = {round(t.window.y1, 3) for t in tiles}
    per_row = len(tiles) // len(rows)
    assert sum(side == "right" for _, _, side in pairs) == (per_row - 1) * len(rows)
    bottom = min(t.window.y0 for t in tiles)
    for t in tiles:  # every tile above the bottom row lies under the row below it
        below = [b for a, b, side in pairs if a is t and side == "below"]
        assert bool(below) == (t.window.y0 > bottom + EPS), t.label
    # the windows together cover the whole board: every elementary cell between tile edges
    for cell in cells(tiles, board):
        assert any(cell.inside(t.window, EPS) for t in tiles), f"no tile shows {cell}"


def cells(tiles: list[Tile], board: Box, cut: list[Box] | None = None) -> list[Box]:
    """The board cut along every tile edge (and the edges of ``cut``) into rectangles."""
    boxes = [t.window for t in tiles] + (cut or [])
    xs = sorted({board.x0, board.x1, *(v for b in boxes for v in (b.x0, b.x1))})
    ys = sorted({board.y0, board.y1, *(v for b in boxes for v in (b.y0, b.y1))})
    return [
        Box(x0, y0, x1, y1)
        for x0, x1 in itertools.pairwise(xs)
        for y0, y1 in itertools.pairwise(ys)
        if x1 - x0 > EPS and y1 - y0 > EPS and Box(x0, y0, x1, y1).inside(board, EPS)
    ]


def strips_on_page(pack: BoardPack, tile: Tile) -> list[Box]:
    """The glue areas drawn on a tile, in page mm: the clipping rectangles of the page other
    than the window, found around the hatching they clip."""
    page = pack.pages[tile.page - 1]
    clips = {
        (round(p.box.x0, 3), round(p.box.y0, 3), round(p.box.x1, 3), round(p.box.y1, 3)): p.box
        for p in page.paths
        if p.clip and not p.box.close_to(tile.window_page, EPS)
    }
    return list(clips.values())


def glue_strips(pack: BoardPack, tile: Tile) -> list[Box]:
    """The glue areas drawn on a tile, in board mm."""
    return [tile.box_to_board(box) for box in strips_on_page(pack, tile)]


@pytest.mark.parametrize("size, paper", TILED)
def test_glue_strips_are_the_shared_strips_on_the_covered_tile(packs, size, paper):
    pack = packs(size, paper)
    tiles = pack.tiles
    pairs = neighbours(tiles)
    for t in tiles:
        right = [b for a, b, side in pairs if a is t and side == "right"]
        below = any(a is t and side == "below" for a, _, side in pairs)
        x0, y0, x1 = t.window.x0, t.window.y0, t.window.x1
        expected = [t.window.intersect(b.window) for b in right]
        expected += [Box(x0, y0, x1, y0 + OVERLAP)] if below else []  # the row below covers it
        found = glue_strips(pack, t)
        assert len(found) == len(expected), (t.label, found, expected)
        for strip in expected:
            assert strip is not None
            assert any(f.close_to(strip, EPS) for f in found), (t.label, strip, found)
        page = pack.pages[t.page - 1]
        for f in found:  # hatched: strokes clipped to the strip
            clipped = [s for s in page.strokes if s.clip_box is not None]
            hatch = [s for s in clipped if t.box_to_board(s.clip_box).close_to(f, EPS)]
            assert len(hatch) >= 3, (t.label, f)
    # every part of the board shows un-hatched on some tile
    w, h = pack.size
    strips = {t.label: glue_strips(pack, t) for t in tiles}
    everything = [s for found in strips.values() for s in found]
    for cell in cells(tiles, Box(0, 0, w, h), everything):
        assert any(
            cell.inside(t.window, EPS)
            and not any(cell.intersect(s) and min(cell.overlap(s)) > EPS for s in strips[t.label])
            for t in tiles
        ), cell


def map_page_number(pack: BoardPack) -> int:
    """The page of the assembly map (its own, or under the contents when it fits there): the
    page nobody cuts that says how the tiles fit together."""
    found = [
        n
        for n, chars in enumerate(pack.chars, start=1)
        if "how the tiles fit together" in text_of(chars) and n not in {t.page for t in pack.tiles}
    ]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("size, paper", TILED)
def test_the_assembly_map_comes_before_the_tiles_and_shows_every_label(packs, size, paper):
    """The map goes with the pages nobody cuts (the inventory's back): a picture of the whole
    board, small, with every tile drawn over it where it goes."""
    pack = packs(size, paper)
    tiles = pack.tiles
    first = min(t.page for t in tiles)
    number = map_page_number(pack)
    assert number < first
    map_page = pack.pages[number - 1]
    (art,) = map_page.forms  # the board's own art, once, scaled down
    tile_art = pack.pages[first - 1].forms[0]
    assert art.ref == tile_art.ref, "the map shows other art than the tiles"
    # the tile labels, not the board's own words shrunk on its picture
    chars = [c for c in pack.chars[number - 1] if c["size"] >= 10]
    words = re.findall(r"[A-Z]\d+", text_of(chars))
    assert sorted(words) == sorted(t.label for t in tiles), words
    # the board's outline is the largest stroked rectangle; each label sits in its own tile
    w, h = pack.size
    outline = max((p.box for p in map_page.paths if p.stroked), key=lambda b: b.w * b.h)
    assert abs(outline.w / outline.h - w / h) < 0.01, (outline, w, h)
    scale = outline.w / w
    shown = art.box.intersect(art.clip_box)
    assert shown is not None and shown.close_to(outline, 0.2), (shown, outline)
    for t in tiles:
        found = label_boxes(chars, t.label)
        assert len(found) == 1, (t.label, found)
        cx, cy = centre(found[0])
        bx, by = (cx - outline.x0) / scale, (cy - outline.y0) / scale
        assert t.window.x0 < bx < t.window.x1 and t.window.y0 < by < t.window.y1, (t.label, bx, by)
        centres = {u.label: math.dist((bx, by), centre(u.window)) for u in tiles}
        assert min(centres, key=centres.get) == t.label, (t.label, centres)


def centre(box: Box) -> tuple[float, float]:
    return (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2


def label_boxes(chars: list[dict], label: str) -> list[Box]:
    """Boxes around each run of consecutive characters spelling ``label`` on one baseline."""
    boxes = []
    for i in range(len(chars) - len(label) + 1):
        run = chars[i : i + len(label)]
        if "".join(c["text"] for c in run) == label and len({round(c["y0"]) for c in run}) == 1:
            bs = [char_box(c) for c in run]
            boxes.append(Box(bs[0].x0, min(b.y0 for b in bs), bs[-1].x1, max(b.y1 for b in bs)))
    return boxes


def test_assembly_map_labels_are_printed_in_solid_ink(packs):
    """The tile labels on the map are meant to be black (``setFillGray(0)``); rendered, their
    strokes must reach near-black, not a washed-out grey."""
    pack = packs("400 x 280", "a4")
    tiles = pack.tiles
    number = map_page_number(pack)
    image = render(pack.pdf, [number])[number]
    ph = pack.paper[1]
    sx = image.width / pack.paper[0]
    for t in tiles:
        (box,) = label_boxes(pack.chars[number - 1], t.label)
        crop = image.convert("L").crop(
            (box.x0 * sx, (ph - box.y1) * sx, box.x1 * sx, (ph - box.y0) * sx)
        )
        darkest = crop.getextrema()[0]
        assert darkest < 80, f"label {t.label} is drawn no darker than grey {darkest}"


@pytest.mark.parametrize("size, paper", TILED)
def test_manifest_lists_every_tile_with_its_place_on_the_board(packs, size, paper):
    pack = packs(size, paper)
    w, h = pack.size
    items = pack.manifest["items"]
    assert {i["component"] for i in items} == {"board"}
    for t in pack.tiles:
        i = t.item
        assert i["kind"] == "board" and i["side"] == "front"
        assert re.fullmatch(r"[A-Z][1-9]\d*", i["tile"]), i
        # the trim box on the page is the window the PDF clips the art to
        page_box = Box(i["x_mm"], i["y_mm"], i["x_mm"] + i["w_mm"], i["y_mm"] + i["h_mm"])
        assert page_box.close_to(t.window_page, EPS), (i, t.window_page)
        # the place on the board is where the PDF puts the window
        assert abs(i["board_x_mm"] - t.window.x0) < EPS, (i, t.window)
        assert abs(i["board_y_mm"] - t.window.y0) < EPS, (i, t.window)
        assert (i["board_w_mm"], i["board_h_mm"]) == (w, h), i
        # the rotation is the art's turn on the page
        assert i["rotation"] == t.form.rotation, (i, t.form.rotation)
        turned = abs(i["rotation"]) == 90
        on_board = (i["h_mm"], i["w_mm"]) if turned else (i["w_mm"], i["h_mm"])
        assert abs(on_board[0] - t.window.w) < EPS and abs(on_board[1] - t.window.h) < EPS


# --- the tiles reproduce the whole board, pixel for pixel -----------------------------------

DPI = 150
STEP = 25.4 / DPI  # board mm per sample: one sample per rendered pixel
CUT = 0.3  # mm next to a clip edge left out: anti-aliasing of the cut
SOFTEN = 1.0  # px of Gaussian blur on both sides of a comparison (see ``sample``)
HOLE = CUT + 2 * SOFTEN * STEP  # mm round a glue strip left out: the cut, spread by the blur


def render(pdf: Path, pages: list[int], dpi: float = DPI) -> dict[int, Image.Image]:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return {n: doc[n - 1].render(scale=dpi / 72).to_pil().convert("RGB") for n in pages}
    finally:
        doc.close()


def board_to_page(item: dict) -> Matrix:
    """Board mm → page mm for a manifest item: its trim box, rotation and board place."""
    x, y, w, h = item["x_mm"], item["y_mm"], item["w_mm"], item["h_mm"]
    bx, by = item["board_x_mm"], item["board_y_mm"]
    if item["rotation"] == 0:
        return (1, 0, 0, 1, x - bx, y - by)
    if item["rotation"] == 90:  # board x runs up the page, board y to the left
        return (0, 1, -1, 0, x + w + by, y - bx)
    assert item["rotation"] == -90, item
    return (0, -1, 1, 0, x - by, y + h + bx)


def sample(image: Image.Image, paper: tuple[float, float], item: dict, region: Box) -> Image.Image:
    """The board's ``region`` as printed on a rendered page, cut out and turned back upright:
    pixel (i, j) shows board point (x0 + (i + ½)·STEP, y1 - (j + ½)·STEP), resampled
    bilinearly so that tiles and the whole board are compared at the same board points, and
    softened by a 1-pixel blur: a thin line anti-aliased at another sub-pixel phase on the
    other page is then no difference, while art moved by 0.1 mm still is (tried by hand:
    a 0.1 mm shift leaves 97-98 % of samples within 24, against 99.85 % and more unshifted)."""
    a, b, c, d, e, f = board_to_page(item)
    sx, sy = image.width / paper[0], image.height / paper[1]
    H = image.height
    # output (u, v) → board (x0 + u·STEP, y1 - v·STEP) → page mm → image pixels (y down)
    data = (
        sx * a * STEP,
        -sx * c * STEP,
        sx * (a * region.x0 + c * region.y1 + e),
        -sy * b * STEP,
        sy * d * STEP,
        H - sy * (b * region.x0 + d * region.y1 + f),
    )
    size = (round(region.w / STEP), round(region.h / STEP))
    cut = image.transform(size, Image.Transform.AFFINE, data, Image.Resampling.BILINEAR)
    return cut.filter(ImageFilter.GaussianBlur(SOFTEN))


def mask_without(region: Box, holes: list[Box]) -> Image.Image:
    """A mask over ``region``'s samples: 255 except inside ``holes`` (board mm)."""
    size = (round(region.w / STEP), round(region.h / STEP))
    mask = Image.new("L", size, 255)
    draw = ImageDraw.Draw(mask)
    for hole in holes:
        draw.rectangle(
            (
                (hole.x0 - region.x0) / STEP,
                (region.y1 - hole.y1) / STEP,
                (hole.x1 - region.x0) / STEP,
                (region.y1 - hole.y0) / STEP,
            ),
            fill=0,
        )
    return mask


@dataclass(frozen=True)
class Difference:
    mean: list[float]  # mean absolute difference per channel
    within: float  # share of samples whose every channel differs by at most 24
    samples: int

    @property
    def alike(self) -> bool:
        return max(self.mean) < 3 and self.within >= 0.99


def worst_channel(one: Image.Image, other: Image.Image) -> Image.Image:
    """Per sample, the largest difference of its three channels."""
    r, g, b = ImageChops.difference(one, other).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


def difference(one: Image.Image, other: Image.Image, mask: Image.Image | None) -> Difference:
    diff = ImageChops.difference(one, other)
    worst = worst_channel(one, other)
    histogram = worst.histogram(mask)
    total = sum(histogram)
    assert total > 0
    return Difference(ImageStat.Stat(diff, mask).mean, sum(histogram[:25]) / total, total)


@pytest.fixture(scope="module")
def rendered(packs):
    """The full 400 x 280 board tiled on A4 and whole on A3, rendered."""
    tiled, whole = packs("400 x 280", "a4"), packs("400 x 280", "a3")
    (whole_item,) = whole.items
    assert whole_item["tile"] == "whole"
    tiled_images = render(tiled.pdf, [t.page for t in tiled.tiles])
    whole_image = render(whole.pdf, [whole_item["page"]])[whole_item["page"]]
    return tiled, tiled_images, whole, whole_item, whole_image


def test_each_tile_shows_its_part_of_the_whole_board(rendered):
    tiled, images, whole, whole_item, whole_image = rendered
    strips = {t.label: glue_strips(tiled, t) for t in tiled.tiles}
    for t in tiled.tiles:
        region = t.window.shrink(CUT)
        shown = sample(images[t.page], tiled.paper, t.item, region)
        reference = sample(whole_image, whole.paper, whole_item, region)
        holes = [s.shrink(-HOLE) for s in strips[t.label]]
        diff = difference(shown, reference, mask_without(region, holes))
        assert diff.alike, (t.label, diff)


def test_the_shared_strips_match_on_the_covering_tile_and_are_hatched_on_the_covered(rendered):
    tiled, images, whole, whole_item, whole_image = rendered
    tiles = tiled.tiles
    strips = {t.label: glue_strips(tiled, t) for t in tiles}
    pairs = neighbours(tiles)
    assert pairs
    for covered, covering, _ in pairs:
        strip = covered.window.intersect(covering.window)
        region = strip.shrink(CUT)
        reference = sample(whole_image, whole.paper, whole_item, region)
        # on the covering tile the strip is art, as on the whole board (except where that
        # tile's own glue strips cross it, in a corner)
        holes = [s.shrink(-HOLE) for s in strips[covering.label]]
        on_top = sample(images[covering.page], tiled.paper, covering.item, region)
        diff = difference(on_top, reference, mask_without(region, holes))
        assert diff.alike, (covering.label, "over", covered.label, diff)
        # on the covered tile it is hatched: plainly different from the art
        below = sample(images[covered.page], tiled.paper, covered.item, region)
        diff = difference(below, reference, None)
        assert diff.within < 0.95 and max(diff.mean) > 5, (covered.label, diff)


def test_the_tiles_differ_from_the_whole_board_only_inside_the_glue_strips(rendered):
    """The converse of the test above: without leaving the strips out, the only samples that
    differ are inside them."""
    tiled, images, whole, whole_item, whole_image = rendered
    for t in tiled.tiles:
        region = t.window.shrink(CUT)
        shown = sample(images[t.page], tiled.paper, t.item, region)
        reference = sample(whole_image, whole.paper, whole_item, region)
        worst = worst_channel(shown, reference)
        outside = mask_without(region, [s.shrink(-HOLE) for s in glue_strips(tiled, t)])
        # the samples differing by more than 64 that lie outside every strip
        strong = worst.point(lambda v: 255 if v > 64 else 0)
        stray = ImageChops.multiply(strong, outside)
        count = sum(stray.histogram()[1:])
        assert count <= 0.002 * outside.width * outside.height, (t.label, count)


# --- boards that fit the page ---------------------------------------------------------------

WHOLE = [  # (width, height, bleed, paper)
    (190, 270, 0, "a4"),  # fits upright
    (270, 190, 0, "a4"),  # fits only turned
    (150, 150, 0, "a4"),
    (100, 60, 0, "a4"),  # fits either way: stays upright
    (180, 260, 3, "a4"),  # with bleed
    (400, 280, 0, "a3"),  # the README's example board, whole on A3
    (403.5, 280.5, 0, "a3"),  # the largest A3 holds (turned), with no room for a footer label
]


def fits(w: float, h: float, paper: tuple[float, float]) -> bool:
    """Whether a w x h box (bleed included) fits the printable area with crop-mark room, with
    or without the footer band."""
    pw, ph = paper
    room_w = pw - 2 * MARGIN - 2 * MARK_ROOM
    room_h = ph - 2 * MARGIN - 2 * MARK_ROOM
    return w <= room_w + 1e-9 and h <= room_h + 1e-9


@pytest.mark.parametrize("w, h, bleed, paper", WHOLE)
def test_a_board_that_fits_prints_whole_at_its_exact_size(tmp_path, pnp, w, h, bleed, paper):
    pack = build_board(pnp, tmp_path, plain_board(w, h, bleed), paper, (w, h), bleed)
    (item,) = pack.items
    assert item["tile"] == "whole" and item["kind"] == "board"
    assert (item["board_x_mm"], item["board_y_mm"]) == (0, 0)
    assert (item["board_w_mm"], item["board_h_mm"]) == (w, h)
    # no assembly map, no further sheets: the board's sheet has nothing on its back
    assert pack.manifest["pages"] == item["page"] + 1
    assert not pack.pages[item["page"]].forms and not pack.chars[item["page"]]
    page = pack.pages[item["page"] - 1]
    (form,) = page.forms
    upright = fits(w + 2 * bleed, h + 2 * bleed, pack.paper)
    assert upright or fits(h + 2 * bleed, w + 2 * bleed, pack.paper)
    expected_turn = 0 if upright else 90
    assert abs(form.rotation) == expected_turn, (form.rotation, expected_turn)
    assert abs(item["rotation"]) == expected_turn
    on_page = (w, h) if expected_turn == 0 else (h, w)
    trim = form.box.shrink(bleed)
    assert abs(trim.w - on_page[0]) <= TOL and abs(trim.h - on_page[1]) <= TOL, trim
    assert trim.close_to(
        Box(item["x_mm"], item["y_mm"], item["x_mm"] + item["w_mm"], item["y_mm"] + item["h_mm"]),
        EPS,
    )
    pw, ph = pack.paper
    assert form.box.inside(Box(MARGIN, MARGIN, pw - MARGIN, ph - MARGIN), EPS), form.box
    # crop marks at the four trim lines, outside the bleed
    marks = [s for s in page.strokes if s.clip_box is None]
    for x in (trim.x0, trim.x1):
        assert any(s.vertical and abs(s.x0 - x) < EPS for s in marks), ("x", x)
    for y in (trim.y0, trim.y1):
        assert any(s.horizontal and abs(s.y0 - y) < EPS for s in marks), ("y", y)
    for s in marks:
        assert form.box.distance(s.box) >= MARK_GAP - EPS, s
        assert s.box.inside(Box(MARGIN, MARGIN, pw - MARGIN, ph - MARGIN), EPS), s


# --- structure validation -------------------------------------------------------------------

VALID = """\
kind: board
title: Small board
size: 150 x 100
icons: icons.svg.j2
groups:
  - {name: north, fill: "#dfe9f5"}
regions:
  - {name: field, group: north, polygon: [[10, 10], [60, 10], [60, 60]]}
spaces:
  - {name: camp, at: [100, 30]}
  - {name: fort, at: [120, 30]}
tracks:
  - name: score
    values: 0-5
    path: [[10, 90], [140, 90]]
    count: 6
tables:
  - name: points
    at: [80, 50]
    widths: [20, 20]
    header: [Tiles, Points]
    rows:
      - ["1", "2"]
      - ["2", "4"]
icons_at:
  - {icon: star, at: [130, 60], points_to: field}
connections:
  - {from: camp, to: fort}
"""


@dataclass(frozen=True)
class Mistake:
    """One change to VALID: replace ``old`` by ``new``; the error must point at a line
    containing one of ``lines`` (the first such line at or after ``after``) and name every
    word of ``words``."""

    old: str
    new: str
    lines: tuple[str, ...]
    words: tuple[str, ...]
    after: str = ""


MISTAKES = {
    "connection to a missing space": Mistake(
        "{from: camp, to: fort}", "{from: camp, to: fortress}", ("fortress",), ("fortress",)
    ),
    "arrow to a missing region": Mistake(
        "points_to: field}", "points_to: meadow}", ("meadow",), ("meadow",)
    ),
    "region in an unknown group": Mistake(
        "{name: field, group: north,", "{name: field, group: south,", ("south",), ("south",)
    ),
    "track count that disagrees with its values": Mistake(
        "    count: 6\n", "    count: 7\n", ("- name: score", "count: 7"), ("score", "7", "6")
    ),
    "track marks on values it lacks": Mistake(
        "    count: 6\n",
        "    count: 6\n    marks: {9: star}\n",
        ("- name: score", "marks:"),
        ("score", "9"),
    ),
    "two spaces with the same name": Mistake(
        "  - {name: fort, at: [120, 30]}",
        "  - {name: fort, at: [120, 30]}\n  - {name: camp, at: [100, 70]}",
        ("name: camp",),
        ("camp",),
        after="name: fort",
    ),
    "table row with the wrong number of cells": Mistake(
        '      - ["2", "4"]', '      - ["2"]', ('- ["2"]', "- name: points"), ("points", "1", "2")
    ),
}


def run_check(pnp, tmp_path: Path, board: str, expect: str = ""):
    write_game(tmp_path / "components", board, expect)
    return pnp("check", "g", "--components", tmp_path / "components")


def error_lines(stderr: str) -> list[tuple[Path, int, str]]:
    """``file:LINE: message`` lines of the CLI's error output, with the file resolved."""
    out = []
    for line in stderr.splitlines():
        match = re.match(r"^(.+?):(\d+): (.*)$", line)
        if match:
            out.append((Path(match[1]).resolve(), int(match[2]), match[3]))
    return out


def lines_matching(text: str, needles: tuple[str, ...], after: str = "") -> set[int]:
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if after and after in line), -1) + 1
    return {i + 1 for i, line in enumerate(lines) if i >= start and any(n in line for n in needles)}


def test_the_valid_board_checks_clean(tmp_path, pnp):
    result = run_check(pnp, tmp_path, VALID)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("case", MISTAKES, ids=list(MISTAKES))
def test_a_structural_mistake_is_an_error_at_its_line(tmp_path, pnp, case):
    mistake = MISTAKES[case]
    assert mistake.old in VALID
    board = VALID.replace(mistake.old, mistake.new, 1)
    result = run_check(pnp, tmp_path, board)
    assert result.exit_code == 2, result.output
    path = (tmp_path / "components" / "g" / "board.yaml").resolve()
    errors = [(n, m) for p, n, m in error_lines(result.stderr) if p == path]
    assert len(errors) == 1, result.stderr
    line, message = errors[0]
    expected = lines_matching(board, mistake.lines, mistake.after)
    assert line in expected, f"{case}: line {line}, expected one of {sorted(expected)}: {message}"
    for word in mistake.words:
        assert re.search(rf"\b{re.escape(word)}\b", message), (case, word, message)


SPACE = "  - {name: fort, at: [120, 30]}"
DUPLICATES = {  # case: (replacements in VALID, the name, the line of its second use)
    "a space named like a region": (
        [(SPACE, SPACE + "\n  - {name: field, at: [100, 70]}")],
        "field",
        "{name: field, at:",
    ),
    "a row whose spaces repeat a space's name": (
        [
            (SPACE, SPACE + "\n  - {name: lane-2, at: [100, 70]}"),
            (
                "connections:",
                "rows:\n  - {name: lane, path: [[10, 70], [50, 70]], count: 3}\nconnections:",
            ),
        ],
        "lane-2",
        "{name: lane, path:",
    ),
    "two groups": (
        [
            (
                '  - {name: north, fill: "#dfe9f5"}',
                '  - {name: north, fill: "#dfe9f5"}\n  - {name: north, fill: "#f5e0d0"}',
            )
        ],
        "north",
        '{name: north, fill: "#f5e0d0"}',
    ),
    "two track segments repeating a value": (
        [("tables:", "  - {name: score, values: 5-9, path: [[10, 80], [140, 80]]}\ntables:")],
        "score-5",
        "{name: score, values: 5-9",
    ),
    "two tables": (
        [("icons_at:", '  - {name: points, at: [80, 70], widths: [20], rows: [["x"]]}\nicons_at:')],
        "points",
        "{name: points, at: [80, 70]",
    ),
}


@pytest.mark.parametrize("case", DUPLICATES, ids=list(DUPLICATES))
def test_two_things_with_the_same_name_are_refused(tmp_path, pnp, case):
    """README: "every name is unique" -- and ``expect: board/<name>`` must mean one thing."""
    replacements, name, second = DUPLICATES[case]
    board = VALID
    for old, new in replacements:
        assert old in board
        board = board.replace(old, new, 1)
    result = run_check(pnp, tmp_path, board)
    assert result.exit_code == 2, f"{case}: accepted\n{result.output}"
    path = (tmp_path / "components" / "g" / "board.yaml").resolve()
    errors = [(n, m) for p, n, m in error_lines(result.stderr) if p == path]
    assert any(re.search(rf"'{re.escape(name)}'", m) for _, m in errors), errors
    # one error, at the second use of the name
    assert [n for n, _ in errors] == sorted(lines_matching(board, (second,))), (case, errors)


def test_a_track_may_continue_in_segments(tmp_path, pnp):
    """A track that bends around a board is given in segments under one name; their spaces
    count together as long as no value repeats."""
    segment = "  - {name: score, values: 6-9, path: [[10, 80], [140, 80]]}\ntables:"
    board = VALID.replace("tables:", segment, 1)
    result = run_check(pnp, tmp_path, board)
    assert result.exit_code == 0, result.output
    spec = BoardSpec.model_validate(yaml.safe_load(board))
    assert spec.counts()["score"] == 10


def test_every_structural_mistake_of_a_board_is_listed(tmp_path, pnp):
    """README: every mistake is listed, nothing is built -- not only the first one found."""
    board = VALID.replace("to: fort}", "to: fortress}").replace("points_to: field", "points_to: x")
    result = run_check(pnp, tmp_path, board)
    assert result.exit_code == 2, result.output
    messages = [m for _, _, m in error_lines(result.stderr)]
    assert any("fortress" in m for m in messages), messages
    assert any("'x'" in m for m in messages), messages


def test_a_structural_mistake_stops_the_build(tmp_path, pnp):
    write_game(tmp_path / "components", VALID.replace("to: fort}", "to: fortress}"))
    result = pnp("build", "g", "--components", tmp_path / "components", "--out", tmp_path / "o")
    assert result.exit_code == 2, result.output
    assert "fortress" in result.stderr
    assert not (tmp_path / "o" / "g").exists() or not any((tmp_path / "o" / "g").iterdir())


# --- pnp check: what a board holds ----------------------------------------------------------

COUNTED = """\
kind: board
title: Counted board
size: 200 x 150
groups:
  - {name: north}
  - {name: towns}
regions:
  - {name: field, group: north, polygon: [[10, 10], [60, 10], [60, 60]]}
  - {name: wood, polygon: [[70, 10], [120, 10], [120, 60]]}
grids:
  - {prefix: sq, layout: square, origin: [130, 10], size: 10, cols: 2, rows: 3, group: north}
spaces:
  - {name: camp, at: [100, 80], group: towns}
  - {name: fort, at: [120, 80], group: north}
rows:
  - {name: reserve, path: [[10, 100], [90, 100]], count: 4, group: towns}
tracks:
  - {name: score, values: 0-9, path: [[10, 140], [190, 140]]}
tables:
  - {name: points, at: [130, 90], widths: [20, 20], rows: [["1", "2"]]}
connections:
  - {from: camp, to: fort}
  - {from: field, to: wood}
"""
# Counted from COUNTED by hand: 2 regions + 6 grid cells; north holds field, six cells and
# fort; towns holds camp and the four reserve spaces.
COUNTS = {
    "board": 1,
    "board/regions": 8,
    "board/north": 8,
    "board/towns": 5,
    "board/score": 10,
    "board/reserve": 4,
    "board/spaces": 2,
    "board/tables": 1,
    "board/connections": 2,
}


def check_table(stdout: str) -> dict[str, tuple[str, str, str]]:
    """The rows of ``pnp check``'s table: key -> (expected, generated, status)."""
    rows = {}
    for line in stdout.splitlines():
        match = re.match(r"^\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S.*)$", line)
        if match and match[1] != "component":
            rows[match[1]] = (match[2], match[3], match[4].strip())
    return rows


def test_check_counts_what_a_board_holds(tmp_path, pnp):
    expect = "".join(f"{k}: {n}\n" for k, n in COUNTS.items())
    result = run_check(pnp, tmp_path, COUNTED, expect)
    assert result.exit_code == 0, result.output
    table = check_table(result.stdout)
    for key, n in COUNTS.items():
        assert table.get(key) == (str(n), str(n), "ok"), (key, table.get(key))


@pytest.mark.parametrize("key", [k for k in COUNTS if k != "board"])
def test_check_fails_on_a_board_count_that_does_not_match(tmp_path, pnp, key):
    counts = {**COUNTS, key: COUNTS[key] + 1}
    expect = "".join(f"{k}: {n}\n" for k, n in counts.items())
    result = run_check(pnp, tmp_path, COUNTED, expect)
    assert result.exit_code == 1, result.output
    game = (tmp_path / "components" / "g" / "game.yaml").resolve()
    errors = error_lines(result.stderr)
    line = lines_matching(game.read_text("utf-8"), (f"{key}:",))
    assert [(p, n) for p, n, _ in errors] == [(game, min(line))], result.stderr
    assert key in errors[0][2] and str(COUNTS[key]) in errors[0][2], errors
    assert check_table(result.stdout)[key] == (str(counts[key]), str(COUNTS[key]), "MISMATCH")


@pytest.mark.parametrize(("size", "paper"), [((400, 280), "a4"), ((272, 190), "letter")])
def test_tiles_are_one_size_and_keep_the_bleed_on_the_boards_outer_edges(
    tmp_path, pnp, size, paper
):
    """No tile is a sliver: every tile shows a window of the same size. Each tile's art runs
    out into the bleed on every edge seen once glued: the board's own edges and its seams (its
    left edge, where it lies on the tile to its left, and its top, where it lies on the row
    above), so cutting a little outside the line shows art, not paper; it stops at the trim
    where another tile covers it."""
    bleed = 2.0
    w, h = size
    pack = build_board(pnp, tmp_path, plain_board(w, h, bleed), paper, size, bleed)
    tiles = pack.tiles
    windows = {}
    for t in tiles:  # the trim window of each tile, from the manifest
        i = t.item
        tw, th = (i["h_mm"], i["w_mm"]) if abs(i["rotation"]) == 90 else (i["w_mm"], i["h_mm"])
        windows[t.label] = Box(
            i["board_x_mm"], i["board_y_mm"], i["board_x_mm"] + tw, i["board_y_mm"] + th
        )
    sizes = {(round(b.w, 2), round(b.h, 2)) for b in windows.values()}
    assert len(tiles) > 1 and len(sizes) == 1, sizes
    for t in tiles:
        win = windows[t.label]
        want = Box(
            win.x0 - bleed,
            win.y0 - (bleed if win.y0 < EPS else 0),
            win.x1 + (bleed if win.x1 > w - EPS else 0),
            win.y1 + bleed,
        )
        assert t.window.close_to(want, EPS), (t.label, t.window, want)  # what the art shows
