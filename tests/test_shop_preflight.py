"""Print-shop preflight: small coloured type prints on two inks at most
(``colour.SMALL_COLOUR_TYPE_PT``), read back from the files a shop gets (``test_safe_zone``:
text inside a vendor's safe zone)."""

from __future__ import annotations

import math
from pathlib import Path

import pikepdf
import pytest
from test_printing import deck

from generator.output import colour
from generator.output.colour import Press

PT = 25.4 / 72  # mm per point: the templates draw in mm
SMALL_TYPE = f"""\
<svg xmlns="http://www.w3.org/2000/svg" {{{{ box.svg_attrs }}}}>
  <rect x="{{{{ -box.bleed }}}}" y="{{{{ -box.bleed }}}}" width="{{{{ box.full_w }}}}"
        height="{{{{ box.full_h }}}}" fill="#f4ecd8"/>
  <text x="5" y="10" font-family="sans-serif" font-size="{6.24 * PT:.4f}"
        fill="#553322">Small brown</text>
  <text x="5" y="20" font-family="sans-serif" font-size="{6.3 * PT:.4f}"
        fill="#1f2a5c">Small navy</text>
  <text x="5" y="30" font-family="sans-serif" font-size="{6.5 * PT:.4f}"
        fill="#a01830">Small crimson</text>
  <text x="5" y="50" font-family="sans-serif" font-size="{10 * PT:.4f}"
        fill="#553322">Large brown</text>
</svg>
"""
BROWN, NAVY, CRIMSON = ((0x55, 0x33, 0x22), (0x1F, 0x2A, 0x5C), (0xA0, 0x18, 0x30))


def rgb(eight: tuple[int, ...]) -> tuple[float, ...]:
    return tuple(v / 255 for v in eight)


def inks(cmyk: tuple[float, ...]) -> int:
    """How many plates a CMYK colour prints on."""
    return sum(1 for v in cmyk if v > 0.5 / 255)


def shown(pdf: Path, pages: slice = slice(0, 1)) -> list[tuple[str, float, tuple[float, ...]]]:
    """Every text shown on the ``pages`` of a PDF (its first), as its string's bytes (the
    text itself where it is written as literal strings), with its size in points (through
    every ``cm``) and the fill colour it is shown in."""
    out = []
    with pikepdf.open(pdf) as document:
        for page in document.pages[pages]:
            out += _shown(page)
    return out


def _shown(page: pikepdf.Page) -> list[tuple[str, float, tuple[float, ...]]]:
    """``shown`` of one page."""
    out = []
    scale, fill, size = 1.0, (), 0.0
    stack: list[tuple[float, tuple[float, ...]]] = []
    for operands, operator in pikepdf.parse_content_stream(page):
        op = str(operator)
        if op == "q":
            stack.append((scale, fill))
        elif op == "Q":
            scale, fill = stack.pop()
        elif op == "cm":
            a, b, c, d = (float(v) for v in operands[:4])
            scale *= math.sqrt(abs(a * d - b * c))
        elif op in ("k", "rg", "g"):
            fill = tuple(float(v) for v in operands)
        elif op == "Tf":
            size = float(operands[1]) * scale
        elif op in ("Tj", "TJ"):
            out.append((_string(operands[0]), size, fill))
    return out


def _string(operand: object) -> str:
    """A text operator's string (a TJ array's strings joined), its bytes as Latin-1."""
    if isinstance(operand, pikepdf.Array):
        return "".join(_string(part) for part in operand if isinstance(part, pikepdf.String))
    return bytes(operand).decode("latin-1")  # type: ignore[call-overload]


@pytest.mark.parametrize("eight", [BROWN, NAVY, CRIMSON])
def test_small_coloured_type_takes_two_inks_at_most(eight: tuple[int, ...]) -> None:
    press = Press(2.4)
    own = press.colour(rgb(eight))
    assert inks(own) >= 3 and sum(own) > 2.0, "the colour itself needs three or four plates"
    small = press.text_colour(rgb(eight), colour.SMALL_COLOUR_TYPE_PT - 0.1)
    assert inks(small) <= 2, small
    assert press.text_colour(rgb(eight), colour.SMALL_COLOUR_TYPE_PT) == own, "larger: as is"
    # as light as the colour itself prints (what legibility against the ground is made of)
    eight_own, eight_small = (tuple(round(v * 255) for v in c) for c in (own, small))
    printed, wanted = colour._labs([eight_small, eight_own])
    assert abs(printed[0] - wanted[0]) < 3, (printed, wanted)
    two = colour._labs([eight_small])[0]
    for other in colour._pairs((0, 3), range(0, 256, 51), None):  # no cyan-black build nearer
        assert math.dist(two, wanted) <= math.dist(colour._labs([other])[0], wanted) + 1e-9


def test_a_shop_pdf_prints_small_coloured_type_on_two_plates(pnp, make_deck_game, tmp_path):
    components = deck(make_deck_game, face=SMALL_TYPE, cards={"a": 1})
    out = tmp_path / "out"
    result = pnp("export", "--shop", "--components", components, "--out", out)
    assert result.exit_code == 0, result.output
    sizes = {text: (size, cmyk) for text, size, cmyk in shown(out / "synth/shop/deck.pdf")}
    assert set(sizes) == {"Small brown", "Small navy", "Small crimson", "Large brown"}, sizes
    for text, (size, cmyk) in sizes.items():
        assert len(cmyk) == 4, f"{text}: CMYK"
        if text.startswith("Small"):
            assert size == pytest.approx(6.4, abs=0.2), text
            assert inks(cmyk) <= 2, f"{text} at {size:.2f} pt on {inks(cmyk)} plates: {cmyk}"
        else:
            assert size == pytest.approx(10, abs=0.05)
            assert inks(cmyk) == 4, "10 pt type keeps its own build"
