"""Every bundled pack printed whole as one job, simulated from the written PDF.

A duplex printer given the PDF puts page 2k on the back of page 2k-1; turning the sheet over
its long edge mirrors the columns (x -> W - x), over its short edge the rows (y -> H - y); the
back offset the user measured moves every back. A gutter-fold sheet carries its backs on the
same page, mirrored across the fold. For all five packs, on every paper and in every mode:

- every back lies behind its own front (same piece, mirrored, within 0.1 mm), every piece
  whose spec has a back gets it, and nothing else lies behind a piece;
- a back page with nothing to print is empty, and renders white in two independent renderers
  (pdfium and MuPDF);
- nothing inks the 5 mm margin: read from the page's drawing (art boxes as clipped, stroked
  lines with their width) and from a raster of every page;
- every sheet of pieces can be cut apart with straight cuts right across (a guillotine).

Positions come from the PDF's own placements (``pdfread``), checked against the manifest,
and which component has a back comes from the specs, never from the engine.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pymupdf
import pypdfium2 as pdfium
import pytest
import yaml
from conftest import BUNDLED, _invoke
from pdfread import Box, PageContent, operations, read_pages
from pypdf import PdfReader

TOL = 0.1  # mm
MM = 25.4 / 72  # mm per point
EDGE = 5.0  # mm a home printer cannot print
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4), "a4-letter": (210.0, 279.4)}
PAPERS["a3"] = (297.0, 420.0)
OFFSET = (1.5, -0.5)
MODES = {
    "long": (),
    "short": ("--duplex", "short"),
    "offset": ("--back-offset", f"{OFFSET[0]},{OFFSET[1]}"),
    "fold": ("--layout", "fold"),
}
GAMES = sorted(p.name for p in BUNDLED.iterdir() if (p / "game.yaml").is_file())
ART_KINDS = {"card", "token", "die", "standee"}
# every paper in every layout; the back offset (which only moves backs) on A4
CASES = [
    pytest.param((paper, mode), id=f"{paper}-{mode}")
    for paper in PAPERS
    for mode in MODES
    if mode != "offset" or paper == "a4"
]
RASTER_DPI = 100


@dataclass
class Pack:
    """One written pack: its manifest, the geometry of its pages, and the paper."""

    game: str
    pdf: Path
    manifest: dict
    pages: list[PageContent]
    paper: tuple[float, float]
    mode: str

    def items_on(self, page: int) -> list[dict]:
        return [i for i in self.manifest["items"] if i["page"] == page]


@dataclass
class Case:
    """Every bundled game printed on one paper in one mode: its packs, each read once, and
    each page rendered once by pdfium (100 dpi, grey), shared by the tests of the case."""

    paper: str
    mode: str
    packs: list[Pack]
    _rasters: dict[Path, list] = field(default_factory=dict)

    def rasters(self, pack: Pack) -> list:
        """Every page of ``pack`` rendered by pdfium at ``RASTER_DPI``, grey."""
        if pack.pdf not in self._rasters:
            with pdfium.PdfDocument(str(pack.pdf)) as doc:
                self._rasters[pack.pdf] = [
                    page.render(scale=RASTER_DPI / 72, grayscale=True).to_pil() for page in doc
                ]
        return self._rasters[pack.pdf]


@pytest.fixture(scope="module", params=CASES)
def case(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Case:
    """One paper and mode: every bundled game built into a folder of its own (once, for every
    test of the case: pytest runs a module-scoped parameter's tests together)."""
    paper, mode = request.param
    out = tmp_path_factory.mktemp(f"print-{paper}-{mode}")
    result = _invoke("build", "--components", BUNDLED, "--out", out, "--paper", paper,
                     *MODES[mode])  # fmt: skip
    assert result.exit_code == 0, result.output
    packs = []
    for game in GAMES:
        pdf = out / game / f"{game}.pdf"
        manifest = json.loads((out / game / "manifest.json").read_text(encoding="utf-8"))
        packs.append(Pack(game, pdf, manifest, read_pages(pdf), PAPERS[paper], mode))
    return Case(paper, mode, packs)


@cache
def backed_components(game: str) -> frozenset[str]:
    """The components whose spec gives their pieces a back printed behind them."""
    found = set()
    for path in (BUNDLED / game).glob("*.yaml"):
        spec = yaml.safe_load(path.read_text(encoding="utf-8"))
        if spec.get("kind") in ("deck", "tokens", "token-pages") and spec.get("back"):
            found.add(spec.get("id") or path.stem)
    return frozenset(found)


def bleed_box(item: dict) -> Box:
    b = item["bleed_mm"]
    x, y, w, h = item["x_mm"], item["y_mm"], item["w_mm"], item["h_mm"]
    return Box(x - b, y - b, x + w + b, y + h + b)


def trim_box(item: dict) -> Box:
    x, y, w, h = item["x_mm"], item["y_mm"], item["w_mm"], item["h_mm"]
    return Box(x, y, x + w, y + h)


def drawn_box(item: dict, page: list[dict]) -> Box:
    """Where a piece's art may print: its bleed box, stopped at its trim line on each edge
    another piece of the page touches (a butted deck: one cut between neighbours)."""
    t, b = trim_box(item), bleed_box(item)
    x0, y0, x1, y1 = b.x0, b.y0, b.x1, b.y1
    for other in page:
        if other is item or other["kind"] not in ART_KINDS:
            continue
        o = trim_box(other)
        beside = min(t.y1, o.y1) - max(t.y0, o.y0) > TOL
        above = min(t.x1, o.x1) - max(t.x0, o.x0) > TOL
        x1 = t.x1 if beside and abs(o.x0 - t.x1) < TOL else x1
        x0 = t.x0 if beside and abs(o.x1 - t.x0) < TOL else x0
        y1 = t.y1 if above and abs(o.y0 - t.y1) < TOL else y1
        y0 = t.y0 if above and abs(o.y1 - t.y0) < TOL else y0
    return Box(x0, y0, x1, y1)


def behind(box: Box, paper: tuple[float, float], axis: str) -> Box:
    """What lies behind ``box`` once the sheet is turned (or folded) about ``axis``: 'x' a
    vertical line down the middle of the page, 'y' a horizontal one across it."""
    w, h = paper
    if axis == "x":
        return Box(w - box.x1, box.y0, w - box.x0, box.y1)
    return Box(box.x0, h - box.y1, box.x1, h - box.y0)


def moved(box: Box, dx: float, dy: float) -> Box:
    return Box(box.x0 + dx, box.y0 + dy, box.x1 + dx, box.y1 + dy)


def piece(item: dict) -> tuple:
    return item["component"], item["name"], item["copy"]


# -- the PDF and the manifest agree ------------------------------------------------------------


def test_every_piece_of_the_manifest_is_art_on_its_page(case: Case):
    """Each piece's art is placed in the PDF where the manifest says (its bleed box is the
    box of a form drawn on that page), and on back pages nothing else is drawn."""
    for pack in case.packs:
        for page in pack.pages:
            boxes = [f.box for f in page.forms]
            items = [i for i in pack.items_on(page.number) if i["kind"] in ART_KINDS]
            for item in items:
                hits = [b for b in boxes if b.close_to(bleed_box(item), TOL)]
                assert hits, f"{pack.game} p{page.number}: no art where the manifest has {item}"
            if items and all(i["side"] == "back" for i in pack.items_on(page.number)):
                assert len(boxes) == len(items), f"{pack.game} p{page.number}: stray art"


# -- every back behind its own front ------------------------------------------------------------


def test_every_back_lies_behind_its_own_front(case: Case):
    """Printed whole, double-sided on the chosen edge (or folded), each back lands behind the
    front of the same piece, and every piece whose spec has a back gets exactly one."""
    for pack in case.packs:
        manifest = pack.manifest
        fold = case.mode == "fold"
        assert manifest["pages"] == len(pack.pages)
        assert manifest["pages"] == (manifest["sheets"] if fold else 2 * manifest["sheets"])
        fronts = {(i["page"], piece(i)): i for i in manifest["items"] if i["side"] == "front"}
        backs = [i for i in manifest["items"] if i["side"] == "back"]
        found: Counter = Counter()
        for back in backs:
            page = back["page"] if fold else back["page"] - 1
            assert fold or back["page"] % 2 == 0, f"{pack.game}: a back on a front page {back}"
            front = fronts.get((page, piece(back)))
            assert front is not None, f"{pack.game}: {back} is behind no front of its piece"
            box = trim_box(back)
            if case.mode == "offset":
                box = moved(box, -OFFSET[0], -OFFSET[1])
            axes = ("x", "y") if fold else ("y" if case.mode == "short" else "x",)
            assert any(
                behind(box, pack.paper, axis).close_to(trim_box(front), TOL) for axis in axes
            ), f"{pack.game}: the back of {piece(back)} misses its front by more than {TOL} mm"
            found[(page, piece(back))] += 1
        for (page, key), front in fronts.items():
            wanted = 1 if front["component"] in backed_components(pack.game) else 0
            assert found[(page, key)] == wanted, f"{pack.game} p{page}: {key} has {found} backs"


def test_nothing_but_its_own_back_lies_behind_a_piece(case: Case):
    """On the back page of a sheet, art lies only behind the pieces it belongs to: turned
    over, no art overlaps another piece's front, nor a single-sided piece's."""
    for pack in case.packs:
        if case.mode == "fold":
            continue  # the fold: see test_every_back_lies_behind_its_own_front
        axis = "y" if case.mode == "short" else "x"
        dx, dy = OFFSET if case.mode == "offset" else (0.0, 0.0)
        for page in pack.pages[1::2]:
            fronts = pack.items_on(page.number - 1)
            if not any(i["kind"] in ART_KINDS for i in fronts):
                continue  # a page nobody cuts (an assembly map), or a sheet's text
            on_back = pack.items_on(page.number)
            for form in page.forms:
                backs = [i for i in on_back if bleed_box(i).close_to(form.box, TOL)]
                assert len(backs) == 1, f"{pack.game} p{page.number}: art that is no back"
                drawn = drawn_box(backs[0], on_back)
                home = behind(moved(drawn, -dx, -dy), pack.paper, axis)
                over = [i for i in fronts if min(home.overlap(drawn_box(i, fronts))) > TOL]
                assert [piece(i) for i in over] == [piece(backs[0])], (
                    f"{pack.game} p{page.number}: the back of {piece(backs[0])} lies behind "
                    f"{[piece(i) for i in over]}"
                )


def _chars(pdf: Path) -> list[list[tuple[str, Box]]]:
    """Every character of every page with its box (mm, origin bottom-left), read by MuPDF:
    the whole page, the parts past its edge too (a tile's art runs off the paper); the same
    characters and boxes (within 0.05 mm) as pdfplumber's, in a twentieth of its time."""
    flags = (pymupdf.TEXTFLAGS_RAWDICT | pymupdf.TEXT_PRESERVE_WHITESPACE) & ~(
        pymupdf.TEXT_MEDIABOX_CLIP
    )
    out = []
    with pymupdf.open(pdf) as doc:
        for page in doc:
            h = page.rect.height
            text = page.get_text("rawdict", flags=flags, clip=pymupdf.INFINITE_RECT())
            out.append(
                [
                    (c["c"], _flipped(c["bbox"], h))
                    for block in text["blocks"]
                    for line in block.get("lines", ())
                    for span in line["spans"]
                    for c in span["chars"]
                    if c["c"].strip()
                ]
            )
    return out


def _flipped(bbox: tuple[float, float, float, float], height: float) -> Box:
    """A box in points from a page's top-left corner (MuPDF's) in mm from its bottom-left."""
    x0, y0, x1, y1 = bbox
    return Box(x0 * MM, (height - y1) * MM, x1 * MM, (height - y0) * MM)


def _on(box: Box, items: list[dict]) -> list[dict]:
    """The items whose trim box ``box`` overlaps."""
    return [i for i in items if min(box.overlap(trim_box(i))) > TOL]


def _own(box: Box, items: list[dict]) -> list[dict]:
    """The items whose art (bleed box) holds ``box``: ink that is that piece's own."""
    return [i for i in items if box.inside(bleed_box(i), TOL)]


def _fold_axis(items: list[dict], paper: tuple[float, float]) -> str | None:
    """The line a folded page turns about: 'y' when its backs lie below its fronts."""
    backs = [i for i in items if i["side"] == "back"]
    if not backs:
        return None
    fronts = [i for i in items if i["side"] == "front" and i["component"] == backs[0]["component"]]
    return "y" if abs(fronts[0]["y_mm"] - backs[0]["y_mm"]) > TOL else "x"


def test_no_letter_of_a_page_lands_on_a_piece_it_is_not_part_of(case: Case):
    """Read from the written PDF: every letter a sheet prints (its label, a fold note, a
    tile's name, the art's own words) lies, where the printer puts it, on no piece but its
    own: on the back page turned over its edge and moved by the back offset, or on a folded
    page turned over its fold; letters of no piece's art lie on none."""
    for pack in case.packs:
        chars = _chars(pack.pdf)
        cut = [i for i in pack.manifest["items"] if i["kind"] in ART_KINDS | {"board"}]
        if case.mode == "fold":
            for number, page_chars in enumerate(chars, start=1):
                items = [i for i in cut if i["page"] == number]
                axis = _fold_axis(items, pack.paper)
                art = [f.box for f in pack.pages[number - 1].forms]
                for text, box in page_chars:
                    if _own(box, items) or any(box.inside(a, TOL) for a in art):
                        continue  # a piece's own words (a tile's, clipped to its window)
                    places = [box] if axis is None else [box, behind(box, pack.paper, axis)]
                    for place in places:
                        assert not _on(place, items), f"{pack.game} p{number}: {text!r} on a piece"
            continue
        axis = "y" if case.mode == "short" else "x"
        dx, dy = OFFSET if case.mode == "offset" else (0.0, 0.0)
        for number in range(2, len(chars) + 1, 2):
            fronts = [i for i in cut if i["page"] == number - 1 and i["side"] == "front"]
            backs = [i for i in cut if i["page"] == number]
            for text, box in chars[number - 1]:
                home = behind(moved(box, -dx, -dy), pack.paper, axis)
                owners = {piece(i) for i in _own(box, backs)}
                tiles = {i.get("tile") for i in fronts if i.get("tile")}
                landed = {piece(i) for i in _on(home, fronts)}
                if not owners and text in "".join(t for t in tiles if t):
                    owners = landed  # a tile's name, printed on its own back
                assert landed <= owners, f"{pack.game} p{number}: {text!r} behind {landed}"


def _ops(pdf: Path) -> list[int]:
    """How many operators each page's content stream has besides setting the coordinate
    system and saving or restoring the graphics state (which print nothing)."""
    reader = PdfReader(str(pdf))
    out = []
    for page in reader.pages:
        ops = operations(page.get_contents())
        out.append(sum(1 for _, op in ops if op not in (b"cm", b"q", b"Q")))
    return out


def test_a_sheet_with_nothing_behind_its_pieces_has_a_blank_back(case: Case):
    """The back page of a sheet whose pieces have no backs draws nothing at all (no footer
    either; a board tile without a glue strip has only its own name there), and blank pages
    render white in pdfium and in MuPDF."""
    for pack in case.packs:
        ops = _ops(pack.pdf)
        if case.mode != "fold":
            for number in range(1, len(pack.pages), 2):
                items = pack.items_on(number)
                cut = items and all(i["kind"] in ART_KINDS | {"board"} for i in items)
                if not cut or {i["component"] for i in items} & backed_components(pack.game):
                    continue
                tiles = {i.get("tile") for i in items} - {None, "whole"}
                if tiles:  # a tile with no glue strip has its own name on its back, only that
                    back = pack.pages[number]
                    assert not back.forms and not back.paths, f"{pack.game} p{number + 1}"
                    assert {t.text for t in back.texts} <= tiles, (pack.game, back.texts)
                    continue
                assert ops[number] == 0, f"{pack.game}: page {number + 1} is not blank"
        blank = [n for n, count in enumerate(ops) if count == 0]
        assert case.mode != "fold" or not blank, f"{pack.game}: blank pages printed single-sided"
        rasters = case.rasters(pack)
        for n in blank:
            assert rasters[n].getextrema() == (255, 255), f"{pack.game}: page {n + 1} not white"
        with pymupdf.open(str(pack.pdf)) as doc:
            for n in blank:
                pixmap = doc[n].get_pixmap(dpi=20, colorspace=pymupdf.csGRAY)
                assert set(pixmap.samples) == {255}, f"{pack.game}: page {n + 1} not white"


# -- the margin ---------------------------------------------------------------------------------


def _drawn(page: PageContent) -> list[tuple[str, Box]]:
    """What a page draws, as boxes of ink: art as clipped, paths with half their line width."""
    found = []
    for form in page.forms:
        box = form.box if form.clip_box is None else form.box.intersect(form.clip_box)
        if box is not None:
            found.append((f"art {form.name}", box))
    for path in page.paths:
        if path.clip or path.op == "n":
            continue
        grow = path.width_pt * 25.4 / 72 / 2 if path.stroked else 0.0
        box = Box(path.box.x0 - grow, path.box.y0 - grow, path.box.x1 + grow, path.box.y1 + grow)
        if path.clip_box is not None:
            box = box.intersect(path.clip_box)
        if box is not None:
            found.append(("path", box))
    return found


def test_nothing_is_drawn_within_5_mm_of_the_edge(case: Case):
    """No art, mark, cut line, band or rule reaches into the 5 mm a printer cannot print,
    stroke widths included, whatever the mode (back offsets too)."""
    pw, ph = PAPERS[case.paper]
    for pack in case.packs:
        for page in pack.pages:
            for what, box in _drawn(page):
                room = min(box.x0, box.y0, pw - box.x1, ph - box.y1)
                assert room >= EDGE - 0.01, (
                    f"{pack.game} page {page.number}: {what} {room:.2f} mm from the edge"
                )


def test_no_ink_in_the_margin_of_a_raster(case: Case):
    """Rendered at 100 dpi by pdfium, every page is white all round its edge, out to the
    pixels that lie wholly within 5 mm of it."""
    band = math.floor(EDGE / 25.4 * RASTER_DPI) - 1  # pixels wholly within the margin, spare
    for pack in case.packs:
        for n, image in enumerate(case.rasters(pack)):
            w, h = image.size
            for box in ((0, 0, w, band), (0, h - band, w, h), (0, 0, band, h), (w - band, 0, w, h)):
                low, _ = image.crop(box).getextrema()
                assert low >= 250, f"{pack.game} page {n + 1}: ink in the margin at {box}"


# -- cutting --------------------------------------------------------------------------------


def guillotine(boxes: list[Box]) -> bool:
    """Whether the boxes can be parted by straight cuts right across, one after another."""
    if len(boxes) <= 1:
        return True
    for lo, hi in (("x0", "x1"), ("y0", "y1")):
        for cut in sorted({getattr(b, hi) for b in boxes}):
            before = [b for b in boxes if getattr(b, hi) <= cut + 1e-6]
            after = [b for b in boxes if getattr(b, lo) >= cut - 1e-6]
            if before and after and len(before) + len(after) == len(boxes):
                return guillotine(before) and guillotine(after)
    return False


def test_every_sheet_of_pieces_parts_with_straight_cuts(case: Case):
    """The printed boxes of the fronts on a page (bleed boxes, stopped at the trim where
    butted cards touch) part with straight cuts right across the sheet, one after another:
    cards, counters and boards alike."""
    for pack in case.packs:
        by_page: dict[int, list[dict]] = defaultdict(list)
        for item in pack.manifest["items"]:
            if item["side"] == "front" and item["kind"] != "sheet" and "tile" not in item:
                by_page[item["page"]].append(item)
        for page, items in by_page.items():
            boxes = [drawn_box(item, items) for item in items]
            assert guillotine(boxes), f"{pack.game} page {page}: no straight cut parts the pieces"


def test_the_guillotine_check_finds_a_pinwheel():
    """Four pieces round a fifth, each overlapping the next's row and column, cannot be
    parted by any straight cut: the check must say so."""
    pinwheel = [Box(0, 0, 2, 1), Box(2, 0, 3, 2), Box(1, 2, 3, 3), Box(0, 1, 1, 3), Box(1, 1, 2, 2)]
    assert not guillotine(pinwheel)
    assert guillotine([Box(0, 0, 1, 1), Box(1, 0, 2, 1), Box(0, 1, 2, 2)])


# -- pnp check simulates the printer too -----------------------------------------------------


def test_pnp_check_reports_how_the_pack_prints(pnp, make_deck_game):
    components = make_deck_game(cards={"a": 9, "b": 9})
    result = pnp("check", "--components", components)
    assert result.exit_code == 0, result.output
    assert "printing: 4 sheets of paper (8 pages), double-sided, flipped on the long edge" in (
        result.output
    )
    assert "every back behind its own front" in result.output
    folded = pnp("check", "--components", components, "--layout", "fold")
    assert folded.exit_code == 0, folded.output
    assert "single-sided, folded: every back behind its own front" in folded.output


def test_pnp_check_fails_a_pack_whose_backs_would_miss_their_fronts(
    pnp, make_deck_game, monkeypatch
):
    """Backs laid out unmirrored land behind other cards once the sheet turns over: the
    check must say so for each of them, and fail, and build must refuse the pack."""
    from generator.layout import impose

    def unmirrored(p, paper, axis):
        return impose.Placement(p.piece, "back", p.x, p.y, p.w, p.h, p.rotation)

    components = make_deck_game(cards={"a": 9, "b": 9})
    monkeypatch.setattr(impose, "mirrored", unmirrored)
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    assert result.output.count("prints wrong: sheet") >= 8, result.output
    assert "misses its front by" in result.output
    built = pnp("build", "--components", components, "--out", components.parent / "out")
    assert built.exit_code == 1, built.output
    assert not (components.parent / "out" / "synth" / "synth.pdf").exists()


def test_the_print_check_finds_backs_on_the_wrong_sheet():
    """The defect printers showed: every back one sheet late. Laid out right, the check finds
    nothing; with the back pages moved on by one sheet, it finds every back and every front."""
    from generator.check.printing import check_printing
    from generator.errors import ErrorList
    from generator.model.loader import load_game
    from generator.plan.pipeline import plan_pack

    game = load_game(BUNDLED / "chocolate-market", ErrorList())
    pack = plan_pack(game, "a4")
    assert check_printing(pack).problems == ()
    backs = [sheet.back for sheet in pack.body]
    for sheet, back in zip(pack.body, [None, *backs[:-1]], strict=True):
        sheet.back = back
    problems = check_printing(pack).problems
    pieces_with_backs = sum(
        1 for sheet in pack.body for p in sheet.front.placements if p.piece.back
    )
    assert len([p for p in problems if "backs behind it, not 1" in p]) == pieces_with_backs
    assert any("on a sheet without its front" in p for p in problems)
