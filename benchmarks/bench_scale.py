"""Workload 4: the card workload at 54, 540 and 5,400 cards: time and peak memory.

    .venv/bin/python benchmarks/bench_scale.py [--sizes 54,540,5400]

Each size is built by the ``pnp build`` command (its checks included) in a process of its
own, so its peak resident memory (RSS) is its own; the peak of the forked worker that makes
half the art is given beside it; the seconds are the command's CPU (all processes). Prints
one line:
``cards=54:X.XXs/NNMB+workerWWMB/Pp cards=540:... cards=5400:...`` and the seconds per
thousand cards at each size (linear growth keeps them alike). The target: under 300 MB.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from workload import load, run_python

HERE = Path(__file__).resolve().parent
CHILD = """
import json, sys, tempfile
from pathlib import Path
sys.path[:0] = [{here!r}, {repo!r}]  # this checkout's engine, whatever is installed
from workload import cpu_seconds, peak_rss_mb, worker_peak_rss_mb, write_game
from generator.cli import cli
with tempfile.TemporaryDirectory() as tmp:
    write_game(Path(tmp) / "games", {cards})
    start = cpu_seconds()
    games, out = str(Path(tmp) / "games"), Path(tmp) / "out"
    try:
        cli.main(["--quiet", "build", "--components", games, "--out", str(out)], "pnp")
    except SystemExit as end:
        if end.code:
            raise
    seconds = cpu_seconds() - start
    pages = json.loads((out / "bench" / "manifest.json").read_text())["pages"]
    print(f"{{seconds:.2f}} {{peak_rss_mb():.0f}} {{worker_peak_rss_mb():.0f}} {{pages}}")
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="54,540,5400")
    args = parser.parse_args(argv)
    parts, peak = [], 0.0
    for cards in (int(s) for s in args.sizes.split(",")):
        code = CHILD.format(here=str(HERE), repo=str(HERE.parent), cards=cards)
        stdout, _, _ = run_python(["-c", code])
        seconds, rss, worker, pages = stdout.split()
        peak = max(peak, float(rss), float(worker))
        per_k = float(seconds) / cards * 1000
        parts.append(
            f"cards={cards}:{seconds}s/{rss}MB+worker{worker}MB/{pages}p({per_k:.2f}s_per_1000)"
        )
    print(" ".join(parts) + f" peak_mb={peak:.0f} {load()}")


if __name__ == "__main__":
    main()
