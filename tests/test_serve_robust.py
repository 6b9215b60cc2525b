"""``pnp serve`` under strain: a new session is never the one evicted, a folder tree of any
depth is walked without recursion and within bounds, connections are capped and a slow
client let go, the Host check holds under ``--host`` too, the verdict matches the errors
shown, and a file that cannot be read is a message, not a crash."""

from __future__ import annotations

import contextlib
import errno
import http.client
import socket
import threading
from pathlib import Path

import pytest
from serving import (
    CSV_CARDS,
    card_row,
    make_games,
    request,
    serving,
    state,
    state_after,
    write_rows,
)
from waiting import PATIENCE, until

from generator.serve import memo
from generator.serve.live import MAX_SESSIONS, Preview
from generator.serve.memo import Folder
from generator.serve.server import Server
from generator.serve.settings import Settings

DECK = "game=deck"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_games(tmp_path_factory.mktemp("robust"))


@pytest.fixture(scope="module")
def server(games: Path, tmp_path_factory: pytest.TempPathFactory):
    cache = tmp_path_factory.mktemp("cache")
    with serving([games / "schokoly", games / "deck"], cache) as running:
        yield running


def test_a_new_session_is_never_the_one_evicted(server):
    """Every kept session is watched by a page: the next one made is kept all the same (it
    evicted itself, and its page was never told of a change)."""
    preview = server.preview
    ways = [
        Settings("deck", paper=paper, duplex=duplex, ink_saver=ink)
        for paper in ("", *preview.papers)
        for duplex in ("long", "short")
        for ink in (False, True)
    ]
    assert len(ways) > MAX_SESSIONS
    with contextlib.ExitStack() as pages:
        for settings in ways[:MAX_SESSIONS]:
            pages.enter_context(preview.watching(settings))
        ninth = ways[MAX_SESSIONS]
        with preview.watching(ninth) as session:
            assert preview.sessions.get(ninth) is session
            assert preview.session(ninth, check=False) is session
            assert len(preview.sessions) == MAX_SESSIONS + 1  # all watched: none forgotten
    query = "&".join(f"{k}={v}" for k, v in ninth.as_query().items())
    assert state(server, query)["view"]


def test_a_folder_tree_of_any_depth_is_walked_without_recursion(tmp_path):
    """1,200 folders deep (past Python's recursion limit, which broke every state request)."""
    root = tmp_path / "game"
    levels = [root]
    for _ in range(1200):  # one at a time: mkdir(parents=True) itself recurses
        levels.append(levels[-1] / "d")
    for level in levels:
        level.mkdir()
    (levels[-1] / "last.txt").write_text("here", encoding="utf-8")
    try:
        folder = Folder.read(root)
    finally:  # removed from the bottom up, as shutil.rmtree would recurse too
        (levels[-1] / "last.txt").unlink()
        for level in reversed(levels):
            level.rmdir()
    assert not folder.cut
    assert [e.path for e in folder.files] == ["d/" * 1200 + "last.txt"]


def test_a_walk_stops_at_its_bounds_and_says_so(tmp_path, monkeypatch, server, games):
    root = tmp_path / "game"
    root.mkdir()
    for n in range(30):
        (root / f"f{n:02}.txt").write_text("x", encoding="utf-8")
    monkeypatch.setattr(memo, "MAX_SERVED_FILES", 10)
    folder = Folder.read(root)
    assert folder.cut and len(folder.files) == 10
    deck = games / "deck"
    for n in range(12):
        (deck / f"note-{n}.txt").write_text("x", encoding="utf-8")
    try:
        found = state_after(server, DECK, deck, deck / "note-0.txt")
        assert any("more than" in e["message"] and "files" in e["message"] for e in found["errors"])
        assert found["passed"] is False
    finally:
        for n in range(12):
            (deck / f"note-{n}.txt").unlink()
    monkeypatch.undo()
    assert not state(server, DECK)["errors"]


def _held(host: str, port: int) -> socket.socket:
    """A connection that sends half a request line and then nothing."""
    held = socket.create_connection((host, port), timeout=PATIENCE)
    held.sendall(b"GET / HT")
    return held


def _closed_by_server(held: socket.socket) -> bool:
    """Whether the server closed ``held`` (reading it gives its answer, then nothing)."""
    data = held.recv(4096)
    while data:
        data = held.recv(4096)
    return True


def test_connections_are_capped_and_a_slow_client_is_let_go(tmp_path):
    """Past the cap a connection is told 503 at once; a client that stops mid-request is let
    go after its time, and its slot serves the next one."""
    cache = tmp_path / "cache"
    cache.mkdir()
    preview = Preview([make_games(tmp_path) / "deck"], Settings("deck"), (0.0, 0.0), cache)
    server = Server("127.0.0.1", 0, preview)
    server.slots = threading.BoundedSemaphore(2)
    server.client_seconds = 1.0  # short, so that the test needs not wait long for it
    serving_thread = threading.Thread(target=server.serve_forever, daemon=True)
    serving_thread.start()
    host, port = server.server_address[:2]
    try:
        slow = [_held(host, port), _held(host, port)]
        until(lambda: server.slots._value == 0)  # noqa: SLF001 - both slots taken
        status, _, body = request(server, "/")
        assert (status, body) == (503, b"too many requests\n")
        assert all(_closed_by_server(held) for held in slow)  # let go after their time
        until(lambda: server.slots._value == 2)  # noqa: SLF001
        status, _, body = request(server, "/")
        assert status == 200 and b"<html" in body.lower()
    finally:
        for held in slow:
            held.close()
        server.shutdown()
        server.server_close()


def test_the_host_check_holds_under_another_host(tmp_path):
    """Listening on every address (``--host 0.0.0.0``), a request naming another host is
    refused (DNS rebinding); the machine's own names and the loopback are answered."""
    cache = tmp_path / "cache"
    cache.mkdir()
    preview = Preview([make_games(tmp_path) / "deck"], Settings("deck"), (0.0, 0.0), cache)
    server = Server("0.0.0.0", 0, preview)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    try:
        answers = {}
        for name in ("evil.example", f"evil.example:{port}", f"127.0.0.1:{port}"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
            connection.request("GET", "/", headers={"Host": name})
            answers[name] = connection.getresponse().status
            connection.close()
        machine = f"{socket.gethostname()}:{port}"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
        connection.request("GET", "/", headers={"Host": machine})
        answers["machine"] = connection.getresponse().status
        connection.close()
    finally:
        server.shutdown()
        server.server_close()
    assert answers == {
        "evil.example": 421,
        f"evil.example:{port}": 421,
        f"127.0.0.1:{port}": 200,
        "machine": 200,
    }


def test_a_file_that_cannot_be_read_is_a_message_not_a_crash(server, games, capfd):
    """A read error (EIO from a failing disk) while planning is shown at its file with the
    system's reason: no 'internal error', no traceback."""
    deck = games / "deck"
    csv = deck / "cards.csv"
    preview = server.preview
    plan = preview.plan

    def failing(settings, folder):  # noqa: ANN001, ANN202
        raise OSError(errno.EIO, "Input/output error", str(csv))

    preview.plan = failing
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[0] = card_row(1, "Unreadable")
    write_rows(deck, rows)
    try:
        found = state_after(server, DECK, deck, csv)
    finally:
        preview.plan = plan
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])
    assert found["errors"] == [
        {"file": "cards.csv", "line": None, "message": "cannot be read: Input/output error"}
    ]
    assert found["passed"] is False
    assert "Traceback" not in capfd.readouterr().err
    assert not state_after(server, DECK, deck, csv)["errors"]
