"""The wargame stock templates, read back from what they print: ``unit-counter.svg.j2`` draws
each NATO type symbol as its own picture (sampled in the raster where the symbol has ink and
where it has none), prints the factors the usual way and the reduced ones on the back, keeps
every word at 6 pt or more from 13 mm up, in an ink that reads on the side's colour;
``marker.svg.j2`` (and ``token.svg.j2``) fit "Disrupted" and "Out of Supply" on a 13 mm
counter, and ``pnp check`` says so when a word cannot fit even at 6 pt. A symbol or size the
template does not draw is an error at its row of the spreadsheet."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pymupdf
import pypdfium2 as pdfium
import pytest

MM = 25.4 / 72
DPI = 600
SYMBOLS = ["infantry", "armour", "mechanised", "motorised", "artillery", "cavalry",
           "headquarters", "engineer", "airborne", "anti-tank", "air-defence"]  # fmt: skip
# where each symbol has ink and where it has none: (u, v) in its frame, from its top left
# (0-1 across and down; v past 1 is below the frame), as APP-6 draws a friendly land unit
INK = {
    "infantry": ([(0.25, 0.25), (0.25, 0.75), (0.75, 0.25)], [(0.5, 0.2), (0.5, 0.8)]),
    "armour": ([(0.215, 0.5), (0.5, 0.29), (0.5, 0.71)], [(0.5, 0.5), (0.1, 0.12), (0.25, 0.25)]),
    "mechanised": ([(0.25, 0.25), (0.215, 0.5), (0.5, 0.29)], [(0.5, 0.15), (0.1, 0.5)]),
    "motorised": ([(0.25, 0.25), (0.5, 0.15), (0.5, 0.85)], [(0.4, 0.15), (0.215, 0.5)]),
    "artillery": ([(0.5, 0.5)], [(0.25, 0.25), (0.65, 0.5), (0.35, 0.5)]),
    "cavalry": ([(0.25, 0.75), (0.75, 0.25)], [(0.25, 0.25), (0.75, 0.75)]),
    "headquarters": ([(0.0, 1.1)], [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)]),
    "engineer": ([(0.5, 0.32), (0.247, 0.5), (0.5, 0.45)], [(0.5, 0.67), (0.5, 0.2)]),
    "airborne": ([(0.25, 0.25), (0.407, 0.778)], [(0.5, 0.2)]),
    "anti-tank": ([(0.25, 0.51), (0.75, 0.51)], [(0.5, 0.5), (0.25, 0.25)]),
    "air-defence": ([(0.5, 0.685)], [(0.5, 0.5), (0.25, 0.25), (0.5, 0.85)]),
}


def game(components: Path, files: dict[str, str], name: str = "g") -> Path:
    root = components / name
    root.mkdir(parents=True, exist_ok=True)
    (root / "game.yaml").write_text("title: Counters\nplayers: 2\n", encoding="utf-8")
    for file, text in files.items():
        (root / file).write_text(text, encoding="utf-8")
    return root


def units_spec(size: float, csv: str = "units.csv", accent: str = "#8fb4e3") -> str:
    return (
        f"kind: tokens\ntitle: Units\nshape: square\nsize: {size}\nbutt: true\n"
        "face: unit-counter.svg.j2\nback: unit-counter.svg.j2\n"
        f'style: {{accent: "{accent}"}}\ntokens: {{from: {csv}}}\n'
    )


def built(pnp, root: Path, out: Path) -> tuple[Path, dict]:
    result = pnp("build", root.name, "--components", root.parent, "--out", out)
    assert result.exit_code == 0, result.output
    pdf = out / root.name / f"{root.name}.pdf"
    return pdf, json.loads((out / root.name / "manifest.json").read_text(encoding="utf-8"))


def raster(pdf: Path, page: int):
    with pdfium.PdfDocument(str(pdf)) as doc:
        return doc[page - 1].render(scale=DPI / 72, grayscale=True).to_pil()


def _grey(image, item: dict, size: float, u: float, v: float) -> int:
    """The darkest grey round the point (u, v) of the symbol frame of a counter."""
    k = size
    fw, fh = 0.46 * k, 0.46 * k * 2 / 3
    fx, fy = k / 2 - fw / 2, 0.235 * k  # from the counter's top left, mm
    x_mm = item["x_mm"] + fx + u * fw
    y_mm = item["y_mm"] + item["h_mm"] - (fy + v * fh)
    px, py = x_mm / 25.4 * DPI, image.height - y_mm / 25.4 * DPI
    window = image.crop((round(px) - 2, round(py) - 2, round(px) + 3, round(py) + 3))
    return window.getextrema()[0]


@pytest.fixture(scope="module")
def symbols(tmp_path_factory, pnp) -> tuple[Path, dict]:
    """One counter of each symbol (and one with none), nothing else printed on them."""
    rows = ["name,symbol,count", "blank,,1"] + [f"{s},{s},1" for s in SYMBOLS]
    root = game(
        tmp_path_factory.mktemp("symbols"),
        {"units.csv": "\n".join(rows) + "\n", "units.yaml": units_spec(16.5)},
    )
    return built(pnp, root, root.parent / "out")


def test_each_symbol_is_drawn_as_app6_draws_it(symbols):
    """In the raster of each counter the symbol has ink where its lines are (the cross of
    infantry corner to corner, the oval of armour, the dot of artillery ...) and none where
    they are not, and the frame's middle is blank with no symbol."""
    pdf, manifest = symbols
    fronts = {i["name"]: i for i in manifest["items"] if i["side"] == "front"}
    image = raster(pdf, fronts["blank"]["page"])
    for symbol, (inked, blank) in INK.items():
        item = fronts[symbol]
        for u, v in inked:
            assert _grey(image, item, 16.5, u, v) < 90, f"{symbol}: no ink at {(u, v)}"
        for u, v in blank:
            assert _grey(image, item, 16.5, u, v) > 170, f"{symbol}: ink at {(u, v)}"
    for u, v in [point for inked, _ in INK.values() for point in inked if point[1] <= 1]:
        assert _grey(image, fronts["blank"], 16.5, u, v) > 170, "ink in an empty frame"


