"""Gang-cut counter sheets (``butt: true`` on tokens), read back from the written PDF.

A game of two blocks of double-sided unit counters (13.3 mm and 15 mm, the last row of each
short) and a few round tokens cut one by one, printed in every way a duplex printer or a
fold can print it. From the PDF's own drawing: every counter's trim is its size exactly and
touches its neighbours; the bleed is shared (a counter's art stops at its trim where another
touches it, and reaches the bleed only round the block); every cut right across the block
runs through no counter and has its crop marks outside the block, front pages only; each
unit's reduced back (its back factors, read as text) lies behind its own front. The printer
simulation (``pnp check``) says the same, and fails a sheet whose marks are gone.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pymupdf
import pytest
from pdfread import Box, PageContent, read_pages
from test_duplex import MODES, OFFSET  # the ways a pack prints, as every pack is tested

TOL = 0.01  # mm
MM = 25.4 / 72
PAPER = (210.0, 297.0)
BLOCKS = {"blue": (13.3, 23), "red": (15.0, 7)}  # component: counter size, how many


def units_csv(side: str, count: int) -> str:
    """Units whose factors name them: front 'N-4-6', reduced back 'N-1-6' (N from 1)."""
    rows = ["name,symbol,echelon,id,attack,defence,move,back_attack,back_defence,back_move"]
    symbols = ("infantry", "armour", "artillery", "cavalry", "engineer")
    for n in range(1, count + 1):
        rows.append(f"{side}{n},{symbols[n % 5]},II,{n}/{side[0]},{n},4,6,{n},1,6")
    return "\n".join(rows) + "\n"


def gang_game(components: Path) -> Path:
    """The game: two gang-cut blocks of double-sided units and five round tokens."""
    root = components / "gang"
    root.mkdir(parents=True)
    (root / "game.yaml").write_text("title: Gang\nplayers: 2\n", encoding="utf-8")
    for side, (size, count) in BLOCKS.items():
        colour = "#8fb4e3" if side == "blue" else "#d9694f"
        (root / f"{side}.csv").write_text(units_csv(side, count), encoding="utf-8")
        spec = f"""\
            kind: tokens
            title: {side.title()} units
            shape: square
            size: {size}
            butt: true
            face: unit-counter.svg.j2
            back: unit-counter.svg.j2
            style: {{accent: "{colour}"}}
            tokens: {{from: {side}.csv}}
            """
        (root / f"{side}.yaml").write_text(textwrap.dedent(spec), encoding="utf-8")
    tokens = "kind: tokens\ntitle: Coins\nshape: circle\nsize: 16\nface: token.svg.j2\n"
    tokens += "tokens:\n  - {name: coin, value: 1, count: 5}\n"
    (root / "coins.yaml").write_text(tokens, encoding="utf-8")
    return root


@dataclass
class Pack:
    """A built pack read back: its pages (pdfread), its manifest, its words (MuPDF)."""

    pdf: Path
    pages: list[PageContent]
    manifest: dict
    mode: str

    def items(self, **match: object) -> list[dict]:
        return [i for i in self.manifest["items"] if all(i.get(k) == v for k, v in match.items())]

    def words(self, page: int) -> list[tuple[str, float, float]]:
        """The words of a page and their centres (mm from the lower left)."""
        with pymupdf.open(self.pdf) as doc:
            height = doc[page - 1].rect.height
            return [
                (w[4], (w[0] + w[2]) / 2 * MM, (height - (w[1] + w[3]) / 2) * MM)
                for w in doc[page - 1].get_text("words")
            ]


def _build(pnp, components: Path, out: Path, mode: str) -> Pack:
    result = pnp("build", "gang", "--components", components, "--out", out, *MODES[mode])
    assert result.exit_code == 0, result.output
    pdf = out / "gang" / "gang.pdf"
    manifest = json.loads((out / "gang" / "manifest.json").read_text(encoding="utf-8"))
    return Pack(pdf, read_pages(pdf), manifest, mode)


@pytest.fixture(scope="module")
def components(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("gangcut")
    gang_game(folder)
    return folder


@pytest.fixture(scope="module")
def long_pack(components: Path, pnp, tmp_path_factory: pytest.TempPathFactory) -> Pack:
    return _build(pnp, components, tmp_path_factory.mktemp("long"), "long")


def trim(item: dict) -> Box:
    return Box(item["x_mm"], item["y_mm"], item["x_mm"] + item["w_mm"], item["y_mm"] + item["h_mm"])


def art_of(pack: Pack, item: dict) -> Box:
    """Where the PDF lets a piece's art print: the form drawn on its page whose box is its
    bleed box, clipped as it was drawn."""
    b = item["bleed_mm"]
    t = trim(item)
    bleed = Box(t.x0 - b, t.y0 - b, t.x1 + b, t.y1 + b)
    forms = [f for f in pack.pages[item["page"] - 1].forms if f.box.close_to(bleed, TOL)]
    assert len(forms) == 1, f"no one form of art for {item['name']} on page {item['page']}"
    drawn = forms[0].box.intersect(forms[0].clip_box) if forms[0].clip_box else forms[0].box
    assert drawn is not None
    return drawn


def blocks_of(pack: Pack, page: int) -> dict[str, list[dict]]:
    """The butted fronts of a page, by component."""
    found: dict[str, list[dict]] = defaultdict(list)
    for item in pack.items(page=page, side="front"):
        if item["component"] in BLOCKS:
            found[item["component"]].append(item)
    return found


def outline(items: list[dict]) -> Box:
    boxes = [trim(i) for i in items]
    return Box(min(b.x0 for b in boxes), min(b.y0 for b in boxes),
               max(b.x1 for b in boxes), max(b.y1 for b in boxes))  # fmt: skip


# -- the block ----------------------------------------------------------------------------------


def test_counters_touch_at_their_size_in_rows_and_columns(long_pack: Pack):
    """Each block is a grid of counters of exactly their size, touching: every column and row
    line lies a whole number of counters from the first, in mm to the hundredth, and no two
    counters overlap; the manifest says they are butted, the round tokens are not."""
    pages = {i["page"] for i in long_pack.items(side="front") if i["component"] in BLOCKS}
    seen = set()
    for page in pages:
        for component, items in blocks_of(long_pack, page).items():
            size = BLOCKS[component][0]
            seen.add(component)
            left, top = min(i["x_mm"] for i in items), max(i["y_mm"] + size for i in items)
            for item in items:
                assert item.get("butt") is True
                assert abs(item["w_mm"] - size) < TOL and abs(item["h_mm"] - size) < TOL
                cols, rows = (item["x_mm"] - left) / size, (top - item["y_mm"] - size) / size
                assert abs(cols - round(cols)) < TOL / size and abs(rows - round(rows)) < TOL / size
            cells = {(round(i["x_mm"], 2), round(i["y_mm"], 2)) for i in items}
            assert len(cells) == len(items), f"{component}: two counters in one place"
            assert min(round((i["x_mm"] - left) / size) for i in items) == 0
            assert max(round((i["x_mm"] - left) / size) for i in items) >= 4  # a block, not a row
    assert seen == set(BLOCKS)
    assert all("butt" not in i for i in long_pack.items(component="coins"))


def test_the_bleed_is_shared_and_only_round_the_block(long_pack: Pack):
    """Read from the PDF: a counter's art reaches past its trim on the sides no counter of
    its block touches, by the bleed, and stops at its trim where one does, so that the art of
    the block is its trim outline grown by the bleed, and no counter's art prints on another."""
    for page in {i["page"] for i in long_pack.items() if i["component"] in BLOCKS}:
        for side in ("front", "back"):
            for component in BLOCKS:
                items = long_pack.items(page=page, side=side, component=component)
                if not items:
                    continue
                arts = [(trim(i), art_of(long_pack, i)) for i in items]
                for t, art in arts:
                    grown = (t.x0 - art.x0, art.x1 - t.x1, t.y0 - art.y0, art.y1 - t.y1)
                    for grow in grown:  # none, or the bleed
                        assert min(abs(grow), abs(grow - 1.0)) < TOL, (component, grown)
                for t, art in arts:
                    others = [o for o, _ in arts if o is not t]
                    hit = [o for o in others if min(art.overlap(o)) > TOL]
                    assert not hit, f"{component}: a counter's art prints on its neighbour"
                block, inked = outline(items), [art for _, art in arts]
                assert abs(min(b.x0 for b in inked) - (block.x0 - 1.0)) < TOL
                assert abs(max(b.x1 for b in inked) - (block.x1 - 0.0 + 1.0)) < TOL
                assert abs(max(b.y1 for b in inked) - (block.y1 + 1.0)) < TOL
                area = sum(b.w * b.h for b in inked)
                full = (block.w + 2) * (block.h + 2)
                assert area <= full + TOL, "art outside the block grown by the bleed"


