"""Shared by the preview's tests: games to serve (a copy of a bundled game, a game whose deck
is a spreadsheet), a preview server running in this process, and HTTP helpers."""

from __future__ import annotations

import contextlib
import csv
import http.client
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

from click.testing import CliRunner
from waiting import PATIENCE, stamp

from generator.cli import cli
from generator.serve.live import Preview
from generator.serve.server import Server, running
from generator.serve.settings import Settings

REPO = Path(__file__).resolve().parent.parent
CSV_CARDS = 12
HEADER = ["title", "type", "text", "flavor", "cost", "value", "icons", "art", "count"]


def card_row(n: int, title: str | None = None) -> list[str]:
    """Row ``n`` of the spreadsheet deck: a card of the stock template."""
    return [
        title or f"Card {n}",
        "Action",
        f"Draw **{n % 3 + 1}** cards.",
        "",
        str(n % 5),
        "",
        "card",
        "",
        "1",
    ]


def write_rows(game: Path, rows: list[list[str]]) -> None:
    with (game / "cards.csv").open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([HEADER, *rows])


def make_games(folder: Path) -> Path:
    """A components folder holding a copy of the bundled schokoly (English and German) and
    ``deck``, made by ``pnp new``, its cards read from a spreadsheet of ``CSV_CARDS`` rows."""
    components = folder / "components"
    shutil.copytree(REPO / "components" / "schokoly", components / "schokoly")
    made = CliRunner().invoke(cli, ["new", "deck", "--components", str(components)])
    assert made.exit_code == 0, made.output
    write_rows(components / "deck", [card_row(n) for n in range(1, CSV_CARDS + 1)])
    return components


@contextlib.contextmanager
def serving(roots: list[Path], cache: Path, base: Settings | None = None) -> Iterator[Server]:
    """A preview of ``roots`` answering on a free loopback port, its engine in a thread."""
    cache.mkdir(exist_ok=True)
    preview = Preview(roots, base or Settings(roots[0].name), (0.0, 0.0), cache)
    server = Server("127.0.0.1", 0, preview)
    engine = threading.Thread(target=preview.run, daemon=True)
    engine.start()
    with running(server):
        assert server.watching.wait(PATIENCE), "the games' folders were never watched"
        yield server
    engine.join(timeout=PATIENCE)


def request(
    server: Server, path: str, method: str = "GET", headers: dict | None = None
) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of one request, the path sent as it is written."""
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=PATIENCE)
    try:
        connection.request(method, path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def state(server: Server, query: str) -> dict:
    status, _, body = request(server, f"/api/state?{query}")
    assert status == 200, body
    return json.loads(body)


def pieces(view: dict) -> dict[tuple[str, str], dict]:
    """Every piece of a view by (component, name)."""
    return {(c["id"], p["name"]): p for c in view["components"] for p in c["pieces"]}


def includes(found: dict, root: Path, *paths: Path) -> bool:
    """Whether a state was planned from ``paths`` as they are now (files under ``root``)."""
    files = found.get("files", {})
    return all(files.get(p.relative_to(root).as_posix()) == stamp(p) for p in paths)


def state_after(server: Server, query: str, root: Path, *paths: Path) -> dict:
    """The state asked for after writing ``paths``: it must hold every one of those writes
    (the preview's promise: a state request waits for a plan begun after it)."""
    found = state(server, query)
    files = {p.relative_to(root).as_posix(): stamp(p) for p in paths}
    assert includes(found, root, *paths), (files, found.get("files"))
    return found
