"""``pnp preview``: PNG pages and a contact sheet of a game's print pack."""

from __future__ import annotations

from pathlib import Path

import click

from generator.cli.common import (
    EXIT_SPEC_ERROR,
    components_option,
    in_game_folder,
    make_options,
    out_option,
)
from generator.cli.packs import Request, build
from generator.cli.progress import progress
from generator.errors import display_path
from generator.output.preview import contact_sheet, page_count, render_pages


@click.command("preview")
@click.argument("game", required=False)
@components_option
@click.option("--page", "pages", type=int, multiple=True, help="Only this page (repeatable).")
@click.option("--dpi", type=click.IntRange(20, 600), default=60, show_default=True)
@click.option("--force", is_flag=True, help="Build even when the check fails.")
@out_option
@in_game_folder
def command(
    game: str | None,
    components_dir: Path,
    pages: tuple[int, ...],
    dpi: int,
    force: bool,
    out_dir: Path,
) -> int:
    """Render a game's pack (built as pnp build builds it, when it is missing or out of
    date) to <out>/<game>/preview/: page-NN.png and contact.png. Inside a game folder, that
    game."""
    if game is None:
        raise click.UsageError("name the game to preview (or run pnp preview in its folder)")
    paper, options = make_options()
    status = build(Request(components_dir, (game,), out_dir, paper, options, None, force))
    if status:
        return status  # the check fails: nothing to preview (said already)
    pdf = out_dir / game / f"{game}.pdf"
    folder = out_dir / game / "preview"
    total = len(pages) or page_count(pdf)
    try:
        with progress(f"preview {game}", total) as tick:
            written = render_pages(pdf, folder, dpi, list(pages) or None, tick)
    except ValueError as exc:
        click.echo(str(exc), err=True)
        return EXIT_SPEC_ERROR
    contact = contact_sheet(pdf, folder / "contact.png")
    click.echo(
        f"{len(written)} page(s) in {display_path(folder)}; contact sheet {display_path(contact)}"
    )
    return 0
