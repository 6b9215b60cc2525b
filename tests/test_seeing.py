"""The check sees what players see: ink a printer puts behind a piece, text that does not stand
out from its ground, pieces too large for where they stand, player colours told apart only by
colour. Each rule on small games made here, once failing and once passing, through the
command line as a designer runs it.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pdfplumber
import pytest

MM = 25.4 / 72


def write(root: Path, files: dict[str, str]) -> Path:
    """The game ``root`` with ``files`` (name -> text, dedented); returns its components."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root.parent


FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="GROUND"/>
  <text x="{{ box.cx }}" y="{{ box.cy }}" font-family="sans-serif" font-size="INK_SIZE"
        text-anchor="middle" fill="INK">{{ piece.label }}</text>
</svg>
"""


def face(ground: str = "#f4f0e6", ink: str = "#222222", size: float = 3) -> str:
    return FACE.replace("GROUND", ground).replace("INK_SIZE", str(size)).replace("INK", ink)


def tokens_game(tmp_path: Path, front: str, back: str | None = None, count: int = 30) -> Path:
    """A game of ``count`` 20 mm square tokens labelled 'Hold', double-sided with ``back``."""
    back_line = "back: back.svg.j2\n" if back else ""
    files = {
        "game.yaml": f"""\
            title: Seeing
            players: 2
            expect:
              tiles: {count}
            """,
        "tiles.yaml": f"""\
            kind: tokens
            title: Tiles
            shape: square
            size: 20
            face: face.svg.j2
            {back_line}
            fields:
              label: Hold
            tokens:
              - name: tile
                count: {count}
            """,
        "templates/face.svg.j2": front,
    }
    if back:
        files["templates/back.svg.j2"] = back
    return write(tmp_path / "components" / "g", files)


# -- ink behind pieces --------------------------------------------------------------------------


def test_a_back_label_never_prints_behind_a_piece_flipped_on_the_short_edge(pnp, tmp_path):
    """Counters fill a sheet from its top; flipped on the short edge, the back page's bottom
    lies behind the front's top. The check passes because the back's label goes where the
    front's footer band lands (read back from the PDF: the top of the back page)."""
    components = tokens_game(tmp_path, face(), face("#333333", "#ffffff"))
    result = pnp("check", "--components", components, "--duplex", "short")
    assert result.exit_code == 0, result.output
    assert "no mark on a piece it is not part of" in result.output
    out = tmp_path / "out"
    built = pnp("build", "--components", components, "--out", out, "--duplex", "short")
    assert built.exit_code == 0, built.output
    manifest = json.loads((out / "g" / "manifest.json").read_text(encoding="utf-8"))
    top = max(i["y_mm"] + i["h_mm"] for i in manifest["items"] if i["side"] == "front")
    paper_h = manifest["paper_mm"][1]
    with pdfplumber.open(out / "g" / "g.pdf") as pdf:
        back = pdf.pages[3]  # the counter sheet's back
        label = [c for c in back.chars if c["size"] < 7]
        assert label, "the back page has its label"
        for char in label:
            behind = paper_h - char["y1"] * MM  # the front's y of the char's top, turned over
            assert behind < paper_h - top or behind > top, char


def test_the_check_fails_a_label_printed_behind_pieces(pnp, tmp_path, monkeypatch):
    """With the back's label where the front's is (the old layout), turned over the short edge
    it lands behind the top row of counters: the check says so and fails, and build refuses."""
    from generator.layout import furniture
    from generator.model.sizes import sheet_geometry

    def old_place(pack, page):
        return pack.paper[0] / 2, sheet_geometry().margin + furniture.LABEL_RISE

    monkeypatch.setattr(furniture, "label_at", old_place)
    components = tokens_game(tmp_path, face(), face("#333333", "#ffffff"))
    result = pnp("check", "--components", components, "--duplex", "short")
    assert result.exit_code == 1, result.output
    assert "the page label on the back (page 4) prints on tiles 'tile' copy" in result.output
    long_edge = pnp("check", "--components", components)  # behind the front's own label
    assert long_edge.exit_code == 0, long_edge.output
    built = pnp("build", "--components", components, "--out", tmp_path / "out", "--duplex", "short")
    assert built.exit_code == 1 and not (tmp_path / "out" / "g" / "g.pdf").exists()


