"""Geometry of the print packs, read back from the PDF itself.

Card positions come from the page content streams (``tests/pdfread.py``): every ``Do`` of a
form XObject is a piece of art whose ``/BBox`` is its bleed box; shrinking that by the bleed
gives the trim box. Expected sizes come from the spec files and ``shared/PRINTING.md``, never
from the engine, and the manifest is checked against the PDF rather than trusted.
"""

from __future__ import annotations

import functools
import itertools
import json
import shutil
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
import yaml
from pdfread import (
    MM_PER_PT,
    Box,
    FormUse,
    PageContent,
    Segment,
    form_xobject_count,
    read_form,
    read_pages,
    text_of,
)
from pypdf import PdfReader

TOL = 0.1  # mm
EDGE = 5.0  # mm a home printer cannot print; nothing may be drawn there
PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
POKER = (63.5, 88.9)
MINI_EURO = (44.0, 68.0)

BUNDLED = Path(__file__).resolve().parent.parent / "components"
GAME = "chocolate-market"
DECK = yaml.safe_load((BUNDLED / GAME / "ingredient-cards.yaml").read_text(encoding="utf-8"))
DECK_COUNTS = {card["name"]: card["count"] for card in DECK["cards"]}


@dataclass(eq=False)
class Pack:
    """A built pack read back: PDF pages, the characters on each page, the manifest, and what
    the spec says it holds."""

    pdf: Path
    pages: list[PageContent]
    chars: list[list[dict]]  # pdfplumber chars per page (PDF coordinates, points)
    manifest: dict
    bleed: float
    trim: tuple[float, float]
    paper: tuple[float, float]
    faces: dict[str, str]  # card name -> a line of text its face prints
    back_text: str  # text the back prints

    def page(self, number: int) -> PageContent:
        return self.pages[number - 1]

    def items_on(self, number: int) -> list[dict]:
        return [i for i in self.manifest["items"] if i["page"] == number]

    def trim_box(self, form: FormUse) -> Box:
        return form.box.shrink(self.bleed)

    @functools.cache  # noqa: B019 - a handful of packs per session
    def label(self, number: int) -> str:
        """The text drawn on a page outside every card: the page label, if any."""
        page = self.page(number)
        outside = [
            c
            for c in self.chars[number - 1]
            if not any(_char_box(c).distance(f.box) == 0 for f in page.forms)
        ]
        return text_of(outside)

    @functools.cache  # noqa: B019
    def card(self, number: int, index: int) -> tuple[str, str | None]:
        """What the art of the ``index``-th form on page ``number`` shows, read from its text:
        ('front', card name) or ('back', None)."""
        box = self.page(number).forms[index].box
        inside = [c for c in self.chars[number - 1] if _char_box(c).centre_in(box)]
        text = text_of(inside)
        if self.back_text in " ".join(text.split()):
            return "back", None
        names = [name for name, line in self.faces.items() if line in text.splitlines()]
        assert len(names) == 1, f"page {number}: card at {box} reads {text!r}"
        return "front", names[0]

    def side_of(self, number: int) -> str | None:
        """'front' or 'back' from the art on the page (None for pages without cards); a page
        label, where there is one, must say the same."""
        page = self.page(number)
        if not page.forms:
            return None
        sides = {self.card(number, i)[0] for i in range(len(page.forms))}
        assert len(sides) == 1, f"page {number} mixes fronts and backs"
        side = sides.pop()
        label = self.label(number)
        assert "backs" not in label or side == "back", f"page {number}: {label!r}"
        assert "fronts" not in label or side == "front", f"page {number}: {label!r}"
        return side


def _char_box(char: dict) -> Box:
    return Box(*(char[k] * MM_PER_PT for k in ("x0", "y0", "x1", "y1")))


def read_pack(out: Path, game: str, paper: str, **spec) -> Pack:
    """The pack of ``game`` in ``out`` read back; ``spec`` gives bleed, trim, faces, back_text."""
    pdf = out / game / f"{game}.pdf"
    with pdfplumber.open(pdf) as doc:
        chars = [list(page.chars) for page in doc.pages]
    manifest = json.loads((out / game / "manifest.json").read_text(encoding="utf-8"))
    return Pack(pdf, read_pages(pdf), chars, manifest, paper=PAPER[paper], **spec)