def test_no_two_symbols_look_alike(symbols):
    """Each counter's raster differs from every other's in a good share of its pixels: no
    two types are drawn alike, none is left blank."""
    pdf, manifest = symbols
    fronts = {i["name"]: i for i in manifest["items"] if i["side"] == "front"}
    image = raster(pdf, fronts["blank"]["page"])
    scale = DPI / 25.4

    def crop(item):
        left, top = item["x_mm"] * scale, image.height - (item["y_mm"] + item["h_mm"]) * scale
        return image.crop((round(left), round(top), round(left) + 360, round(top) + 360))

    pictures = {name: crop(i).point(lambda g: 0 if g < 128 else 1) for name, i in fronts.items()}
    names = sorted(pictures)
    for a, first in enumerate(names):
        for second in names[a + 1 :]:
            pa, pb = pictures[first].tobytes(), pictures[second].tobytes()
            differ = sum(1 for x, y in zip(pa, pb, strict=True) if x != y)
            assert differ > 150, f"{first} and {second} look alike ({differ} pixels differ)"


UNITS = """\
name,symbol,echelon,id,setup,attack,defence,move,back_attack,back_defence,back_move,combat,factors,back_factors
inf,infantry,XX,3/47,2405,4,4,6,2,2,6,,,
arm,Armor,x,21 Pz,,7,5,8,3,3,8,,,
art,artillery,II,104,,,,5,,,5,,(6)-2-5,(3)-1-5
cav,recon,I,C/3,,,,12,,,12,5,,
aa,Air Defence,••,Flak,,1,3,4,1,1,4,,,
"""


@pytest.fixture(scope="module")
def units(tmp_path_factory, pnp) -> tuple[Path, dict]:
    root = game(
        tmp_path_factory.mktemp("units"), {"units.csv": UNITS, "units.yaml": units_spec(13.3)}
    )
    return built(pnp, root, root.parent / "out")


def rect_of(item: dict, page: pymupdf.Page) -> pymupdf.Rect:
    """A piece's trim box on a MuPDF page (points, y down)."""
    h = page.rect.height * MM
    x0, y0 = item["x_mm"], h - item["y_mm"] - item["h_mm"]
    return pymupdf.Rect(x0 / MM, y0 / MM, (x0 + item["w_mm"]) / MM, (y0 + item["h_mm"]) / MM)


