"""Grids on boards from the command line (``grids:``): a hex map with coordinates, terrain from
a spreadsheet, a river, a road, a legend and a turn track builds, passes the check and prints
what it says; every mistake in it is an error at its file and line (or a data file's row),
exit 2, with the names it could have meant; pieces are measured on its cells; a large map is
tiled with its assembly map.

Expected numbers come from the spec (9 x 6 hexes, 19 mm across the flats), never from the
engine's layout code; the PDF is read back with PyMuPDF."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pymupdf
import pytest
from test_datafiles import _ods, _xlsx

COLS, ROWS = 9, 6
MAP = """\
kind: board
title: Map
size: 200 x 150
grids:
  - prefix: map
    layout: hex-flat
    origin: [5, 5]
    size: 19
    cols: 9
    rows: 6
    coords: wargame
    terrain: clear
    terrains:
      - {name: clear, label: Clear, fill: "#f3ecd2"}
      - {name: forest, label: Forest, fill: "#b9d7a0", pattern: dots}
      - {name: town, label: Town, fill: "#efe3d3", icon: flag}
    cells: {from: terrain.csv}
    hexsides:
      - {cell: 0401, side: NE SE, style: river}
      - {cell: 0402, to: 0502 0503, style: river}
    paths: {from: roads.csv}
    lines:
      - {name: river, label: River}
      - {name: road, label: Road}
    legend: {at: [160, 5], title: Terrain}
  - prefix: turn
    layout: square
    origin: [20, 132]
    size: 12
    cols: 8
    rows: 1
    coords: {scheme: numbers, at: centre, size: 4}
