"""``pnp build --watch``: rebuild a game as soon as its specs, templates or catalogs change.

Files are polled (a few times a second) rather than watched through the operating system, so
it works the same everywhere; only the games whose files changed are rebuilt, and a mistake
is reported without ending the watch.
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from generator.build.pipeline import plan_pack
from generator.check.printing import check_printing
from generator.check.rules import check_counts
from generator.commands.check import explain_failures
from generator.errors import ErrorList, SpecFailure, clean, display_path
from generator.options import PrintOptions
from generator.output.write import write_pack
from generator.spec.gamefolders import SHARED_TEMPLATES, game_files
from generator.spec.loader import load_game

POLL = 0.2  # seconds between looks at the files


def snapshot(folders: list[Path]) -> dict[Path, float]:
    """Modification times of every file under ``folders`` (not a game's own output)."""
    return {
        path: path.stat().st_mtime_ns
        for folder in folders
        if folder.is_dir()
        for path in game_files(folder)
    }


def rebuild(
    root: Path,
    out_dir: Path,
    paper: str | None,
    options: PrintOptions,
    language: str | None,
    force: bool,
) -> None:
    """Load, check and write one game again, reporting instead of stopping on a mistake."""
    started = time.perf_counter()
    errors = ErrorList()
    game = load_game(root, errors, language)
    if game is None:
        for error in errors:
            click.echo(str(error), err=True)
        return
    try:
        pack = plan_pack(game, paper or game.spec.paper, options)
    except SpecFailure as exc:
        for error in exc.errors:
            click.echo(str(error), err=True)
        return
    printing = check_printing(pack)
    if explain_failures(game, pack.overflows, check_counts(game), printing) and not force:
        click.echo(f"{clean(game.name)}: the check fails; not rebuilt (run pnp check)", err=True)
        return
    built = write_pack(pack, out_dir, by_language=language is not None)
    seconds = time.perf_counter() - started
    click.echo(f"{clean(game.name)}: rebuilt {display_path(built.pdf)} in {seconds:.2f} s")


def watch_games(
    roots: list[Path],
    components_dir: Path,
    out_dir: Path,
    paper: str | None,
    options: PrintOptions,
    language: str | None,
    force: bool,
    cycles: int | None = None,
) -> None:
    """Poll the games' folders and the shared templates; rebuild what changed. Stops on
    Ctrl-C (or after ``cycles`` polls, for tests)."""
    roots = sorted(set(roots))
    click.echo(f"watching {len(roots)} game(s) in {display_path(components_dir)}; Ctrl-C stops")
    seen = {root: snapshot([root]) for root in roots}
    shared = snapshot([SHARED_TEMPLATES])
    count = 0
    try:
        while cycles is None or count < cycles:
            count += 1
            time.sleep(POLL)
            now_shared = snapshot([SHARED_TEMPLATES])
            for root in roots:
                now = snapshot([root])
                if now != seen[root] or now_shared != shared:
                    seen[root] = now
                    rebuild(root, out_dir, paper, options, language, force)
            shared = now_shared
    except KeyboardInterrupt:
        click.echo("stopped watching")
