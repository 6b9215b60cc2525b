"""``pnp serve`` over HTTP: every piece of a game with its source, pictures and sheets as
``pnp build`` prints them, a changed row redrawn alone and pushed to a listening page, a spec
error beside the last good render, other languages and print options; and what it refuses:
any address that is not its own, another host, a file through a link out of the game; it
listens on the loopback address, writes only into its own folder and closes on Ctrl-C."""

from __future__ import annotations

import hashlib
import http.client
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from children import hears_ctrl_c
from click.testing import CliRunner
from PIL import Image
from serving import (
    CSV_CARDS,
    REPO,
    card_row,
    includes,
    make_games,
    pieces,
    request,
    serving,
    state,
    state_after,
    write_rows,
)
from waiting import PATIENCE, until

from generator.cli import cli
from generator.model.designs import designs
from generator.plan.games import load_games, plan_games
from generator.serve.pictures import SHEET_DPI
from generator.serve.settings import Settings

SCHOKOLY = "game=schokoly"
DECK = "game=deck"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_games(tmp_path_factory.mktemp("serve"))


@pytest.fixture(scope="module")
def server(games: Path, tmp_path_factory: pytest.TempPathFactory):
    cache = tmp_path_factory.mktemp("cache")
    with serving([games / "schokoly", games / "deck"], cache) as running:
        yield running


def picture(server, key: str) -> Image.Image:
    status, headers, body = request(server, f"/picture/{key}.png")
    assert status == 200, body
    assert headers["Content-Type"] == "image/png"
    assert "immutable" in headers["Cache-Control"]  # a key names one picture forever
    return Image.open(io.BytesIO(body))


def test_every_piece_is_shown_at_its_size_with_its_source(server, games):
    view = state(server, SCHOKOLY)["view"]
    (pack,) = plan_games(load_games(games, ("schokoly",)), None)
    expected = {
        (plan.component.id, design.name): design
        for plan in pack.components
        for design in plan.designs
    }
    shown = pieces(view)
    assert set(shown) == set(expected)
    for key, design in expected.items():
        piece = shown[key]
        path, line = design.where
        assert (piece["file"], piece["line"]) == (path.name, line)
        assert piece["copies"] == design.count
    card = shown[("miniature-cards", "card-01")]
    assert card["size"] == {"w": 38.0, "h": 57.0, "bleed": 3.0}
    assert [side["side"] for side in card["sides"]] == ["face", "back"]
    for side in card["sides"]:
        image = picture(server, side["picture"])
        assert abs(image.width / image.height - 44 / 63) < 0.01  # trim plus bleed
    assert view["check"]["passed"] is True


def test_sheets_are_the_pages_pnp_build_prints(server, games, tmp_path):
    view = state(server, SCHOKOLY)["view"]
    built = CliRunner().invoke(
        cli, ["build", "schokoly", "--components", str(games), "--out", str(tmp_path)]
    )
    assert built.exit_code == 0, built.output
    document = pdfium.PdfDocument(str(tmp_path / "schokoly" / "schokoly.pdf"))
    pages = [page for sheet in view["sheets"] for page in sheet["pages"]]
    assert [p["number"] for p in pages] == list(range(1, len(document) + 1))
    assert all(len(sheet["pages"]) == 2 for sheet in view["sheets"])  # front and back
    for page, printed in zip(pages, document, strict=True):
        expected = np.asarray(printed.render(scale=SHEET_DPI / 72).to_pil().convert("RGB"))
        if page["picture"] is None:  # a blank back
            assert expected.min() == 255
            continue
        shown = np.asarray(picture(server, page["picture"]).convert("RGB"))
        assert shown.shape == expected.shape
        assert np.abs(shown.astype(int) - expected).mean() < 0.5, page["number"]
    document.close()


