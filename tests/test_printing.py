"""How the user prints, read back from the PDF: gutter fold, back offset, duplex edge, ink
saver, paper sizes, the print-shop export, previews, the calibration page and ``--watch``.

Every game is synthetic, written under ``tmp_path``: a deck (``make_deck_game``, with this
file's own templates so that a face and a back can be told apart by the text their art shows)
and a small counter sheet with a double-sided round token and a single-sided square one.
Positions come from the page content streams (``tests/pdfread.py``): a form XObject's ``/BBox``
on the page is a piece's bleed box, its matrix says how the art is turned.

Backs are checked against the physical sheet: the flip maps the back page onto the front page
(a long-edge flip mirrors x, a short-edge flip and a gutter fold mirror y), and a back must land
behind its front, its art turned over about the art's own vertical axis, the way a card is
turned over like a book page. For an upright card that is "no turn" on a long-edge flip and
"turned 180°" on a short-edge flip or a fold.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import queue
import re
import select
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
from conftest import CARD_FACE, TOKEN_BACK, TOKEN_FACE
from pdfread import (
    MM_PER_PT,
    Box,
    FormUse,
    PageContent,
    Segment,
    colour_operators,
    read_form,
    read_pages,
    text_of,
)
from PIL import Image
from pypdf import PdfReader
from waiting import PATIENCE

from generator.output import calibration

REPO = Path(__file__).resolve().parent.parent
EDGE = 5.0  # mm a home printer cannot print
EPS = 0.01  # mm, for positions the engine computes exactly
TOL = 0.1  # mm, for boxes read from art
A4 = (210.0, 297.0)
PAPERS = {"a4": A4, "letter": (215.9, 279.4), "a3": (297.0, 420.0), "a4-letter": (210.0, 279.4)}
OFFSET = (1.5, -0.5)

FACE = CARD_FACE  # the card's name on a pale ground
BACK_TEXT = "card back"
BACK = f"""\
<svg xmlns="http://www.w3.org/2000/svg" {{{{ box.svg_attrs }}}}>
  <rect x="{{{{ -box.bleed }}}}" y="{{{{ -box.bleed }}}}" width="{{{{ box.full_w }}}}"
        height="{{{{ box.full_h }}}}" fill="#553322"/>
  <text x="{{{{ box.w / 2 }}}}" y="8" font-family="sans-serif" font-size="5"
        text-anchor="middle" fill="#ffffff">{BACK_TEXT}</text>
</svg>
"""
# a back with no word and no colour, the same on every piece: the ink saver prints it as its
# outline only
PLAIN_BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#444444"/>
</svg>
"""
# Ink saver: a large dark area (spelled BIGFILL), a small dark badge and small dark text.
DARK_FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" BIGFILL/>
  <rect x="4" y="4" width="10" height="5" fill="#181818"/>
  <text x="{{ box.w / 2 }}" y="{{ box.h / 2 }}" font-family="sans-serif" font-size="6"
        text-anchor="middle" fill="#f0f0f0">{{ card.name }}</text>
</svg>
"""
COINS, MARKS = 12, 4  # double-sided 16 mm circles, single-sided 20 mm squares


def token_files(coins: int = COINS) -> dict[str, str]:
    """The counter-sheet game's files: ``coins`` double-sided coins, MARKS single-sided marks."""
    return {
        "game.yaml": f"""\
            title: Token test
            players: 2
            paper: a4
            expect:
              coins: {coins}
              marks: {MARKS}
            """,
        "coins.yaml": f"""\
            kind: tokens
            title: Coins
            shape: circle
            size: 16
            bleed: 1
            face: face.svg.j2
            back: back.svg.j2
            tokens:
              - name: coin
                count: {coins}
            """,
        "marks.yaml": f"""\
            kind: tokens
            title: Marks
            shape: square
            size: 20
            bleed: 1
            face: face.svg.j2
            tokens:
              - name: mark
                count: {MARKS}
            """,
    }


# --- games and builds -----------------------------------------------------------------------


def deck(make_deck_game, face: str = FACE, **kwargs) -> Path:
    """A ``make_deck_game`` deck (game ``synth``) with this file's templates; returns the
    components folder."""
    components = make_deck_game(**kwargs)
    templates = components / kwargs.get("name", "synth") / "templates"
    (templates / "face.svg.j2").write_text(face, encoding="utf-8")
    (templates / "back.svg.j2").write_text(BACK, encoding="utf-8")
    return components


def token_game(components: Path, name: str = "tokens", coins: int = COINS) -> Path:
    """The counter-sheet game ``name`` under ``components``; returns ``components``."""
    root = components / name
    (root / "templates").mkdir(parents=True, exist_ok=True)
    for file, content in token_files(coins).items():
        (root / file).write_text(textwrap.dedent(content), encoding="utf-8")
    (root / "templates" / "face.svg.j2").write_text(TOKEN_FACE, encoding="utf-8")
    (root / "templates" / "back.svg.j2").write_text(TOKEN_BACK, encoding="utf-8")
    return components


@dataclass(eq=False)
class Built:
    """A built pack read back: the PDF's pages, its manifest, and what each form's art says."""

    pdf: Path
    pages: list[PageContent]
    manifest: dict
    _art: dict[int, str] = field(default_factory=dict)

    def art(self, page: PageContent, form: FormUse) -> str:
        """The text the art of ``form`` shows (the same XObject shows the same art)."""
        if form.ref not in self._art:
            texts = read_form(self.pdf, page.number, form).texts
            self._art[form.ref] = " ".join(t.text for t in texts)
        return self._art[form.ref]

    def is_back(self, page: PageContent, form: FormUse) -> bool:
        art = self.art(page, form)
        return art == BACK_TEXT or art.endswith(" back")

    def fronts(self, page: PageContent) -> list[FormUse]:
        return [f for f in page.forms if not self.is_back(page, f)]

    def backs(self, page: PageContent) -> list[FormUse]:
        return [f for f in page.forms if self.is_back(page, f)]

    @property
    def bleed(self) -> float:
        """The bleed of every piece of the game (each game here has one)."""
        (bleed,) = {i["bleed_mm"] for i in self.manifest["items"]}
        return bleed

    def trim(self, form: FormUse) -> Box:
        return form.box.shrink(self.bleed)

    def items(self, **match: object) -> list[dict]:
        return [i for i in self.manifest["items"] if all(i[k] == v for k, v in match.items())]