# -- contrast -----------------------------------------------------------------------------------


def test_faint_text_fails_the_check_at_its_spec_line(pnp, tmp_path):
    """White text on a light ground: the check names the spec line of the text, the piece,
    both colours and the ratio, and fails; the same text in dark ink passes."""
    components = tokens_game(tmp_path, face("#dde8f0", "#ffffff"))
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    line = next(line for line in result.stderr.splitlines() if "low contrast" in line)
    assert line.startswith("components/g/tiles.yaml:") or "/g/tiles.yaml:" in line, line
    assert "tiles 'tile'" in line and "'Hold' in #ffffff on #dde8f0 at 1.2" in line, line
    assert "needs 4.5:1" in line
    fixed = tokens_game(tmp_path, face("#dde8f0", "#1a1a1a"))
    assert pnp("check", "--components", fixed).exit_code == 0


def test_large_text_needs_three_to_one(pnp, tmp_path):
    """From 14 pt a ratio of 3:1 is enough, under it 4.5:1: grey #808080 on white (3.9:1)
    fails at 8.5 pt and passes at 17 pt."""
    small = tokens_game(tmp_path, face("#ffffff", "#808080", 3))
    result = pnp("check", "--components", small)
    assert result.exit_code == 1 and "needs 4.5:1" in result.output, result.output
    large = tokens_game(tmp_path, face("#ffffff", "#808080", 6))
    assert pnp("check", "--components", large).exit_code == 0


def test_the_ink_saver_keeps_light_text_readable(pnp, tmp_path, monkeypatch):
    """White words on a dark card: the ink saver lightens the card and darkens the words, and
    the check, measuring the art as the ink saver prints it, passes; lightening the card
    alone would leave white on light grey, which the check fails."""
    from generator.art import store
    from generator.check import contrast

    components = tokens_game(tmp_path, face("#1f1f24", "#ffffff"))
    assert pnp("check", "--components", components).exit_code == 0
    saver = pnp("check", "--components", components, "--ink-saver")
    assert saver.exit_code == 0, saver.output
    monkeypatch.setattr(store, "_keep_readable", lambda text, painted: None)
    store._CONVERTED.clear()
    contrast._MEASURED.clear()  # measures are kept by the art's SVG: the engine changed here
    plain = pnp("check", "--components", components, "--ink-saver")
    assert plain.exit_code == 1, plain.output
    assert "(front, ink saver)" in plain.output and "'Hold' in #ffffff" in plain.output


def test_pieces_on_one_ground_are_rendered_once_and_each_measured(pnp, tmp_path):
    """Pieces whose art differs only in its words (a deck on one frame) share one rendered
    ground for the check, and each piece's words are still measured: the finding counts
    both pale texts; a ground of another colour is rendered on its own."""
    from generator.check import contrast

    components = tokens_game(tmp_path, face("#dde8f0", "#ffffff"))
    tiles = components / "g" / "tiles.yaml"
    two = "  - {name: hold, count: 15}\n  - {name: keep, count: 15, label: Keep}\n"
    tiles.write_text(tiles.read_text().replace("  - name: tile\n    count: 30\n", two))
    drawn: list[int] = []
    real = contrast._render

    def counted(pieces: list, dpi: float) -> list:
        drawn.append(len(pieces))
        return real(pieces, dpi)

    contrast._MEASURED.clear()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(contrast, "_render", counted)
        result = pnp("check", "--components", components)
        assert result.exit_code == 1, result.output
        found = [line for line in result.stderr.splitlines() if "low contrast" in line]
        assert len(found) == 1 and "tiles 'hold' and 1 more (front): 2 texts" in found[0]
        assert drawn == [1], drawn  # two pieces of art, one ground rendered
        face_file = components / "g" / "templates" / "face.svg.j2"
        face_file.write_text(face_file.read_text().replace("#dde8f0", "{{ piece.ground }}"))
        fields = "fields:\n  label: Hold\n"
        grounds = fields + "  ground: '#dde8f0'\n"
        tiles.write_text(
            tiles.read_text()
            .replace(fields, grounds)
            .replace("label: Keep}", "label: Keep, ground: '#223344'}")
        )
        contrast._MEASURED.clear()
        again = pnp("check", "--components", components)
    found = [line for line in again.stderr.splitlines() if "low contrast" in line]
    assert len(found) == 1 and "tiles 'hold' (front): 'Hold' in #ffffff" in found[0], found
    assert drawn == [1, 2], drawn


