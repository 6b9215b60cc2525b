"""Fonts as designers buy them (issue 26): an OpenType font with CFF outlines, a face of a
collection, WOFF and WOFF2 each print with the text in them, embedded; a font that is missing,
not a font, forbids embedding or is a collection without a face named is exit 2 at its
game.yaml line; a character the font lacks names the font's file and the card."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import fontmaking
import pytest
from pdfread import fonts_and_spans
from waiting import PATIENCE

DECK = "kind: deck\ntitle: Mine\nsize: poker\nface: face.svg.j2\ncards:\n"
DECK += "  - {name: a, count: 1, title: TITLE}\n"
FACE = """<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <text x="4" y="20" font-family="Quill" font-size="6">{{ card.title }}</text>
</svg>
"""


def _game(
    base: Path, font: bytes, file: str, extra: str = "", title: str = "Quartermaster"
) -> Path:
    """A one-card game whose title is drawn in the family Quill, from ``file``."""
    root = base / "components" / "mine"
    (root / "templates").mkdir(parents=True)
    (root / "fonts").mkdir()
    (root / "fonts" / Path(file).name).write_bytes(font)
    (root / "templates" / "face.svg.j2").write_text(FACE)
    (root / "game.yaml").write_text(
        f"title: Mine\nplayers: 2\nfonts:\n  - {{family: Quill, file: {file}{extra}}}\n"
    )
    (root / "deck.yaml").write_text(DECK.replace("TITLE", title), encoding="utf-8")
    return base / "components"


FORMS = {
    "otf": lambda: fontmaking.saved(fontmaking.cff()),
    "woff": lambda: fontmaking.saved(fontmaking.truetype(), "woff"),
    "woff2": lambda: fontmaking.saved(fontmaking.truetype(), "woff2"),
    "ttc": lambda: fontmaking.collection(fontmaking.truetype(style="Bold"), fontmaking.truetype()),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_form_of_font_prints_embedded_with_the_text_in_it(tmp_path, pnp, form):
    face = ", face: Quill Regular" if form == "ttc" else ""
    components = _game(tmp_path, FORMS[form](), f"fonts/Quill.{form}", face)
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr, result.stderr
    manifest = json.loads((tmp_path / "out" / "mine" / "manifest.json").read_text())
    item = next(i for i in manifest["items"] if i["side"] == "front")
    fonts, spans = fonts_and_spans(str(tmp_path / "out" / "mine" / "mine.pdf"), item["page"])
    title = next(span for span in spans if span["text"] == "Quartermaster")
    assert "Quill" in title["font"], (title["font"], fonts)
    assert not title["flags"] & 16  # the regular face of the collection, not its bold first
    assert all(ext not in ("n/a", "") for ext in fonts.values()), fonts  # all embedded


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_converted_font_is_the_same_bytes_whenever_it_is_converted(monkeypatch, form):
    """fontTools stamps a font it saves with the time (its head table's ``modified``): a
    converted font, and the pack that embeds it, came out different on every build. The
    conversion keeps the file's own date, so two conversions a year apart are the same."""
    from fontTools.ttLib.tables import _h_e_a_d

    from generator.model.fontforms import as_truetype

    data = FORMS[form]()
    face = "Quill Regular" if form == "ttc" else None
    converted = []
    for now in (3_000_000_000, 3_031_536_000):  # seconds since 1904, a year apart
        monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda now=now: now)
        converted.append(as_truetype(data, face))
    assert converted[0] == converted[1]


