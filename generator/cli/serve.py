"""``pnp serve``: a live preview of a game in the browser (see ``generator.serve``).

The server answers in threads of its own; this command's own thread does the engine's work
until Ctrl-C, which closes everything and removes the preview's cache folder.
"""

from __future__ import annotations

import contextlib
import errno
import shutil
import tempfile
import threading
import webbrowser
from pathlib import Path
from typing import Any

import click

from generator.cli.common import (
    components_option,
    in_game_folder,
    make_options,
    paper_option,
    print_options,
)
from generator.errors import SpecFailure, clean
from generator.model.gamefolders import SpecFailureFor, select_games

DEFAULT_PORT = 8765
PORTS_TRIED = 10  # the default port taken: the next ones are tried


@click.command("serve")
@click.argument("game", required=False)
@components_option
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=None,
    help=f"Port to listen on (default: {DEFAULT_PORT}, or the next free one; 0: any).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; anything but this machine's own shows the game to the network.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the browser.")
@click.option(
    "--lang",
    "language",
    default=None,
    help="Language to show first: a code the game declares (e.g. de); the page switches it.",
)
@paper_option
@print_options
@in_game_folder
def command(
    game: str | None,
    components_dir: Path,
    port: int | None,
    host: str,
    open_browser: bool,
    language: str | None,
    paper: str | None,
    **printing: Any,
) -> int:
    """Show a game live in the browser, updated as you save.

    Every piece at its true size, front and back, with its copies, the spec line or
    spreadsheet row it comes from and the check's findings on it; the sheets as pnp build
    prints them. With no GAME, every game here (a menu picks one)."""
    from generator.cli.progress import counted
    from generator.serve.live import Preview
    from generator.serve.server import running

    roots, base, options = _settings(game, components_dir, language, paper, printing)
    cache = Path(tempfile.mkdtemp(prefix="pnp-serve-"))
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: close, as any other end
            preview = Preview(roots, base, options.back_offset, cache, counted)
            with running(_bind(preview, host, port)) as server:
                _announce(server.url, base, host, open_browser)
                preview.run()
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    click.echo("stopped")
    return 0


def _settings(
    game: str | None,
    components_dir: Path,
    language: str | None,
    paper: str | None,
    printing: dict[str, Any],
) -> tuple[list[Path], Any, Any]:
    """The games served and the settings the page starts with, from the command line."""
    from generator.serve.settings import LANGUAGE, Settings

    if language is not None and not LANGUAGE.match(language):
        raise click.BadParameter("a language code the game declares, e.g. de", param_hint="--lang")
    try:
        roots = select_games(components_dir, (game,) if game else ())
    except SpecFailureFor as exc:
        raise SpecFailure([exc.error]) from None
    paper, options = make_options(paper, **printing)
    look = (options.duplex, options.layout, options.ink_saver)
    base = Settings(roots[0].name, language or "", paper or "", *look)
    return roots, base, options


def _bind(preview, host: str, port: int | None):  # noqa: ANN001, ANN202
    """The server listening on ``port``, or on the first free port from the default."""
    from generator.serve.server import Server

    tries = [port] if port is not None else list(range(DEFAULT_PORT, DEFAULT_PORT + PORTS_TRIED))
    for candidate in tries:
        try:
            return Server(host, candidate, preview)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE and candidate != tries[-1]:
                continue
            problem = exc.strerror or str(exc)
            raise click.BadParameter(
                f"cannot listen on {clean(host)}:{candidate}: {problem}", param_hint="--port"
            ) from None
    raise AssertionError("no port was tried")


def _announce(url: str, base, host: str, open_browser: bool) -> None:  # noqa: ANN001
    """Say where the page is (and, off the loopback address, who can see it)."""
    from generator.serve.server import is_loopback

    address = f"{url}?game={base.game}"
    if not is_loopback(host):
        click.echo(
            f"warning: listening on {clean(host)}: anyone who can reach this machine can see "
            "the game at this address; use --host only on a network you trust",
            err=True,
        )
    click.echo(f"pnp serve: {address}  (Ctrl-C stops)")
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(address,), daemon=True).start()