def build(pnp, components: Path, out: Path, game: str, *options: object) -> Built:
    result = pnp("build", game, "--components", components, "--out", out, *options)
    assert result.exit_code == 0, result.output
    pdf = out / game / f"{game}.pdf"
    manifest = json.loads((out / game / "manifest.json").read_text("utf-8"))
    return Built(pdf, read_pages(pdf), manifest)


def card_pages(built: Built) -> list[PageContent]:
    pages = [p for p in built.pages if p.forms]
    assert pages, "no page places any piece"
    return pages


# --- geometry -------------------------------------------------------------------------------


def mirror(box: Box, flip: str, paper: tuple[float, float]) -> Box:
    """``box`` on the other side of the sheet: behind it after a ``long``-edge flip or a fold
    down the middle (``fold-x``: x mirrored), a ``short``-edge flip or a fold across the
    middle (``fold``: y mirrored)."""
    if flip in ("long", "fold-x"):
        return Box(paper[0] - box.x1, box.y0, paper[0] - box.x0, box.y1)
    return Box(box.x0, paper[1] - box.y1, box.x1, paper[1] - box.y0)


def moved(box: Box, dx: float, dy: float) -> Box:
    return Box(box.x0 + dx, box.y0 + dy, box.x1 + dx, box.y1 + dy)


def item_box(item: dict) -> Box:
    return Box(item["x_mm"], item["y_mm"], item["x_mm"] + item["w_mm"], item["y_mm"] + item["h_mm"])


def _linear(form: FormUse) -> tuple[float, float, float, float]:
    """The form's turn as a 2x2 matrix (column vectors: a, c / b, d), scale removed."""
    a, b, c, d = form.matrix[:4]
    s = math.sqrt(abs(a * d - b * c))
    return a / s, c / s, b / s, d / s


def seen_through(front: FormUse, back: FormUse, flip: str) -> tuple[int, ...]:
    """The back's art seen through the sheet from the front side, in the front art's own axes
    (a 2x2 matrix, rounded): (-1, 0, 0, 1) is a card turned over like a book page."""
    fa, fb, fc, fd = _linear(front)
    ba, bb, bc, bd = _linear(back)
    sx, sy = (-1, 1) if flip in ("long", "fold-x") else (1, -1)
    # F . B, then the inverse of the front's rotation (its transpose)
    m = (sx * ba, sx * bb, sy * bc, sy * bd)
    inv = (fa, fc, fb, fd)
    out = (
        inv[0] * m[0] + inv[1] * m[2],
        inv[0] * m[1] + inv[1] * m[3],
        inv[2] * m[0] + inv[3] * m[2],
        inv[2] * m[1] + inv[3] * m[3],
    )
    return tuple(round(v) for v in out)


TURNED_OVER = (-1, 0, 0, 1)


def pair_backs(
    built: Built,
    front_page: PageContent,
    back_page: PageContent,
    flip: str,
    paper: tuple[float, float],
    offset: tuple[float, float] = (0.0, 0.0),
) -> list[tuple[FormUse, FormUse]]:
    """Each back form with the one front form it lies behind (its bleed box mirrored by the
    flip and moved by the back offset); every back has exactly one."""
    fronts, backs = built.fronts(front_page), built.backs(back_page)
    assert backs, f"page {back_page.number}: no backs"
    pairs = []
    for back in backs:
        hits = [
            f for f in fronts if moved(mirror(f.box, flip, paper), *offset).close_to(back.box, EPS)
        ]
        assert len(hits) == 1, (
            f"page {back_page.number}: the back at {back.box} is behind {len(hits)} fronts "
            f"of page {front_page.number} ({flip} flip)"
        )
        pairs.append((hits[0], back))
    assert len({id(f) for f, _ in pairs}) == len(pairs), "two backs behind one front"
    return pairs


def solid(segments: list[Segment]) -> list[Segment]:
    return [s for s in segments if not s.dash]


def page_size(path: Path) -> list[tuple[float, float]]:
    reader = PdfReader(str(path))
    return [
        (float(p.mediabox.width) * MM_PER_PT, float(p.mediabox.height) * MM_PER_PT)
        for p in reader.pages
    ]


def chars_of(path: Path) -> list[list[dict]]:
    with pdfplumber.open(path) as doc:
        return [list(page.chars) for page in doc.pages]


def char_box(char: dict) -> Box:
    return Box(*(char[k] * MM_PER_PT for k in ("x0", "y0", "x1", "y1")))


# --- gutter fold ----------------------------------------------------------------------------


def fold_of(page: PageContent, paper: tuple[float, float]) -> str:
    """The fold of a page from its one dashed line: 'fold' across the middle of the page (y
    mirrored), 'fold-x' down it (x mirrored)."""
    dashed = [s for s in page.strokes if s.dash]
    assert len(dashed) == 1, f"page {page.number}: {len(dashed)} dashed lines, want a fold"
    line = dashed[0]
    if line.horizontal:
        assert abs(line.y0 - paper[1] / 2) <= EPS, f"page {page.number}: {line}"
        ends, length = (line.x0, line.x1), paper[0]
    else:
        assert line.vertical and abs(line.x0 - paper[0] / 2) <= EPS, f"page {page.number}: {line}"
        ends, length = (line.y0, line.y1), paper[1]
    # across the whole sheet, a millimetre inside the margin at each end
    assert min(ends) <= EDGE + 1 + EPS and max(ends) >= length - EDGE - 1 - EPS, line
    return "fold" if line.horizontal else "fold-x"