BROKEN = {
    "missing": (b"", "fonts/Gone.ttf", "", "'fonts/Gone.ttf' not found"),
    "not a font": (
        b"<html>a web page saved as a font</html>",
        "fonts/Quill.ttf",
        "",
        "is not a font file",
    ),
    "licence": (None, "fonts/Quill.ttf", "", "forbids embedding in its licence flag"),
    "collection": (
        None,
        "fonts/Quill.ttc",
        "",
        "pick one with face: (one of 'Quill Bold', 'Quill Regular')",
    ),
    "no such face": (None, "fonts/Quill.ttc", ", face: Quill Light", "has no face 'Quill Light'"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_font_is_exit_2_at_its_game_yaml_line(tmp_path, pnp, case):
    data, file, extra, said = BROKEN[case]
    if case == "licence":
        data = fontmaking.saved(fontmaking.truetype(fs_type=0x0002))
    elif data is None:
        data = fontmaking.collection(fontmaking.truetype(style="Bold"), fontmaking.truetype())
    components = _game(tmp_path, data, file, extra)
    if case == "missing":
        (components / "mine" / "fonts" / "Gone.ttf").unlink()
    for command in (("check",), ("build", "--out", tmp_path / "out")):
        result = pnp(*command, "--components", components)
        assert result.exit_code == 2, result.output
        assert "game.yaml:4: font '" in result.stderr, result.stderr
        assert said in result.stderr, result.stderr
        assert "Traceback" not in result.output


def test_a_character_the_font_lacks_names_the_font_file_and_the_card(tmp_path, pnp):
    # DejaVu has the Omega, so the game as a whole can print it; Quill cannot
    components = _game(
        tmp_path, fontmaking.saved(fontmaking.cff()), "fonts/Quill.otf", title="Ωmega"
    )
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 2, result.output
    assert "fonts/Quill.otf has no glyph for Ω" in result.stderr, result.stderr
    assert "card 'a'" in result.stderr and "deck.yaml:6" in result.stderr, result.stderr
    assert not (tmp_path / "out" / "mine" / "mine.pdf").exists()


def test_a_font_converted_for_another_game_is_named_by_this_games_file(tmp_path, pnp):
    """The same CFF font in two games, converted to TrueType once: the second game's missing
    glyph names the second game's file, not the first's (the conversion is cached by bytes)."""
    font = fontmaking.saved(fontmaking.cff())
    first = _game(tmp_path / "first", font, "fonts/Quill.otf")
    assert pnp("build", "--components", first, "--out", tmp_path / "out1").exit_code == 0
    second = _game(tmp_path / "second", font, "fonts/Quill.otf", title="Ωmega")
    result = pnp("build", "--components", second, "--out", tmp_path / "out2")
    assert result.exit_code == 2, result.output
    assert "second/components/mine/fonts/Quill.otf has no glyph" in result.stderr, result.stderr


def test_a_bold_that_kept_its_regulars_name_prints_in_its_own_glyphs(tmp_path, pnp):
    """Two files of one PostScript name (a bold saved with its regular's name): reportlab
    hands a face name's first font to any font registered under it again, and the bold text
    printed in the regular's glyphs, silently."""
    bold = fontmaking.truetype(style="Bold")
    bold["name"].setName("Quill-Regular", 6, 3, 1, 0x409)
    components = _game(tmp_path, fontmaking.saved(fontmaking.truetype()), "fonts/Quill.ttf")
    root = components / "mine"
    (root / "fonts" / "QuillBold.ttf").write_bytes(fontmaking.saved(bold))
    pdf, page = _built_with_bold(pnp, components, "fonts/QuillBold.ttf")
    fonts, spans = fonts_and_spans(str(pdf), page)
    set_in = {span["text"]: span["font"] for span in spans}
    assert "Quill-Regular" in set_in["Quartermaster"], set_in
    assert "Quill-Regular" in set_in["Boldly"] and set_in["Boldly"] != set_in["Quartermaster"]
    assert len([name for name in fonts if "Quill" in name]) == 2, fonts


def _built_with_bold(pnp, components: Path, file: str) -> tuple[Path, int]:
    """The game of ``_game`` with ``file`` as Quill's bold and a bold word, "Boldly", below
    the title, built: its PDF and the page of the card's front."""
    root = components / "mine"
    with (root / "game.yaml").open("a") as game:
        game.write(f"  - {{family: Quill, file: {file}, weight: bold}}\n")
    face = (root / "templates" / "face.svg.j2").read_text()
    bold_line = (
        '<text x="4" y="40" font-family="Quill" font-weight="bold" font-size="6">Boldly</text>'
    )
    (root / "templates" / "face.svg.j2").write_text(face.replace("</svg>", bold_line + "</svg>"))
    out = components.parent / "out"
    result = pnp("build", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "mine" / "manifest.json").read_text())
    item = next(i for i in manifest["items"] if i["side"] == "front")
    return out / "mine" / "mine.pdf", item["page"]


@pytest.mark.parametrize(
    ("weight", "style", "advance"),
    [("normal", "normal", 1233), ("bold", "normal", 1533), ("normal", "italic", 1433)],
)
def test_a_variable_font_is_made_the_instance_its_entry_names(monkeypatch, weight, style, advance):
    """Static, its weight axis at 400 or 700 (of 100 to 900: 0.6 of the way to the widest)
    and its italic axis at 1 for an italic: reportlab would embed the default instance. The
    same bytes whenever it is made (a pack that embeds it is the same build to build)."""
    import io

    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables import _h_e_a_d

    from generator.model.fontforms import as_truetype

    data = fontmaking.saved(fontmaking.variable())
    made = []
    for now in (3_000_000_000, 3_031_536_000):  # seconds since 1904, a year apart
        monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda now=now: now)
        made.append(as_truetype(data, None, weight, style))
    assert made[0] == made[1]
    font = TTFont(io.BytesIO(made[0]))
    assert "fvar" not in font and "gvar" not in font
    assert font["hmtx"]["A"][0] == advance


