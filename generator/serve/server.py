"""The preview's web server: the standard library's threading HTTP server, on the loopback
address unless told otherwise.

It answers a fixed set of addresses and nothing else: the page (three files shipped in the
package, read once), the state of a session as JSON, a stream of its changes (server-sent
events) and pictures by their key (a hash the preview made). No part of an address is ever
joined to a path, so no file can be asked for, inside the game or out. Requests naming
another host than those it is reached by are refused (on the loopback address and under
``--host`` alike), so a web page elsewhere cannot reach it by renaming itself (DNS
rebinding). At most ``MAX_CONNECTIONS`` connections are served at once (more are told 503),
and a client silent for ``CLIENT_SECONDS`` while it sends a request is let go.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import re
import socket
import threading
from collections.abc import Iterator
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from generator.paths import read_bytes
from generator.serve import watch
from generator.serve.live import Preview
from generator.serve.settings import BadSettings, parse

STATIC = Path(__file__).resolve().parent / "static"  # the page's files, shipped in the package
KEEPALIVE_SECONDS = 15  # a comment down an idle event stream, so that proxies keep it open
MAX_QUERY_FIELDS = 16
MAX_CONNECTIONS = 64  # connections served at once, each in a thread (a page holds one or two)
CLIENT_SECONDS = 30.0  # a client silent this long within a request (or between two) is let go
BUSY = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\nContent-Length: 18\r\n"
    b"Retry-After: 1\r\nConnection: close\r\n\r\ntoo many requests\n"
)
PICTURE = re.compile(r"^/picture/([0-9a-f]{40})\.png$")
PAGES = {  # address -> (file in serve/static, media type)
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/app.css": ("app.css", "text/css; charset=utf-8"),
    "/favicon.svg": ("favicon.svg", "image/svg+xml"),
}
SECURITY = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def shipped_pages() -> dict[str, tuple[bytes, str]]:
    """The page's files, read once from the package."""
    return {
        address: (read_bytes(STATIC, STATIC / name, "package"), kind)
        for address, (name, kind) in PAGES.items()
    }


def reached_by(host: str) -> set[str]:
    """The names a client may reach a server listening on ``host`` by: that name, and when
    it is every address of the machine (0.0.0.0, ::), the machine's names and addresses."""
    names = {host.lower()}
    try:
        unspecified = ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        unspecified = False
    if unspecified:
        machine = {socket.gethostname(), socket.getfqdn()}
        names |= {name.lower() for name in machine}
        for name in machine:
            with contextlib.suppress(OSError):
                names |= {str(info[4][0]) for info in socket.getaddrinfo(name, None)}
    return {f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names}


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Server(ThreadingHTTPServer):
    """The HTTP server of one preview; each request in a thread of its own."""

    daemon_threads = True

    def __init__(self, host: str, port: int, preview: Preview):
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host.strip("[]"), port), Handler)
        self.preview = preview
        self.pages = shipped_pages()
        self.loopback = is_loopback(host)
        self.quiet = True
        self.allowed = self.hosts() if self.loopback else self.hosts(reached_by(host))
        self.slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.client_seconds = CLIENT_SECONDS
        self.watching = threading.Event()  # set once a change of a game's file is seen

    @property
    def url(self) -> str:
        host, port = str(self.server_address[0]), self.server_address[1]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"

    def hosts(self, more: set[str] | None = None) -> set[str]:
        """The names a request may give as its Host: the loopback names, and ``more``."""
        port = self.server_address[1]
        names = {"127.0.0.1", "localhost", "[::1]", *(more or set())}
        return {*names, *(f"{name}:{port}" for name in names)}

    def process_request(self, request, client_address) -> None:  # noqa: ANN001
        """Serve a connection in a thread of its own while a slot is free; else say 503."""
        if not self.slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.sendall(BUSY)
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self.slots.release()
            raise

    def process_request_thread(self, request, client_address) -> None:  # noqa: ANN001
        """Serve one connection, then free its slot."""
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


