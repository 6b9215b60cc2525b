"""Tokens, dice and token pages, read back from the PDF.

Every game here is synthetic, written under ``tmp_path``. Expected geometry comes from the spec
values (a 16 mm circle, hexagons 25 mm across the flats, ...) and plain geometry, never from
the engine's own shape code; the sheet constants (margin, footer band, cutting gap) are read
from ``generator/model/sizes.yaml``, the data file the README points at. The PDF is read with
``tests/pdfread.py``: a form XObject's ``/BBox`` on the page is a piece's bleed box, stroked
paths are cut and fold lines, clipping paths shape the art.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import textwrap
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import TOKEN_BACK, TOKEN_FACE
from pdfread import Box, DrawnPath, FormUse, PageContent, read_form, read_pages

REPO = Path(__file__).resolve().parent.parent
SHEET = yaml.safe_load((REPO / "generator" / "model" / "sizes.yaml").read_text("utf-8"))["sheet"]
MARGIN = float(SHEET["margin"])
FOOTER = float(SHEET["footer"])
GAP = float(SHEET["piece_gap"])
A4 = (210.0, 297.0)
TOL = 0.1  # mm, for shapes
EPS = 0.01  # mm, for positions the engine computes exactly
ROOT3 = math.sqrt(3.0)

FACE = TOKEN_FACE
BACK = TOKEN_BACK
# A die face fills its face exactly, so the six faces can be found inside the net's art.
DIE_FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#fafad2"/>
  <text x="{{ box.cx }}" y="{{ box.cy }}" font-family="sans-serif" font-size="6"
        text-anchor="middle">{{ face }}</text>
</svg>
"""
HEADER = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#eeeeee"/>
  <text x="3" y="10" font-family="sans-serif" font-size="6">{{ page.title }}</text>
</svg>
"""
TEMPLATES = {"face.svg.j2": FACE, "back.svg.j2": BACK, "die.svg.j2": DIE_FACE, "h.svg.j2": HEADER}

COLOURS = """\
colours:
  - {name: red, label: Red, colour: "#c0392b"}
  - {name: blue, label: Blue, colour: "#2040c0"}
"""


def write_game(components: Path, files: dict[str, str], name: str = "game") -> Path:
    """A game folder ``components/name`` with ``files`` (dedented) and the test templates;
    returns the game folder."""
    root = components / name
    (root / "templates").mkdir(parents=True, exist_ok=True)
    for file, content in files.items():
        (root / file).write_text(textwrap.dedent(content), encoding="utf-8")
    for file, content in TEMPLATES.items():
        (root / "templates" / file).write_text(content, encoding="utf-8")
    return root


def game_yaml(colours: bool = True, expect: str = "") -> str:
    text = "title: Token test\nplayers: 2\npaper: a4\n" + (COLOURS if colours else "")
    return text + (f"expect:\n{textwrap.indent(textwrap.dedent(expect), '  ')}" if expect else "")


def line_of(path: Path, needle: str, nth: int = 1) -> int:
    """The 1-based line number of the ``nth`` line of ``path`` containing ``needle``."""
    hits = [i for i, line in enumerate(path.read_text("utf-8").splitlines(), 1) if needle in line]
    return hits[nth - 1]


def error_lines(stderr: str) -> list[tuple[Path, int, str]]:
    """``file:LINE: message`` lines of the CLI's error output, with the file resolved."""
    out = []
    for line in stderr.splitlines():
        match = re.match(r"^(.+?):(\d+): (.*)$", line)
        if match:
            out.append((Path(match[1]).resolve(), int(match[2]), match[3]))
    return out


@dataclass(eq=False)
class Built:
    """A built game read back: the PDF's pages, its manifest, the game folder."""

    pdf: Path
    pages: list[PageContent]
    manifest: dict
    root: Path

    def page(self, number: int) -> PageContent:
        return self.pages[number - 1]

    def items(self, **match: object) -> list[dict]:
        return [i for i in self.manifest["items"] if all(i[k] == v for k, v in match.items())]

    def side_pages(self, side: str) -> list[PageContent]:
        pages = {i["page"] for i in self.items(side=side)}
        return [p for p in self.pages if p.number in pages]