def test_a_changed_row_redraws_that_card_alone(server, games):
    deck = games / "deck"
    before = pieces(state(server, DECK)["view"])
    misses = server.preview.memo.misses
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[2] = card_row(3, "Dragon Hoard")
    write_rows(deck, rows)
    try:
        after_state = state_after(server, DECK, deck, deck / "cards.csv")
        after = pieces(after_state["view"])
        changed = {key for key in after if after[key]["sides"] != before.get(key, {}).get("sides")}
        assert changed == {("cards", "dragon-hoard")}
        assert after[("cards", "dragon-hoard")]["label"] == "Dragon Hoard"
        assert after[("cards", "dragon-hoard")]["line"] == 4  # its row, under the heading
        assert after_state["timings"]["drawn"] == 1  # its face: the back is unchanged
        assert server.preview.memo.misses - misses <= 2  # its face and back templates
        card = after[("cards", "dragon-hoard")]
        old = before[("cards", "card-3")]
        assert card["sides"][1] == old["sides"][1] and card["sides"][0] != old["sides"][0]
    finally:
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])
    assert pieces(state_after(server, DECK, deck, deck / "cards.csv")["view"]) == before


RULES = "kind: sheet\ntitle: Rules\nsections:\n  - heading: A turn\n    blocks:\n      - text: %s\n"


def _sheet_pictures(found: dict) -> list[str]:
    """The pictures of the rules sheet's pages in a state."""
    (rules,) = [c for c in found["view"]["components"] if c["id"] == "rules"]
    return [side["picture"] for piece in rules["pieces"] for side in piece["sides"]]


def test_a_changed_row_leaves_a_reference_sheets_pictures_as_they_were(server, games):
    """A reference sheet's page is drawn from the sheet itself, the game's look and its
    pictures: a changed row of a deck draws that card alone again, not the sheet (which every
    save of any file drew again); a changed sheet is drawn anew."""
    deck, rules = games / "deck", games / "deck" / "rules.yaml"
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rules.write_text(RULES % "Draw a card.", encoding="utf-8")
    try:
        drawn = _sheet_pictures(state_after(server, DECK, deck, rules))
        rows[2] = card_row(3, "Sheet Lantern")  # a card drawn by no other test
        write_rows(deck, rows)
        after = state_after(server, DECK, deck, deck / "cards.csv")
        assert _sheet_pictures(after) == drawn and after["timings"]["drawn"] == 1
        rules.write_text(RULES % "Draw two cards.", encoding="utf-8")
        again = _sheet_pictures(state_after(server, DECK, deck, rules))
        assert again != drawn and len(again) == len(drawn)
    finally:
        rules.unlink(missing_ok=True)
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])
    assert not state_after(server, DECK, deck, deck / "cards.csv")["errors"]


def test_an_unknown_icon_and_an_unread_column_are_shown_where_they_are(server, games):
    """An icon name the card's icon template does not have is shown on the card of its row
    (with the row); a column no template reads on the game, with the spreadsheet's file."""
    deck = games / "deck"
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[3][6] = "lanternx"
    write_rows(deck, rows)
    csv = deck / "cards.csv"
    text = csv.read_text(encoding="utf-8").splitlines()
    csv.write_text(
        "\n".join([text[0] + ",Suit", *(line + ",hearts" for line in text[1:])]) + "\n", "utf-8"
    )
    try:
        view = state_after(server, DECK, deck, csv)["view"]
        (found,) = [
            f for f in pieces(view)[("cards", "card-4")]["findings"] if f["kind"] == "warning"
        ]
        assert (found["file"], found["line"]) == ("cards.csv", 5), found
        assert "lanternx" in found["message"], found
        others = [f for f in view["check"]["other"] if f["kind"] == "warning"]
        assert any("suit" in f["message"].lower() and f["file"] == "cards.csv" for f in others), (
            view["check"]["other"]
        )
    finally:
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])
    state_after(server, DECK, deck, deck / "cards.csv")  # planned before the next test listens


def test_the_pictures_drawn_are_counted_for_the_terminal(server, games):
    """The preview tells its progress hook how many pictures a change needs and hears of
    each one drawn (the command puts a bar on a terminal), whether drawn by the queue or
    first by the page's own request."""
    heard: list[tuple[str, int, list[str]]] = []

    def progress(label: str, total: int):
        heard.append((label, total, []))
        return heard[-1][2].append

    def finished() -> bool:
        return bool(until(lambda: all(len(ticks) == total for _, total, ticks in heard)))

    server.preview.progress = progress
    deck = games / "deck"
    first = state(server, DECK)  # every picture not drawn yet: counted, then all heard of
    assert finished() and sum(total for _, total, _ in heard) == first["timings"]["drawn"]
    heard.clear()
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[5] = card_row(6, "Moon Gate")
    write_rows(deck, rows)
    try:
        found = state_after(server, DECK, deck, deck / "cards.csv")
        card = pieces(found["view"])[("cards", "moon-gate")]
        picture(server, card["sides"][0]["picture"])
        assert finished()
        assert heard == [("drawing deck", 1, ["cards moon-gate"])], heard
    finally:
        server.preview.progress = lambda label, total: lambda what: None
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])
    state_after(server, DECK, deck, deck / "cards.csv")  # planned before the next test listens