def test_a_bold_of_a_variable_font_prints_bold(tmp_path, pnp):
    """One variable file named for the regular and the bold of a family (a Google Fonts
    download): the bold text prints in the bold instance, not in the default regular."""
    import pdfplumber

    components = _game(tmp_path, fontmaking.saved(fontmaking.variable()), "fonts/Quill.ttf")
    pdf, page = _built_with_bold(pnp, components, "fonts/Quill.ttf")
    with pdfplumber.open(pdf) as opened:
        chars = opened.pages[page - 1].chars
    step = {}  # a word's advance from its first letter to its second (a mono font: every one)
    for first, second in zip(chars, chars[1:], strict=False):  # the card may lie turned
        if first["text"] + second["text"] in ("Qu", "Bo"):
            moved = (second["x0"] - first["x0"], second["top"] - first["top"])
            step[first["text"]] = math.hypot(*moved)
    assert step["B"] / step["Q"] == pytest.approx(1533 / 1233, rel=0.01), step


def test_a_woff2_font_without_brotli_says_how_to_install_it(tmp_path):
    """brotli is the optional extra pnp-generator[woff2]: without it, a WOFF2 font is an error
    at its line that names the extra, exit 2, no traceback."""
    components = _game(tmp_path, FORMS["woff2"](), "fonts/Quill.woff2")
    blocked = "import sys; sys.modules['brotli'] = sys.modules['brotlicffi'] = None; "
    run = subprocess.run(
        [sys.executable, "-c", blocked + "from generator.cli import main; main()", "check"]
        + ["--components", str(components)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        env={**os.environ, "PNP_CONFIG": str(tmp_path / "none.toml")},
    )
    assert run.returncode == 2, run.stdout + run.stderr
    assert "game.yaml:4: font 'fonts/Quill.woff2' is a WOFF2 font" in run.stderr, run.stderr
    assert "pip install 'pnp-generator[woff2]'" in run.stderr and "Traceback" not in run.stderr


def test_a_family_that_comes_to_mean_another_font_is_drawn_in_that_font():
    """What a ``font-family`` names is kept until a family comes to mean other fonts, not
    until more fonts are registered: two games' 'Quill', both registered already (so the
    count of fonts stays), each draw in their own font (a kept answer drew one game's text
    in the other's font, and named the other's file when a glyph was missing)."""
    import hashlib

    from lxml import etree

    from generator.svg.compiler import compile_svg
    from generator.svg.fonts import FontFile, register_game_fonts
    from generator.svg.pdf import TEXT
    from generator.svg.safexml import SAFE_PARSER

    def quill(data: bytes, path: str) -> FontFile:
        return FontFile(path, hashlib.sha1(data).hexdigest(), data)

    first = quill(fontmaking.saved(fontmaking.truetype()), "first/Quill.ttf")
    second = quill(fontmaking.saved(fontmaking.truetype(style="Bold")), "second/Quill.ttf")
    svg = (
        b'<svg xmlns="http://www.w3.org/2000/svg" width="50" height="20">'
        b'<text x="1" y="10" font-family="Quill" font-size="5">Quill</text></svg>'
    )

    def drawn_in() -> str:
        drawing = compile_svg(etree.fromstring(svg, SAFE_PARSER))
        return next(op[1] for op in drawing.ops if isinstance(op, tuple) and op[0] == TEXT)

    names = {}
    for font in (first, second, first, second):
        register_game_fonts([("Quill", "normal", "normal", font)])
        names.setdefault(font.name, drawn_in())
        assert drawn_in() == names[font.name], font.name
    assert names["first/Quill.ttf"] != names["second/Quill.ttf"]


def test_the_characters_taken_as_drawn_are_all_in_the_stock_face():
    """Loading takes printable ASCII and Latin-1 as drawn without parsing the stock faces:
    DejaVu Sans has a glyph for every one of them, and a character beyond them is still
    looked up (a Devanagari letter is found in the fallback face; one no face has is not)."""
    from generator.model import fontfiles
    from generator.svg.fonts import FILES, stock_font

    regular = fontfiles.coverage(stock_font(FILES[("normal", "normal")]))
    assert {ord(c) for c in fontfiles.LATIN_1} <= regular
    assert len(fontfiles.LATIN_1) == 95 + 96
    assert fontfiles.missing_glyphs("Caf\u00e9 \u00bd \u0915") == []
    assert fontfiles.missing_glyphs("\U0001d11e clef") == ["\U0001d11e"]