class Handler(BaseHTTPRequestHandler):
    """Answers the preview's few addresses; anything else is 404."""

    server: Server
    protocol_version = "HTTP/1.1"
    server_version = "pnp-serve"
    sys_version = ""

    def setup(self) -> None:
        """A slow client is let go: each read of its request waits ``client_seconds``."""
        super().setup()
        self.connection.settimeout(self.server.client_seconds)

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self._answer(head=False)

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
        self._answer(head=True)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        if not self.server.quiet:
            super().log_message(format, *args)

    def _answer(self, head: bool) -> None:
        """Route a request: a page file, a session's state or stream, a picture; else 404
        (or 421 for another host, 400 for an address that is not a path)."""
        if self.headers.get("Host", "").lower() not in self.server.allowed:
            self._send(HTTPStatus.MISDIRECTED_REQUEST, b"unknown host\n", "text/plain", head)
            return
        if not self.path.startswith("/") or self.path.startswith("//"):
            self._send(HTTPStatus.BAD_REQUEST, b"bad address\n", "text/plain", head)
            return
        address = urlsplit(self.path)
        route = address.path
        if route in PAGES:
            body, kind = self.server.pages[route]
            self._send(HTTPStatus.OK, body, kind, head, {"Cache-Control": "no-cache"})
        elif route in ("/api/state", "/api/events"):
            self._session(route, address.query, head)
        elif match := PICTURE.match(route):
            self._picture(match[1], head)
        else:
            self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain", head)

    def _session(self, route: str, query: str, head: bool) -> None:
        """A session's state or stream, for the settings the query asks for (400 if they are
        not offered)."""
        preview = self.server.preview
        try:
            fields = parse_qs(query, keep_blank_values=True, max_num_fields=MAX_QUERY_FIELDS)
            base = preview.base
            settings = parse(fields, list(preview.roots), preview.papers, base)
        except (ValueError, BadSettings) as exc:
            body = json.dumps({"error": str(exc)}).encode()
            self._send(HTTPStatus.BAD_REQUEST, body, "application/json", head)
            return
        if route == "/api/state":
            state = preview.state(settings)
            self._send(
                HTTPStatus.OK, state, "application/json", head, {"Cache-Control": "no-store"}
            )
        elif head:
            self._send(HTTPStatus.OK, b"", "text/event-stream", head)
        else:
            self._stream(settings)

    def _picture(self, key: str, head: bool) -> None:
        """A picture by its key, cached for good by the browser (a key names one picture)."""
        try:
            data = self.server.preview.picture(key)
        except Exception as exc:  # the picture could not be drawn: said, and the page goes on
            self.log_error("picture %s: %s", key, exc)
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, b"not drawn\n", "text/plain", head)
            return
        if data is None:
            self._send(HTTPStatus.NOT_FOUND, b"no such picture\n", "text/plain", head)
            return
        forever = {"Cache-Control": "public, max-age=31536000, immutable"}
        self._send(HTTPStatus.OK, data, "image/png", head, forever)

    def _stream(self, settings) -> None:  # noqa: ANN001
        """Server-sent events: ``busy`` when a plan starts, ``state`` (the JSON) when one is
        published, a comment now and then; until the page goes or the server closes."""
        preview = self.server.preview
        self.close_connection = True
        self.send_response(HTTPStatus.OK)
        for name, value in {
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store",
            "Connection": "close",
            **SECURITY,
        }.items():
            self.send_header(name, value)
        self.end_headers()
        with contextlib.suppress(OSError), preview.watching(settings) as session:
            seen = (0, False)
            while not preview.closing.is_set():
                session.wait(seen, KEEPALIVE_SECONDS, preview.closing)
                with session.changed:
                    now, state = (session.version, session.busy), session.state
                if now == seen:
                    self.wfile.write(b": still here\n\n")
                elif now[1] and not seen[1]:
                    self.wfile.write(b"event: busy\ndata: {}\n\n")
                if now[0] != seen[0]:
                    self.wfile.write(b"event: state\ndata: " + state + b"\n\n")
                self.wfile.flush()
                seen = now

    def _send(
        self,
        status: HTTPStatus,
        body: bytes,
        kind: str,
        head: bool,
        headers: dict[str, str] | None = None,
    ) -> None:
        """A whole response: its status, type, length and the security headers."""
        self.send_response(status)
        for name, value in {
            "Content-Type": kind,
            "Content-Length": str(len(body)),
            **SECURITY,
            **(headers or {}),
        }.items():
            self.send_header(name, value)
        self.end_headers()
        if not head:
            with contextlib.suppress(OSError):
                self.wfile.write(body)


@contextlib.contextmanager
def running(server: Server) -> Iterator[Server]:
    """The server answering in a thread, and its games watched, until the block ends; then
    every stream is ended, the socket closed and the watch stopped."""
    preview = server.preview
    serving = threading.Thread(target=server.serve_forever, name="pnp-serve-http", daemon=True)
    serving.start()
    stop = threading.Event()
    watcher = watch.start(preview, stop, server.watching)
    try:
        yield server
    finally:
        preview.close()
        stop.set()
        server.shutdown()
        server.server_close()
        serving.join(timeout=5)
        watcher.join(timeout=5)