def _crosses(box: Box, x: float | None = None, y: float | None = None) -> bool:
    if x is not None:
        return box.x0 + TOL < x < box.x1 - TOL
    assert y is not None
    return box.y0 + TOL < y < box.y1 - TOL


def test_every_cut_runs_right_across_and_has_its_crop_marks(long_pack: Pack):
    """Every trim line of a block (its edges and the lines between its rows and columns) is
    a straight cut through no counter of the block, marked by a crop mark drawn on the page
    beyond the block at each end; no crop mark touches any piece of the page, and back pages
    draw none."""
    for page in {i["page"] for i in long_pack.items(side="front")}:
        drawn = long_pack.pages[page - 1]
        marks = [s for s in drawn.strokes if s.vertical or s.horizontal]
        pieces = [trim(i) for i in long_pack.items(page=page)]
        for mark in marks:
            on = [p for p in pieces if min(mark.box.overlap(p)) > TOL]
            assert not on, f"page {page}: a crop mark on a piece"
        for component, items in blocks_of(long_pack, page).items():
            block, boxes = outline(items), [trim(i) for i in items]
            for x in {round(b.x0, 3) for b in boxes} | {round(b.x1, 3) for b in boxes}:
                assert not any(_crosses(b, x=x) for b in boxes), f"{component}: x={x} cuts one"
                on = [m for m in marks if m.vertical and abs(m.x0 - x) < TOL]
                assert any(m.box.y0 >= block.y1 for m in on), f"{component}: no mark above x={x}"
                assert any(m.box.y1 <= block.y0 for m in on), f"{component}: no mark below x={x}"
            for y in {round(b.y0, 3) for b in boxes} | {round(b.y1, 3) for b in boxes}:
                assert not any(_crosses(b, y=y) for b in boxes), f"{component}: y={y} cuts one"
                on = [m for m in marks if m.horizontal and abs(m.y0 - y) < TOL]
                assert any(m.box.x1 <= block.x0 for m in on), f"{component}: no mark left of y={y}"
                assert any(m.box.x0 >= block.x1 for m in on), f"{component}: no mark right of y={y}"
    for page in {i["page"] for i in long_pack.items(side="back")}:
        assert not long_pack.pages[page - 1].strokes, f"crop marks on the back page {page}"


