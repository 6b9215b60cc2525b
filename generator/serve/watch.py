"""Live updates: the operating system says when a file of a served game (or a stock template)
changes (watchfiles, as ``pnp build --watch``: each real folder by itself, never through a
link), and the preview plans the games it touches again for every page that watches them."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import watchfiles

from generator.errors import clean
from generator.model.gamefolders import OWN_OUTPUT, SHARED_TEMPLATES, watch_real_folders
from generator.serve.live import Preview

STEP_MS = 30  # a burst of changes (an editor's save) is over after this much quiet
DEBOUNCE_MS = 1000  # a longer burst (a copy of many files) is cut here


def touched(changes: set[tuple[watchfiles.Change, str]], roots: dict[str, Path]) -> set[str]:
    """The games a burst of changes touches: those holding a changed file, or all of them
    when a stock template changed."""
    paths = [Path(path) for _, path in changes]
    if any(path.is_relative_to(SHARED_TEMPLATES) for path in paths):
        return set(roots)
    return {name for name, root in roots.items() if any(p.is_relative_to(root) for p in paths)}


def _watched(roots: dict[str, Path]):  # noqa: ANN202 - watchfiles' filter signature
    """Changes worth a new plan: not a game's own output folder, nor editors' litter."""
    litter = watchfiles.DefaultFilter()
    skipped = [root / OWN_OUTPUT for root in roots.values()]

    def watched(change: watchfiles.Change, path: str) -> bool:
        where = Path(path)
        return litter(change, path) and not any(where.is_relative_to(s) for s in skipped)

    return watched


def start(
    preview: Preview, stop: threading.Event, ready: threading.Event | None = None
) -> threading.Thread:
    """Watch the served games in a thread of its own until ``stop`` is set; ``ready`` is set
    once a change is sure to be seen."""
    roots = preview.roots
    listening = ready or threading.Event()

    def run() -> None:
        try:
            for changes in watch_real_folders(
                [*roots.values(), SHARED_TEMPLATES],
                listening.set,
                watch_filter=_watched(roots),
                debounce=DEBOUNCE_MS,
                step=STEP_MS,
                stop_event=stop,
                raise_interrupt=False,
            ):
                preview.changed(touched(changes, roots))
        except Exception as exc:  # the page still works; it just no longer follows the files
            print(f"pnp serve: live updates stopped: {clean(exc)}", file=sys.stderr)

    thread = threading.Thread(target=run, name="pnp-serve-watch", daemon=True)
    thread.start()
    return thread