def check_fold(built: Built, paper: tuple[float, float], bleed: float) -> None:
    """Every sheet with backs folds: a dashed line across (or down) the middle of the page,
    fronts on one side, each back on the other, behind its front once folded, crop marks and
    cut lines on the fronts' side."""
    pages = card_pages(built)
    folds = {}
    for page in pages:
        fold = folds[page.number] = fold_of(page, paper)
        axis = 1 if fold == "fold" else 0  # the coordinate the fold mirrors
        line = paper[axis] / 2
        front_side = 1 if fold == "fold" else -1  # fronts above, or left of, the line

        def side(box: Box, axis: int = axis) -> tuple[float, float]:
            return (box.y0, box.y1) if axis else (box.x0, box.x1)

        fronts, backs = built.fronts(page), built.backs(page)
        assert fronts and len(backs) <= len(fronts), page.number
        for form in fronts:
            lo, hi = side(form.box)
            clear = lo - line if front_side > 0 else line - hi
            assert clear >= EDGE - EPS, f"page {page.number}: front {form.box} at the fold"
        for form in backs:
            lo, hi = side(form.box)
            clear = line - hi if front_side > 0 else lo - line
            assert clear >= EDGE - EPS, f"page {page.number}: back {form.box} at the fold"
        turn = (lambda r: (180 - r) % 360) if fold == "fold" else (lambda r: -r % 360)
        for front, back in pair_backs(built, page, page, fold, paper):
            # mirrored across the fold and turned over like a card, so it reads upright
            assert back.rotation % 360 == turn(front.rotation), (page.number, back.box)
            assert back.determinant == pytest.approx(1, abs=1e-4), "art scaled or mirrored"
            assert seen_through(front, back, fold) == TURNED_OVER
            if front.clip_box is not None:  # a token: its shape is mirrored with it
                assert back.clip_box is not None
                assert mirror(front.clip_box, fold, paper).close_to(back.clip_box, EPS)
        marks = solid(page.strokes)
        cut_lines = [p for p in page.paths if p.stroked and not p.dash]
        assert marks or cut_lines, f"page {page.number}: no crop marks or cut lines"
        for box in [m.box for m in marks] + [p.box for p in cut_lines]:
            lo, hi = side(box)
            assert (lo > line) if front_side > 0 else (hi < line), (
                f"page {page.number}: a mark or cut line at {box} on the backs' side"
            )
    # the manifest agrees: every item's trim box is a form's, on its page, on its side
    for page in pages:
        items = built.items(page=page.number)
        assert len(items) == len(page.forms), f"page {page.number}: manifest and PDF differ"
        for item in items:
            box = item_box(item)
            hits = [f for f in page.forms if built.trim(f).close_to(box, EPS)]
            assert len(hits) == 1, f"page {page.number}: {item} is no form of the page"
            assert built.is_back(page, hits[0]) == (item["side"] == "back"), item
            assert item["rotation"] % 360 == hits[0].rotation % 360, item
    # each back item is its front's, on the same page, mirrored across the fold
    assert built.bleed == bleed
    fronts = {(i["component"], i["name"], i["copy"]): i for i in built.items(side="front")}
    for item in built.items(side="back"):
        front = fronts.pop((item["component"], item["name"], item["copy"]))
        assert item["page"] == front["page"], item
        fold = folds[item["page"]]
        assert item_box(item).close_to(mirror(item_box(front), fold, paper), EPS), item
    assert all(i["component"] == "marks" for i in fronts.values()), "fronts without a back"


@pytest.mark.parametrize(
    ("size", "bleed", "turned", "fold", "per_sheet"),
    [
        ("tarot", 3, False, "fold", 2),  # 2 upright across the page, folded across its middle
        ("poker", 3, True, "fold-x", 4),  # 4 turned down one half, folded down its middle
        ("mini-euro", 3, True, "fold-x", 5),
    ],
    ids=["tarot", "poker", "mini-euro"],
)
def test_fold_puts_each_back_behind_its_front(
    pnp, make_deck_game, tmp_path, size: str, bleed: float, turned: bool, fold: str, per_sheet
) -> None:
    """The gutter fold holds as many cards as the paper allows: it folds across the page or
    down it, cards upright or turned, whichever holds more (4 poker cards on A4)."""
    components = deck(make_deck_game, size=size, bleed=bleed)
    built = build(pnp, components, tmp_path / "out", "synth", "--layout", "fold")
    pages = card_pages(built)
    assert {f.rotation % 180 for p in pages for f in built.fronts(p)} == {90 if turned else 0}
    assert {fold_of(p, A4) for p in pages} == {fold}
    assert len(built.fronts(pages[0])) == per_sheet
    check_fold(built, A4, bleed)
    assert len(built.items(side="front")) == len(built.items(side="back")) == 11
    assert {i["page"] for i in built.items(side="back")} == {p.number for p in pages}
    assert built.manifest["pages"] == built.manifest["sheets"]  # printed single-sided


def test_fold_counter_sheet(pnp, tmp_path) -> None:
    components = token_game(tmp_path / "components")
    built = build(pnp, components, tmp_path / "out", "tokens", "--layout", "fold")
    check_fold(built, A4, 1.0)
    assert len(built.items(component="coins", side="front")) == COINS
    assert len(built.items(component="coins", side="back")) == COINS
    assert len(built.items(component="marks", side="front")) == MARKS
    assert not built.items(component="marks", side="back")