def test_gang_cut_counters_have_no_cut_lines_but_round_tokens_keep_theirs(long_pack: Pack):
    """Cut straight, a counter gets no cut line round it (a line on its edge would print on
    it wherever the knife strays); a round token still gets its circle."""
    for page in {i["page"] for i in long_pack.items(side="front")}:
        drawn = long_pack.pages[page - 1]
        page_paths = [p for p in drawn.paths if p.stroked and not p.clip]
        for item in long_pack.items(page=page, side="front"):
            box = trim(item)
            around = [p for p in page_paths if p.box.close_to(box, 0.2)]
            if item["component"] in BLOCKS:
                assert not around, f"a cut line round {item['name']}"
            else:
                assert around, f"no cut line round the token {item['name']}"


# -- backs behind their fronts -------------------------------------------------------------


def _behind(x: float, y: float, mode: str) -> tuple[float, float]:
    """Where the printer puts the point (x, y) of a back page, seen from the front."""
    w, h = PAPER
    if mode == "short":
        return x, h - y
    if mode == "offset":
        x, y = x - OFFSET[0], y - OFFSET[1]
    return w - x, y


def _factors(words: list[tuple[str, float, float]], kind: str) -> dict[str, tuple[float, float]]:
    """Where each unit's factors stand on a page: 'N-4-6' (front) or 'N-1-6' (back), by N."""
    pattern = re.compile(r"^(\d+)-4-6$" if kind == "front" else r"^(\d+)-1-6$")
    found = {}
    for text, x, y in words:
        match = pattern.match(text)
        if match:
            found.setdefault(match[1], []).append((x, y))  # type: ignore[attr-defined]
    return found  # type: ignore[return-value]


def check_backs(pack: Pack) -> int:
    """Each unit's reduced back, read as text, lies behind its own front's factors (within
    half a millimetre), on the back of its sheet or across its fold; the count checked."""
    checked = 0
    for item in pack.items(side="front"):
        if item["component"] not in BLOCKS:
            continue
        n, side = item["name"][len(item["component"]) :], item["component"]
        t = trim(item)
        fronts = [
            (x, y) for text, x, y in pack.words(item["page"]) if text == f"{n}-4-6"
            and t.x0 < x < t.x1 and t.y0 < y < t.y1
        ]  # fmt: skip
        assert len(fronts) == 1, f"{side} {n}: its factors are not on its front"
        fx, fy = fronts[0]
        if pack.mode == "fold":
            backs = [(x, y) for text, x, y in pack.words(item["page"]) if text == f"{n}-1-6"]
            landed = [(x, PAPER[1] - y) for x, y in backs]
        else:
            backs = [(x, y) for text, x, y in pack.words(item["page"] + 1) if text == f"{n}-1-6"]
            landed = [_behind(x, y, pack.mode) for x, y in backs]
        hits = [p for p in landed if abs(p[0] - fx) < 0.5 and abs(p[1] - fy) < 0.5]
        assert len(hits) == 1, f"{side} {n}: its back is not behind its front ({pack.mode})"
        checked += 1
    return checked