def test_a_listening_page_is_told_of_a_change(server, games):
    deck = games / "deck"
    host, port = server.server_address[:2]
    connection = http.client.HTTPConnection(host, port, timeout=PATIENCE)
    connection.request("GET", f"/api/events?{DECK}")
    stream = connection.getresponse()
    assert stream.headers["Content-Type"].startswith("text/event-stream")

    def next_state() -> dict:
        event = None
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "state":
                return json.loads(line[6:])
        raise AssertionError("the stream ended")

    first = next_state()
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[0] = card_row(1, "Saved Just Now")
    write_rows(deck, rows)
    try:
        pushed = next_state()  # pushed unasked: the watch saw the write (a part of it first?)
        while not includes(pushed, deck, deck / "cards.csv"):
            pushed = next_state()
        assert pushed["version"] > first["version"]
        assert ("cards", "saved-just-now") in pieces(pushed["view"])
    finally:
        connection.close()
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])


def test_a_spec_error_is_shown_at_its_line_beside_the_last_good_render(server, games):
    spec = games / "deck" / "cards.yaml"
    good = spec.read_text(encoding="utf-8")
    before = state(server, DECK)
    spec.write_text(good.replace("size: poker", "size: [poker"), encoding="utf-8")
    try:
        broken = state_after(server, DECK, spec.parent, spec)
        assert broken["errors"], broken
        first = broken["errors"][0]
        assert first["file"] == "cards.yaml"
        line = next(n for n, text in enumerate(good.splitlines(), 1) if "size: poker" in text)
        assert first["line"] in (line, line + 1)  # YAML names the line it stopped on
        assert broken["stale"] is True
        assert pieces(broken["view"]) == pieces(before["view"])  # the last good render
        assert broken["view"]["check"]["passed"] is True  # that render's check passed...
        assert broken["passed"] is False  # ...but the page's verdict is not that, beside errors
    finally:
        spec.write_text(good, encoding="utf-8")
    fixed = state_after(server, DECK, spec.parent, spec)
    assert not fixed["errors"] and fixed["stale"] is False and fixed["passed"] is True


def test_findings_are_shown_on_the_pieces_they_are_on(server, games):
    deck = games / "deck"
    game_file = deck / "game.yaml"
    good = game_file.read_text(encoding="utf-8")
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[4][2] = "A rule far too long for its card. " * 40
    write_rows(deck, rows)
    game_file.write_text(good + "expect:\n  cards: 99\n", encoding="utf-8")
    try:
        found = state_after(server, DECK, deck, deck / "cards.csv", game_file)
        view = found["view"]
        card = pieces(view)[("cards", "card-5")]
        (overflow,) = [f for f in card["findings"] if f["kind"] == "overflow"]
        assert overflow["side"] == "face" and (overflow["file"], overflow["line"]) == (
            "cards.csv",
            6,
        )
        x, y, w, h = overflow["box"]  # the text box, in the card's mm
        assert 0 <= x < x + w <= 63.5 and 0 <= y < y + h <= 88.9
        assert "missing" in overflow["message"]
        assert all(not p["findings"] for k, p in pieces(view).items() if k[1] != "card-5")
        (count,) = view["components"][0]["counts"]
        line = len(good.splitlines()) + 2
        assert count == {"key": "cards", "expected": 99, "printed": 12, "ok": False, "line": line}
        assert view["check"]["passed"] is False
    finally:
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])
        game_file.write_text(good, encoding="utf-8")
    fixed = state_after(server, DECK, deck, deck / "cards.csv", game_file)
    assert fixed["view"]["check"]["passed"] is True