@pytest.mark.parametrize("game", ["deck", "tokens"])
def test_fold_page_label_clear_of_the_backs(pnp, make_deck_game, tmp_path, game: str) -> None:
    """The page label is printed in the footer band; folded backs must not reach into it (the
    label would print over their art)."""
    if game == "deck":
        components, name = deck(make_deck_game, size="tarot"), "synth"
    else:
        # enough coins for a full row along the top, so a full row of backs along the bottom
        components, name = token_game(tmp_path / "components", coins=30), "tokens"
    built = build(pnp, components, tmp_path / "out", name, "--layout", "fold")
    chars = chars_of(built.pdf)
    for page in card_pages(built):
        # the page's own small print (the art's text here is 8.5 pt and larger)
        label = [c for c in chars[page.number - 1] if c["size"] < 7.5 and c["text"].strip()]
        assert any(char_box(c).y1 < A4[1] / 4 for c in label), f"page {page.number}: no label"
        for form in built.backs(page):
            visible = form.box.intersect(form.clip_box)
            for char in label:
                overlap = char_box(char).intersect(visible)
                assert overlap is None or min(overlap.w, overlap.h) <= 0, (
                    f"page {page.number}: the label's {char['text']!r} at {char_box(char)} prints "
                    f"over the back at {form.box}"
                )


def test_single_sided_deck_does_not_fold(pnp, make_deck_game, tmp_path) -> None:
    components = deck(make_deck_game, back=False)
    plain = build(pnp, components, tmp_path / "plain", "synth")
    folded = build(pnp, components, tmp_path / "fold", "synth", "--layout", "fold")
    # the same sheets, printed single-sided: the fronts of the double-sided pack, no backs
    assert len(folded.pages) == len(plain.pages) // 2
    for a, b in zip(plain.pages[::2], folded.pages, strict=True):
        assert not [s for s in b.strokes if s.dash], f"page {b.number}: a fold line"
        assert [f.box for f in a.forms] == [f.box for f in b.forms]
    assert any(f.box.y1 < A4[1] / 2 for p in folded.pages for f in p.forms), "cards only on top"
    assert not folded.items(side="back")
    for a, b in zip(plain.manifest["items"], folded.manifest["items"], strict=True):
        assert b["page"] == (a["page"] + 1) // 2 and b["sheet"] == a["sheet"]
        assert {**a, "page": 0} == {**b, "page": 0}


# --- back offset ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["deck", "tokens"])
def test_back_offset_moves_the_backs_and_keeps_clear_of_the_margin(
    pnp, make_deck_game, tmp_path, game: str
) -> None:
    """Every back is its front mirrored and then moved by the offset; the layout keeps room
    for that move, so that neither fronts nor moved backs come within 5 mm of the edge."""
    if game == "deck":
        components, name = deck(make_deck_game), "synth"
    else:
        components, name = token_game(tmp_path / "components"), "tokens"
    plain = build(pnp, components, tmp_path / "plain", name)
    shifted = build(pnp, components, tmp_path / "offset", name, "--back-offset", "1.5,-0.5")
    assert len(plain.pages) == len(shifted.pages)
    inner = Box(EDGE, EDGE, A4[0] - EDGE, A4[1] - EDGE)
    backs_seen = 0
    for page in card_pages(shifted):
        if not shifted.backs(page):
            continue
        front_page = shifted.pages[page.number - 2]
        for front, back in pair_backs(shifted, front_page, page, "long", A4, OFFSET):
            backs_seen += 1
            assert back.rotation % 360 == -front.rotation % 360
            assert seen_through(front, back, "long") == TURNED_OVER
        for form in page.forms + front_page.forms:
            assert form.box.inside(inner, EPS), f"page {page.number}: {form.box} in the margin"
    assert backs_seen == len(plain.items(side="back")) > 0
    for item in shifted.items(side="back"):
        key = {k: item[k] for k in ("component", "name", "copy")}
        (front,) = shifted.items(side="front", **key)
        want = moved(mirror(item_box(front), "long", A4), *OFFSET)
        assert item_box(item).close_to(want, EPS), item


def _key(segment: Segment) -> tuple[float, ...]:
    return tuple(round(v, 2) for v in (segment.x0, segment.y0, segment.x1, segment.y1))


@pytest.mark.parametrize("value", ["abc", "50,0", "0,-25", "1,2,3", "1.5", "nan,0"])
def test_bad_back_offset_is_a_clear_error(pnp, make_deck_game, tmp_path, value: str) -> None:
    components = deck(make_deck_game)
    out = tmp_path / "out"
    result = pnp("build", "synth", "--components", components, "--out", out, "--back-offset", value)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "--back-offset" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "out" / "synth" / "synth.pdf").exists()


# --- duplex edge ----------------------------------------------------------------------------

# poker cards with no bleed sit upright (3 x 3 on A4); with 3 mm bleed they are turned (2 x 4)
DECKS = {"upright": {"bleed": 0}, "turned": {"bleed": 3}}


def duplex_pairs(built: Built, flip: str) -> list[tuple[FormUse, FormUse]]:
    """Every back page, which follows its page of fronts, paired with it."""
    pairs = []
    for page in card_pages(built):
        if built.backs(page):
            assert not built.fronts(page), f"page {page.number} mixes fronts and backs"
            front_page = built.pages[page.number - 2]
            pairs += pair_backs(built, front_page, page, flip, A4)
    assert pairs, "no backs"
    return pairs


@pytest.mark.parametrize("game", ["upright", "tokens"])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_duplex_edge(pnp, make_deck_game, tmp_path, flip: str, game: str) -> None:
    """Long edge (the default): backs mirror x, unturned; short edge: backs keep x, mirror y
    (page_h - y - h) and are turned 180°."""
    if game == "tokens":
        components, name = token_game(tmp_path / "components"), "tokens"
    else:
        components, name = deck(make_deck_game, **DECKS[game]), "synth"
    options = ("--duplex", "short") if flip == "short" else ()
    built = build(pnp, components, tmp_path / "out", name, *options)
    pairs = duplex_pairs(built, flip)
    for front, back in pairs:
        assert front.rotation == 0
        assert back.rotation % 360 == (180 if flip == "short" else 0), back.box
        assert back.determinant == pytest.approx(1, abs=1e-4), "art scaled or mirrored"
        assert seen_through(front, back, flip) == TURNED_OVER
        if front.clip_box is not None:
            assert back.clip_box is not None
            assert mirror(front.clip_box, flip, A4).close_to(back.clip_box, EPS)
    # the manifest says the same
    for item in built.items(side="back"):
        key = {k: item[k] for k in ("component", "name", "copy")}
        (front,) = built.items(side="front", **key)
        assert item["page"] == front["page"] + 1
        assert item_box(item).close_to(mirror(item_box(front), flip, A4), EPS), item
        assert item["rotation"] % 360 == (180 if flip == "short" else 0), item