def test_each_reduced_back_lies_behind_its_front(long_pack: Pack):
    assert check_backs(long_pack) == sum(count for _, count in BLOCKS.values())


@pytest.mark.acceptance
@pytest.mark.parametrize("mode", ["short", "offset", "fold"])
def test_each_reduced_back_lies_behind_its_front_in_every_mode(
    components: Path, pnp, tmp_path: Path, mode: str
):
    """Flipped on the short edge, moved by the printer's back offset, or folded: every back
    still lies behind its own front, and the backs' art mirrors the fronts' (the bleed on the
    sides where the front's is, once the sheet is turned), as the PDF draws it."""
    pack = _build(pnp, components, tmp_path, mode)
    assert check_backs(pack) == sum(count for _, count in BLOCKS.values())
    fronts = {(i["component"], i["name"]): i for i in pack.items(side="front")}
    for back in pack.items(side="back"):
        if back["component"] not in BLOCKS:
            continue
        front = fronts[(back["component"], back["name"])]
        art, home = art_of(pack, back), art_of(pack, front)
        if mode == "fold":
            art = Box(art.x0, PAPER[1] - art.y1, art.x1, PAPER[1] - art.y0)
        else:
            (x0, y0), (x1, y1) = _behind(art.x0, art.y0, mode), _behind(art.x1, art.y1, mode)
            art = Box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        assert art.close_to(home, TOL), f"{back['name']}: back art {art} is not behind {home}"


def test_pnp_check_simulates_the_gang_cut_sheets(components: Path, pnp):
    result = pnp("check", "gang", "--components", components)
    assert result.exit_code == 0, result.output
    assert "every back behind its own front" in result.output


def test_the_print_check_fails_a_block_without_its_crop_marks(components: Path):
    """The simulation parts each block as the person cutting it will: with its vertical
    crop marks gone, every vertical cut of every block is a problem, and nothing else."""
    from generator.check.printing import check_printing
    from generator.errors import ErrorList
    from generator.model.loader import load_game
    from generator.plan.pipeline import plan_pack

    game = load_game(components / "gang", ErrorList())
    pack = plan_pack(game, "a4")
    assert check_printing(pack).problems == ()
    for sheet in pack.body:
        sheet.front.marks = [m for m in sheet.front.marks if m[0] != m[2]]
    problems = check_printing(pack).problems
    assert problems and all("has no crop mark" in p and " at x = " in p for p in problems)
    columns = 0
    for sheet in pack.body:
        xs = defaultdict(set)
        for p in sheet.front.placements:
            if p.piece.butt:
                xs[p.piece.component] |= {round(p.x, 3), round(p.x + p.w, 3)}
        columns += sum(len(v) for v in xs.values())
    assert len(problems) == columns


def test_the_print_check_fails_a_cut_through_a_counter(components: Path):
    """A counter moved half its width into its neighbour: the cut at its edge runs through
    the neighbour, and the check says so."""
    from dataclasses import replace

    from generator.check.printing import check_printing
    from generator.errors import ErrorList
    from generator.model.loader import load_game
    from generator.plan.pipeline import plan_pack

    game = load_game(components / "gang", ErrorList())
    pack = plan_pack(game, "a4")
    front = next(s.front for s in pack.body if any(p.piece.butt for p in s.front.placements))
    index, moved = next((i, p) for i, p in enumerate(front.placements) if p.piece.butt)
    front.placements[index] = replace(moved, x=moved.x + moved.w / 2)
    problems = check_printing(pack).problems
    assert any("runs through" in p for p in problems), problems


@pytest.mark.parametrize("shape", ["circle", "hex-flat", "hex-pointy"])
def test_butt_on_round_or_hex_tokens_is_an_error_at_its_line(tmp_path: Path, pnp, shape: str):
    root = tmp_path / "c" / "g"
    root.mkdir(parents=True)
    (root / "game.yaml").write_text("title: G\nplayers: 2\n", encoding="utf-8")
    spec = f"kind: tokens\ntitle: T\nshape: {shape}\nsize: 16\nbutt: true\n"
    spec += "face: token.svg.j2\ntokens:\n  - {name: a, value: 1, count: 2}\n"
    (root / "t.yaml").write_text(spec, encoding="utf-8")
    result = pnp("check", "--components", root.parent)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    line = next(line for line in result.stderr.splitlines() if "gang-cut" in line)
    assert line.startswith(f"{root / 't.yaml'}:5: butt: only square and rounded tokens"), line
    assert "straight cuts" in line and "leave butt out" in line