"""
TERRAIN = "cell,terrain,label\n0201-0302,forest,\n0202,town,Arnhem\n0605,town,Emmen\n"
ROADS = "cells,style\n0103 0203 0303 0403 0503 0603,road\n"
EXPECT = "map: 1\nmap/map: 54\nmap/map-forest: 3\nmap/map-town: 2\nmap/turn: 8\n"


def write_game(tmp_path: Path, files: dict[str, str | bytes], expect: str = "") -> Path:
    """A game ``components/g`` of ``files`` (text or bytes); the components folder."""
    root = tmp_path / "components" / "g"
    root.mkdir(parents=True)
    game = "title: Grid test\nplayers: 2\n"
    if expect:
        game += "expect:\n" + textwrap.indent(expect, "  ")
    (root / "game.yaml").write_text(game, encoding="utf-8")
    for name, content in files.items():
        path = root / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root.parent


def map_game(tmp_path: Path, **changed: str | bytes) -> Path:
    files: dict[str, str | bytes] = {"map.yaml": MAP, "terrain.csv": TERRAIN, "roads.csv": ROADS}
    return write_game(tmp_path, {**files, **changed}, EXPECT)


def wargame_ids() -> set[str]:
    return {f"{c:02d}{r:02d}" for c in range(1, COLS + 1) for r in range(1, ROWS + 1)}


def test_a_hex_map_builds_checks_and_prints_every_coordinate_at_6_pt_or_more(tmp_path, pnp):
    components = map_game(tmp_path)
    result = pnp("check", "--components", components, "--strict")
    assert result.exit_code == 0, result.output
    assert "every back behind its own front" in result.output  # the printer, simulated
    for key in ("map/map-forest", "map/map-town", "map/turn"):
        assert re.search(rf"{key}\s+\d+\s+\d+\s+ok", result.output), key
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    spans = []
    with pymupdf.open(tmp_path / "out" / "g" / "g.pdf") as pdf:
        for page in pdf:
            for block in page.get_text("dict")["blocks"]:
                spans += [s for line in block.get("lines", []) for s in line["spans"]]
    printed = {s["text"]: s["size"] for s in spans}
    assert wargame_ids() <= set(printed), wargame_ids() - set(printed)
    assert {"Arnhem", "Emmen", "Terrain", "Clear", "Forest", "Town", "River", "Road"} <= set(
        printed
    )
    assert {str(n) for n in range(1, 9)} <= set(printed)  # the turn track
    assert min(printed[i] for i in wargame_ids()) >= 6.0 - 0.01
    assert printed["1"] == pytest.approx(4 / 25.4 * 72, abs=0.05)  # the size asked for


def test_the_terrain_table_may_be_a_workbook(tmp_path, pnp):
    rows = [["cell", "terrain", "label"], [201, "forest", None], ["0302", "forest", None]]
    rows += [[202, "town", "Arnhem"], [605, "town", "Emmen"], ["0301", "forest", None]]
    for name, data in (("terrain.xlsx", _xlsx(rows)), ("terrain.ods", _ods(rows))):
        spec = MAP.replace("terrain.csv", name)
        components = map_game(tmp_path / name, **{"map.yaml": spec, name: data})
        result = pnp("check", "--components", components, "--strict")
        assert result.exit_code == 0, (name, result.output)  # 201 is the spreadsheet's 0201


def test_a_cell_id_written_without_quotes_in_yaml_is_the_cell(tmp_path, pnp):
    """YAML 1.1 reads 0101 as the octal number 65: an id must stay the text written."""
    spec = MAP.replace(
        "cells: {from: terrain.csv}", "cells:\n      - {cell: 0101, terrain: forest}"
    )
    components = map_game(tmp_path, **{"map.yaml": spec})
    result = pnp("check", "--components", components)
    assert re.search(r"map/map-forest\s+3\s+1\s+MISMATCH", result.output), result.output


MISTAKES = {
    "a cell id with a typo": (
        "terrain.csv",
        TERRAIN.replace("0605", "06O5"),
        "terrain.csv:4",
        "'06O5' is not a cell of this grid (columns 01 to 09, rows 01 to 06, e.g. 0101); "
        "did you mean '0605'?",
    ),
    "a cell outside the grid": (
        "terrain.csv",
        TERRAIN.replace("0605", "1005"),
        "terrain.csv:4",
        "cell '1005' is outside the grid (columns 01 to 09, rows 01 to 06)",
    ),
    "an unknown terrain in the table": (
        "terrain.csv",
        TERRAIN.replace("0201-0302,forest", "0201-0302,forrest"),
        "terrain.csv:2",
        "terrain 'forrest' is not one of this grid's: clear, forest, town; did you mean 'forest'?",
    ),
    "an unknown default terrain": (
        "map.yaml",
        MAP.replace("terrain: clear", "terrain: claer"),
        "map.yaml:12",
        "did you mean 'clear'?",
    ),
    "an unknown pattern": (
        "map.yaml",
        MAP.replace("pattern: dots", "pattern: dot"),
        "map.yaml:15",
        "pattern 'dot' is not one of the stock patterns: dots, hatching",
    ),
    "an unknown icon": (
        "map.yaml",
        MAP.replace("icon: flag", "icon: flagg"),
        "map.yaml:16",
        "icon 'flagg' is not one of icons.svg.j2's icons: arrow, bolt",
    ),
    "an unknown cell template": (
        "map.yaml",
        MAP.replace("icon: flag", "template: tonw.svg.j2"),
        "map.yaml:16",
        "template 'tonw.svg.j2' not found in g/templates/ or the shared templates/",
    ),
    "a hexside between cells that are not neighbours": (
        "map.yaml",
        MAP.replace("to: 0502 0503", "to: 0502 0504"),
        "map.yaml:20",
        "'0402' and '0504' are not neighbours (the neighbours of 0402: 0401, 0502, 0503, 0403, "
        "0303, 0302); a hexside lies between neighbours",
    ),
    "a side no hex has": (
        "map.yaml",
        MAP.replace("side: NE SE", "side: NE E"),
        "map.yaml:19",
        "side 'E' is not one of the sides of a hex-flat cell: N, NE, SE, S, SW, NW",
    ),
    "a road that jumps": (
        "roads.csv",
        ROADS.replace("0303 0403", "0303 0503"),
        "roads.csv:2",
        "the path jumps: '0303' and '0503' are not neighbours",
    ),
    "an unknown line style": (
        "roads.csv",
        ROADS.replace(",road", ",raod"),
        "roads.csv:2",
        "line style 'raod' is not one of this grid's: border, cliff, rail, river, road, stream, "
        "trail, wall; did you mean 'road'?",
    ),
    "a data file that is not there": (
        "map.yaml",
        MAP.replace("{from: roads.csv}", "{from: road.csv}"),
        "map.yaml:21",
        "data file 'road.csv' not found; did you mean 'roads.csv'?",
    ),
    "a coordinate scheme that does not exist": (
        "map.yaml",
        MAP.replace("coords: wargame", "coords: wargames"),
        "map.yaml:11",
        "'wargames' is not a coordinate scheme; did you mean 'wargame'? write one of: wargame, "
        "letters, numbers, none",
    ),
    "coordinates under 6 pt": (
        "map.yaml",
        MAP.replace("at: centre, size: 4", "at: centre, size: 2"),
        "map.yaml:32",
        "greater than or equal to 2.1167",
    ),
}


@pytest.mark.parametrize("case", MISTAKES, ids=list(MISTAKES))
def test_a_mistake_in_a_map_is_an_error_at_its_line_or_row(tmp_path, pnp, case):
    name, text, where, said = MISTAKES[case]
    components = map_game(tmp_path, **{name: text})
    result = pnp("check", "--components", components)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if where + ":" in line]
    assert len(lines) == 1, result.stderr
    assert said in lines[0], lines[0]
    assert "Traceback" not in result.output


def test_a_column_nothing_reads_is_reported_not_dropped(tmp_path, pnp):
    table = TERRAIN.replace("cell,terrain,label", "cell,terrain,label,notes")
    components = map_game(tmp_path, **{"terrain.csv": table.replace("Arnhem", "Arnhem,big")})
    result = pnp("check", "--components", components)
    assert result.exit_code == 0, result.output
    warning = next(line for line in result.stderr.splitlines() if "notes" in line)
    assert warning.endswith(
        "terrain.csv:1: warning: column 'notes' is read by nothing: a grid's cells table reads "
        "cell, terrain, label, icon; rename the column, or delete it"
    )
    assert pnp("check", "--components", components, "--strict").exit_code == 1


UNITS = """\
kind: tokens
title: Units
shape: square
size: {size}
face: token.svg.j2
tokens:
  - {{name: inf, label: Infantry, count: 4}}