@pytest.mark.parametrize("flip", ["long", "short", "fold"])
def test_turned_cards_backs_turn_over_like_upright_ones(
    pnp, make_deck_game, tmp_path, flip: str
) -> None:
    """Cards turned 90° on the page: the back behind each front must be the same way up
    relative to its front as for upright cards (turned over like a book page), whatever the
    flip; otherwise the same deck comes out different on a short-edge printer."""
    size = {"fold": {"size": "mini-euro", "bleed": 3}}.get(flip, {"bleed": 3})
    components = deck(make_deck_game, **size)
    options = {"short": ("--duplex", "short"), "fold": ("--layout", "fold")}.get(flip, ())
    built = build(pnp, components, tmp_path / "out", "synth", *options)
    if flip == "fold":
        pairs = [
            pair for p in card_pages(built) for pair in pair_backs(built, p, p, fold_of(p, A4), A4)
        ]
    else:
        pairs = duplex_pairs(built, flip)
    assert {front.rotation % 180 for front, _ in pairs} == {90}, "the cards are not turned"
    if flip == "fold":
        flip = fold_of(card_pages(built)[0], A4)
    for front, back in pairs:
        assert seen_through(front, back, flip) == TURNED_OVER, (
            f"{flip}: front turned {front.rotation}°, back {back.rotation}°: seen through the "
            f"sheet the back is {seen_through(front, back, flip)}, not turned over like a page"
        )


# --- ink saver ------------------------------------------------------------------------------


def front_art(built: Built, page: PageContent) -> tuple[FormUse, list, list]:
    """A front on ``page``, its filled paths and its texts (page coordinates)."""
    form = built.fronts(page)[0]
    content = read_form(built.pdf, page.number, form)
    return form, [p for p in content.paths if p.op in ("f", "f*", "F")], content.texts


def sample(path: Path, page: PageContent, box: Box) -> float:
    """Median brightness (0-255) of the rendered page at four points inside ``box``, clear of
    the card's centre and corners."""
    doc = pdfium.PdfDocument(str(path))
    try:
        image = doc[page.number - 1].render(scale=1).to_pil().convert("L")
    finally:
        doc.close()
    px_per_mm = 72 / 25.4
    values = []
    for fx in (0.3, 0.7):
        for fy in (0.3, 0.7):
            x = (box.x0 + fx * box.w) * px_per_mm
            y = (page.height - (box.y0 + fy * box.h)) * px_per_mm
            values.append(image.getpixel((int(x), int(y))))
    middle = sorted(values)[1:3]
    return sum(middle) / 2


def test_ink_saver(pnp, make_deck_game, tmp_path) -> None:
    components = deck(make_deck_game, face=DARK_FACE.replace("BIGFILL", 'fill="#202020"'))
    plain = build(pnp, components, tmp_path / "plain", "synth")  # its backs told by their word
    (components / "synth" / "templates" / "back.svg.j2").write_text(PLAIN_BACK, encoding="utf-8")
    saver = build(pnp, components, tmp_path / "saver", "synth", "--ink-saver")
    assert len(saver.pages) == len(plain.pages)
    checked_backs = 0
    for a, b in zip(plain.pages, saver.pages, strict=True):
        if not a.forms:
            continue
        if all(plain.is_back(a, f) for f in a.forms):
            # backs: no art at all, only thin outlines on the trim boxes
            assert not b.forms, f"page {b.number}: back art printed in ink-saver mode"
            assert not [p for p in b.paths if p.op in ("f", "f*", "F", "B", "b")], b.number
            outlines = [p for p in b.paths if p.stroked]
            want = [plain.trim(f) for f in a.forms]
            assert len(outlines) == len(want), f"page {b.number}"
            for path in outlines:
                assert path.width_pt <= 0.5, f"page {b.number}: outline {path.width_pt} pt wide"
                assert path.stroke.luminance > 0.3, "the outline should be a light grey"
                assert sum(path.box.close_to(w, EPS) for w in want) == 1, path.box
            checked_backs += len(outlines)
            continue
        # fronts keep their art: the same forms in the same places
        assert [f.box for f in b.forms] == [f.box for f in a.forms], f"page {b.number}"
    assert checked_backs == 11
    page_a = next(p for p in plain.pages if p.forms and plain.fronts(p))
    page_b = saver.pages[page_a.number - 1]
    for built, page, dark in ((plain, page_a, True), (saver, page_b, False)):
        form, fills, texts = front_art(built, page)
        (big,) = [p for p in fills if p.box.close_to(form.box, TOL)]
        (badge,) = [p for p in fills if abs(p.box.w * p.box.h - 50) < 1]
        if dark:
            assert big.fill.luminance < 0.2, big.fill
        else:
            assert big.fill.luminance > 0.6, f"the large dark area is still {big.fill}"
        assert badge.fill.luminance < 0.2, f"a small dark badge became {badge.fill}"
        # light text on the large dark area turns dark with it, so it stays readable
        wanted = (lambda t: t.fill.luminance > 0.8) if dark else (lambda t: t.fill.luminance < 0.2)
        assert texts and all(wanted(t) for t in texts), texts
        brightness = sample(built.pdf, page, form.box)
        assert (brightness < 60) if dark else (brightness > 150), brightness


@pytest.mark.parametrize(
    "fill", ['fill="#222"', 'fill="black"', 'style="fill:#202020"', 'fill="rgb(32,32,32)"']
)
def test_ink_saver_lightens_dark_fills_however_spelled(
    pnp, make_deck_game, tmp_path, fill: str
) -> None:
    components = deck(make_deck_game, face=DARK_FACE.replace("BIGFILL", fill))
    built = build(pnp, components, tmp_path / "out", "synth", "--ink-saver")
    page = next(p for p in built.pages if p.forms and built.fronts(p))
    form, fills, _ = front_art(built, page)
    (big,) = [p for p in fills if p.box.close_to(form.box, TOL)]
    assert big.fill.luminance > 0.6, f"{fill}: the large dark area is still {big.fill}"


