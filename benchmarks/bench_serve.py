"""pnp serve: from saving a one-card change to the updated picture, on a 72-card game read
from a spreadsheet (the target: under 300 ms).

    .venv/bin/python benchmarks/bench_serve.py [--cards N] [--runs R]

The game is made as a designer starts one (``pnp new``, then a CSV of N distinct cards).
``pnp serve`` runs as a user runs it, in a process of its own; this script plays the page:
it listens to the event stream and holds every picture already. Each run rewrites the CSV
with one card's title changed, and times from the write to the new picture of that card
read back from the server: the file watch, the plan, the state pushed down the stream and
the picture drawn and sent. ``full_plan_ms`` is what a save cost before the preview kept its
renders: the whole game loaded and planned again (as ``pnp build --watch`` does, without
writing the PDF). ``server_cpu_per_save`` is the server's CPU from the write to the
picture sent (the target: under 0.1 s), which holds on a busy machine where wall time does
not. ``--source xlsx`` keeps the cards in a workbook, ``--source yaml`` in the deck's spec
(one card a line: the save changes one value); ``--source counters`` is a counters game
instead, Ridge of docs/examples (a hex map tiled over two A4 pages, 14 markers) with
``--cards`` units in its CSV, each save changing one unit's number. Prints one line of
medians and the load.
"""

from __future__ import annotations

import argparse
import csv
import http.client
import json
import os
import queue
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from workload import load  # noqa: E402

from generator.plan.games import load_games, plan_games  # noqa: E402

HEADER = ["title", "type", "text", "flavor", "cost", "value", "icons", "art", "count"]


COUNTER_HEADER = [
    "name", "side", "symbol", "echelon", "id", "attack", "defence", "move",
    "back_attack", "back_defence", "back_move", "setup", "count",
]  # fmt: skip
SYMBOLS = ("infantry", "armour", "artillery", "cavalry", "engineer", "hq")
RIDGE = REPO / "docs" / "examples" / "ridge"  # the wargame the docs walk through
MARKERS = 14  # Ridge's markers, beside the units a counters game is given


def row(n: int, title: str | None = None) -> list[str]:
    """Card ``n`` (a counter, for the counters game), ``title`` its changed words."""
    if SOURCE["name"] == "counters":
        side = ("North", "South")[n % 2]
        setup = f"{n % 14 + 1:02d}{n % 9 + 1:02d}"
        symbol, echelon = SYMBOLS[n % len(SYMBOLS)], ("II", "III", "X")[n % 3]
        return [f"u-{n}", side, symbol, echelon, title or str(n), str(n % 6 + 1), "3", "4",
                "1", "2", "3", setup, "1"]  # fmt: skip
    text = f"Draw **{n % 3 + 1}** cards, then discard one. Card {n} of the deck."
    return [title or f"Card {n}", "Action", text, f"Flavour {n}.", str(n % 5), "", "card", "", "1"]


# where the cards are kept: csv, xlsx, or yaml (in the deck's spec); counters: Ridge (a hex
# map tiled over two A4 pages, markers) with its units in a CSV
SOURCE = {"name": "csv"}
FIRST_LINE = {"csv": 2, "xlsx": 2, "yaml": 7, "counters": 2}  # the line (row) of the first card
DECK = "kind: deck\ntitle: Cards\nsize: poker\nface: card.svg.j2\nback: card-back.svg.j2\n"


def write(game: Path, rows: list[list[str]]) -> None:
    """The cards saved as the designer keeps them: a CSV, a workbook, or the deck's YAML
    (one card a line, so that a one-value edit is one line's)."""
    source = SOURCE["name"]
    if source == "counters":
        with (game / "units.csv").open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([COUNTER_HEADER, *rows])
        return
    if source == "csv":
        with (game / "cards.csv").open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([HEADER, *rows])
        return
    if source == "xlsx":
        import openpyxl

        book = openpyxl.Workbook()
        book.active.append(HEADER)
        for line in rows:  # numbers as numbers, an empty cell empty
            book.active.append([int(v) if v.isdigit() else v or None for v in line])
        book.save(game / "cards.xlsx")
        spec = DECK + "cards: {from: cards.xlsx}\n"
    else:
        cards = [  # as a spreadsheet's cells read: an empty one is no value, numbers numbers
            json.dumps(
                {"name": f"card-{n}"}
                | {k: int(v) if v.isdigit() else v for k, v in zip(HEADER, r, strict=True) if v}
            )
            for n, r in enumerate(rows, 1)
        ]
        spec = DECK + "cards:\n" + "".join(f"  - {card}\n" for card in cards)
    if (game / "cards.csv").exists():
        (game / "cards.csv").unlink()
    (game / "cards.yaml").write_text(spec, encoding="utf-8")