def test_low_contrast_is_shown_on_the_pieces_at_its_line(server, games):
    """Pale title bands put the stock card's light title on a light ground: every card shows
    the contrast finding at the style's line of game.yaml, and the check fails until fixed."""
    game_file = games / "deck" / "game.yaml"
    good = game_file.read_text(encoding="utf-8")
    game_file.write_text(good.replace('accent: "#2f4f7f"', 'accent: "#d8e0ee"'), "utf-8")
    try:
        view = state_after(server, DECK, game_file.parent, game_file)["view"]
        found = {
            k: [f for f in p["findings"] if f["kind"] == "contrast"]
            for k, p in pieces(view).items()
        }
        found = {k: v for k, v in found.items() if k[0] == "cards"}
        assert found and all(found.values()), found
        finding = found[("cards", "card-1")][0]
        assert finding["side"] == "face" and finding["file"]
        assert re.search(r"low contrast: .* at 1\.\d\d:1", finding["message"]), finding
        assert view["check"]["passed"] is False
    finally:
        game_file.write_text(good, encoding="utf-8")
    view = state_after(server, DECK, game_file.parent, game_file)["view"]
    assert not any(f["kind"] == "contrast" for p in pieces(view).values() for f in p["findings"])
    assert view["check"]["passed"] is True


def test_another_language_and_other_print_options(server):
    english = state(server, SCHOKOLY)
    assert english["languages"] == ["en", "de", "he"]
    german = state(server, SCHOKOLY + "&lang=de")
    assert german["view"]["language"] == "de" and german["settings"]["lang"] == "de"
    labels = {p["label"] for p in pieces(german["view"]).values()}
    assert {"Rot", "Gelb", "Grün", "Blau"} <= labels, labels
    assert not {"Red", "Yellow"} & labels
    folded = state(server, SCHOKOLY + "&layout=fold&paper=letter")["view"]
    assert folded["paper_mm"] == [215.9, 279.4]
    assert folded["check"]["printing"]["sides"] == "single-sided, folded"
    assert all(len(sheet["pages"]) == 1 for sheet in folded["sheets"])
    saver = pieces(state(server, SCHOKOLY + "&ink=1")["view"])
    plain = pieces(english["view"])
    key = ("miniature-cards", "card-01")
    assert saver[key]["sides"][1]["picture"] != plain[key]["sides"][1]["picture"]


# --- what it refuses ----------------------------------------------------------------------

OUTSIDE = [
    "/../../../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/picture/../../etc/passwd",
    "/picture/..%2f..%2fetc%2fpasswd.png",
    "/etc/passwd",
    "/schokoly/game.yaml",
    "/game.yaml",
    "/components/deck/cards.csv",
    "/deck/cards.csv",
    "/cards.csv",
    "/deck/notes.txt",  # a file in the game that the game does not use
    "/static/app.js",
    "/generator/serve/server.py",
    "/picture/" + "0" * 40 + ".png",  # the shape of a key, but no picture
    "/picture/" + "A" * 40 + ".png",
    "/api/state/../../etc/passwd",
]


@pytest.mark.parametrize("path", OUTSIDE)
def test_no_address_reaches_a_file(server, games, path):
    (games / "deck" / "notes.txt").write_text("private notes", encoding="utf-8")
    status, _, body = request(server, path)
    assert status == 404, (path, body)
    assert b"root:" not in body and b"private" not in body


@pytest.mark.parametrize(
    "path", ["//etc/passwd", "http://127.0.0.1/etc/passwd", "C:/Windows/win.ini"]
)
def test_absolute_addresses_are_refused(server, path):
    status, _, body = request(server, path)
    assert status in (400, 404) and b"root:" not in body  # http.server makes // one /


@pytest.mark.parametrize(
    "query",
    ["game=../../etc/passwd", "game=/etc", "lang=../de", "lang=/etc/passwd", "paper=../a4",
     "ink=maybe", "layout=../../x", "file=/etc/passwd"],
)  # fmt: skip
def test_settings_not_offered_are_refused(server, query):
    status, _, body = request(server, f"/api/state?{query}")
    assert status == 400
    assert "error" in json.loads(body)


