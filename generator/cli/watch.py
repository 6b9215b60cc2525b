"""``pnp build --watch``: rebuild a game as soon as its specs, data, templates or catalogs
change.

The operating system says when a file changes (watchfiles: inotify, FSEvents, ReadDirectoryChanges),
so a watch that waits costs nothing; only the games whose files changed are rebuilt (all of
them when a shared template does), and a mistake is reported without ending the watch.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from threading import Event

import click
import watchfiles

from generator.cli import Failed
from generator.cli.packs import Request, build
from generator.errors import SpecFailure, clean, display_path
from generator.model.gamefolders import OWN_OUTPUT, SHARED_TEMPLATES, watch_real_folders

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


def rebuild(root: Path, request: Request) -> None:
    """Build one game again as ``pnp build`` does, reporting instead of stopping on a
    mistake."""
    started = time.perf_counter()
    try:
        status = build(replace(request, components_dir=root.parent, games=(root.name,)))
    except SpecFailure as exc:
        for error in exc.errors:
            click.echo(str(error), err=True)
        return
    except Failed:
        return  # said already: the output folder cannot be written
    if status == 0:
        seconds = time.perf_counter() - started
        click.echo(f"{clean(root.name)}: rebuilt in {seconds:.2f} s")


def _ready(said: str, ready: Event | None) -> None:
    """The folders are watched: say so (and tell a test waiting for it)."""
    click.echo(said)
    if ready is not None:
        ready.set()


def watch_games(
    roots: list[Path], request: Request, stop: Event | None = None, ready: Event | None = None
) -> None:
    """Wait for changes to the games' folders and the shared templates; rebuild what
    changed. Each real folder is watched by itself: a link inside a game is never followed,
    out of it least of all. Stops on Ctrl-C (or when ``stop`` is set, for tests); says
    "watching" (and sets ``ready``) once a change is sure to be seen."""
    roots = sorted({root.resolve() for root in roots})
    where = display_path(request.components_dir)
    said = f"watching {len(roots)} game(s) in {where}; Ctrl-C stops"
    try:
        for changes in watch_real_folders(
            [*roots, SHARED_TEMPLATES],
            lambda: _ready(said, ready),
            watch_filter=_watched(request.out_dir, roots),
            debounce=SETTLE_MS * 4,
            step=SETTLE_MS // 6,
            stop_event=stop,
        ):
            for root in _changed_games(changes, roots):
                rebuild(root, request)
    except KeyboardInterrupt:
        pass
    click.echo("stopped watching")
