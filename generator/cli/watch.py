"""``pnp build --watch``: rebuild a game as soon as its specs, data, templates or catalogs
change.

The operating system says when a file changes (watchfiles: inotify, FSEvents, ReadDirectoryChanges),
so a watch that waits costs nothing; only the games whose files changed are rebuilt (all of
them when a shared template does), and a mistake is reported without ending the watch.
"""

from __future__ import annotations

import time
from pathlib import Path
from threading import Event

import click
import watchfiles

from generator.check.printing import check_printing
from generator.check.rules import check_counts
from generator.cli.check import explain_failures
from generator.cli.common import report_warnings
from generator.errors import ErrorList, SpecFailure, clean, display_path
from generator.model.gamefolders import OWN_OUTPUT, SHARED_TEMPLATES
from generator.model.loader import load_game
from generator.options import PrintOptions
from generator.output.write import write_pack
from generator.plan.pipeline import plan_pack

SETTLE_MS = 300  # wait this long after the last change of a burst (an editor's save, a copy)


def _changed_games(changes: set[tuple[watchfiles.Change, str]], roots: list[Path]) -> list[Path]:
    """The games a burst of changes touches: those holding a changed file, or all of them
    when a shared template changed."""
    paths = [Path(path) for _, path in changes]
    if any(path.is_relative_to(SHARED_TEMPLATES) for path in paths):
        return roots
    return [root for root in roots if any(path.is_relative_to(root) for path in paths)]


def _watched(out_dir: Path, roots: list[Path]):  # noqa: ANN202 - watchfiles' filter signature
    """The filter of changes worth a rebuild: not the packs being written (the output folder,
    a game's own output/), nor editors' and Python's litter."""
    litter = watchfiles.DefaultFilter()
    skipped = [out_dir.resolve(), *(root / OWN_OUTPUT for root in roots)]

    def watched(change: watchfiles.Change, path: str) -> bool:
        where = Path(path)
        return litter(change, path) and not any(where.is_relative_to(s) for s in skipped)

    return watched


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
    report_warnings(pack.art.warnings)
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
    stop: Event | None = None,
) -> None:
    """Wait for changes to the games' folders and the shared templates; rebuild what
    changed. Stops on Ctrl-C (or when ``stop`` is set, for tests)."""
    roots = sorted({root.resolve() for root in roots})
    click.echo(f"watching {len(roots)} game(s) in {display_path(components_dir)}; Ctrl-C stops")
    folders = [*roots, *([SHARED_TEMPLATES] if SHARED_TEMPLATES.is_dir() else [])]
    try:
        for changes in watchfiles.watch(
            *folders,
            watch_filter=_watched(out_dir, roots),
            debounce=SETTLE_MS * 4,
            step=SETTLE_MS // 6,
            stop_event=stop,
        ):
            for root in _changed_games(changes, roots):
                rebuild(root, out_dir, paper, options, language, force)
    except KeyboardInterrupt:
        pass
    click.echo("stopped watching")
