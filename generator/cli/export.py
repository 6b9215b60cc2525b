"""``pnp export``: files for print shops (any shop, or a print-on-demand vendor's preset) and
for Tabletop Simulator."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from generator.cli import Failed
from generator.cli.common import (
    EXIT_CANNOT_WRITE,
    EXIT_SPEC_ERROR,
    components_option,
    games_argument,
    in_game_folder,
    lang_option,
    load_games,
    out_option,
    plan_games,
)
from generator.errors import clean, display_path
from generator.layout.pack import Pack
from generator.output import shop as generic_shop
from generator.output import tts as tabletop
from generator.output import vendors

GENERIC = "generic"
VENDORS = ("thegamecrafter", "makeplayingcards", "drivethrucards")


@click.command("export")
@games_argument
@components_option
@click.option(
    "--shop",
    type=click.Choice((GENERIC, *VENDORS)),
    is_flag=False,
    flag_value=GENERIC,
    default=None,
    help="Print-shop files: alone, one PDF/X-4 per component and PNGs for any shop; with a "
    "vendor, its card products' pixel sizes, file names and order.",
)
@click.option(
    "--tts", is_flag=True, help="Tabletop Simulator decks: face sheets, backs, saved objects."
)
@out_option
@lang_option
@in_game_folder
def command(
    games: tuple[str, ...],
    components_dir: Path,
    shop: str | None,
    tts: bool,
    out_dir: Path,
    language: str | None,
) -> int:
    """Export games for print shops and virtual tabletops, into <out>/<game>/: shop/ (any
    shop: a piece per page at trim plus bleed, CMYK PDF/X-4, 300 dpi PNGs), shop-<vendor>/
    (--shop VENDOR: its card products, as it takes uploads) and tts/ (--tts)."""
    if shop is None and not tts:
        click.echo("say what to export: --shop [VENDOR] and/or --tts", err=True)
        return EXIT_SPEC_ERROR
    for pack in plan_games(load_games(components_dir, games, language), None):
        folder = out_dir / pack.game.name
        if language is not None:
            folder = folder / pack.game.language
        if shop == GENERIC:
            _write(pack, folder / "shop", _generic)
        elif shop is not None:
            _write(pack, folder / f"shop-{shop}", _vendor(shop))
        if tts:
            _write(pack, folder / "tts", _tts)
    return 0


def _write(pack: Pack, folder: Path, export: Callable[[Pack, Path], str]) -> None:
    """Run one export into ``folder`` and say what it wrote (exit 3 if it cannot write)."""
    try:
        said = export(pack, folder)
    except OSError as exc:
        click.echo(f"cannot write {display_path(folder)}: {exc.strerror or exc}", err=True)
        raise Failed(EXIT_CANNOT_WRITE) from None
    click.echo(f"{clean(pack.game.name)}: {said} in {display_path(folder)}")


def _count(written: list[Path]) -> str:
    """How many PDFs and PNGs were written."""
    pdfs = sum(1 for p in written if p.suffix == ".pdf")
    pngs = sum(1 for p in written if p.suffix == ".png")
    return f"{pdfs} PDF(s), {pngs} PNG(s)"


def _generic(pack: Pack, folder: Path) -> str:
    return _count(generic_shop.export(pack, folder))


def _vendor(key: str) -> Callable[[Pack, Path], str]:
    """The export for one vendor: its decks written, and a warning for each it cannot print."""

    def run(pack: Pack, folder: Path) -> str:
        vendor = vendors.vendors()[key]
        written, decks, skipped = vendors.export(pack, vendor, folder)
        for reason in skipped:
            click.echo(f"warning: {clean(pack.game.name)}: {clean(reason)}", err=True)
        return f"{decks} deck(s) for {vendor.title}, {_count(written)}"

    return run


def _tts(pack: Pack, folder: Path) -> str:
    written = tabletop.export(pack, folder)
    sheets = sum(1 for p in written if "-faces-" in p.name)
    decks = sum(1 for p in written if p.suffix == ".json" and p.name != "tts.json")
    return f"{decks} Tabletop Simulator deck(s) on {sheets} face sheet(s)"
