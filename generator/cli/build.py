"""``pnp build``: check each game, then write its print pack (PDF and manifest); with
``--watch``, again whenever its files change."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from generator.cli.common import (
    components_option,
    games_argument,
    in_game_folder,
    lang_option,
    make_options,
    out_option,
    paper_option,
    print_options,
)
from generator.cli.packs import Request, build
from generator.model.gamefolders import select_games


@click.command("build")
@games_argument
@components_option
@out_option
@paper_option
@click.option("--force", is_flag=True, help="Build even when the counts do not match.")
@lang_option
@print_options
@click.option("--watch", is_flag=True, help="Rebuild a game whenever its files change.")
@in_game_folder
def command(
    games: tuple[str, ...],
    components_dir: Path,
    out_dir: Path,
    paper: str | None,
    force: bool,
    language: str | None,
    watch: bool,
    **printing: Any,
) -> int:
    """Build print packs (every game by default); with --lang into <out>/<game>/<lang>/."""
    paper, options = make_options(paper, **printing)
    request = Request(components_dir, games, out_dir, paper, options, language, force)
    status = build(request)
    if watch:
        from generator.cli.watch import watch_games

        watch_games(select_games(components_dir, games), request)
    return status