def test_the_pixels_behind_a_text_are_those_of_the_whole_page_rendered():
    """The check renders a ground only where texts lie: each patch is that part of the whole
    page rendered, within one step of 255 in a channel (pdfium's rounding of a gradient at
    another origin); a gradient, stripes and a circle, boxes anywhere, at the edges too."""
    import random

    from lxml import etree
    from PIL import ImageChops

    from generator.check import contrast
    from generator.svg.compiler import compile_svg
    from generator.svg.safexml import SAFE_PARSER

    svg = b"""<svg xmlns="http://www.w3.org/2000/svg" width="180" height="252">
      <defs><linearGradient id="g"><stop offset="0" stop-color="#203040"/>
      <stop offset="1" stop-color="#f0e0c0"/></linearGradient></defs>
      <rect width="180" height="252" fill="url(#g)"/>
      <path d="M0 0 L180 252 M20 0 L180 224" stroke="#aa2222" stroke-width="3"/>
      <circle cx="90" cy="126" r="41.3" fill="#2266aa" fill-opacity="0.6"/></svg>"""
    ground = [compile_svg(etree.fromstring(svg, SAFE_PARSER))]
    width, height = 180, 252  # 180 x 252 px (135 x 189 points) at 96 dpi
    assert (ground[0].width, ground[0].height) == (135, 189)
    whole = (0, 0, width, height)
    pick = random.Random(7)
    corners = [(pick.randrange(width), pick.randrange(height)) for _ in range(60)]
    boxes = {
        (x, y, min(width, x + pick.randint(1, 90)), min(height, y + pick.randint(1, 40)))
        for x, y in corners
    }
    boxes |= {whole, (0, 0, 17, 9), (101, 230, 180, 252), (179, 1, 180, 251)}
    patches = contrast._render({"ground": (ground, boxes)}, contrast.DPI)
    page = patches["ground", whole]
    assert page.size == (width, height)
    differing = 0
    for box in boxes:
        patch = patches["ground", box]
        assert patch.size == (box[2] - box[0], box[3] - box[1]), box
        difference = ImageChops.difference(patch, page.crop(box))
        assert max(high for _, high in difference.getextrema()) <= 1, box
        differing += difference.getbbox() is not None
    assert differing < len(boxes)  # most patches are the very same pixels


def test_a_plain_ground_written_by_the_check_prints_as_reportlab_draws_it():
    """A ground of paths, colours, transforms and opacities is written to the check's PDF
    without reportlab: every box of it reads the very pixels reportlab's PDF of it gives; a
    ground with a gradient is left to reportlab."""
    import random

    from lxml import etree

    from generator.check import contrast, groundpdf
    from generator.svg.compiler import compile_svg
    from generator.svg.safexml import SAFE_PARSER

    svg = b"""<svg xmlns="http://www.w3.org/2000/svg" width="180" height="252">
      <rect width="180" height="252" fill="#b28134"/>
      <rect x="4" y="4" width="172" height="244" rx="6" fill="#fbf6ee" stroke="#333"
            stroke-width="1.5"/>
      <g transform="translate(30 40) rotate(20) scale(1.5)">
        <circle cx="20" cy="20" r="14" fill="#c0392b" fill-opacity="0.6"/>
        <path d="M0 40 L20 10 L40 40 Z" fill="#27ae60" stroke="#2980b9" stroke-opacity="0.5"/>
      </g>
      <ellipse cx="120" cy="200" rx="40" ry="20" fill="none" stroke="#203040" stroke-width="4"/>
    </svg>"""
    gradient = b"""<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">
      <defs><linearGradient id="g"><stop offset="0" stop-color="#000"/>
      <stop offset="1" stop-color="#fff"/></linearGradient></defs>
      <rect width="40" height="40" fill="url(#g)"/></svg>"""
    ground = [compile_svg(etree.fromstring(svg, SAFE_PARSER))]
    assert groundpdf.plain(ground)
    assert not groundpdf.plain([compile_svg(etree.fromstring(gradient, SAFE_PARSER))])
    pick = random.Random(11)
    boxes = {(0, 0, 180, 252), (170, 240, 180, 252)}
    for _ in range(40):
        x, y = pick.randrange(180), pick.randrange(252)
        boxes.add((x, y, min(180, x + pick.randint(1, 80)), min(252, y + pick.randint(1, 30))))
    pages = [("ground", boxes)]
    ours = contrast._patches(groundpdf.document([ground]), pages, contrast.DPI)
    theirs = contrast._patches(contrast._drawn_by_reportlab([ground]), pages, contrast.DPI)
    assert {key: image.tobytes() for key, image in ours.items()} == {
        key: image.tobytes() for key, image in theirs.items()
    }


