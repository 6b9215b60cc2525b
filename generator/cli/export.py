"""``pnp export``: files for print shops (any shop, or a print-on-demand vendor's preset) and
for Tabletop Simulator."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import click

from generator.check.safezone import near_cut
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
from generator.cli.progress import Tick, progress
from generator.errors import clean, display_path
from generator.layout.pack import Pack
from generator.output import shop as generic_shop
from generator.output import tts as tabletop
from generator.output import vendors
from generator.output.shop import MM_PER_IN
from generator.paths import read_text

GENERIC = "generic"
WORDS = {"card": "deck", "token": "token set", "board": "board", "mat": "mat"}  # a batch
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
    "vendor, its products' pixel sizes, file names, order and PDF/X (cards, and where the "
    "vendor sells them tokens and boards).",
)
@click.option(
    "--fit",
    is_flag=True,
    help="With --shop VENDOR: scale a deck no card product fits to the nearest one (its "
    "proportions and bleed kept), and say so.",
)
@click.option(
    "--tts",
    is_flag=True,
    help="Tabletop Simulator: decks, tiles, tokens, boards, dice, sheets and pads, in one "
    "saved bag.",
)
@out_option
@lang_option
@in_game_folder
def command(
    games: tuple[str, ...],
    components_dir: Path,
    shop: str | None,
    fit: bool,
    tts: bool,
    out_dir: Path,
    language: str | None,
) -> int:
    """Export games for print shops and virtual tabletops, into <out>/<game>/: shop/ (any
    shop: a piece per page at trim plus bleed, CMYK PDF/X-4, 300 dpi PNGs), shop-<vendor>/
    (--shop VENDOR: its products, as it takes uploads) and tts/ (--tts)."""
    if shop is None and not tts:
        click.echo("say what to export: --shop [VENDOR] and/or --tts", err=True)
        return EXIT_SPEC_ERROR
    if fit and shop in (None, GENERIC):
        click.echo("--fit goes with a vendor: --shop VENDOR --fit", err=True)
        return EXIT_SPEC_ERROR
    for pack in plan_games(load_games(components_dir, games, language), None):
        folder = out_dir / pack.game.name
        if language is not None:
            folder = folder / pack.game.language
        if shop == GENERIC:
            _write(pack, folder / "shop", _generic, generic_shop.work(pack))
        elif shop is not None:
            vendor = vendors.vendors()[shop]
            work = vendors.work(pack, vendor, fit)
            _write(pack, folder / f"shop-{shop}", _vendor(vendor, fit), work)
        if tts:
            _write(pack, folder / "tts", _tts, tabletop.work(pack))
    return 0


Export = Callable[[Pack, Path, Tick], str]


def _write(pack: Pack, folder: Path, export: Export, work: int) -> None:
    """Run one export into ``folder``, its progress shown, and say what it wrote (exit 3 if
    it cannot write)."""
    try:
        with progress(f"{pack.game.name} {folder.name}", work, lines=True) as tick:
            said = export(pack, folder, tick)
    except OSError as exc:
        click.echo(f"cannot write {display_path(folder)}: {exc.strerror or exc}", err=True)
        raise Failed(EXIT_CANNOT_WRITE) from None
    click.echo(f"{clean(pack.game.name)}: {said} in {display_path(folder)}")


def _count(written: list[Path]) -> str:
    """How many PDFs and PNGs were written."""
    pdfs = sum(1 for p in written if p.suffix == ".pdf")
    pngs = sum(1 for p in written if p.suffix == ".png")
    return f"{pdfs} PDF(s), {pngs} PNG(s)"


def _generic(pack: Pack, folder: Path, tick: Tick) -> str:
    written = generic_shop.export(pack, folder, tick)
    _say_left_out(pack, generic_shop.left_out(pack))
    return _count(written)


def _say_left_out(pack: Pack, items: list[dict[str, str]]) -> None:
    """A line for each component an export leaves out, with why."""
    for item in items:
        click.echo(
            f"{clean(pack.game.name)}: {item['kind']} '{clean(item['component'])}' left out: "
            f"{item['why']}"
        )


def _vendor(vendor: vendors.Vendor, fit: bool) -> Export:
    """The export for one vendor: what it prints written, a warning for each component it
    cannot print and a line for each batch scaled to its product."""

    def run(pack: Pack, folder: Path, tick: Tick) -> str:
        written, found, skipped = vendors.export(pack, vendor, folder, fit, tick)
        for reason in skipped:
            click.echo(f"warning: {clean(pack.game.name)}: {clean(reason)}", err=True)
        for near in near_cut(pack, vendor.safe_in * MM_PER_IN):
            click.echo(f"{display_path(near.path)}: {clean(near.message())}", err=True)
        for batch in found:
            if vendors.fitted(batch):
                click.echo(f"{clean(pack.game.name)}: {clean(vendors.fitted(batch))}")
        kinds = Counter(WORDS[batch.product.kind] for batch in found)
        what = ", ".join(f"{n} {kind}(s)" for kind, n in kinds.items()) or "0 deck(s)"
        return f"{what} for {vendor.title}, {_count(written)}"

    return run


def _tts(pack: Pack, folder: Path, tick: Tick) -> str:
    written = tabletop.export(pack, folder, tick)
    listing = json.loads(read_text(folder, folder / "tts.json", "manifest"))
    _say_left_out(pack, listing["left_out"])
    sheets = sum(1 for p in written if "-faces-" in p.name)
    return (
        f"{len(listing['decks'])} Tabletop Simulator deck(s) on {sheets} face sheet(s), "
        f"{len(listing['pieces'])} other object(s), all in {listing['bag']}"
    )