def _deck_alone(folder: Path, butt: bool) -> Path:
    """The bundled game's ingredient cards alone (its game.yaml, the deck and its templates)
    in ``folder``, so that every card page of the pack is a page of this deck; laid out with
    a gutter of bleed between cards unless ``butt`` (the deck as bundled butts them)."""
    target = folder / GAME
    shutil.copytree(BUNDLED / GAME / "templates", target / "templates")
    shutil.copy(BUNDLED / GAME / "game.yaml", target / "game.yaml")
    deck = (BUNDLED / GAME / "ingredient-cards.yaml").read_text(encoding="utf-8")
    assert ("\nbutt: true\n" in deck) == bool(DECK.get("butt"))
    if not butt:
        deck = deck.replace("\nbutt: true\n", "\n")
    (target / "ingredient-cards.yaml").write_text(deck, encoding="utf-8")
    return target.parent


@pytest.fixture(scope="module")
def deck_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ingredient cards alone, with a gutter of bleed between them."""
    return _deck_alone(tmp_path_factory.mktemp("deck-only"), butt=False)


@pytest.fixture(scope="module", params=["a4", "letter"])
def pack(request: pytest.FixtureRequest, deck_only: Path, pnp) -> Pack:
    """The bundled ingredient cards, built on A4 and on US Letter."""
    paper = request.param
    out = deck_only.parent / f"out-{paper}"
    result = pnp("build", "--components", deck_only, "--out", out, "--paper", paper)
    assert result.exit_code == 0, result.output
    return read_pack(
        out,
        GAME,
        paper,
        bleed=DECK["bleed"],
        trim=MINI_EURO,
        faces={card["name"]: card["title"] for card in DECK["cards"]},
        back_text=DECK["fields"]["back_title"],
    )


def card_pages(pack: Pack) -> list[PageContent]:
    pages = [p for p in pack.pages if p.forms]
    assert pages, "no page of the pack places any card"
    return pages


def match_boxes(expected: list[Box], found: list[Box], what: str) -> list[int]:
    """For each expected box, the index of the one found box equal to it (to TOL)."""
    assert len(expected) == len(found), f"{what}: {len(expected)} expected, {len(found)} found"
    taken: list[int] = []
    for box in expected:
        hits = [i for i, other in enumerate(found) if box.close_to(other, TOL)]
        assert len(hits) == 1, f"{what}: {box} matches {len(hits)} boxes of {found}"
        assert hits[0] not in taken, f"{what}: two expected boxes land on {found[hits[0]]}"
        taken.append(hits[0])
    return taken


def item_box(item: dict) -> Box:
    x, y, w, h = item["x_mm"], item["y_mm"], item["w_mm"], item["h_mm"]
    return Box(x, y, x + w, y + h)


# -- invariants every sheet of cards must satisfy (used for the bundled and synthetic packs) ---


def check_trim_sizes(pack: Pack) -> None:
    """Every placed card is its trim size, upright or turned 90°, unscaled and unmirrored."""
    w, h = pack.trim
    for page in card_pages(pack):
        for form in page.forms:
            trim = pack.trim_box(form)
            size = (round(trim.w, 3), round(trim.h, 3))
            upright = abs(trim.w - w) <= TOL and abs(trim.h - h) <= TOL
            turned = abs(trim.w - h) <= TOL and abs(trim.h - w) <= TOL
            assert upright or turned, f"page {page.number}: trim {size}, want {w} x {h}"
            assert form.rotation % 180 == (0 if upright else 90), (page.number, form.rotation)
            assert form.determinant == pytest.approx(1, abs=1e-4), "art scaled or mirrored"


def check_margins(pack: Pack) -> None:
    """Nothing (card, mark, path, text) within EDGE mm of the paper's edge, on any page."""
    pw, ph = pack.paper
    for page in pack.pages:
        drawn: list[tuple[str, Box]] = [("card", f.box) for f in page.forms]
        drawn += [("path", b) for b in page.painted]
        drawn += [("mark", s.box) for s in page.strokes]
        drawn += [(f"text {c['text']!r}", _char_box(c)) for c in pack.chars[page.number - 1]]
        # only the back of a sheet may be blank (no backs behind its pieces)
        assert drawn or page.number % 2 == 0, f"page {page.number} draws nothing"
        for what, box in drawn:
            room = min(box.x0, box.y0, pw - box.x1, ph - box.y1)
            assert room >= EDGE - 0.01, f"page {page.number}: {what} {room:.2f} mm from the edge"
        # on card sheets, text is a card's own (inside its bleed box) or clear of cards and marks
        for char in pack.chars[page.number - 1] if page.forms else []:
            box = _char_box(char)
            if any(box.centre_in(f.box) for f in page.forms):
                continue
            for other in [f.box for f in page.forms] + [s.box for s in page.strokes]:
                assert box.distance(other) > 0, f"page {page.number}: {char['text']!r} on {other}"