def build(pnp, components: Path, out: Path, game: str = "game") -> Built:
    result = pnp("build", game, "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    pdf = out / game / f"{game}.pdf"
    manifest = json.loads((out / game / "manifest.json").read_text("utf-8"))
    return Built(pdf, read_pages(pdf), manifest, components / game)


# --- the mixed counter sheet game ----------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """What the spec of one component says about its pieces."""

    shape: str
    trim: tuple[float, float]  # mm
    bleed: float
    back: bool
    count: int
    size: float = 0.0  # the spec's single size (diameter, across the flats)
    corner: float = 0.0

    @property
    def bleed_box(self) -> tuple[float, float]:
        return self.trim[0] + 2 * self.bleed, self.trim[1] + 2 * self.bleed


HEX_FLAT, HEX_POINTY, SHIELD = 25.0, 25.0, 20.0
DIE_EDGE = 16.0
KINDS = {
    # crew: 6 per colour x 2 colours; move: 1-9 with counts per value
    "crew": Kind("circle", (16.0, 16.0), 1.0, True, 12 + 16, size=16.0),
    "flat": Kind("hex-flat", (2 * HEX_FLAT / ROOT3, HEX_FLAT), 1.5, False, 3, size=HEX_FLAT),
    "pointy": Kind("hex-pointy", (HEX_POINTY, 2 * HEX_POINTY / ROOT3), 1.0, False, 3, HEX_POINTY),
    "shields": Kind("hex-pointy", (SHIELD, 2 * SHIELD / ROOT3), 1.0, True, 2, size=SHIELD),
    "banners": Kind("rounded", (40.0, 14.0), 2.0, True, 4, corner=3.0),
}
MOVE_COUNTS = [3, 3, 2, 2, 2, 1, 1, 1, 1]
DICE = {"d6": 2, "odd": 1}

MIXED_FILES = {
    "game.yaml": game_yaml(),
    "crew.yaml": f"""\
        kind: tokens
        title: Crew and moves
        shape: circle
        size: 16
        bleed: 1
        face: face.svg.j2
        back: back.svg.j2
        tokens:
          - name: crew
            per_player: 6
          - name: move
            series: 1-9
            counts: {MOVE_COUNTS}
        """,
    "flat.yaml": """\
        kind: tokens
        title: Flat hexes
        shape: hex-flat
        size: 25
        bleed: 1.5
        face: face.svg.j2
        tokens:
          - name: flat
            count: 3
        """,
    "pointy.yaml": """\
        kind: tokens
        title: Pointy hexes
        shape: hex-pointy
        size: 25
        face: face.svg.j2
        tokens:
          - name: pointy
            count: 3
        """,
    "shields.yaml": """\
        kind: tokens
        title: Shields
        shape: hex-pointy
        size: 20
        face: face.svg.j2
        back: back.svg.j2
        tokens:
          - name: shield
            count: 2
        """,
    "banners.yaml": """\
        kind: tokens
        title: Banners
        shape: rounded
        size: 40 x 14
        corner: 3
        bleed: 2
        face: face.svg.j2
        back: back.svg.j2
        tokens:
          - name: banner
            count: 4
        """,
    "dice.yaml": f"""\
        kind: dice
        title: Dice
        size: {DIE_EDGE:g}
        face: die.svg.j2
        dice:
          - name: d6
            count: {DICE["d6"]}
          - name: odd
            count: {DICE["odd"]}
            faces: [1, 1, 3, 3, 5, 5]
        """,
}


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory, pnp) -> Built:
    base = tmp_path_factory.mktemp("mixed")
    write_game(base / "components", MIXED_FILES)
    return build(pnp, base / "components", base / "out")


def is_die_box(box: Box) -> bool:
    """A die net's bleed box (no bleed): at least the 3 x 4 faces of a cross-shaped net, at
    most one more face each way for the glue tabs."""
    return (
        3 * DIE_EDGE - EPS <= box.w <= 4 * DIE_EDGE + EPS
        and 4 * DIE_EDGE - EPS <= box.h <= 5 * DIE_EDGE + EPS
    )


def kind_of(form: FormUse) -> str:
    """Which component a placed form belongs to, from its size alone."""
    if is_die_box(form.box):
        return "dice"
    found = [
        k
        for k, kind in KINDS.items()
        if abs(form.box.w - kind.bleed_box[0]) <= EPS and abs(form.box.h - kind.bleed_box[1]) <= EPS
    ]
    assert len(found) == 1, f"a {form.box.w:.3f} x {form.box.h:.3f} mm form matches {found}"
    return found[0]


def trim_of(form: FormUse) -> Box:
    kind = kind_of(form)
    return form.box if kind == "dice" else form.box.shrink(KINDS[kind].bleed)


def inside(box: Box, outer: Box, tol: float = EPS) -> bool:
    return (
        box.x0 >= outer.x0 - tol
        and box.y0 >= outer.y0 - tol
        and box.x1 <= outer.x1 + tol
        and box.y1 <= outer.y1 + tol
    )