stands_on:
  - {{board: map, places: [map]}}
"""


@pytest.mark.parametrize(
    "size, said",
    [
        (16, None),  # a 16 mm counter on a 19 mm hex: the usual fit
        (19, "pieces cover each other: units on 'map-"),  # neighbours' counters overlap
        (20, "does not fit: a piece of units (20 x 20 mm each) on 'map-0101' of board 'map'"),
    ],
)
def test_counters_are_measured_on_the_hexes_they_stand_on(tmp_path, pnp, size, said):
    components = map_game(tmp_path, **{"units.yaml": UNITS.format(size=size)})
    result = pnp("check", "--components", components)
    found = [line for line in result.stderr.splitlines() if "units.yaml:9:" in line]
    if said is None:
        assert result.exit_code == 0 and not found, result.output
    else:
        assert result.exit_code == 1 and any(said in line for line in found), result.output


BIG = """\
kind: board
title: Campaign map
size: 500 x 400
bleed: 3
grids:
  - prefix: hex
    layout: hex-flat
    origin: [10, 10]
    size: 25
    cols: 22
    rows: 15
    coords: wargame
    terrain: clear
    terrains:
      - {name: clear, fill: "#f3ecd2"}
      - {name: forest, fill: "#b9d7a0", pattern: dots}
    cells:
      - {cell: 0101-0808, terrain: forest}
    paths:
      - {cells: 0103 0203 0303 0403 0503 0603 0703 0803 0903 1003, style: rail}
