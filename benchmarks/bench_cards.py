"""Workload 1: 540 distinct template cards against the floor of a hand-written reportlab script.

    .venv/bin/python benchmarks/bench_cards.py [--cards N] [--runs R]

Builds the card workload (see workload.py) with pnp-generator and draws the same pack with
benchmarks/floor_cards.py, R times each, every build in a fresh process of its own: nothing
is cached from one build to the next, and both sides register their fonts. The time is the
build's own (load, plan and write against the floor's drawing), without interpreter start
and imports, which ``wall`` adds. Prints the medians and their ratios on one line:
``cards=N pnp_seconds=X floor_seconds=Y time_ratio=X/Y pnp_bytes=A floor_bytes=B
size_ratio=A/B pages=P pnp_wall=W floor_wall=V``. The targets: time_ratio <= 2,
size_ratio <= 1.5.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from workload import median, write_game

HERE = Path(__file__).resolve().parent
PNP_CHILD = """
import sys
from pathlib import Path
sys.path.insert(0, {here!r})
from workload import build
seconds, pdf, pages = build(Path({folder!r}), Path({out!r}))
print(seconds, pdf.stat().st_size, pages)
"""


def fresh(args: list[str]) -> tuple[str, float]:
    """Run a Python child; its standard output and the wall-clock seconds it took."""
    start = time.perf_counter()
    run = subprocess.run([sys.executable, *args], check=True, capture_output=True, text=True)
    return run.stdout, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=540)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    pnp_times, floor_times, pnp_walls, floor_walls = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as tmp:
        root = Path(tmp)
        folder = write_game(root, args.cards)
        for run in range(args.runs):
            code = PNP_CHILD.format(here=str(HERE), folder=str(folder), out=str(root / "out"))
            out, wall = fresh(["-c", code])
            seconds, pnp_bytes, pages = out.split()
            pnp_times.append(float(seconds))
            pnp_walls.append(wall)
            floor = str(root / f"floor-{run}.pdf")
            out, wall = fresh(
                [str(HERE / "floor_cards.py"), "--cards", str(args.cards), "--out", floor]
            )
            floor_times.append(float(out.split("seconds=")[1].split()[0]))
            floor_walls.append(wall)
        floor_bytes = Path(floor).stat().st_size
    pnp_s, floor_s = median(pnp_times), median(floor_times)
    print(
        f"cards={args.cards} pnp_seconds={pnp_s:.2f} floor_seconds={floor_s:.2f} "
        f"time_ratio={pnp_s / floor_s:.2f} pnp_bytes={pnp_bytes} floor_bytes={floor_bytes} "
        f"size_ratio={int(pnp_bytes) / floor_bytes:.2f} pages={pages} "
        f"pnp_wall={median(pnp_walls):.2f} floor_wall={median(floor_walls):.2f}"
    )


if __name__ == "__main__":
    main()