def test_another_host_and_other_methods_are_refused(server):
    status, _, _ = request(server, "/api/state?game=deck", headers={"Host": "evil.example"})
    assert status == 421  # a page elsewhere, renamed to this address (DNS rebinding)
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        status, _, _ = request(server, "/api/state?game=deck", method=method)
        assert status == 501, method
    status, headers, _ = request(server, "/")
    assert status == 200
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_a_link_out_of_the_game_is_not_followed(server, games, tmp_path):
    secret = tmp_path / "secret.png"
    Image.new("RGB", (40, 40), (12, 34, 56)).save(secret)
    deck = games / "deck"
    (deck / "art" / "leak.png").symlink_to(secret)
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[1][7] = "art/leak.png"
    assert state(server, DECK)["view"], "the deck's pictures are drawn before the link"
    write_rows(deck, rows)
    try:
        leaked = state_after(server, DECK, deck, deck / "cards.csv")
        (error,) = leaked["errors"]
        assert "leak.png" in error["message"]
        assert error["file"] == "cards.csv" and error["line"] == 3
        keys = [s["picture"] for p in pieces(leaked["view"]).values() for s in p["sides"]]
        digest = hashlib.sha1(secret.read_bytes()).hexdigest()
        for key in keys:
            status, _, body = request(server, f"/picture/{key}.png")
            assert hashlib.sha1(body).hexdigest() != digest
            colours = Image.open(io.BytesIO(body)).convert("RGB").getcolors(1 << 20)
            assert colours is None or (40 * 40, (12, 34, 56)) not in colours
    finally:
        (deck / "art" / "leak.png").unlink()
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])
    assert not state_after(server, DECK, deck, deck / "cards.csv")["errors"]


# --- the command --------------------------------------------------------------------------


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file()
    }


