"""The stock templates: each builds with short and with long inputs, keeps its text inside its
frame and at 6 pt or more, and reports (``pnp check``) what cannot fit even at 6 pt. The sample
game ``docs/stock-templates`` (the docs' pictures) builds and checks clean, and every stock
template has its picture on the docs' page of the stock templates."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pymupdf
import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "docs"))
import make_pictures  # noqa: E402 - the docs' pictures are made by docs/ scripts
import sample_art  # noqa: E402

TEMPLATES = REPO / "templates"
LONG = (
    "When this card is played, every player in turn order draws a card, looks at it, and "
    "either keeps it or passes it to the left; a player who passes three times in a row loses "
    "a coin, and the round ends when nobody wants to pass any more. "
)
# template → (kind line, size, entry fields with short inputs, the long field, its box name)
CASES = {
    "card.svg.j2": (
        "kind: deck\nsize: poker\n",
        {
            "title": "Meadow Walk",
            "type": "Action",
            "text": "Move **two** spaces. Gain :coin:.",
            "flavor": "The long way round.",
            "cost": 2,
            "value": 3,
            "icons": "coin leaf",
            "art": "art/meadow.png",
        },
        "text",
    ),
    "playing-card.svg.j2": (
        "kind: deck\nsize: poker\n",
        {"rank": "Q", "suit": "clubs", "title": "Queen of Clubs", "art": "art/hero.png"},
        "title",
    ),
    "text-card.svg.j2": (
        "kind: deck\nsize: poker\n",
        {"title": "Would you rather", "text": "Sail **east** or **west**?", "flavor": "A sailor"},
        "text",
    ),
    "card-back.svg.j2": ("kind: deck\nsize: poker\n", {"back_title": "The Game"}, "back_title"),
    "token.svg.j2": (
        "kind: tokens\nshape: circle\nsize: 22\n",
        {"value": 5, "label": "Coins", "icon": "coin"},
        "label",
    ),
    "tile.svg.j2": (
        "kind: tokens\nshape: square\nsize: 50\n",
        {
            "title": "Old Tower",
            "text": "Look at the top card of any deck.",
            "value": 2,
            "icons": "clock",
            "art": "art/meadow.png",
        },
        "text",
    ),
    "standee.svg.j2": (
        "kind: standees\nsize: 28 x 45\nbase: 14\n",
        {"title": "The Hero", "art": "art/hero.png"},
        "title",
    ),
    "die.svg.j2": (
        "kind: dice\nsize: 18\n",
        {
            "faces": [
                "Miss",
                {"value": 2, "label": "Coins"},
                7,
                {"icon": "coin", "value": 3},
                "Hit",
                "Wild",
            ]
        },
        "faces",
    ),
    "page-header.svg.j2": ("kind: token-pages\n", {"note": "Draw one each turn."}, "note"),
    "unit-counter.svg.j2": (
        "kind: tokens\nshape: square\nsize: 16.5\n",
        {
            "symbol": "mechanised",
            "echelon": "XX",
            "id": "3/47",
            "setup": "2405",
            "attack": 4,
            "defence": 5,
            "move": 6,
        },
        "id",
    ),
    "marker.svg.j2": (
        "kind: tokens\nshape: square\nsize: 16.5\n",
        {"label": "Out of Supply", "value": "-1", "icon": "clock"},
        "label",
    ),
    "pad.svg.j2": (
        "kind: pad\nsize: 95 x 135\n",
        {"subtitle": "Roll two dice, cross off one box."},
        "subtitle",
    ),
    "box.svg.j2": ("kind: box\n", {"title": "Merchant Cards", "subtitle": "Harbour"}, "title"),
}
# how far text keeps from the cut: 1.5 mm, but on a wargame's counters (1/2" to 5/8"), whose
# words use the width a printed counter sheet's do
EDGE = {"unit-counter.svg.j2": 0.8, "marker.svg.j2": 0.8}
PT_PER_MM = 72 / 25.4
ENTRY_KEY = {"deck": "cards", "tokens": "tokens", "standees": "standees", "dice": "dice"}
HIDDEN = ("art", "icons", "icon", "suit", "symbol", "echelon")  # drawn as pictures, not words


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    """A copy of the sample game ``docs/stock-templates`` with its pictures drawn; the
    components folder holding it."""
    components = tmp_path_factory.mktemp("docs")
    shutil.copytree(REPO / "docs" / make_pictures.SAMPLE, components / make_pictures.SAMPLE)
    sample_art.draw_all(components / make_pictures.SAMPLE / "art")
    return components


def test_every_stock_template_is_tested_and_pictured(sample, tmp_path):
    stock = sorted(p.name for p in TEMPLATES.glob("*.svg.j2") if p.name != "icons.svg.j2")
    assert stock == sorted(CASES)
    made = make_pictures.pictures(make_pictures.build(tmp_path / "out", sample), tmp_path)
    page = (REPO / "docs" / "stock-templates.md").read_text(encoding="utf-8")
    for name in stock:
        picture = re.search(rf"!\[[^\]]*\]\(pictures/([\w-]+\.png)\)[^\n]*`{name}`", page)
        assert picture, f"docs/stock-templates.md shows no picture of {name}"
        assert tmp_path / picture[1] in made, f"make pictures draws no {picture[1]}"


def _game(tmp_path: Path, template: str, fields: dict) -> Path:
    kind = CASES[template][0]
    root = tmp_path / "components" / "g"
    (root / "art").mkdir(parents=True)
    sample_art.draw_all(root / "art")
    (root / "game.yaml").write_text("title: Stock\nplayers: 2\n", encoding="utf-8")
    if template == "page-header.svg.j2":  # a header, not an entry's template
        spec = (
            f"{kind}title: Pieces\nface: token.svg.j2\nheader: {template}\nsize: 20\npages: 1\n"
            f"values: 1-3\neach: 2\npage_title: Page {{n}}\nfields: {json.dumps(fields)}\n"
        )
        (root / "pieces.yaml").write_text(spec, encoding="utf-8")
        return root
    if template == "pad.svg.j2":  # the frame of a sheet drawn from its elements
        spec = (
            f"{kind}title: Pieces\nface: {template}\nfields: {json.dumps(fields)}\n"
            "elements:\n  - boxes: 5\n    numbers: 1-5\n"
        )
        (root / "pieces.yaml").write_text(spec, encoding="utf-8")
        return root
    if template == "box.svg.j2":  # a box for a deck of the game
        (root / "deck.yaml").write_text(
            "kind: deck\ntitle: Deck\nsize: poker\nface: card.svg.j2\nback: card-back.svg.j2\n"
            "cards:\n  - {name: a, title: Anchor, count: 20}\n",
            encoding="utf-8",
        )
        entry = json.dumps({"deck": "deck", **fields})
        spec = f"{kind}title: Pieces\nface: {template}\nboxes:\n  - {entry}\n"
        (root / "pieces.yaml").write_text(spec, encoding="utf-8")
        return root
    key = ENTRY_KEY[kind.split()[1]]
    entry = json.dumps({"name": "a", "count": 1, **fields})
    face = template if template != "card-back.svg.j2" else "card.svg.j2"
    back = "back: card-back.svg.j2\n" if template == "card-back.svg.j2" else ""
    spec = f"{kind}title: Pieces\nface: {face}\n{back}{key}:\n  - {entry}\n"
    if template == "card-back.svg.j2":
        spec = spec.replace('"back_title"', '"title": "Face", "back_title"')
    (root / "pieces.yaml").write_text(spec, encoding="utf-8")
    return root


def _chars(pdf_path: Path, manifest: dict) -> list[tuple[str, float, tuple, tuple]]:
    """Every printed character on the pieces: its text, font size (pt, whichever way it
    runs, as MuPDF reads it), bbox and the trim box of its piece (pt, y down)."""
    found = []
    with pymupdf.open(pdf_path) as pdf:
        for item in manifest["items"]:
            page = pdf[item["page"] - 1]
            height = page.rect.height
            x0, x1 = item["x_mm"] * PT_PER_MM, (item["x_mm"] + item["w_mm"]) * PT_PER_MM
            y0 = height - (item["y_mm"] + item["h_mm"]) * PT_PER_MM
            y1 = height - item["y_mm"] * PT_PER_MM
            for block in page.get_text("rawdict")["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        for char in span["chars"]:
                            cx0, cy0, cx1, cy1 = char["bbox"]
                            cx, cy = (cx0 + cx1) / 2, (cy0 + cy1) / 2
                            if x0 <= cx <= x1 and y0 <= cy <= y1 and char["c"].strip():
                                found.append(
                                    (
                                        char["c"],
                                        span["size"],
                                        (cx0, cy0, cx1, cy1),
                                        (x0, y0, x1, y1),
                                    )
                                )
    return found


def _shown(fields: object) -> list[object]:
    """The values of the fields a template prints as words, in nested faces too."""
    if isinstance(fields, dict):
        return [v for k, value in fields.items() if k not in HIDDEN for v in _shown(value)]
    if isinstance(fields, list):
        return [v for value in fields for v in _shown(value)]
    return [fields]


@pytest.mark.parametrize("template", list(CASES))
def test_short_inputs_print_inside_the_frame_at_6_pt_or_more(tmp_path, pnp, template):
    root = _game(tmp_path, template, CASES[template][1])
    result = pnp("check", "--components", root.parent)
    assert result.exit_code == 0, result.output
    result = pnp("build", "--components", root.parent, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pack = tmp_path / "out" / "g"
    manifest = json.loads((pack / "manifest.json").read_text())
    chars = _chars(pack / "g.pdf", manifest)
    printed = "".join(text for text, *_ in chars)
    if template == "page-header.svg.j2":  # a page's band, not a piece: read the whole page
        with pymupdf.open(pack / "g.pdf") as pdf:
            printed = " ".join(page.get_text() for page in pdf)
    for value in _shown(CASES[template][1]):
        for word in re.sub(r"\*|:[a-z-]+:", " ", str(value)).split():
            assert word in printed, (template, word, printed)
    margin = EDGE.get(template, 1.5) * PT_PER_MM  # text keeps 1.5 mm from the cut
    for text, size, (cx0, cy0, cx1, cy1), (x0, y0, x1, y1) in chars:
        assert size >= 6 - 0.01, (template, text, size)
        inside = x0 + margin <= cx0 and cx1 <= x1 - margin and y0 + margin <= cy0
        assert inside and cy1 <= y1 - margin, (template, text)


@pytest.mark.parametrize("template", list(CASES))
def test_long_inputs_are_reported_when_they_cannot_fit_at_6_pt(tmp_path, pnp, template):
    field = CASES[template][2]
    long = [*CASES[template][1]["faces"][:5], LONG * 6] if field == "faces" else LONG * 6
    fields = {**CASES[template][1], field: long}
    root = _game(tmp_path, template, fields)
    result = pnp("check", "--components", root.parent)
    assert result.exit_code == 1, result.output
    line = next(line for line in result.stderr.splitlines() if "does not fit" in line)
    assert "pieces.yaml:" in line and "6.0 pt" in line, line


def test_the_sample_game_of_the_pictures_builds_and_checks(tmp_path, pnp, sample):
    result = pnp("check", "stock-templates", "--components", sample)
    assert result.exit_code == 0, result.output
    result = pnp("build", "stock-templates", "--components", sample, "--out", tmp_path)
    assert result.exit_code == 0, result.output


def test_a_csv_of_title_text_and_count_builds_with_the_general_card_and_nothing_else(tmp_path, pnp):
    """The promise of the stock templates: no template, no style, three columns."""
    root = tmp_path / "components" / "plain"
    root.mkdir(parents=True)
    (root / "game.yaml").write_text("title: Plain\nplayers: 2\n")
    (root / "cards.yaml").write_text(
        "kind: deck\ntitle: Cards\nsize: poker\nface: card.svg.j2\ncards: {from: cards.csv}\n"
    )
    (root / "cards.csv").write_text(
        "title,text,count\nRest,Skip your next turn.,2\nRun,Move 3.,1\n"
    )
    assert pnp("check", "--components", root.parent).exit_code == 0
    result = pnp("build", "--components", root.parent, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pymupdf.open(tmp_path / "out" / "plain" / "plain.pdf") as pdf:
        printed = " ".join(page.get_text() for page in pdf)
    assert printed.count("Skip your next turn.") == 2 and printed.count("Move 3.") == 1
