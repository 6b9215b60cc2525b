"""What pnp serve keeps between saves of a counters game (Ridge of docs/examples: a hex map
tiled over two pages, counters from a CSV, a rules sheet): an edited counter paints the map
again nowhere (neither its art nor its words for the seams) and draws the rules sheet's page
again not at all; an edited map is painted anew."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from serving import REPO, pieces, serving, state, state_after

from generator.art import boards

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
        units = game / "units.csv"
        _edited(units, "n-1-inf,North,infantry,III,1,4,4,4", "n-1-inf,North,infantry,III,1,5,4,4")
        after = state_after(server, QUERY, game, units)
        assert not after["errors"]
        assert painted == [], "a counter's edit painted the map again"
        assert _sheet(after) == _sheet(first)
        assert after["timings"]["drawn"] == 1  # the counter's face; its back is as it was
        before, now = pieces(first["view"]), pieces(after["view"])
        assert [k for k in now if now[k]["sides"] != before[k]["sides"]] == [("units", "n-1-inf")]
        _edited(game / "map.yaml", "title: Map", "title: The map")
        again = state_after(server, QUERY, game, game / "map.yaml")
        assert not again["errors"] and painted, "an edited map was not painted again"
