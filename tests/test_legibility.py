"""Legibility in the rules check: every text a pack prints is measured from what is drawn
(transforms included) and text under the game's floor fails ``pnp check`` and the build, at
its spec line; the measure agrees with what an independent reader (MuPDF) finds in the PDF."""

from __future__ import annotations

import json

import pymupdf
import pytest

SMALL_FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>
  <text x="5" y="10" font-family="sans-serif" font-size="4">{{ card.name }} big enough</text>
  <text x="5" y="20" font-family="sans-serif" font-size="1.9">tiny print</text>
  <g transform="translate(5 40) scale(0.25)">
    <text x="0" y="0" font-family="sans-serif" font-size="8">scaled down</text>
  </g>
</svg>
"""


@pytest.fixture
def small_game(make_deck_game):
    components = make_deck_game(cards={"a": 2, "b": 1})
    (components / "synth" / "templates" / "face.svg.j2").write_text(SMALL_FACE)
    return components


def test_text_under_6_pt_fails_the_check_at_its_line(small_game, pnp, tmp_path):
    result = pnp("check", "--components", small_game)
    assert result.exit_code == 1, result.output
    lines = [line for line in result.stderr.splitlines() if "text under 6 pt" in line]
    assert len(lines) == 2, result.stderr  # two sizes, each once for the whole deck
    assert all("deck.yaml:" in line and "'a' and 1 more (front)" in line for line in lines)
    assert any("'tiny print' at 5.39 pt" in line for line in lines)  # 1.9 mm
    assert any("'scaled down' at 5.67 pt" in line for line in lines)  # 8 mm x 0.25
    result = pnp("build", "--components", small_game, "--out", tmp_path / "out")
    assert result.exit_code == 1 and not (tmp_path / "out" / "synth" / "synth.pdf").exists()


def test_the_measure_agrees_with_what_mupdf_reads_from_the_pdf(small_game, pnp, tmp_path):
    found = json.loads(pnp("check", "--components", small_game, "--json").stdout)
    reported = {t["text"]: t["pt"] for t in found["games"][0]["printing"]["small_text"]}
    result = pnp("build", "--components", small_game, "--out", tmp_path / "out", "--force")
    assert result.exit_code == 0, result.output
    read: dict[str, float] = {}
    with pymupdf.open(tmp_path / "out" / "synth" / "synth.pdf") as pdf:
        for page in pdf:
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        if span["size"] < 6 and span["text"].strip():
                            read[span["text"].strip()] = round(span["size"], 2)
    assert read == {"tiny print": 5.39, "scaled down": 5.67}, read
    for text, size in reported.items():
        assert read[text] == pytest.approx(size, abs=0.02)


def test_a_game_may_lower_the_floor_and_the_check_says_so(small_game, pnp):
    game = small_game / "synth" / "game.yaml"
    game.write_text(game.read_text() + "min_text_pt: 5\n")
    result = pnp("check", "--components", small_game)
    assert result.exit_code == 0, result.output
    assert "no text under 5 pt (lowered from 6 pt by game.yaml)" in result.output


def test_a_reference_sheet_shrunk_below_the_floor_is_reported(make_deck_game, pnp):
    components = make_deck_game(cards={"a": 1})
    words = " ".join(["Every player takes one card and passes the rest along."] * 60)
    (components / "synth" / "rules.yaml").write_text(
        "kind: sheet\ntitle: Rules\npages: 1\nfont_size: 9\nmin_font_size: 4\nsections:\n"
        "  - heading: Play\n    blocks:\n" + f"      - text: {words}\n" * 7
    )
    result = pnp("check", "--components", components)
    assert result.exit_code == 1, result.output
    line = next(line for line in result.stderr.splitlines() if "under 6 pt" in line)
    assert "rules.yaml" in line and "rules 'sheet'" in line and "'body text'" in line


THIN_FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>
  <text x="5" y="10" font-family="sans-serif" font-size="4">{{ card.name }}</text>
  <line x1="5" y1="20" x2="40" y2="20" stroke="#000" stroke-width="0.5"/>
  <g transform="translate(5 30) scale(0.2)">
    <line x1="0" y1="0" x2="100" y2="0" stroke="#000" stroke-width="0.3"/>
  </g>
</svg>
"""


def test_a_line_under_a_quarter_point_is_a_warning_at_its_template_line(make_deck_game, pnp):
    components = make_deck_game(cards={"a": 2, "b": 1})
    template = components / "synth" / "templates" / "face.svg.j2"
    template.write_text(THIN_FACE)
    result = pnp("check", "--components", components)
    assert result.exit_code == 0, "a warning, not a failure: " + result.output
    (line,) = [line for line in result.stderr.splitlines() if "warning: a line" in line]
    # 0.3 mm drawn at a fifth: 0.06 mm, 0.17 pt; the 0.5 mm line (1.42 pt) is fine
    assert line.startswith(f"{template}:6: warning: a line 0.17 pt wide"), line
    assert "(deck 'a' and 1 more)" in line
    found = json.loads(pnp("check", "--components", components, "--json").stdout)
    (thin,) = found["games"][0]["printing"]["thin_lines"]
    assert (thin["line"], thin["width"], thin["pt"]) == (6, "0.3", pytest.approx(0.17, abs=0.01))