def test_ink_saver_token_backs_are_outlines(pnp, tmp_path) -> None:
    components = token_game(tmp_path / "components")
    (components / "tokens" / "templates" / "back.svg.j2").write_text(PLAIN_BACK, encoding="utf-8")
    built = build(pnp, components, tmp_path / "out", "tokens", "--ink-saver")
    back_items = built.items(side="back")
    assert len(back_items) == COINS
    for number in {i["page"] for i in back_items}:
        page = built.pages[number - 1]
        assert not page.forms, f"page {number}: back art printed in ink-saver mode"
        outlines = [p for p in page.paths if p.stroked]
        assert len(outlines) == COINS
        want = [item_box(i) for i in back_items if i["page"] == number]
        for path in outlines:
            assert path.curves, "a round token's outline is round"
            assert path.width_pt <= 0.5
            assert sum(path.box.close_to(w, EPS) for w in want) == 1, path.box
    fronts = [p for p in built.pages if p.forms]
    assert sum(len(p.forms) for p in fronts) == COINS + MARKS


# --- paper ----------------------------------------------------------------------------------


def test_a4_letter_fits_both_papers(pnp, make_deck_game, tmp_path) -> None:
    """210 x 279.4 mm: A4's width, Letter's height; nothing within 5 mm of its edges, so that
    the sheet prints unscaled on either paper."""
    components = token_game(deck(make_deck_game))
    for game in ("synth", "tokens"):
        built = build(pnp, components, tmp_path / "out", game, "--paper", "a4-letter")
        assert built.manifest["paper_mm"] == [210.0, 279.4]
        sizes = page_size(built.pdf)
        assert all(abs(w - 210) <= EPS and abs(h - 279.4) <= EPS for w, h in sizes), sizes
        inner = Box(EDGE, EDGE, 210 - EDGE, 279.4 - EDGE)
        chars = chars_of(built.pdf)
        for page in built.pages:
            drawn = [("piece", f.box.intersect(f.clip_box)) for f in page.forms]
            drawn += [("path", b) for b in page.painted]
            drawn += [("line", s.box) for s in page.strokes]
            drawn += [(f"text {c['text']!r}", char_box(c)) for c in chars[page.number - 1]]
            # only the back of a sheet may be blank (nothing behind its pieces)
            assert len(drawn) > 3 or page.number % 2 == 0, f"{game} page {page.number}: blank"
            for what, box in drawn:
                assert box is not None and box.inside(inner, EPS), (
                    f"{game} page {page.number}: {what} at {box} is within {EDGE} mm of the edge"
                )


@pytest.mark.parametrize("paper", ["letter", "a3"])
def test_paper_sizes_exact(pnp, make_deck_game, tmp_path, paper: str) -> None:
    built = build(pnp, deck(make_deck_game), tmp_path / "out", "synth", "--paper", paper)
    w, h = PAPERS[paper]
    for pw, ph in page_size(built.pdf):
        assert abs(pw - w) <= EPS and abs(ph - h) <= EPS, (paper, pw, ph)
    assert built.manifest["paper"] == paper


# --- print shop -----------------------------------------------------------------------------

SHOP = {  # component -> design -> (trim, bleed, copies, the text of each side's art)
    "deck": {
        "a": ((63.5, 88.9), 3.0, 6, {"face": "a", "back": BACK_TEXT}),
        "b": ((63.5, 88.9), 3.0, 5, {"face": "b", "back": BACK_TEXT}),
    },
    "coins": {"coin": ((16.0, 16.0), 1.0, COINS, {"face": "coin", "back": "coin back"})},
    "marks": {"mark": ((20.0, 20.0), 1.0, MARKS, {"face": "mark"})},
}


def test_shop_export(pnp, make_deck_game, tmp_path) -> None:
    components = token_game(deck(make_deck_game))
    out = tmp_path / "out"
    for game in ("synth", "tokens"):
        result = pnp("export", game, "--shop", "--components", components, "--out", out)
        assert result.exit_code == 0, result.output
    for game, wanted in (("synth", ["deck"]), ("tokens", ["coins", "marks"])):
        folder = out / game / "shop"
        listing = json.loads((folder / "shop.json").read_text("utf-8"))["files"]
        assert sorted(p.stem for p in folder.glob("*.pdf")) == sorted(wanted)
        for component in wanted:
            designs = SHOP[component]
            entries = [e for e in listing if e["component"] == component]
            sides = [(name, side) for name, d in designs.items() for side in d[3]]
            assert sorted((e["name"], e["side"]) for e in entries) == sorted(sides)
            pdf = folder / f"{component}.pdf"
            reader = PdfReader(str(pdf))
            assert len(reader.pages) == len(sides), f"{component}: one page per design side"
            pages = read_pages(pdf)
            for entry in entries:
                trim, bleed, copies, art = designs[entry["name"]]
                assert entry["copies"] == copies, entry
                assert entry["pdf"] == pdf.name
                page = reader.pages[entry["page"] - 1]
                full = (trim[0] + 2 * bleed, trim[1] + 2 * bleed)
                media = [float(v) * MM_PER_PT for v in page.mediabox]
                trimbox = [float(v) * MM_PER_PT for v in page.trimbox]
                bleedbox = [float(v) * MM_PER_PT for v in page.bleedbox]
                assert media == pytest.approx([0, 0, *full], abs=EPS), entry
                want_trim = [bleed, bleed, bleed + trim[0], bleed + trim[1]]
                assert trimbox == pytest.approx(want_trim, abs=EPS), entry
                assert bleedbox == pytest.approx(media, abs=EPS), entry
                content = pages[entry["page"] - 1]
                shown = " ".join(t.text for t in content.texts)
                assert shown == art[entry["side"]], f"{component} page {entry['page']}: {shown!r}"
                assert not content.strokes, f"{component} page {entry['page']}: marks drawn"
                assert any(b.close_to(Box(0, 0, *full), TOL) for b in content.painted), "no bleed"
                png = folder / entry["png"]
                with Image.open(png) as image:
                    size = image.size
                    dpi = image.info.get("dpi")
                want_px = [v / 25.4 * 300 for v in full]
                assert all(abs(a - b) <= 1 for a, b in zip(size, want_px, strict=True)), (
                    f"{png.name}: {size} px, want {want_px}"
                )
                assert dpi is not None and dpi == pytest.approx((300, 300), abs=0.5), dpi
            ops = colour_operators(pdf)
            assert ops["k"] > 0, f"{component}: no CMYK fill: {ops}"
            assert set(ops) <= {"k", "K"}, f"{component}: colours not in CMYK: {dict(ops)}"


