"""What pnp serve keeps between saves of a counters game (Ridge of docs/examples: a hex map
tiled over two pages, counters from a CSV, a rules sheet): an edited counter paints the map
again nowhere (neither its art nor its words for the seams), lays the rules sheet out again
nowhere and draws its page again not at all; an edited map is painted anew, an edited sheet
laid out anew."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from serving import REPO, pieces, serving, state, state_after

from generator.art import boards
from generator.layout.sheetflow import FlowLayout

RIDGE = REPO / "docs" / "examples" / "ridge"
QUERY = "game=ridge"


@pytest.fixture
def painted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The titles of the boards painted, each time one is."""
    seen: list[str] = []
    paint = boards.BoardPainter.paint

    def counted(painter: boards.BoardPainter) -> str:
        seen.append(painter.spec.title)
        return paint(painter)

    monkeypatch.setattr(boards.BoardPainter, "paint", counted)
    return seen


def _edited(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _counter_edited(server, game: Path) -> dict:
    """Change one counter's movement in the CSV: the state once the preview has it."""
    units = game / "units.csv"
    _edited(units, "n-1-inf,North,infantry,III,1,4,4,4", "n-1-inf,North,infantry,III,1,5,4,4")
    return state_after(server, QUERY, game, units)


def _sheet(found: dict) -> list[str]:
    (rules,) = [c for c in found["view"]["components"] if c["id"] == "rules"]
    return [side["picture"] for piece in rules["pieces"] for side in piece["sides"]]


def test_an_edited_counter_paints_the_map_again_nowhere(tmp_path, painted):
    game = tmp_path / "components" / "ridge"
    shutil.copytree(RIDGE, game)
    with serving([game], tmp_path / "cache") as server:
        first = state(server, QUERY)
        assert not first["errors"] and painted, "the map was painted for the first plan"
        painted.clear()
        after = _counter_edited(server, game)
        assert not after["errors"]
        assert painted == [], "a counter's edit painted the map again"
        assert _sheet(after) == _sheet(first)
        assert after["timings"]["drawn"] == 1  # the counter's face; its back is as it was
        before, now = pieces(first["view"]), pieces(after["view"])
        assert [k for k in now if now[k]["sides"] != before[k]["sides"]] == [("units", "n-1-inf")]
        _edited(game / "map.yaml", "title: Map", "title: The map")
        again = state_after(server, QUERY, game, game / "map.yaml")
        assert not again["errors"] and painted, "an edited map was not painted again"


@pytest.fixture
def laid_out(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The titles of the reference sheets laid out (at any size), each time one is."""
    seen: list[str] = []
    count = FlowLayout.count

    def counted(layout: FlowLayout, size: float) -> tuple[int, float]:
        seen.append(layout.spec.title)
        return count(layout, size)

    monkeypatch.setattr(FlowLayout, "count", counted)
    return seen


def _sheet_findings(found: dict) -> list[str]:
    (rules,) = [c for c in found["view"]["components"] if c["id"] == "rules"]
    return sorted(f["message"] for piece in rules["pieces"] for f in piece["findings"])


TOO_LONG = {  # a sheet's finding, what makes it and a word of its message
    "a word too wide": ("Aldford** by", "Aldford** " + "Hexagonal" * 9 + " by", "Hexagonal" * 9),
    "pages too few": ("font_size: 9", "font_size: 30\nmin_font_size: 30\npages: 1", "1 page(s)"),
}


@pytest.mark.parametrize("finding", list(TOO_LONG))
def test_an_edited_counter_lays_the_rules_out_again_nowhere(tmp_path, laid_out, finding):
    game = tmp_path / "components" / "ridge"
    shutil.copytree(RIDGE, game)
    old, new, said = TOO_LONG[finding]
    _edited(game / "rules.yaml", old, new)
    with serving([game], tmp_path / "cache") as server:
        first = state(server, QUERY)
        assert not first["errors"] and laid_out, "the sheet was laid out for the first plan"
        found = _sheet_findings(first)
        assert any(said in f for f in found), found
        laid_out.clear()
        after = _counter_edited(server, game)
        assert not after["errors"]
        assert laid_out == [], "a counter's edit laid the rules sheet out again"
        assert _sheet_findings(after) == found, "a kept layout lost the sheet's findings"
        _edited(game / "rules.yaml", "Rules and charts", "Rules and tables")
        again = state_after(server, QUERY, game, game / "rules.yaml")
        assert not again["errors"] and laid_out == ["Rules and tables"] * len(laid_out)
        assert laid_out, "an edited sheet was not laid out again"