def test_a_colour_is_read_from_a_long_literal_as_the_whole_literal_says():
    """The last fill and stroke colour of a literal, read near its last operator, are those
    the pattern finds through the whole literal (a path of thousands of numbers between)."""
    from generator.check.contrast import FILL_RGB, STROKE_RGB, _last

    path = " ".join(f"{i}.5 {i % 7} l" for i in range(3000))
    cases = [
        f"0.1 0.2 0.3 rg {path} f",
        f"{path} 1 0 0 rg 0 0 1 RG {path} B",
        f"0.5 0.5 0.5 rg 0.25 0.75 1 rg {path}",
        f"{path} 0 0 0 rgx 0.2 0.4 0.6 RG",
        "1 1 1 RG",
        path,
    ]
    for literal in cases:
        for pattern, mark in ((FILL_RGB, " rg"), (STROKE_RGB, " RG")):
            every = pattern.findall(literal)
            whole = tuple(float(v) for v in every[-1]) if every else None
            assert _last(pattern, mark, literal) == whole, literal[:40]


def test_a_sheet_heading_on_a_light_colour_fails(pnp, tmp_path):
    """A reference sheet's headings print white on their section's colour: a pale colour
    fails at the line of that colour; a dark one passes."""
    files = {
        "game.yaml": "title: Sheet\nplayers: 2\n",
        "rules.yaml": """\
            kind: sheet
            title: Rules
            sections:
              - heading: Setting up
                colour: "#e8d8b0"
                blocks:
                  - text: Shuffle the deck.
            """,
    }
    components = write(tmp_path / "components" / "s", files)
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    assert "rules.yaml:5: low contrast: rules 'sheet' (heading): 'Setting up'" in result.output
    (components / "s" / "rules.yaml").write_text(
        (components / "s" / "rules.yaml").read_text().replace("#e8d8b0", "#5a3a22")
    )
    assert pnp("check", "--components", components).exit_code == 0


# -- pieces fit where they go -------------------------------------------------------------------

BOARD = """\
    kind: board
    title: Board
    size: 120 x 80
    spaces:
      - {name: keep, at: [20, 20], size: 20, shape: square}
    tracks:
      - {name: score, values: 0-4, path: [[20, 55], [100, 55]], size: 18}
    rows:
      - {name: camp, path: [[60, 20], [74, 20]], count: 2, size: 12, shape: circle}
    """


def fit_game(tmp_path: Path, stands: str) -> Path:
    files = {
        "game.yaml": "title: Fit\nplayers: 2\n",
        "board.yaml": BOARD,
        "pawns.yaml": textwrap.dedent(
            """\
            kind: tokens
            title: Pawns
            shape: circle
            size: 16
            face: face.svg.j2
            fields: {label: P}
            tokens:
              - {name: pawn, count: 4}
              - {name: marker, count: 2}
            stands_on:
            """
        )
        + textwrap.indent(textwrap.dedent(stands), "  "),
        "templates/face.svg.j2": face(),
    }
    return write(tmp_path / "components" / "f", files)


def test_pieces_that_fit_their_places_pass(pnp, tmp_path):
    """One 16 mm pawn on a 20 mm square, one per 18 mm track space 20 mm apart; markers
    that share a space stack."""
    components = fit_game(
        tmp_path,
        """\
        - {board: board, places: [keep], pieces: [pawn]}
        - {board: board, places: [score], pieces: [marker], together: 2, stack: true}
        """,
    )
    result = pnp("check", "--components", components)
    assert result.exit_code == 0, result.output