def centre(box: Box) -> tuple[float, float]:
    return (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2


def paths_in(page: PageContent, box: Box, *, clip: bool) -> list[DrawnPath]:
    """Stroked (or clipping) paths whose box's centre lies in ``box``."""
    return [
        p
        for p in page.paths
        if (p.clip if clip else p.stroked) and p.box.centre_in(box) and p.box.w < box.w + 3
    ]


def circle_of(path: DrawnPath) -> tuple[float, float, float]:
    """Centre and radius of a stroked circle, checking it is one: four Bézier arcs whose ends
    and middles all lie on it."""
    assert len(path.curves) == 4 and not path.lines, path
    cx, cy = centre(path.box)
    radius = path.box.w / 2
    for piece in path.curves:
        for t in (0.0, 0.5, 1.0):
            x, y = piece.at(t)
            assert abs(math.hypot(x - cx, y - cy) - radius) <= TOL, (piece, t)
    return cx, cy, radius


def hex_corners(cx: float, cy: float, across_flats: float, pointy: bool) -> list[tuple]:
    """The six corners of a regular hexagon; flat: corners left and right, pointy: top and
    bottom."""
    radius = across_flats / ROOT3
    start = 90 if pointy else 0
    return [
        (cx + radius * math.cos(math.radians(start + 60 * i)),
         cy + radius * math.sin(math.radians(start + 60 * i)))
        for i in range(6)
    ]  # fmt: skip


def same_points(found: list[tuple], expected: list[tuple], tol: float = TOL) -> bool:
    """Whether every expected point has a found one within ``tol`` and the counts agree."""
    left = list(found)
    for ex, ey in expected:
        hit = next((p for p in left if math.hypot(p[0] - ex, p[1] - ey) <= tol), None)
        if hit is None:
            return False
        left.remove(hit)
    return not left


def _length(piece) -> float:
    (x0, y0), (x1, y1) = piece.start, piece.end
    return math.hypot(x1 - x0, y1 - y0)


def hex_path_corners(path: DrawnPath) -> list[tuple]:
    assert len(path.lines) == 6 and not path.curves, path
    return [piece.start for piece in path.lines]


def test_pieces_and_counts_on_the_sheets(mixed: Built):
    fronts = mixed.side_pages("front")
    found = Counter(kind_of(f) for page in fronts for f in page.forms)
    assert found == {**{k: kind.count for k, kind in KINDS.items()}, "dice": sum(DICE.values())}
    names = Counter(i["name"] for i in mixed.items(side="front"))
    assert names["crew-red"] == names["crew-blue"] == 6
    assert [names[f"move-{v}"] for v in range(1, 10)] == MOVE_COUNTS
    # some 60% of an A4 sheet's printable area with gaps: one counter sheet (and its backs)
    assert len(fronts) == 1


def test_art_forms_are_the_shapes_grown_by_the_bleed(mixed: Built):
    """Each form's bleed box is its shape's box grown by the bleed, upright, at true size."""
    for page in mixed.side_pages("front") + mixed.side_pages("back"):
        for form in page.forms:
            kind = kind_of(form)  # fails unless the size is exactly one expected bleed box
            assert form.rotation == 0 and form.determinant > 0, (page.number, kind)


def test_cut_lines_follow_the_shapes(mixed: Built):
    for page in mixed.side_pages("front"):
        for form in page.forms:
            name = kind_of(form)
            if name == "dice":
                continue
            kind = KINDS[name]
            trim = form.box.shrink(kind.bleed)
            cx, cy = centre(trim)
            cuts = paths_in(page, form.box, clip=False)
            assert len(cuts) == 1, f"page {page.number}: {len(cuts)} cut paths on a {name}"
            cut = cuts[0]
            if kind.shape == "circle":
                x, y, radius = circle_of(cut)
                assert math.hypot(x - cx, y - cy) <= TOL and abs(2 * radius - kind.size) <= TOL
                assert cut.box.close_to(trim, TOL)  # the four arcs' extent: the diameter
            elif kind.shape.startswith("hex"):
                expected = hex_corners(cx, cy, kind.size, kind.shape == "hex-pointy")
                assert same_points(hex_path_corners(cut), expected), (name, cut)
            else:
                assert cut.box.close_to(trim, TOL), (cut.box, trim)
                assert len(cut.curves) == 4 and len(cut.lines) >= 4, cut
                straight = sorted(round(_length(p), 1) for p in cut.lines if _length(p) > EPS)
                w, h = kind.trim
                c = kind.corner
                assert straight == sorted([w - 2 * c] * 2 + [h - 2 * c] * 2), straight
                for arc in cut.curves:  # each corner arc: a quarter circle of the corner radius
                    (x0, y0), (x1, y1) = arc.start, arc.end
                    assert abs(abs(x1 - x0) - c) <= TOL and abs(abs(y1 - y0) - c) <= TOL, arc


def test_token_art_is_clipped_to_the_shape_grown_by_the_bleed(mixed: Built):
    for page in mixed.side_pages("front") + mixed.side_pages("back"):
        for form in page.forms:
            name = kind_of(form)
            if name == "dice":
                continue
            kind = KINDS[name]
            cx, cy = centre(form.box)
            clips = paths_in(page, form.box, clip=True)
            assert len(clips) == 1, f"page {page.number}: {len(clips)} clips on a {name}"
            clip = clips[0]
            if kind.shape == "circle":
                x, y, radius = circle_of(clip)
                assert math.hypot(x - cx, y - cy) <= TOL
                assert abs(radius - (kind.size / 2 + kind.bleed)) <= TOL
            elif kind.shape.startswith("hex"):
                expected = hex_corners(
                    cx, cy, kind.size + 2 * kind.bleed, kind.shape == "hex-pointy"
                )
                assert same_points(hex_path_corners(clip), expected), (name, clip)
            else:
                assert clip.box.close_to(form.box, TOL)


def test_no_cut_lines_on_back_pages(mixed: Built):
    backs = mixed.side_pages("back")
    assert backs
    for page in backs:
        assert not page.strokes and not any(p.stroked for p in page.paths), page.number


def test_double_sided_backs_land_behind_their_fronts(mixed: Built):
    pw = mixed.manifest["paper_mm"][0]
    fronts = mixed.items(side="front")
    backs = {(i["component"], i["name"], i["copy"]): i for i in mixed.items(side="back")}
    double = [i for i in fronts if i["component"] in KINDS and KINDS[i["component"]].back]
    assert len(backs) == len(double) == sum(k.count for k in KINDS.values() if k.back)
    for item in double:
        back = backs[(item["component"], item["name"], item["copy"])]
        assert back["page"] == item["page"] + 1
        assert abs(back["x_mm"] - (pw - item["x_mm"] - item["w_mm"])) <= EPS
        assert abs(back["y_mm"] - item["y_mm"]) <= EPS
        assert (back["w_mm"], back["h_mm"]) == (item["w_mm"], item["h_mm"])
    for front in mixed.side_pages("front"):
        back = mixed.page(front.number + 1)
        single = [f for f in front.forms if kind_of(f) in ("dice", "flat", "pointy")]
        assert not any(kind_of(f) in ("dice", "flat", "pointy") for f in back.forms)
        wanted = [
            Box(pw - f.box.x1, f.box.y0, pw - f.box.x0, f.box.y1)
            for f in front.forms
            if f not in single
        ]
        got = [f.box for f in back.forms]
        assert len(got) == len(wanted)
        for box in wanted:
            assert any(box.close_to(g, EPS) for g in got), f"no back behind {box}"
        # the shape itself lands behind: circle and hexagon outlines mirror onto the back's clips
        for form in front.forms:
            name = kind_of(form)
            if name not in ("crew", "shields"):
                continue
            cut = paths_in(front, form.box, clip=False)[0]
            mirrored = Box(pw - form.box.x1, form.box.y0, pw - form.box.x0, form.box.y1)
            clip = paths_in(back, mirrored, clip=True)[0]
            if name == "crew":
                (fx, fy, _), (bx, by, _) = circle_of(cut), circle_of(clip)
                assert abs(bx - (pw - fx)) <= TOL and abs(by - fy) <= TOL
            else:
                flipped = [(pw - x, y) for x, y in hex_path_corners(cut)]
                bx, by = centre(clip.box)
                grown = hex_corners(bx, by, SHIELD, pointy=True)  # the clip's trim hexagon
                assert same_points(flipped, grown), (flipped, grown)


def test_pieces_keep_the_cutting_gap_and_the_margin(mixed: Built):
    pw, ph = mixed.manifest["paper_mm"]
    for page in mixed.side_pages("front") + mixed.side_pages("back"):
        for a, b in itertools.combinations(page.forms, 2):
            dx, dy = a.box.overlap(b.box)
            assert dx <= EPS or dy <= EPS, f"page {page.number}: {a.box} overlaps {b.box}"
            assert a.box.distance(b.box) >= GAP - EPS, (
                f"page {page.number}: {a.box.distance(b.box):.3f} mm between {a.box} and {b.box}"
            )
        drawn = [f.box for f in page.forms] + [s.box for s in page.strokes]
        drawn += [p.box for p in page.paths if p.stroked]
        for box in drawn:
            assert box.x0 >= MARGIN - EPS and box.y0 >= MARGIN - EPS, (page.number, box)
            assert box.x1 <= pw - MARGIN + EPS and box.y1 <= ph - MARGIN + EPS, (page.number, box)


def test_manifest_items_match_the_pdf(mixed: Built):
    shapes = {k: kind.shape for k, kind in KINDS.items()}
    for item in mixed.manifest["items"]:
        if item["component"] == "dice":
            assert (item["kind"], item["shape"]) == ("die", "net"), item
        else:
            assert item["kind"] == "token" and item["shape"] == shapes[item["component"]], item
            kind = KINDS[item["component"]]
            assert (item["w_mm"], item["h_mm"]) == pytest.approx(kind.trim, abs=EPS)
            assert item["bleed_mm"] == pytest.approx(kind.bleed)
    for page in mixed.pages:
        items = mixed.items(page=page.number)
        assert len(items) == len(page.forms), page.number
        left = [trim_of(f) for f in page.forms]
        kinds = [kind_of(f) for f in page.forms]
        for item in items:
            box = Box(
                item["x_mm"], item["y_mm"], item["x_mm"] + item["w_mm"], item["y_mm"] + item["h_mm"]
            )
            hit = next(
                (
                    i
                    for i, t in enumerate(left)
                    if t.close_to(box, EPS) and kinds[i] == item["component"]
                ),
                None,
            )
            assert hit is not None, f"page {page.number}: no {item['component']} form at {box}"
            left.pop(hit)
            kinds.pop(hit)
    assert mixed.manifest["pages"] == len(mixed.pages)


# --- dice ----------------------------------------------------------------------------------


def die_forms(built: Built) -> list[tuple[PageContent, FormUse]]:
    return [(p, f) for p in built.side_pages("front") for f in p.forms if kind_of(f) == "dice"]


def test_die_net_has_six_faces_in_a_cross(mixed: Built):
    dice = die_forms(mixed)
    assert len(dice) == sum(DICE.values())
    for page, form in dice:
        inside = read_form(mixed.pdf, page.number, form)
        faces = [
            b for b in inside.painted if abs(b.w - DIE_EDGE) <= EPS and abs(b.h - DIE_EDGE) <= EPS
        ]
        assert len(faces) == 6, f"{len(faces)} face squares in a die net"
        for face in faces:
            assert face.x0 >= form.box.x0 - EPS and face.x1 <= form.box.x1 + EPS
            assert face.y0 >= form.box.y0 - EPS and face.y1 <= form.box.y1 + EPS
        for a, b in itertools.combinations(faces, 2):
            dx, dy = a.overlap(b)
            assert dx <= EPS or dy <= EPS, "two faces overlap"
        # on a grid of face-sized cells: one column of four and one row of three (a cross)
        x0, y0 = min(f.x0 for f in faces), min(f.y0 for f in faces)
        cells = {
            (round((f.x0 - x0) / DIE_EDGE, 3), round((f.y0 - y0) / DIE_EDGE, 3)) for f in faces
        }
        assert all(c == int(c) for cell in cells for c in cell), cells
        columns = Counter(c for c, _ in cells)
        rows = Counter(r for _, r in cells)
        assert sorted(columns.values()) == [1, 1, 4] and sorted(rows.values()) == [1, 1, 1, 3]


def test_die_net_cut_and_fold_lines(mixed: Built):
    """Cut lines solid black; fold lines grey dashes over a white line of their own, so a fold
    shows on dark faces as well as light ones."""
    for page, form in die_forms(mixed):
        drawn = [s for s in page.strokes if inside(s.box, form.box)]
        lines = [s for s in drawn if s.stroke is None or s.stroke.luminance < 0.99]
        under = {(s.x0, s.y0, s.x1, s.y1) for s in drawn if s not in lines and not s.dash}
        folds = [s for s in lines if s.dash]
        cuts = [s for s in lines if not s.dash]
        assert len(folds) == 12 and len(cuts) == 28, (len(folds), len(cuts))
        assert under == {(s.x0, s.y0, s.x1, s.y1) for s in folds}
        extent = Box.around([p for s in lines for p in ((s.x0, s.y0), (s.x1, s.y1))])
        assert extent.close_to(form.box, EPS), (extent, form.box)  # fits its box, tightly
        assert all(abs(s.length - DIE_EDGE) <= EPS for s in folds)  # a fold is a face's edge
        # the outline is closed: every cut end meets another cut or a fold end
        ends = Counter(
            (round(x, 2), round(y, 2)) for s in cuts for x, y in ((s.x0, s.y0), (s.x1, s.y1))
        )
        assert all(n >= 2 for n in ends.values()), ends


def test_die_art_is_one_form_per_die(mixed: Built):
    by_name: dict[str, set[int]] = defaultdict(set)
    for page, form in die_forms(mixed):
        item = next(
            i
            for i in mixed.items(page=page.number, component="dice")
            if abs(i["x_mm"] - form.box.x0) <= EPS and abs(i["y_mm"] - form.box.y0) <= EPS
        )
        by_name[item["name"]].add(form.ref)
    assert set(by_name) == set(DICE)
    assert all(len(refs) == 1 for refs in by_name.values()), by_name
    assert by_name["d6"] != by_name["odd"]


# --- packing and `pnp list` ----------------------------------------------------------------

PACKING = {
    # (file, shape, size, count): bleed 1 each
    "discs": ("circle", "16", 30),
    "bars": ("rounded", "40 x 14", 20),
    "hexes": ("hex-flat", "25", 8),
    "squares": ("square", "20", 7),
}
PACKING_TRIM = {
    "discs": (16.0, 16.0),
    "bars": (40.0, 14.0),
    "hexes": (2 * 25 / ROOT3, 25.0),
    "squares": (20.0, 20.0),
}


def packing_game(components: Path, times: int) -> None:
    files = {"game.yaml": game_yaml(colours=False)}
    for name, (shape, size, count) in PACKING.items():
        files[f"{name}.yaml"] = f"""\
            kind: tokens
            title: {name}
            shape: {shape}
            size: {size}
            bleed: 1
            face: face.svg.j2
            tokens:
              - name: {name}
                count: {count * times}
            """
    write_game(components, files)


def printable_area(paper: tuple[float, float]) -> float:
    """The area counters may use: inside the margin, above the page label's footer band."""
    return (paper[0] - 2 * MARGIN) * (paper[1] - 2 * MARGIN - FOOTER)


def gapped_area(times: int) -> float:
    return times * sum(
        (w + 2 + GAP) * (h + 2 + GAP) * PACKING[k][2] for k, (w, h) in PACKING_TRIM.items()
    )


def test_mixed_tokens_at_70_percent_fill_one_page(tmp_path: Path, pnp):
    assert 0.65 < gapped_area(1) / printable_area(A4) <= 0.72  # the fixture is what it claims
    packing_game(tmp_path / "components", 1)
    built = build(pnp, tmp_path / "components", tmp_path / "out")
    fronts = built.side_pages("front")
    assert len(fronts) == 1 and len(fronts[0].forms) == sum(c for _, _, c in PACKING.values())
    assert not built.side_pages("back")


def test_packing_uses_as_few_pages_as_the_area_allows_and_list_reports_fill(tmp_path: Path, pnp):
    times = 3
    needed = math.ceil(gapped_area(times) / printable_area(A4))
    assert needed == 3
    components = tmp_path / "components"
    packing_game(components, times)
    built = build(pnp, components, tmp_path / "out")
    fronts = built.side_pages("front")
    assert len(fronts) == needed
    for page in fronts:
        for a, b in itertools.combinations(page.forms, 2):
            assert a.box.distance(b.box) >= GAP - EPS

    listing = pnp("list", "--components", components)
    assert listing.exit_code == 0, listing.output
    reported = {
        int(m[1]): (int(m[2]), int(m[3]))
        for m in re.finditer(
            r"page (\d+)(?:–\d+)? \(\w+\): .*?(\d+) pieces, fill (\d+)%", listing.stdout
        )
    }
    assert set(reported) == {p.number for p in fronts}, listing.stdout
    for number, (pieces, fill) in reported.items():
        items = built.items(page=number, side="front")
        area = sum((i["w_mm"] + 2 * i["bleed_mm"]) * (i["h_mm"] + 2 * i["bleed_mm"]) for i in items)
        assert pieces == len(items) == len(built.page(number).forms)
        assert abs(fill - 100 * area / printable_area(A4)) <= 0.5 + 1e-6, (number, fill, area)


# --- `pnp check` ---------------------------------------------------------------------------

CHECK_TOKENS = """\
    kind: tokens
    title: Crew
    shape: circle
    size: 16
    face: face.svg.j2
    tokens:
      - name: crew
        per_player: 6
      - name: move
        series: 1-4
        counts: [3, 2, 2, 1]
        group: santa
      - name: score
        count: 1
        group: santa
      - name: bonus
        count: 2
        group: santa
    """
CHECK_EXPECT = """\
    pieces: 23
    pieces/crew: 12
    pieces/crew-red: 6
    pieces/crew-blue: 6
    pieces/move: 8
    pieces/move-3: 2
    pieces/move-4: 1
    pieces/score: 1
    pieces/santa: 11
    """


def test_check_counts_colours_series_and_groups(tmp_path: Path, pnp):
    components = tmp_path / "components"
    write_game(
        components, {"game.yaml": game_yaml(expect=CHECK_EXPECT), "pieces.yaml": CHECK_TOKENS}
    )
    result = pnp("check", "--components", components)
    assert result.exit_code == 0, result.output
    rows = {
        m[1]: (int(m[2]), int(m[3]), m[4])
        for m in re.finditer(r"^\s+(pieces\S*)\s+(\d+)\s+(\d+)\s+(.+)$", result.stdout, re.M)
    }
    expected = yaml.safe_load(textwrap.dedent(CHECK_EXPECT))
    assert rows == {k: (v, v, "ok") for k, v in expected.items()}, result.stdout


def test_check_reports_a_per_colour_mismatch(tmp_path: Path, pnp):
    components = tmp_path / "components"
    expect = CHECK_EXPECT.replace("pieces/crew-red: 6", "pieces/crew-red: 7")
    root = write_game(
        components, {"game.yaml": game_yaml(expect=expect), "pieces.yaml": CHECK_TOKENS}
    )
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    errors = error_lines(result.stderr)
    game = (root / "game.yaml").resolve()
    assert [(p, n) for p, n, _ in errors] == [(game, line_of(root / "game.yaml", "crew-red"))]
    message = errors[0][2]
    assert "pieces/crew-red" in message and "7" in message and "6" in message
    assert re.search(r"pieces/crew-red\s+7\s+6\s+MISMATCH", result.stdout)
    build = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert build.exit_code == 1 and not (tmp_path / "out" / "game").exists()


# --- spec errors ---------------------------------------------------------------------------

TOKENS_HEAD = textwrap.dedent(
    """\
    kind: tokens
    title: Bad
    shape: circle
    size: 16
    face: face.svg.j2
    tokens:
    """
)


@dataclass(frozen=True)
class BadSpec:
    tokens_yaml: str
    line_needle: tuple[str, ...]  # any of these lines is the right one
    words: tuple[str, ...]  # the message names these
    colours: bool = True


BAD_SPECS = {
    "per_player without colours": BadSpec(
        TOKENS_HEAD + "  - name: crew\n    per_player: 6\n",
        ("name: crew", "per_player"),
        ("colours",),
        colours=False,
    ),
    "count and per_player": BadSpec(
        TOKENS_HEAD + "  - name: crew\n    count: 2\n    per_player: 6\n",
        ("name: crew", "per_player", "count:"),
        ("count", "per_player"),
    ),
    "counts without series": BadSpec(
        TOKENS_HEAD + "  - name: move\n    counts: [1, 2]\n",
        ("name: move", "counts"),
        ("counts", "series"),
    ),
    "counts of the wrong length": BadSpec(
        TOKENS_HEAD + "  - name: move\n    series: 1-3\n    counts: [1, 2]\n",
        ("name: move", "counts"),
        ("2 counts", "3 values"),
    ),
    "circle given W x H": BadSpec(
        TOKENS_HEAD.replace("size: 16", 'size: "20 x 10"') + "  - name: a\n    count: 1\n",
        ("size:",),
        ("circle",),
    ),
    "larger than the printable area": BadSpec(
        TOKENS_HEAD.replace("shape: circle", "shape: rounded").replace("size: 16", "size: 250 x 20")
        + "  - name: a\n    count: 1\n",
        ("size:",),
        ("printable area",),
    ),
    "unknown shape": BadSpec(
        TOKENS_HEAD.replace("shape: circle", "shape: oval") + "  - name: a\n    count: 1\n",
        ("shape:",),
        ("oval", "circle", "square", "rounded", "hex-flat", "hex-pointy"),
    ),
}


@pytest.mark.parametrize("case", list(BAD_SPECS), ids=list(BAD_SPECS))
def test_token_spec_errors_name_file_and_line(tmp_path: Path, pnp, case: str):
    bad = BAD_SPECS[case]
    components = tmp_path / "components"
    root = write_game(
        components, {"game.yaml": game_yaml(colours=bad.colours), "bad.yaml": bad.tokens_yaml}
    )
    for command in (("check",), ("build", "--out", tmp_path / "out")):
        result = pnp(*command, "--components", components)
        assert result.exit_code == 2, (command, result.output)
        errors = error_lines(result.stderr)
        spec = (root / "bad.yaml").resolve()
        lines = {line_of(root / "bad.yaml", n) for n in bad.line_needle}
        assert [(p, n in lines) for p, n, _ in errors] == [(spec, True)], (
            f"expected one error at bad.yaml line {sorted(lines)}, got:\n{result.stderr}"
        )
        assert all(w in errors[0][2] for w in bad.words), errors[0][2]
    assert not (tmp_path / "out" / "game").exists()


def test_oversized_token_error_names_its_own_file(tmp_path: Path, pnp):
    """With several counter components, the one too large is the one reported."""
    components = tmp_path / "components"
    small = TOKENS_HEAD + "  - name: a\n    count: 1\n"
    big = (
        TOKENS_HEAD.replace("shape: circle", "shape: rounded").replace("size: 16", "size: 250 x 20")
        + "  - name: b\n    count: 1\n"
    )
    root = write_game(
        components, {"game.yaml": game_yaml(), "a-small.yaml": small, "b-big.yaml": big}
    )
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    errors = error_lines(result.stderr)
    assert [(p, n) for p, n, _ in errors] == [
        ((root / "b-big.yaml").resolve(), line_of(root / "b-big.yaml", "size:"))
    ], result.stderr


def test_per_player_without_colours_is_an_error_beside_other_entries(tmp_path: Path, pnp):
    """A per_player entry cannot be printed without colours, even when the component has
    other entries that can: exit 2, pointing at that entry, not a silently smaller count."""
    components = tmp_path / "components"
    tokens = TOKENS_HEAD + "  - name: score\n    count: 2\n  - name: crew\n    per_player: 6\n"
    root = write_game(components, {"game.yaml": game_yaml(colours=False), "bad.yaml": tokens})
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    errors = error_lines(result.stderr)
    lines = {line_of(root / "bad.yaml", "name: crew"), line_of(root / "bad.yaml", "per_player")}
    assert [(p, n in lines) for p, n, _ in errors] == [((root / "bad.yaml").resolve(), True)], (
        result.stderr
    )


# --- token pages ---------------------------------------------------------------------------

TP_PAGES, TP_VALUES, TP_EACH, TP_SIZE = 3, 9, 3, 24.0


def token_pages_yaml(pages: int = TP_PAGES, each: int = TP_EACH) -> str:
    return f"""\
        kind: token-pages
        title: Moves
        size: {TP_SIZE:g}
        face: face.svg.j2
        header: h.svg.j2
        page_title: "Page [{{n}}]"
        pages: {pages}
        values: 1-{TP_VALUES}
        each: {each}
        """


@pytest.fixture(scope="module")
def token_pages(tmp_path_factory: pytest.TempPathFactory, pnp) -> Built:
    base = tmp_path_factory.mktemp("token-pages")
    write_game(
        base / "components",
        {"game.yaml": game_yaml(colours=False), "moves.yaml": token_pages_yaml()},
    )
    return build(pnp, base / "components", base / "out")


def token_page_parts(page: PageContent) -> tuple[list[FormUse], list[FormUse]]:
    """The page's header forms and its token forms (24 mm bleed boxes: no bleed)."""
    tokens = [f for f in page.forms if abs(f.box.w - TP_SIZE) <= EPS]
    tokens = [f for f in tokens if abs(f.box.h - TP_SIZE) <= EPS]
    return [f for f in page.forms if f not in tokens], tokens


def test_token_pages_have_a_header_and_every_value_each_times(token_pages: Built):
    pw, ph = token_pages.manifest["paper_mm"]
    pages = [p for p in token_pages.pages if p.forms]
    assert len(pages) == TP_PAGES
    assert token_pages.manifest["pages"] == len(token_pages.pages)
    headers = set()
    for page in pages:
        header, tokens = token_page_parts(page)
        assert len(header) == 1, f"page {page.number}: {len(header)} header forms"
        box = header[0].box
        headers.add(header[0].ref)
        assert abs(box.y1 - (ph - MARGIN)) <= EPS, box  # at the top of the printable area
        assert abs(box.x0 - MARGIN) <= EPS and abs(box.x1 - (pw - MARGIN)) <= EPS, box
        assert len(tokens) == TP_VALUES * TP_EACH
        assert (
            Counter(f.ref for f in tokens) == dict.fromkeys({f.ref for f in tokens}, TP_EACH)
            and len({f.ref for f in tokens}) == TP_VALUES
        )
        for token in tokens:
            assert token.box.y1 <= box.y0 - GAP + EPS, "a token reaches into the header"
            assert token.box.y0 >= MARGIN - EPS
            cuts = paths_in(page, token.box, clip=False)
            assert len(cuts) == 1
            x, y, radius = circle_of(cuts[0])
            cx, cy = centre(token.box)
            assert math.hypot(x - cx, y - cy) <= TOL and abs(2 * radius - TP_SIZE) <= TOL
        for a, b in itertools.combinations(tokens, 2):
            assert a.box.distance(b.box) >= GAP - EPS
    assert len(headers) == TP_PAGES  # each page's own title


def reading_order(page: PageContent) -> list[int]:
    _, tokens = token_page_parts(page)
    ordered = sorted(tokens, key=lambda f: (-round(f.box.y1, 2), round(f.box.x0, 2)))
    return [f.ref for f in ordered]


def test_token_pages_each_lay_out_a_different_order(token_pages: Built):
    orders = [tuple(reading_order(p)) for p in token_pages.pages if p.forms]
    assert len(orders) == TP_PAGES and len(set(orders)) == TP_PAGES
    names_by_page = defaultdict(list)
    for item in token_pages.manifest["items"]:
        names_by_page[item["page"]].append(item["name"])
    assert len({tuple(n) for n in names_by_page.values()}) == TP_PAGES


def test_token_pages_manifest_copies_run_on(token_pages: Built):
    items = token_pages.manifest["items"]
    assert len(items) == TP_PAGES * TP_VALUES * TP_EACH
    pages = sorted({i["page"] for i in items})
    assert len(pages) == TP_PAGES
    for item in items:
        assert (item["kind"], item["shape"], item["side"]) == ("token", "circle", "front")
        assert (item["w_mm"], item["h_mm"]) == (TP_SIZE, TP_SIZE)
    copies: dict[tuple[str, int], set[int]] = defaultdict(set)
    for item in items:
        copies[(item["name"], item["page"])].add(item["copy"])
    names = {i["name"] for i in items}
    assert len(names) == TP_VALUES
    for name in names:
        for k, page in enumerate(pages):
            assert copies[(name, page)] == set(range(k * TP_EACH + 1, (k + 1) * TP_EACH + 1))
    for page in pages:  # and the manifest's boxes are the PDF's
        found = [f.box for f in token_page_parts(token_pages.page(page))[1]]
        for item in token_pages.items(page=page):
            box = Box(
                item["x_mm"], item["y_mm"], item["x_mm"] + item["w_mm"], item["y_mm"] + item["h_mm"]
            )
            hit = next(i for i, f in enumerate(found) if f.close_to(box, EPS))
            found.pop(hit)
        assert not found


def test_token_page_too_small_for_its_tokens_is_a_spec_error(tmp_path: Path, pnp):
    components = tmp_path / "components"
    root = write_game(
        components,
        {"game.yaml": game_yaml(colours=False), "moves.yaml": token_pages_yaml(each=20)},
    )
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    errors = error_lines(result.stderr)
    spec = root / "moves.yaml"
    lines = {line_of(spec, k) for k in ("size:", "values:", "each:", "pages:")}
    assert [(p, n in lines) for p, n, _ in errors] == [(spec.resolve(), True)], result.stderr
    assert str(TP_VALUES * 20) in errors[0][2], errors[0][2]  # says how many did not fit
    assert not (tmp_path / "out" / "game").exists()