def check_no_overlap(pack: Pack) -> None:
    for page in card_pages(pack):
        for a, b in itertools.combinations(page.forms, 2):
            dx, dy = a.box.overlap(b.box)
            assert min(dx, dy) <= 0.01, f"page {page.number}: bleed boxes {a.box}, {b.box} overlap"


def check_crop_marks(pack: Pack) -> None:
    """Marks at both ends of every trim line of every front card, outside every bleed box,
    at least the bleed away from every trim box, on a trim line; none on back sheets."""
    fronts = [p for p in card_pages(pack) if pack.side_of(p.number) == "front"]
    backs = [p for p in card_pages(pack) if pack.side_of(p.number) == "back"]
    assert fronts
    for page in backs:
        assert not page.strokes and not page.painted, f"page {page.number}: marks on a back"
    for page in fronts:
        marks = page.strokes
        trims = [pack.trim_box(f) for f in page.forms]
        assert marks, f"page {page.number} has no crop marks"
        for mark in marks:
            check_mark(page.number, mark, trims, [f.box for f in page.forms], pack.bleed)
        vertical = [m for m in marks if m.vertical]
        horizontal = [m for m in marks if m.horizontal]
        for trim in trims:
            for x in (trim.x0, trim.x1):
                on_line = [m for m in vertical if abs(m.x0 - x) <= 0.01]
                assert any(m.box.y0 >= trim.y1 for m in on_line), f"no mark above x={x:.2f}"
                assert any(m.box.y1 <= trim.y0 for m in on_line), f"no mark below x={x:.2f}"
            for y in (trim.y0, trim.y1):
                on_line = [m for m in horizontal if abs(m.y0 - y) <= 0.01]
                assert any(m.box.x1 <= trim.x0 for m in on_line), f"no mark left of y={y:.2f}"
                assert any(m.box.x0 >= trim.x1 for m in on_line), f"no mark right of y={y:.2f}"


def check_mark(page: int, mark: Segment, trims: list[Box], bleeds: list[Box], bleed: float):
    where = f"page {page}: mark {mark}"
    assert mark.vertical or mark.horizontal, f"{where} is not axis-aligned"
    assert 0.25 <= mark.width_pt <= 0.4, f"{where}: not a hairline"
    assert mark.length >= 2.0 - 0.01, f"{where}: too short to align a ruler to"
    for box in bleeds:
        assert mark.box.distance(box) > 0.01, f"{where} touches or crosses bleed box {box}"
    for box in trims:
        assert mark.box.distance(box) >= bleed - 0.01, f"{where} within the bleed of {box}"
    if mark.vertical:
        lines = [v for t in trims for v in (t.x0, t.x1)]
        assert any(abs(mark.x0 - v) <= 0.01 for v in lines), f"{where} is on no trim line"
    else:
        lines = [v for t in trims for v in (t.y0, t.y1)]
        assert any(abs(mark.y0 - v) <= 0.01 for v in lines), f"{where} is on no trim line"


def check_manifest(pack: Pack) -> None:
    """Each manifest item is a card on its page, and each card on a page is an item."""
    assert pack.manifest["pages"] == len(pack.pages)
    pages_with_items = {i["page"] for i in pack.manifest["items"]}
    assert pages_with_items == {p.number for p in pack.pages if p.forms}
    for page in pack.pages:
        items = pack.items_on(page.number)
        found = [pack.trim_box(f) for f in page.forms]
        hits = match_boxes([item_box(i) for i in items], found, f"page {page.number}")
        for item, hit in zip(items, hits, strict=True):
            form = page.forms[hit]
            side, name = pack.card(page.number, hit)  # what the art at that spot shows
            assert item["side"] == side, (page.number, item)
            assert name is None or item["name"] == name, (page.number, item, name)
            assert item["rotation"] % 360 == form.rotation % 360, (page.number, item)