def lines_in(page: pymupdf.Page, item: dict) -> list[dict]:
    """The lines of text MuPDF reads inside a piece's trim box, with their spans."""
    blocks = page.get_text("dict", clip=rect_of(item, page))["blocks"]
    return [line for block in blocks for line in block.get("lines", [])]


def _words_on(pdf: Path, item: dict) -> list[str]:
    """The words printed inside a piece's trim box, read by MuPDF."""
    with pymupdf.open(pdf) as doc:
        page = doc[item["page"] - 1]
        h = page.rect.height / 72 * 25.4
        x0, x1 = item["x_mm"] / MM, (item["x_mm"] + item["w_mm"]) / MM
        y0, y1 = (h - item["y_mm"] - item["h_mm"]) / MM, (h - item["y_mm"]) / MM
        return [w[4] for w in page.get_text("words") if x0 <= (w[0] + w[2]) / 2 <= x1
                and y0 <= (w[1] + w[3]) / 2 <= y1]  # fmt: skip


def test_factors_designation_and_setup_are_read_back(units):
    """Attack-defence-move as '4-4-6', combat-move as '5-12', factors as written, the
    designation and the setup code; on the reduced back its own factors, never the front's."""
    pdf, manifest = units
    side = {(i["name"], i["side"]): i for i in manifest["items"]}
    expected = {
        "inf": (["4-4-6", "3/47", "2405"], ["2-2-6"]),
        "arm": (["7-5-8", "21", "Pz"], ["3-3-8"]),
        "art": (["(6)-2-5", "104"], ["(3)-1-5"]),
        "cav": (["5-12", "C/3"], ["12"]),
        "aa": (["1-3-4", "Flak"], ["1-1-4"]),
    }
    for name, (front, back) in expected.items():
        on_front = _words_on(pdf, side[(name, "front")])
        on_back = _words_on(pdf, side[(name, "back")])
        for word in front:
            assert word in on_front, (name, word, on_front)
        for word in back:
            assert word in on_back, (name, word, on_back)
        assert front[0] not in on_back, f"{name}: the front's factors on the reduced back"


def test_every_word_is_6_pt_or_more_in_an_ink_that_reads_on_its_side(tmp_path, pnp):
    """On a dark side's colour the words are light, on a pale one dark: read from the PDF's
    text colours; pnp check finds nothing under 6 pt and nothing faint, at 13 mm too."""
    for accent, dark_words in (("#1d2a4d", False), ("#f0e68c", True)):
        spec = units_spec(13, accent=accent)
        root = game(tmp_path / accent[1:], {"units.csv": UNITS, "units.yaml": spec})
        check = pnp("check", "--components", root.parent)
        assert check.exit_code == 0, check.output
        assert "no text under 6 pt, every text in contrast with its ground" in check.output
        pdf, manifest = built(pnp, root, tmp_path / f"out-{accent[1:]}")
        with pymupdf.open(pdf) as doc:
            page = doc[manifest["items"][0]["page"] - 1]
            spans = [
                span
                for block in page.get_text("dict")["blocks"]
                for line in block.get("lines", [])
                for span in line["spans"]
            ]
        factors = [s for s in spans if re.fullmatch(r"[\d()]+(-[\d()]+)+", s["text"])]
        assert len(factors) == 5, [s["text"] for s in spans]
        for span in factors:
            grey = sum(span["color"] >> shift & 255 for shift in (16, 8, 0)) / 3
            assert (grey < 80) == dark_words and (grey > 200) != dark_words, (accent, span)


@pytest.mark.parametrize("size", [13.3, 15, 16.5, 25])
def test_counters_of_every_common_size_print_legibly(tmp_path, pnp, size):
    """1/2", 9/16", 5/8" and 25 mm counters of every symbol, with factors, designation and
    setup code: pnp check passes (no text under 6 pt, nothing that does not fit) and every
    letter MuPDF reads is 6 pt or more and inside its counter."""
    rows = ["name,symbol,echelon,id,setup,attack,defence,move,count"]
    rows += [f"{s},{s},XX,12/47,0912,10,12,14,1" for s in SYMBOLS]
    root = game(tmp_path, {"units.csv": "\n".join(rows) + "\n", "units.yaml": units_spec(size)})
    check = pnp("check", "--components", root.parent)
    assert check.exit_code == 0, check.output
    pdf, manifest = built(pnp, root, tmp_path / "out")
    with pymupdf.open(pdf) as doc:
        for item in (i for i in manifest["items"] if i["side"] == "front"):
            page = doc[item["page"] - 1]
            spans = [s for line in lines_in(page, item) for s in line["spans"] if s["text"].strip()]
            assert len(spans) >= 3, (item["name"], spans)
            for span in spans:
                assert span["size"] >= 6 - 0.01, (size, item["name"], span["text"], span["size"])


