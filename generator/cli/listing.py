"""``pnp list``: the games and components found, with their counts, sheets and fill."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from generator.cli.common import (
    components_option,
    games_argument,
    in_game_folder,
    load_games,
    make_options,
    number_of,
    paper_option,
    plan_games,
    print_options,
    silenced,
)
from generator.errors import clean, display_path
from generator.layout.pack import Pack
from generator.layout.sheets import Page
from generator.model.designs import tally
from generator.output.inventory import card_sheets, page_ranges


def describe(pack: Pack) -> None:
    """A game's sheets of paper and components with counts and pages, then its sheets of
    pieces with how full they are."""
    spec = pack.game.spec
    sides = "double-sided" if pack.duplex else "single-sided"
    players = "player" if spec.players == "1" else "players"
    click.echo(
        f"{clean(pack.game.name)}: {clean(spec.title)} ({spec.players} {players}, "
        f"{pack.paper_name}, {number_of(pack.sheet_count, 'sheet')} of paper {sides}, "
        f"{number_of(pack.page_count, 'page')})"
    )
    for plan in pack.components:
        component = plan.component
        size = f", {plan.shape.label(pack.words)}" if plan.shape else ""
        click.echo(
            f"  {component.id}: {component.spec.kind} '{clean(component.spec.title)}', "
            f"{number_of(plan.count, 'piece')}{size}, pages {page_ranges(plan.pages)}"
        )
        click.echo("    " + ", ".join(f"{d.name} {d.count}" for d in plan.designs))
        if component.parked:
            click.echo(
                "    parked (count 0, not printed): "
                + ", ".join(
                    f"{clean(name)} ({display_path(path)}:{line})"
                    for name, path, line in component.parked
                )
            )
        totals = tally(component)
        if totals:
            click.echo(
                "    tally: " + ", ".join(f"{clean(name)} {n}" for name, n in totals.items())
            )
    for record in sheet_records(pack):
        pages = "–".join(str(n) for n in dict.fromkeys([record["pages"][0], record["pages"][-1]]))
        what = "; ".join(record["holds"])
        if record["pieces"]:
            what += f", {number_of(record['pieces'], 'piece')}, fill {record['fill']:.0%}"
        if record["blank_back"]:
            what += ", back blank"
        click.echo(f"  sheet {record['sheet']}, page {pages} ({record['paper']}): {clean(what)}")


def _holds(pack: Pack, page: Page, number: int) -> str:
    """What a page of the pack holds, in a few words."""
    if page.inventory is not None:
        what = "contents" if page.inventory == 0 else f"contents page {page.inventory + 1}"
        if page.assembly is not None:
            what += f", {page.assembly.title}: assembly map"
        return what
    if page.assembly is not None and not page.placements:
        return f"{page.assembly.title}: assembly map"
    if page.flow is not None:
        return f"{page.title} {page.number}/{page.of}"
    return f"{page.title} {page.number}/{page.of} ({page.side})"


def sheet_records(pack: Pack) -> list[dict]:
    """Every sheet of paper: its pages, what they hold, its pieces and fill, what to print
    it on and whether its back is left blank."""
    card = set(card_sheets(pack))
    records: dict[int, dict] = {}
    for number, page, sheet in pack.pages():
        record = records.setdefault(
            sheet,
            {
                "sheet": sheet,
                "pages": [],
                "holds": [],
                "pieces": 0,
                "fill": 0.0,
                "paper": "card" if sheet in card else "paper",
                "blank_back": False,
            },
        )
        record["pages"].append(number)
        if page is None:
            record["blank_back"] = True
            continue
        record["holds"].append(_holds(pack, page, number))
        if page.side != "back" and page.area:
            record["pieces"] = sum(1 for p in page.placements if p.side == "front")
            record["fill"] = round(page.fill, 3)
    return list(records.values())


@click.command("list")
@games_argument
@components_option
@paper_option
@print_options
@click.option("--json", "as_json", is_flag=True, help="The listing as JSON on stdout.")
@in_game_folder
def command(
    games: tuple[str, ...],
    components_dir: Path,
    paper: str | None,
    as_json: bool,
    **printing: Any,
) -> None:
    """List games and their components with counts, pages, and every sheet of paper: what it
    holds, how full it is and what to print it on (on that paper, printed that way)."""
    with silenced(as_json):
        paper, options = make_options(paper, **printing)
        packs = plan_games(load_games(components_dir, games), paper, options)
    if as_json:
        document = {"games": [as_record(pack) for pack in packs]}
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    for pack in packs:
        describe(pack)


def as_record(pack: Pack) -> dict:
    """A game's pack for --json: its paper and sheets, components with their kinds, and the
    sheets of pieces with how full they are."""
    spec = pack.game.spec
    return {
        "game": pack.game.name,
        "title": spec.title,
        "players": spec.players,
        "paper": pack.paper_name,
        "duplex": pack.options.duplex if pack.duplex else None,
        "sheets": pack.sheet_count,
        "pages": pack.page_count,
        "components": [
            {
                "id": plan.component.id,
                "kind": plan.component.spec.kind,
                "title": plan.component.spec.title,
                "count": plan.count,
                "size": plan.shape.label(pack.words) if plan.shape else None,
                "pages": plan.pages,
                "kinds": [
                    {"name": d.name, "count": d.count, "label": d.label()} for d in plan.designs
                ],
                "parked": [
                    {"name": name, "file": display_path(path), "line": line}
                    for name, path, line in plan.component.parked
                ],
            }
            for plan in pack.components
        ],
        "all_sheets": sheet_records(pack),
        "sheets_of_pieces": [
            {
                "sheet": sheet,
                "page": number,
                "title": page.title,
                "pieces": sum(1 for p in page.placements if p.side == "front"),
                "fill": round(page.fill, 3),
            }
            for number, page, sheet in pack.pages()
            if page is not None and page.side != "back" and page.area
        ],
    }