"""


def test_a_500_by_400_map_is_tiled_with_its_assembly_map(tmp_path, pnp):
    components = write_game(tmp_path, {"map.yaml": BIG}, "map: 1\nmap/hex: 330\n")
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "out" / "g" / "manifest.json").read_text("utf-8"))
    tiles = [i for i in manifest["items"] if i["component"] == "map"]
    names = sorted(t["tile"] for t in tiles)  # six tiles on A4, rows as the seams fall best
    assert len(names) == 6 and len(set(names)) == 6 and names[0] == "A1", names
    with pymupdf.open(tmp_path / "out" / "g" / "g.pdf") as pdf:
        text = [page.get_text() for page in pdf]
    assert any("Campaign map: how the tiles fit together" in t for t in text)
    ids = {f"{c:02d}{r:02d}" for c in range(1, 23) for r in range(1, 16)}
    assert ids <= set(" ".join(text).split())  # every hex's number is on some tile


DOCS = Path(__file__).resolve().parent.parent / "docs"
QUOTED = re.compile(r"^map/(\S+:\d+: .*)$", re.M)  # a message of the docs, in game folder 'map'


def test_the_messages_the_docs_quote_are_what_the_check_prints(tmp_path, pnp):
    """docs/kinds/board.md and docs/check.md quote a map's mistakes as pnp check prints them
    (for a game folder named 'map'): each is printed by one of MISTAKES, or by the unused
    column."""
    printed: list[str] = []
    cases = [(n, t) for n, t, _, _ in MISTAKES.values()]
    cases.append(("terrain.csv", TERRAIN.replace("label", "label,notes")))
    for index, (name, text) in enumerate(cases):
        result = pnp("check", "--components", map_game(tmp_path / str(index), **{name: text}))
        printed += result.stderr.splitlines()
    quoted = [
        m
        for page in ("kinds/board.md", "check.md")
        for m in QUOTED.findall((DOCS / page).read_text(encoding="utf-8"))
    ]
    assert len(quoted) >= 8
    for message in quoted:
        assert any(line.endswith("/g/" + message) for line in printed), message


def test_cells_on_the_board_edge_run_on_into_its_bleed(tmp_path, pnp):
    """A square grid that covers the board: its cells' colour is printed 1.5 mm past the
    trim, in the 3 mm bleed, where the cut may fall."""
    board = (
        "kind: board\ntitle: Tracks\nsize: 100 x 60\nbleed: 3\nborder: 0\ngrids:\n"
        "  - {prefix: t, layout: square, origin: [0, 0], size: 10, cols: 10, rows: 6,\n"
        "     coords: {scheme: numbers, at: centre}, terrain: sea,\n"
        '     terrains: [{name: sea, fill: "#1f4e79"}]}\n'
    )
    components = write_game(tmp_path, {"board.yaml": board})
    result = pnp("build", "--components", components, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pack = tmp_path / "out" / "g"
    item = json.loads((pack / "manifest.json").read_text("utf-8"))["items"][0]
    dpi = 100
    with pymupdf.open(pack / "g.pdf") as pdf:
        page = pdf[item["page"] - 1]
        pixmap = page.get_pixmap(dpi=dpi)
        height_mm = page.rect.height / 72 * 25.4

    def colour(x_mm: float, y_mm: float) -> tuple[int, ...]:  # y from the page's foot
        return pixmap.pixel(round(x_mm / 25.4 * dpi), round((height_mm - y_mm) / 25.4 * dpi))

    x, y, w, h = item["x_mm"], item["y_mm"], item["w_mm"], item["h_mm"]
    for at in ((x - 1.5, y + h / 2), (x + w + 1.5, y + h / 2), (x + w / 2, y - 1.5)):
        assert max(abs(a - b) for a, b in zip(colour(*at), (0x1F, 0x4E, 0x79), strict=True)) < 12, (
            at
        )
    assert colour(x - 4.5, y + h / 2) == (255, 255, 255)  # past the bleed: paper
