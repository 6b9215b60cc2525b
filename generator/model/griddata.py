"""A grid's tables kept in data files, and the names its terrains and cells give that only
the game folder can check.

``cells: {from: terrain.csv}`` (and ``hexsides:``, ``paths:``) under a grid of a spec is read
through the data files' gate (``datafiles.read_rows``: CSV, Excel, OpenDocument, JSON or a
YAML list) before the spec is validated: its rows take the place of the ``from``, each keeping
its row, so a mistake in one is told as ``terrain.csv:ROW``. A column the table's rows do not
read is reported (a warning) and left out; a blank cell is as if the column were not there.

After validation, the icons and cell templates a grid names are looked up: an icon its icons
template does not draw, a template that is not in the game's templates, each an error at its
line or row with the names that are there."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from generator.errors import ErrorList, SpecError
from generator.model.columns import Notice
from generator.model.datafiles import Table, check_cell, column_name, read_rows
from generator.model.gamefolders import near_file, template_dirs
from generator.model.grids import CellRow, HexsideRow, PathRow
from generator.model.templatefields import declared_icons
from generator.model.yamlsource import YamlDoc

TABLES: dict[str, type[BaseModel]] = {"cells": CellRow, "hexsides": HexsideRow, "paths": PathRow}
WORDS = {"label", "terrain", "style", "side", "icon"}  # columns of words, never numbers
DATA = {".csv", ".tsv", ".xlsx", ".ods", ".json", ".yaml", ".yml"}


def read_grid_tables(
    root: Path, doc: YamlDoc, errors: ErrorList, read: set[Path], notices: list[Notice]
) -> bool:
    """Put the rows of every table a grid of ``doc`` names by ``{from: file}`` in its place;
    add the files to ``read`` and a notice for each column nothing reads to ``notices``.
    False when one cannot be read (the error is reported)."""
    grids = doc.data.get("grids") if isinstance(doc.data, dict) else None
    for i, grid in enumerate(grids if isinstance(grids, list) else []):
        for key, model in TABLES.items():
            source = grid.get(key) if isinstance(grid, dict) else None
            if not isinstance(source, dict):
                continue
            loc = ("grids", i, key)
            try:
                table = _table(root, doc, loc, source)
                rows = _rows(table, model, key, notices)
            except SpecError as exc:
                errors.errors.append(exc)
                return False
            grid[key] = rows
            doc.sources[loc] = (table.path, table.lines)
            read.add(table.path)
    return True


def _table(root: Path, doc: YamlDoc, loc: tuple[Any, ...], source: dict[Any, Any]) -> Table:
    """The table ``{from: file, sheet: name}`` names; a SpecError at the spec's line if it
    is written wrong or the file is not there."""
    unknown = sorted(map(str, set(source) - {"from", "sheet"}))
    name, sheet = source.get("from"), source.get("sheet")
    if unknown or not isinstance(name, str) or not isinstance(sheet, (str, type(None))):
        problem = f"'{unknown[0]}' is not a key here" if unknown else "'from' names no file"
        raise SpecError(
            doc.path,
            doc.line_of((*loc, unknown[0]) if unknown else loc),
            f"{problem}; write {loc[-1]}: {{from: {loc[-1]}.csv}} (and sheet: NAME for another "
            "sheet of a spreadsheet), or list the rows",
        )
    if not (root / name).exists() and not (root / name).is_symlink():
        near = near_file(root, name, DATA)
        fix = f"did you mean '{near}'?" if near else "name it by its path in the game folder"
        raise SpecError(
            doc.path, doc.line_of((*loc, "from")), f"data file '{name}' not found; {fix}"
        )
    return read_rows(root, name, sheet)


def _rows(table: Table, model: type[BaseModel], key: str, notices: list[Notice]) -> list[Any]:
    """The table's rows as the grid reads them: headings as field names, blank cells left
    out, every column nothing reads reported once and left out."""
    fields = list(model.model_fields)
    if not table.rows:
        message = f"no rows below the headings; a grid's {key} table needs one at least"
        raise SpecError(table.path, table.header, message)
    unused: dict[str, str] = {}
    rows = []
    for index, record in enumerate(table.rows):
        line = table.lines.get((index,), table.header)
        if not isinstance(record, dict):
            raise SpecError(table.path, line, "each row is a mapping of columns to values")
        row = {}
        for heading, value in record.items():
            check_cell(table.path, line, heading, value)
            name = column_name(str(heading))
            if name not in fields:
                unused.setdefault(name, table.columns.get(name, str(heading)))
            elif value is not None and not (isinstance(value, str) and not value.strip()):
                if name in WORDS and isinstance(value, int | float) and not isinstance(value, bool):
                    value = f"{value:g}"  # a town named 1944: a spreadsheet made it a number
                row[name] = value.strip() if isinstance(value, str) else value
        rows.append(row)
    for name, heading in unused.items():
        close = difflib.get_close_matches(name, fields, n=1, cutoff=0.6)
        fix = f"did you mean '{close[0]}'? Rename" if close else "rename"
        reads = f"a grid's {key} table reads {', '.join(fields)}"
        message = f"column '{heading}' is read by nothing: {reads}; {fix} the column, or delete it"
        notices.append((table.path, table.header, message))
    return rows


def grid_names(root: Path, spec: Any, doc: YamlDoc) -> list[Notice]:
    """The icons and templates the grids of a spec name that the game does not have, each at
    its line or row (errors)."""
    grids = getattr(spec, "grids", None) or []
    icons = spec.icon_template() if hasattr(spec, "icon_template") else None
    known = declared_icons(root, icons) if icons else None
    out: list[Notice] = []
    for i, grid in enumerate(grids):
        named: list[tuple[tuple[str | int, ...], str | None]]
        named = [(("terrains", k, "icon"), t.icon) for k, t in enumerate(grid.terrains)]
        named += [(("cells", k, "icon"), c.icon) for k, c in enumerate(grid.cells)]
        for loc, icon in named:
            if icon and known is not None and icon not in known:
                out.append((*doc.where(("grids", i, *loc)), _no_icon(icon, str(icons), known)))
        for k, terrain in enumerate(grid.terrains):
            if terrain.template and not _template_exists(root, terrain.template):
                where = doc.where(("grids", i, "terrains", k, "template"))
                out.append((*where, _no_template(root, terrain.template)))
    return out


def _no_icon(icon: str, icons: str, known: frozenset[str]) -> str:
    """An icon the icons template does not draw, with those it does."""
    close = difflib.get_close_matches(icon, sorted(known), n=1, cutoff=0.6)
    fix = "draw it in the board's own icons template"
    fix = f"did you mean '{close[0]}'? Or {fix}" if close else f"name one, or {fix}"
    return f"icon '{icon}' is not one of {icons}'s icons: {', '.join(sorted(known))}; {fix}"


def _template_exists(root: Path, name: str) -> bool:
    """Whether a template of that name is in the game's templates or the shared ones."""
    return any((folder / name).is_file() for folder in template_dirs(root))


def _no_template(root: Path, name: str) -> str:
    """A template that is not there, with those that are."""
    there = sorted(
        {p.name for folder in template_dirs(root) if folder.is_dir() for p in folder.glob("*.j2")}
    )
    close = difflib.get_close_matches(name, there, n=1, cutoff=0.6)
    fix = "name a template whose macro cell(c) draws the cell"
    fix = f"did you mean '{close[0]}'? Or {fix}" if close else fix
    return f"template '{name}' not found in {root.name}/templates/ or the shared templates/; {fix}"