MARKERS = """\
kind: tokens
title: Markers
shape: square
size: {size}
butt: true
face: {template}
tokens:
  - {{name: disrupted, label: Disrupted, count: 1}}
  - {{name: supply, label: Out of Supply, count: 1}}
  - {{name: dug-in, label: {third}, count: 1}}
"""


@pytest.mark.parametrize("template", ["marker.svg.j2", "token.svg.j2"])
def test_disrupted_and_out_of_supply_fit_a_13_mm_counter(tmp_path, pnp, template):
    """'Disrupted' on one line and 'Out of Supply' on two, at 6 pt or more, inside the
    counter, and pnp check passes."""
    third = "Entrenched" if template == "marker.svg.j2" else "Dug in"
    spec = MARKERS.format(size=13, template=template, third=third)
    root = game(tmp_path, {"markers.yaml": spec})
    check = pnp("check", "--components", root.parent)
    assert check.exit_code == 0, check.output
    pdf, manifest = built(pnp, root, tmp_path / "out")
    with pymupdf.open(pdf) as doc:
        for item in manifest["items"]:
            page = doc[item["page"] - 1]
            box, lines = rect_of(item, page), lines_in(page, item)
            words = " ".join(s["text"] for line in lines for s in line["spans"]).split()
            label = {"disrupted": "Disrupted", "supply": "Out of Supply", "dug-in": third}
            assert words == label[item["name"]].split(), (item["name"], words)
            baselines = {round(line["spans"][0]["origin"][1], 1) for line in lines}
            assert len(baselines) == (2 if item["name"] == "supply" else 1), (item["name"], lines)
            for line in lines:
                for span in line["spans"]:
                    assert span["size"] >= 6 - 0.01
                    x0, y0, x1, y1 = span["bbox"]
                    assert box.x0 + 0.5 / MM <= x0 and x1 <= box.x1 - 0.5 / MM, (item["name"], span)


@pytest.mark.parametrize(
    ("template", "word", "size"),
    [("marker.svg.j2", "Demoralised", 13), ("token.svg.j2", "Entrenched", 13)],
)
def test_a_word_that_cannot_fit_even_at_6_pt_is_reported(tmp_path, pnp, template, word, size):
    spec = MARKERS.format(size=size, template=template, third=word)
    root = game(tmp_path, {"markers.yaml": spec})
    check = pnp("check", "--components", root.parent)
    assert check.exit_code == 1, check.output
    lines = [line for line in check.stderr.splitlines() if "does not fit" in line]
    assert len(lines) == 1, check.stderr
    where = f"{root / 'markers.yaml'}:10: text does not fit: dug-in, box 'label'"
    assert lines[0].startswith(where), lines[0]
    assert "at 6.0 pt" in lines[0]


BAD = """\
name,symbol,echelon,attack,defence,move
a,infantry,XX,1,1,1
b,infantery,XX,1,1,1
c,armour,XXXXX,1,1,1
d,Mechanised Infantry,iii,1,1,1
"""


def test_a_symbol_or_size_the_template_does_not_draw_is_an_error_at_its_row(tmp_path, pnp):
    """Each at its row of the spreadsheet, with the word meant and the words it knows;
    spellings of other cases, and spaces for hyphens, are the same word."""
    root = game(tmp_path, {"units.csv": BAD, "units.yaml": units_spec(16)})
    result = pnp("check", "--components", root.parent)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith(str(root))]
    assert len(errors) == 2, result.stderr
    symbol, echelon = errors
    assert symbol.startswith(f"{root / 'units.csv'}:3: column 'symbol': ")
    assert "no symbol 'infantery' (did you mean 'infantry'?)" in symbol
    assert "armour (armor)" in symbol and "air-defence (air-defense)" in symbol
    assert echelon.startswith(f"{root / 'units.csv'}:4: column 'echelon': ")
    assert "(did you mean 'XXXX'?)" in echelon and "division (XX)" in echelon
    assert not (tmp_path / "out").exists()
