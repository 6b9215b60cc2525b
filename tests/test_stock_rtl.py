"""The stock templates in a right-to-left language: every translatable text goes through
the shaping and bidi path, a dash or a number in an Arabic or Hebrew line included (the stock
card's type line drew "—" and "(2)" from the wrong end, over the words beside them, and warned
naming a file inside pnp's installation); a warning names a stock template as stock/…."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from test_engine_words import init, own_engine_words
from test_i18n import GAME, write_small_game

HEBREW = {
    "Little game": "משחק קטן",
    "Cards": "קלפים",
    "Bread": "לחם",
    "Action card": "עבודה — התקפה (2)",
    "Trade freely with everyone.": "סחרו בחופשיות עם כולם.",
    "Tokens": "אסימונים",
    "Page [{n}]": "עמוד [{n}]",
}
ARABIC = {**HEBREW, "Action card": "بطاقة — هجوم (2)", "Bread": "خبز"}
TYPES = {"he": ("עבודה", "—", "התקפה", "(2)"), "ar": ("بطاقة", "—", "هجوم", "(2)")}


def stock_card_game(tmp_path: Path) -> Path:
    """The small game, its deck drawn by the stock card template with a type line."""
    game = write_small_game(tmp_path)
    cards = game / "cards.yaml"
    text = cards.read_text().replace("face: face.svg.j2", "face: card.svg.j2")
    cards.write_text(
        text.replace("label: Bread,", "title: Bread, type: Action card, label: Bread,")
    )
    return game


@pytest.mark.parametrize("language", ["he", "ar"])
def test_the_stock_cards_type_line_reads_from_the_right(pnp, tmp_path, language):
    game = stock_card_game(tmp_path)
    init(pnp, game, language, HEBREW if language == "he" else ARABIC)
    assert pnp("i18n", "engine", language, GAME, "--components", game.parent).exit_code == 0
    own_engine_words(game / "locale" / f"engine-{language}.po", mark="")
    out = tmp_path / "out"
    result = pnp("build", GAME, "--components", game.parent, "--out", out, "--lang", language)
    assert result.exit_code == 0, result.output
    assert "drawn left to right" not in result.stderr, result.stderr
    boxes = _boxes(out / GAME / language / f"{GAME}.pdf", TYPES[language])
    # from the right: the first word, the dash, the second word, the number; none overlaps
    for right, left in zip(boxes, boxes[1:], strict=False):
        assert left[1] < right[0], (TYPES[language], boxes)


def _boxes(pdf: Path, parts: tuple[str, ...]) -> list[tuple[float, float]]:
    """The x extent (left, right) of each of ``parts`` on the page that prints them."""
    document = pdfium.PdfDocument(pdf)
    for page in document:
        text = page.get_textpage()
        found = text.get_text_range()
        if parts[0] not in found:
            continue
        line = found.index(parts[0])
        out = []
        for part in parts:
            start = found.index(part, line)
            edges = [text.get_charbox(i) for i in range(start, start + len(part))]
            out.append((min(e[0] for e in edges), max(e[2] for e in edges)))
        return out
    raise AssertionError(f"{parts[0]} is on no page of {pdf}")


def test_a_warning_names_a_stock_template_as_stock(pnp, tmp_path):
    game = stock_card_game(tmp_path)
    cards = game / "cards.yaml"
    cards.write_text(
        cards.read_text().replace("face: card.svg.j2", "face: card.svg.j2\nstyle: {font: Nowhere}")
    )
    result = pnp("check", GAME, "--components", game.parent)
    said = [line for line in result.stderr.splitlines() if "Nowhere" in line]
    assert said and all(line.startswith("stock/card.svg.j2: warning:") for line in said), said