def test_pieces_that_pile_a_few_at_most_need_room_for_each_pile(pnp, tmp_path):
    """``stack: 3``: piles of three at most. Three 16 mm pawns make one pile on the 20 mm
    square; four make two piles side by side (32 mm), which it cannot hold."""
    one = fit_game(tmp_path / "one", "- {board: board, places: [keep], together: 3, stack: 3}\n")
    assert pnp("check", "--components", one).exit_code == 0
    two = fit_game(tmp_path / "two", "- {board: board, places: [keep], together: 4, stack: 3}\n")
    result = pnp("check", "--components", two)
    assert result.exit_code == 1, result.output
    assert "pawns.yaml:11: does not fit: 2 piles of pawns (16 mm across each" in result.stderr


def test_pieces_too_large_for_their_place_fail_at_the_stands_on_line(pnp, tmp_path):
    """Two 16 mm pawns side by side need 32 mm; the 20 mm square holds one."""
    components = fit_game(tmp_path, "- {board: board, places: [keep], together: 2}\n")
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    assert "pawns.yaml:11: does not fit: 2 pieces of pawns (16 mm across each" in result.stderr
    assert "on 'keep' of board 'board', 20 x 20 mm" in result.stderr
    built = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert built.exit_code == 1


def test_pieces_on_neighbouring_places_that_cover_each_other_fail(pnp, tmp_path):
    """The two camp spaces are 14 mm apart: 16 mm pawns on them overlap by 2 mm."""
    components = fit_game(tmp_path, "- {board: board, places: [camp], pieces: [pawn]}\n")
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    assert "pieces cover each other: pawns on 'camp-1' and the pieces on 'camp-2'" in (
        result.stderr
    )
    assert "14.0 mm apart, overlap by 2.0 mm" in result.stderr


def test_a_place_that_is_not_on_the_board_is_a_spec_error_at_its_line(pnp, tmp_path):
    components = fit_game(tmp_path, "- {board: board, places: [kep]}\n")
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    assert "pawns.yaml:11: stands_on: board 'board' has no place 'kep'" in result.stderr
    unknown = fit_game(tmp_path, "- {board: table, places: [keep]}\n")
    result = pnp("check", "--components", unknown)
    assert result.exit_code == 2
    assert "pawns.yaml:11: stands_on: no board 'table' in this game (its boards: board)" in (
        result.stderr
    )


# -- player colours -------------------------------------------------------------------------------


def colour_game(tmp_path: Path, colours: str) -> Path:
    files = {
        "game.yaml": "title: Colours\nplayers: 2\ncolours:\n"
        + textwrap.indent(textwrap.dedent(colours), "  "),
        "pawns.yaml": """\
            kind: tokens
            title: Pawns
            shape: circle
            size: 16
            face: face.svg.j2
            fields: {label: P}
            tokens:
              - {name: pawn, per_player: 2}
            """,
        "templates/face.svg.j2": face(),
    }
    return write(tmp_path / "components" / "c", files)


def test_player_colours_alike_for_colour_blind_players_are_a_warning(pnp, tmp_path):
    """Red and green are far apart to most eyes and 6 apart to a deuteranope: a warning at
    the second colour's line, and the check still passes."""
    components = colour_game(
        tmp_path,
        """\
        - {name: red, label: Red, colour: "#d7262e"}
        - {name: green, label: Green, colour: "#2f9e44"}
        """,
    )
    result = pnp("check", "--components", components)
    assert result.exit_code == 0, result.output
    assert "game.yaml:5: warning: player colours 'Red' (#d7262e) and 'Green' (#2f9e44)" in (
        result.stderr
    )
    assert "hard to tell apart with deuteranopia" in result.stderr


def test_marks_of_their_own_tell_player_colours_apart(pnp, tmp_path):
    """Given marks of their own, the same two colours need no warning; colours far apart for
    every vision need none either."""
    marked = colour_game(
        tmp_path,
        """\
        - {name: red, label: Red, colour: "#d7262e", mark: "▲"}
        - {name: green, label: Green, colour: "#2f9e44", mark: "■"}
        """,
    )
    result = pnp("check", "--components", marked)
    assert result.exit_code == 0 and "warning: player colours" not in result.output
    apart = colour_game(
        tmp_path,
        """\
        - {name: yellow, label: Yellow, colour: "#f4c20d"}
        - {name: blue, label: Blue, colour: "#2563c9"}
        """,
    )
    result = pnp("check", "--components", apart)
    assert "warning: player colours" not in result.output