def _outside_address() -> str | None:
    """An address of this machine that is not the loopback, if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET: nothing is sent
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def _start(args: list[str], cwd: Path, temp: Path) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=hears_ctrl_c,
    )
    line = process.stdout.readline()
    match = re.search(r"http://[^ ]+", line)
    assert match, line + process.stderr.read()
    return process, match[0]


def test_the_command_listens_on_loopback_writes_only_its_folder_and_stops_on_ctrl_c(tmp_path):
    components = make_games(tmp_path)
    temp = tmp_path / "temp"
    temp.mkdir()
    before = _files(tmp_path)
    process, url = _start(["deck", "--port", "0"], components / "deck", temp)
    try:
        host, port = re.match(r"http://([\d.]+):(\d+)/", url).groups()
        assert host == "127.0.0.1"
        with socket.create_connection((host, int(port)), timeout=PATIENCE):
            pass
        outside = _outside_address()
        if outside is not None:  # another interface of this machine: nothing listens there
            with pytest.raises(OSError):
                socket.create_connection((outside, int(port)), timeout=2).close()
        connection = http.client.HTTPConnection(host, int(port), timeout=PATIENCE)
        connection.request("GET", "/api/state?game=deck")
        view = json.loads(connection.getresponse().read())["view"]
        key = view["sheets"][0]["pages"][0]["picture"]
        connection.request("GET", f"/picture/{key}.png")  # a sheet: the PDF is written
        assert connection.getresponse().read().startswith(b"\x89PNG")
        connection.close()
        (cache,) = temp.iterdir()
        assert cache.name.startswith("pnp-serve-") and any(cache.glob("*.pdf"))
        assert (cache.stat().st_mode & 0o777) == 0o700  # this user's alone
    finally:
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=PATIENCE)
    assert process.returncode == 0, err
    assert "stopped" in out
    assert not list(temp.iterdir())  # its folder is gone
    after = _files(tmp_path)
    assert after == before  # nothing else written: not the game, not where it ran


def test_another_host_is_warned_of(tmp_path):
    components = make_games(tmp_path)
    process, url = _start(["--port", "0", "--host", "0.0.0.0"], components.parent, tmp_path)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=PATIENCE)
    assert url.startswith("http://0.0.0.0:")
    assert "warning: listening on 0.0.0.0" in err
    assert process.returncode == 0, err


def test_every_piece_of_every_bundled_game_is_shown(tmp_path):
    """The bundled games as they are (read, never written): each is shown without error and
    passes the check, every design it specifies with a picture of each of its sides."""
    bundled = Path(__file__).resolve().parent.parent / "components"
    roots = sorted(p for p in bundled.iterdir() if (p / "game.yaml").is_file())
    with serving(roots, tmp_path / "cache") as server:
        for root in roots:
            found = state(server, f"game={root.name}")
            assert not found["errors"], (root.name, found["errors"])
            assert found["view"]["check"]["passed"], root.name
            (game,) = load_games(bundled, (root.name,)).games
            specified = {
                (c.id, d.name) for c in game.components for d in designs(c, game.spec.colours)
            }
            shown = pieces(found["view"])
            assert set(shown) == specified, root.name
            for key, piece in shown.items():
                assert piece["sides"], key
                for side in piece["sides"]:
                    status, _, body = request(server, f"/picture/{side['picture']}.png")
                    assert status == 200 and body.startswith(b"\x89PNG"), (key, side)


def test_a_changed_template_or_picture_redraws_what_uses_it(server, games):
    deck = games / "deck"
    before = pieces(state(server, DECK)["view"])
    Image.new("RGB", (60, 40), (200, 30, 30)).save(deck / "art" / "red.png")
    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[3][7] = "art/red.png"  # card 4 draws the picture
    write_rows(deck, rows)
    own = deck / "templates" / "card.svg.j2"
    red = deck / "art" / "red.png"
    try:
        with_picture = pieces(state_after(server, DECK, deck, deck / "cards.csv", red)["view"])
        changed = {k for k in before if with_picture[k]["sides"] != before[k]["sides"]}
        assert changed == {("cards", "card-4")}
        Image.new("RGB", (60, 40), (30, 30, 200)).save(deck / "art" / "red.png")
        repainted = pieces(state_after(server, DECK, deck, red)["view"])
        changed = {k for k in before if repainted[k]["sides"] != with_picture[k]["sides"]}
        assert changed == {("cards", "card-4")}  # the same SVG, but the file it draws changed
        stock = (REPO / "templates" / "card.svg.j2").read_text(encoding="utf-8")
        own.parent.mkdir(exist_ok=True)
        own.write_text(stock.replace("<svg ", "<svg data-own='1' ", 1), encoding="utf-8")
        restyled = pieces(state_after(server, DECK, deck, own)["view"])
        fronts = [k for k in before if restyled[k]["sides"][0] != repainted[k]["sides"][0]]
        assert len(fronts) == CSV_CARDS  # the game's own template: every front drawn anew
        assert all(restyled[k]["sides"][1] == repainted[k]["sides"][1] for k in before)
    finally:
        own.unlink(missing_ok=True)
        (deck / "art" / "red.png").unlink()
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])
    assert pieces(state_after(server, DECK, deck, deck / "cards.csv")["view"]) == before


def test_a_state_asked_for_during_a_plan_holds_every_write_made_before_it(server, games):
    """A plan already running read the files before the last write (the spreadsheet, then
    game.yaml): a state asked for now waits for a plan begun after it, and says so by the
    files' stamps (it once answered with the first change alone)."""
    deck = games / "deck"
    game_file = deck / "game.yaml"
    good = game_file.read_text(encoding="utf-8")
    preview = server.preview
    session = preview.session(Settings("deck"), check=False)
    began, go = threading.Event(), threading.Event()
    plan = preview.plan

    def held(settings: Settings, folder):  # noqa: ANN001, ANN202
        began.set()
        assert go.wait(PATIENCE)
        return plan(settings, folder)

    rows = [card_row(n) for n in range(1, CSV_CARDS + 1)]
    rows[0] = card_row(1, "Written First")
    preview.plan = held
    try:
        write_rows(deck, rows)
        first = threading.Thread(target=state, args=(server, DECK))
        first.start()
        assert began.wait(PATIENCE)
        preview.plan = plan
        game_file.write_text(good + "expect:\n  cards: 99\n", encoding="utf-8")
        answers: list[dict] = []
        second = threading.Thread(target=lambda: answers.append(state(server, DECK)))
        second.start()
        until(lambda: session.queued)  # the second request queued a plan of its own
        go.set()
        first.join(PATIENCE)
        second.join(PATIENCE)
        (found,) = answers
        assert includes(found, deck, deck / "cards.csv", game_file), found["files"]
        assert found["view"]["components"][0]["counts"][0]["expected"] == 99
        assert found["passed"] is False
    finally:
        preview.plan = plan
        go.set()
        write_rows(deck, [card_row(n) for n in range(1, CSV_CARDS + 1)])
        game_file.write_text(good, encoding="utf-8")
    assert state_after(server, DECK, deck, deck / "cards.csv", game_file)["passed"] is True