def check_duplex(pack: Pack) -> None:
    """Each sheet of fronts is followed by its backs, mirrored for a long-edge flip."""
    pw = pack.paper[0]
    sides = [pack.side_of(p.number) for p in card_pages(pack)]
    assert sides == ["front", "back"] * (len(sides) // 2), sides
    refs = {
        side: {f.ref for p in card_pages(pack) if pack.side_of(p.number) == side for f in p.forms}
        for side in ("front", "back")
    }
    assert not refs["front"] & refs["back"], "the same art is used as a face and as a back"
    # from the manifest alone
    items = pack.manifest["items"]
    by_key = {(i["page"], i["side"], i["component"], i["name"], i["copy"]): i for i in items}
    assert len(by_key) == len(items), "one piece placed twice on the same side of a page"
    for item in items:
        if item["side"] != "front":
            continue
        key = (item["page"] + 1, "back", item["component"], item["name"], item["copy"])
        assert key in by_key, f"no back on the next page for {item}"
        back = by_key[key]
        assert back["x_mm"] == pytest.approx(pw - item["x_mm"] - item["w_mm"], abs=TOL)
        assert back["y_mm"] == pytest.approx(item["y_mm"], abs=TOL)
        assert (back["w_mm"], back["h_mm"]) == (item["w_mm"], item["h_mm"])
    assert Counter(i["side"] for i in items)["back"] == Counter(i["side"] for i in items)["front"]
    # from the PDF's own placements
    for page in card_pages(pack):
        if pack.side_of(page.number) != "front":
            continue
        back_page = pack.page(page.number + 1)
        mirrored = [Box(pw - f.box.x1, f.box.y0, pw - f.box.x0, f.box.y1) for f in page.forms]
        hits = match_boxes(mirrored, [f.box for f in back_page.forms], f"backs of {page.number}")
        fronts_items = pack.items_on(page.number)
        backs_items = pack.items_on(back_page.number)
        for form, hit in zip(page.forms, hits, strict=True):
            back = back_page.forms[hit]
            # the back's top edge is the front's after turning the sheet over its long edge
            assert back.up[0] == pytest.approx(-form.up[0], abs=1e-6)
            assert back.up[1] == pytest.approx(form.up[1], abs=1e-6)
            front_item = _item_at(fronts_items, pack.trim_box(form))
            back_item = _item_at(backs_items, pack.trim_box(back))
            piece = ("component", "name", "copy")
            assert [front_item[k] for k in piece] == [back_item[k] for k in piece]


def _item_at(items: list[dict], box: Box) -> dict:
    hits = [i for i in items if item_box(i).close_to(box, TOL)]
    assert len(hits) == 1, f"{len(hits)} manifest items at {box}"
    return hits[0]


# -- the bundled game, on A4 and Letter -----------------------------------------------------


def test_page_size(pack: Pack) -> None:
    """Every page is the paper, to 0.1 mm: MediaBox and CropBox (pypdf) and the size a
    renderer uses (pdfium)."""
    pw, ph = pack.paper
    pages = PdfReader(str(pack.pdf)).pages
    assert len(pages) == len(pack.pages) >= 2
    for page in pages:
        for box in (page.mediabox, page.cropbox):
            assert float(box.width) * MM_PER_PT == pytest.approx(pw, abs=TOL)
            assert float(box.height) * MM_PER_PT == pytest.approx(ph, abs=TOL)
            assert (float(box.left), float(box.bottom)) == (0, 0)
    document = pdfium.PdfDocument(str(pack.pdf))
    try:
        for index in range(len(document)):
            w, h = document[index].get_size()
            assert (w * MM_PER_PT, h * MM_PER_PT) == pytest.approx((pw, ph), abs=TOL)
    finally:
        document.close()


def test_cards_are_their_trim_size(pack: Pack) -> None:
    check_trim_sizes(pack)
    placed = sum(len(p.forms) for p in card_pages(pack))
    assert placed == 2 * sum(DECK_COUNTS.values())  # every card, face and back


def test_manifest_matches_pdf(pack: Pack) -> None:
    check_manifest(pack)
    fronts = Counter(i["name"] for i in pack.manifest["items"] if i["side"] == "front")
    assert fronts == DECK_COUNTS


def test_nothing_within_5mm_of_the_edge(pack: Pack) -> None:
    check_margins(pack)
    for page in card_pages(pack):  # the label is there to be checked
        assert f"page {page.number}" in pack.label(page.number)


def test_crop_marks(pack: Pack) -> None:
    check_crop_marks(pack)


def test_duplex_backs_follow_and_mirror_fronts(pack: Pack) -> None:
    check_duplex(pack)


def test_bleed_boxes_never_overlap(pack: Pack) -> None:
    check_no_overlap(pack)


def test_identical_art_is_one_xobject(pack: Pack) -> None:
    uses = [f for p in card_pages(pack) for f in p.forms]
    assert len({f.ref for f in uses}) == len(DECK_COUNTS) + 1  # 5 faces, 1 back
    assert form_xobject_count(pack.pdf) == len(DECK_COUNTS) + 1
    face_of: dict[str, set[int]] = defaultdict(set)
    back_refs: set[int] = set()
    for page in card_pages(pack):
        for index, form in enumerate(page.forms):
            side, name = pack.card(page.number, index)  # read from the art's own text
            if side == "front":
                face_of[name].add(form.ref)
            else:
                back_refs.add(form.ref)
    assert all(len(refs) == 1 for refs in face_of.values()), face_of
    assert len({ref for refs in face_of.values() for ref in refs}) == len(DECK_COUNTS)
    assert len(back_refs) == 1
    uses_of = Counter(f.ref for f in uses)
    for name, count in DECK_COUNTS.items():
        assert uses_of[next(iter(face_of[name]))] == count
    assert uses_of[next(iter(back_refs))] == sum(DECK_COUNTS.values())


# -- butted cards: the bundled deck as it is ---------------------------------------------------


@pytest.fixture(scope="module", params=["a4", "letter"])
def butted(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, pnp) -> Pack:
    """The ingredient cards as bundled (``butt: true``), built on A4 and on US Letter."""
    assert DECK.get("butt") is True, "the bundled ingredient deck butts its cards"
    paper = request.param
    components = _deck_alone(tmp_path_factory.mktemp(f"butted-{paper}"), butt=True)
    out = components.parent / "out"
    result = pnp("build", "--components", components, "--out", out, "--paper", paper)
    assert result.exit_code == 0, result.output
    return read_pack(
        out,
        GAME,
        paper,
        bleed=DECK["bleed"],
        trim=MINI_EURO,
        faces={card["name"]: card["title"] for card in DECK["cards"]},
        back_text=DECK["fields"]["back_title"],
    )


def _visible(form: FormUse) -> Box:
    """What of a form prints: its box within the clip in force."""
    box = form.box.intersect(form.clip_box) if form.clip_box is not None else form.box
    assert box is not None
    return box


def test_butted_cards_touch_and_never_print_on_each_other(butted: Pack) -> None:
    """Butted, the cards of a sheet touch at their trim lines: what each prints is its trim
    box and the bleed only where no card touches it, so no card's art lies on another; A4
    holds 16 mini-euro cards, the 10 of a gutter of bleed between them."""
    fronts = [p for p in card_pages(butted) if butted.side_of(p.number) == "front"]
    if butted.paper == PAPER["a4"]:
        assert max(len(p.forms) for p in fronts) == 16
    for page in card_pages(butted):
        shown = [_visible(f) for f in page.forms]
        trims = [butted.trim_box(f) for f in page.forms]
        for a, b in itertools.combinations(shown, 2):
            assert min(a.overlap(b)) <= 0.01, f"page {page.number}: {a} and {b} overlap"
        for box, trim in zip(shown, trims, strict=True):
            for side in ("x0", "y0", "x1", "y1"):
                grown = abs(getattr(box, side) - getattr(trim, side))
                expected = 0.0 if _touched(trim, side, trims) else butted.bleed
                assert abs(grown - expected) <= TOL, (page.number, trim, side, grown)


def _touched(trim: Box, side: str, trims: list[Box]) -> bool:
    """Whether another card's trim box lies against ``side`` of ``trim``."""
    facing = {"x0": "x1", "x1": "x0", "y0": "y1", "y1": "y0"}[side]
    along = ("y0", "y1") if side in ("x0", "x1") else ("x0", "x1")
    for other in trims:
        if other is trim or abs(getattr(trim, side) - getattr(other, facing)) > 0.01:
            continue
        shared = min(getattr(trim, along[1]), getattr(other, along[1])) - max(
            getattr(trim, along[0]), getattr(other, along[0])
        )
        if shared > 1:
            return True
    return False


def test_butted_cards_have_crop_marks_at_every_trim_line_outside_the_block(butted: Pack) -> None:
    """Every trim line of the block is marked where it leaves the block, outside the art."""
    for page in card_pages(butted):
        if butted.side_of(page.number) != "front":
            assert not page.strokes, f"page {page.number}: marks on a back"
            continue
        shown = [_visible(f) for f in page.forms]
        trims = [butted.trim_box(f) for f in page.forms]
        vertical = [m for m in page.strokes if m.vertical]
        horizontal = [m for m in page.strokes if m.horizontal]
        for mark in page.strokes:
            for box in shown:
                assert mark.box.distance(box) > 0.01, f"page {page.number}: {mark} on art"
        for x in {round(v, 2) for t in trims for v in (t.x0, t.x1)}:
            assert any(abs(m.x0 - x) <= 0.01 for m in vertical), f"no mark at x={x}"
        for y in {round(v, 2) for t in trims for v in (t.y0, t.y1)}:
            assert any(abs(m.y0 - y) <= 0.01 for m in horizontal), f"no mark at y={y}"


# -- synthetic poker decks made in tmp_path --------------------------------------------------


def build_synthetic(
    make_deck_game, pnp, tmp_path: Path, bleed: float, size: str = "poker", trim=POKER, **kw
) -> Pack:
    components = make_deck_game(size=size, bleed=bleed, **kw)
    out = tmp_path / "out"
    result = pnp("build", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    names = kw.get("cards") or {"a": 1, "b": 1}
    faces = {name: name for name in names}  # conftest's face template prints the card's name
    return read_pack(out, "synth", "a4", bleed=bleed, trim=trim, faces=faces, back_text="Test deck")


def fronts_per_sheet(pack: Pack) -> list[int]:
    return [len(p.forms) for p in card_pages(pack) if pack.side_of(p.number) == "front"]


def check_all(pack: Pack) -> None:
    check_trim_sizes(pack)
    check_manifest(pack)
    check_margins(pack)
    check_no_overlap(pack)
    check_crop_marks(pack)


@pytest.mark.parametrize(("bleed", "per_page"), [(0, 9), (3, 8)])
def test_poker_cards_per_a4_page(make_deck_game, pnp, tmp_path, bleed, per_page) -> None:
    """PRINTING.md: a 3 x 3 grid of poker cards fits A4 when they butt; with a bleed gutter,
    8 per page is the usual fallback."""
    pack = build_synthetic(make_deck_game, pnp, tmp_path, bleed, cards={"a": 12, "b": 8})
    assert fronts_per_sheet(pack)[0] == per_page
    check_all(pack)


@pytest.mark.parametrize(
    ("size", "trim", "bleed"),
    [
        ("poker", POKER, 0),
        ("poker", POKER, 3),
        ("70 x 120", (70.0, 120.0), 3),  # upright, with bleed
        ("mini-euro", MINI_EURO, 0),
        ("41 x 63", (41.0, 63.0), 2.5),
    ],
)
def test_synthetic_decks_keep_every_sheet_rule(make_deck_game, pnp, tmp_path, size, trim, bleed):
    pack = build_synthetic(
        make_deck_game, pnp, tmp_path, bleed, size=size, trim=trim, cards={"a": 7, "b": 6}
    )
    assert sum(fronts_per_sheet(pack)) == 13
    check_all(pack)
    check_duplex(pack)
    forms = {f.ref for p in card_pages(pack) for f in p.forms}
    assert len(forms) == 3 and form_xobject_count(pack.pdf) == 3  # faces a and b, one back


def test_art_placed_once_is_drawn_into_the_page_and_repeated_art_by_reference(
    make_deck_game, pnp, tmp_path
) -> None:
    """A face printed once costs no form of its own (an object, resources and a stream per
    card); it is drawn into the page, clipped to its bleed box, and reads back like a form."""
    bleed = 3
    pack = build_synthetic(
        make_deck_game, pnp, tmp_path, bleed, cards={"a": 1, "b": 1, "c": 3}, trim=POKER
    )
    check_all(pack)
    check_duplex(pack)
    uses = [(p, f) for p in card_pages(pack) for f in p.forms]
    inline = [(p, f) for p, f in uses if f.inline is not None]
    assert len(inline) == 2 and len(uses) == 10  # a and b drawn in; 3 x c and 5 backs as forms
    assert form_xobject_count(pack.pdf) == 2  # face c and the back
    assert len({f.ref for _, f in inline}) == 2
    for page, use in inline:
        ops = [op for _, op in use.inline]
        assert ops[:4] == [b"q", b"re", b"W", b"n"], ops[:6]  # clipped to the bleed box first
        drawn = read_form(pack.pdf, page.number, use)
        clip = drawn.paths[0]
        assert clip.clip and clip.box.close_to(use.box, 0.01), (clip.box, use.box)
        assert all(path.box.inside(use.box, 0.01) for path in drawn.paths)
        drawn_size = sorted((use.box.w, use.box.h))
        full = sorted((POKER[0] + 2 * bleed, POKER[1] + 2 * bleed))
        assert all(abs(a - b) <= TOL for a, b in zip(drawn_size, full, strict=True))
    names = sorted(
        "".join(t.text for t in read_form(pack.pdf, page.number, use).texts) for page, use in inline
    )
    assert len(names) == 2 and names[0] != names[1]


def test_poker_without_bleed_is_an_upright_3x3_grid(make_deck_game, pnp, tmp_path) -> None:
    pack = build_synthetic(make_deck_game, pnp, tmp_path, 0, cards={"a": 9})
    (front, _back) = card_pages(pack)
    trims = [pack.trim_box(f) for f in front.forms]
    assert len(trims) == 9
    assert all(abs(t.w - POKER[0]) <= TOL and abs(t.h - POKER[1]) <= TOL for t in trims)
    assert all(f.rotation == 0 for f in front.forms)
    assert len({round(t.x0, 1) for t in trims}) == 3
    assert len({round(t.y0, 1) for t in trims}) == 3
    check_all(pack)
    check_duplex(pack)


@pytest.mark.parametrize(("bleed", "sheets"), [(0, [9, 2]), (3, [8, 3])])
def test_partial_last_sheet(make_deck_game, pnp, tmp_path, bleed, sheets) -> None:
    pack = build_synthetic(make_deck_game, pnp, tmp_path, bleed, cards={"a": 6, "b": 5})
    assert fronts_per_sheet(pack) == sheets
    check_all(pack)
    check_duplex(pack)
    # the short sheet fills the full sheet's first slots (top row first, left to right), so
    # both sheets are cut the same way
    first, last = (p for p in card_pages(pack) if pack.side_of(p.number) == "front")
    order = sorted((pack.trim_box(f) for f in first.forms), key=lambda b: (-round(b.y0, 1), b.x0))
    last_boxes = [pack.trim_box(f) for f in last.forms]
    match_boxes(order[: len(last_boxes)], last_boxes, "short sheet")


def test_single_sided_deck_has_blank_backs(make_deck_game, pnp, tmp_path) -> None:
    """Single-sided cards print nothing on the back of their sheet: the PDF still gives the
    sheet a (blank) back page, so a duplex printer pairs the next sheet right."""
    pack = build_synthetic(make_deck_game, pnp, tmp_path, 3, cards={"a": 5}, back=False)
    pages = card_pages(pack)
    assert len(pages) == 1 and len(pages[0].forms) == 5
    assert len(pack.pages) == 4 and pages[0].number == 3
    blank = pack.pages[3]
    assert not blank.forms and not blank.paths and not pack.chars[3]
    assert {i["side"] for i in pack.manifest["items"]} == {"front"}
    check_all(pack)