# --- previews -------------------------------------------------------------------------------


def test_preview_renders_every_page(pnp, make_deck_game, tmp_path) -> None:
    components = deck(make_deck_game)
    out = tmp_path / "out"
    result = pnp("preview", "synth", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    pdf = out / "synth" / "synth.pdf"
    count = len(PdfReader(str(pdf)).pages)
    folder = out / "synth" / "preview"
    pngs = sorted(p.name for p in folder.glob("page-*.png"))
    assert pngs == [f"page-{n:02d}.png" for n in range(1, count + 1)]
    with Image.open(folder / "page-02.png") as image:  # 60 dpi by default
        assert image.size == pytest.approx((210 / 25.4 * 60, 297 / 25.4 * 60), abs=1)
        assert image.info["dpi"] == pytest.approx((60, 60), abs=0.01)  # prints at its size
    with Image.open(folder / "contact.png") as contact:
        assert contact.width >= min(count, 6) * 300 and contact.height >= 300


def test_preview_one_page(pnp, make_deck_game, tmp_path) -> None:
    components = deck(make_deck_game)
    out = tmp_path / "out"
    result = pnp("preview", "synth", "--components", components, "--out", out, "--page", 2)
    assert result.exit_code == 0, result.output
    folder = out / "synth" / "preview"
    assert sorted(p.name for p in folder.glob("*.png")) == ["contact.png", "page-02.png"]


@pytest.mark.parametrize("page", [0, 99])
def test_preview_page_out_of_range(pnp, make_deck_game, tmp_path, page: int) -> None:
    components = deck(make_deck_game)
    out = tmp_path / "out"
    result = pnp("preview", "synth", "--components", components, "--out", out, "--page", page)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    count = len(PdfReader(str(out / "synth" / "synth.pdf")).pages)
    assert f"1 to {count}" in result.output and str(page) in result.output, result.output
    assert not list((out / "synth" / "preview").glob("page-*.png"))


# --- calibration ----------------------------------------------------------------------------


@pytest.mark.parametrize("flip", ["long", "short"])
def test_calibration_scale_zero_behind_the_line(pnp, tmp_path, flip: str) -> None:
    result = pnp("calibrate", "--duplex", flip, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / f"calibration-a4-{flip}.pdf"
    front, back = read_pages(pdf)  # exactly two pages
    assert (front.width, front.height) == pytest.approx(A4, abs=EPS)
    (line,) = [s for s in front.strokes if s.vertical and s.length > 40]
    (across,) = [s for s in front.strokes if s.horizontal and s.length > 40]
    ticks = [s for s in back.strokes if s.vertical and s.length <= 4 + EPS]
    rows: dict[float, list[Segment]] = {}
    for tick in ticks:
        rows.setdefault(round(min(tick.y0, tick.y1), 3), []).append(tick)
    (scale,) = [row for row in rows.values() if len(row) > 10]  # the X scale
    scale.sort(key=lambda s: s.x0)
    assert len(scale) % 2 == 1
    zero = scale[len(scale) // 2]
    assert {round(s.length, 3) for s in scale} == {2.0, 4.0}
    assert zero.length == pytest.approx(4.0, abs=EPS)
    for x, y in ((zero.x0, zero.y0), (zero.x1, zero.y1)):
        fx, fy = (A4[0] - x, y) if flip == "long" else (x, A4[1] - y)
        assert fx == pytest.approx(line.x0, abs=EPS), f"{flip}: zero tick at x {fx}, line {line}"
        assert min(line.y0, line.y1) - EPS <= fy <= max(line.y0, line.y1) + EPS, (fy, line)
    # the Y scale's zero tick lies behind the horizontal line likewise
    yticks = [s for s in back.strokes if s.horizontal and s.length <= 4 + EPS]
    yticks.sort(key=lambda s: s.y0)
    yzero = yticks[len(yticks) // 2]
    for x, y in ((yzero.x0, yzero.y0), (yzero.x1, yzero.y1)):
        fx, fy = (A4[0] - x, y) if flip == "long" else (x, A4[1] - y)
        assert fy == pytest.approx(across.y0, abs=EPS)
        assert min(across.x0, across.x1) - EPS <= fx <= max(across.x0, across.x1) + EPS
    # and it is the tick labelled +0, the label centred above it
    labels = [(t, box) for t, box in strings(pdf, 2) if re.fullmatch(r"[+-]\d+", t)]
    zeros = [box for t, box in labels if t == "+0"]
    assert len(zeros) == 2, labels  # one on each scale
    assert any(
        abs((box.x0 + box.x1) / 2 - zero.x0) < 0.05 and box.y0 > max(zero.y0, zero.y1)
        for box in zeros
    ), (zero, zeros)


def strings(pdf: Path, number: int) -> list[tuple[str, Box]]:
    """The strings page ``number`` shows in its own content stream, each with the box around
    its glyphs (pdfplumber's characters, in content-stream order)."""
    shown = [t.text for t in read_pages(pdf)[number - 1].texts if t.text]
    with pdfplumber.open(pdf) as doc:
        chars = list(doc.pages[number - 1].chars)
    out, i = [], 0
    for text in shown:
        glyphs = chars[i : i + len(text)]
        assert "".join(c["text"] for c in glyphs) == text, (text, glyphs)
        out.append((text, Box.around([p for c in glyphs for p in _corners(c)])))
        i += len(text)
    assert i == len(chars), "characters the page's own stream does not show"
    return out


def _corners(char: dict) -> list[tuple[float, float]]:
    box = char_box(char)
    return [(box.x0, box.y0), (box.x1, box.y1)]


@pytest.mark.parametrize("flip", ["long", "short"])
def test_calibration_scale_labels_legible(pnp, tmp_path, flip: str) -> None:
    """The offsets written along both scales must not print over one another."""
    result = pnp("calibrate", "--duplex", flip, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    pdf = tmp_path / f"calibration-a4-{flip}.pdf"
    labels = [(t, box) for t, box in strings(pdf, 2) if re.fullmatch(r"[+-]\d+", t)]
    per_scale = int(2 * calibration.RANGE / (calibration.STEP * calibration.LABEL_EVERY)) + 1
    assert len(labels) == 2 * per_scale, [t for t, _ in labels]
    clashes = []
    for (ta, a), (tb, b) in itertools.combinations(labels, 2):
        overlap = a.intersect(b)
        if overlap is not None and min(overlap.w, overlap.h) > 0.05:
            clashes.append(f"{ta} {tb} ({overlap.w:.2f} x {overlap.h:.2f} mm)")
    assert not clashes, f"{len(clashes)} pairs of labels overlap, e.g. {clashes[:4]}"


# --- watch and progress ---------------------------------------------------------------------


def _reader(stream, lines: queue.Queue) -> None:
    for line in iter(stream.readline, ""):
        lines.put(line)
    lines.put(None)


def _wait_for(lines: queue.Queue, word: str, seen: list[str]) -> None:
    """Read lines until one contains ``word`` (the child's own word that it is so: no time
    allowance; only the safety cap ends a wait for a line that never comes)."""
    while True:
        try:
            line = lines.get(timeout=PATIENCE)
        except queue.Empty:
            raise AssertionError(f"no {word!r} in the safety cap: {''.join(seen)}") from None
        if line is None:
            raise AssertionError(f"the watch ended before {word!r}: {''.join(seen)}")
        seen.append(line)
        if word in line:
            return


def pdf_text(path: Path) -> str:
    """Every page's text, whichever way it is turned."""
    return "\n".join(text_of(chars) for chars in chars_of(path))


@pytest.mark.parametrize("up_to_date", [False, True], ids=["first-build", "up-to-date"])
def test_watch_rebuilds_on_a_change(make_deck_game, tmp_path, pnp, up_to_date: bool) -> None:
    """Watching starts whether or not the pack had to be built first."""
    components = make_deck_game(cards={"a": 3, "b": 2})
    root = components / "synth"
    (root / "templates" / "face.svg.j2").write_text(
        FACE.replace("{{ card.name }}", "{{ card.motto }}"), encoding="utf-8"
    )
    spec = root / "deck.yaml"
    text = spec.read_text("utf-8")
    text = text.replace("count: 3\n", "count: 3\n    motto: Oldmotto\n")
    spec.write_text(text.replace("count: 2\n", "count: 2\n    motto: Bmotto\n"), encoding="utf-8")
    out = tmp_path / "out"
    if up_to_date:
        assert pnp("build", "synth", "--components", components, "--out", out).exit_code == 0
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "generator", "build", "synth", "--watch"]
    command += ["--components", str(components), "--out", str(out)]
    proc = subprocess.Popen(
        command, cwd=REPO, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
    seen: list[str] = []
    try:
        _wait_for(lines, "watching", seen)
        pdf = out / "synth" / "synth.pdf"
        assert "Oldmotto" in pdf_text(pdf)
        spec.write_text(spec.read_text("utf-8").replace("Oldmotto", "Newmotto"), encoding="utf-8")
        _wait_for(lines, "rebuilt", seen)
        assert "Newmotto" in pdf_text(pdf)  # the rebuild it said it made
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    text = pdf_text(out / "synth" / "synth.pdf")
    assert "Newmotto" in text and "Oldmotto" not in text
    output = "".join(seen)
    assert "\r" not in output and "#" not in output and "%" not in output, output


def test_no_progress_bar_off_a_terminal(pnp, make_deck_game, tmp_path) -> None:
    components = deck(make_deck_game)
    out = tmp_path / "out"
    result = pnp("build", "synth", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    pages = len(PdfReader(str(out / "synth" / "synth.pdf")).pages)
    assert result.stderr == ""
    assert result.output.splitlines() == [
        f"synth: {out / 'synth' / 'synth.pdf'} ({pages} pages, a4, en)"
    ], result.output


def test_progress_bar_on_a_terminal(make_deck_game, tmp_path) -> None:
    """The other half of the rule: standard error on a terminal gets the bar."""
    pty = pytest.importorskip("pty")
    components = deck(make_deck_game)
    master, slave = pty.openpty()
    command = [sys.executable, "-m", "generator", "build", "synth"]
    command += ["--components", str(components), "--out", str(tmp_path / "out")]
    proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=slave, text=True)
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + PATIENCE  # a safety cap: the child's end ends the loop
    try:
        while time.monotonic() < deadline:
            if not select.select([master], [], [], 0.5)[0]:
                if proc.poll() is not None:
                    break
                continue
            try:
                data = os.read(master, 4096)
            except OSError:  # the terminal's other end closed: the build is over
                break
            if not data:
                break
            chunks.append(data)
        stdout, _ = proc.communicate(timeout=PATIENCE)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert proc.returncode == 0, stdout
    bar = b"".join(chunks).decode(errors="replace")
    assert "synth [en]" in bar and "[#" in bar and "%" in bar, bar
    assert "#" not in stdout and "%" not in stdout, stdout