def make_game(folder: Path, cards: int) -> tuple[Path, list[list[str]]]:
    """A game made by ``pnp new``, its deck a CSV of ``cards`` distinct cards."""
    components = folder / "components"
    rows = [row(n) for n in range(1, cards + 1)]
    if SOURCE["name"] == "counters":  # Ridge, its units as many as asked
        shutil.copytree(RIDGE, components / "bench")
        spec = (components / "bench" / "game.yaml").read_text(encoding="utf-8")
        units = re.sub(r"(?m)^  units: \d+", f"  units: {cards}", spec)
        (components / "bench" / "game.yaml").write_text(units, encoding="utf-8")
        write(components / "bench", rows)
        return components, rows
    command = [sys.executable, "-m", "generator", "new", "bench", "--components", str(components)]
    subprocess.run(command, check=True, capture_output=True, cwd=folder)
    write(components / "bench", rows)
    return components, rows


def server_cpu(pid: int) -> float:
    """The CPU seconds the server process (and its children it waited for) has used so far,
    from /proc (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = sum(int(v) for v in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def stream(host: str, port: int, into: queue.Queue) -> None:
    """Every state the server pushes, with the moment it arrived."""
    connection = http.client.HTTPConnection(host, port, timeout=600)
    connection.request("GET", "/api/events?game=bench")
    event = None
    for raw in connection.getresponse():
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "state":
            into.put((time.perf_counter(), json.loads(line[6:])))


def faces(state: dict) -> dict[int, str]:
    """Each card's (counter's) front picture, by its row in the CSV."""
    found = state["view"]["components"]
    (deck,) = [c for c in found if c["id"] == "units"] if len(found) > 1 else found
    return {p["line"]: p["sides"][0]["picture"] for p in deck["pieces"]}


def full_plan(components: Path, runs: int) -> float:
    """The median seconds of loading and planning the whole game again."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        plan_games(load_games(components, ("bench",)), None)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(components: Path, rows: list[list[str]], runs: int) -> dict[str, float]:
    """Start ``pnp serve``, then time ``runs`` saves of a one-card change."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", "bench", "--port", "0",
         "--components", str(components)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # Ctrl-C reaches it
    )  # fmt: skip
    try:
        line = process.stdout.readline()
        host, port = re.search(r"http://([\d.]+):(\d+)/", line).groups()
        started = time.perf_counter()
        states: queue.Queue = queue.Queue()
        threading.Thread(target=stream, args=(host, int(port), states), daemon=True).start()
        _, first = states.get(timeout=600)
        first_seconds = time.perf_counter() - started
        connection = http.client.HTTPConnection(host, int(port), timeout=600)

        def picture(key: str) -> bytes:
            connection.request("GET", f"/picture/{key}.png")
            return connection.getresponse().read()

        shown = faces(first)
        for key in shown.values():  # the page holds every picture already
            picture(key)
        saves, plans, cpus = [], [], []
        first = FIRST_LINE[SOURCE["name"]]
        for run in range(runs):
            card = run * 7 % len(rows)
            changed = [list(r) for r in rows]
            changed[card] = row(card + 1, f"Saved {run}")
            written, cpu = time.perf_counter(), server_cpu(process.pid)
            write(components / "bench", changed)
            while True:
                _, state = states.get(timeout=60)
                now = faces(state)
                if now.get(card + first) != shown.get(card + first):
                    break
            data = picture(now[card + first])
            saves.append(time.perf_counter() - written)
            cpus.append(server_cpu(process.pid) - cpu)
            plans.append(state["timings"]["plan"])
            assert data.startswith(b"\x89PNG")
            assert sum(now[k] != shown[k] for k in now) == 1  # that card alone
            write(components / "bench", rows)  # back as it was, settled before the next run
            while faces(states.get(timeout=60)[1]) != shown:
                pass
        return {
            "first_seconds": first_seconds,
            "save_ms": statistics.median(saves) * 1000,
            "save_max_ms": max(saves) * 1000,
            "plan_ms": statistics.median(plans) * 1000,
            "cpu": statistics.median(cpus),
        }
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=72)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--source", choices=list(FIRST_LINE), default="csv")
    args = parser.parse_args(argv)
    SOURCE["name"] = args.source
    with tempfile.TemporaryDirectory(prefix="pnp-bench-serve-") as tmp:
        components, rows = make_game(Path(tmp), args.cards)
        found = measure(components, rows, args.runs)
        before = full_plan(components, 3) * 1000
    pieces = f"counters={args.cards + MARKERS} " if args.source == "counters" else ""
    print(
        f"cards={args.cards} {pieces}source={args.source} runs={args.runs} "
        f"first_render_seconds={found['first_seconds']:.2f} "
        f"save_to_picture_ms={found['save_ms']:.0f} "
        f"save_to_picture_max_ms={found['save_max_ms']:.0f} "
        f"plan_ms={found['plan_ms']:.0f} full_plan_ms={before:.0f} "
        f"server_cpu_per_save={found['cpu']:.3f} {load()}"
    )


if __name__ == "__main__":
    main()
