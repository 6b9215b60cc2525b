"""Workload 4: the card workload at 54, 540 and 5,400 cards: time and peak memory.

    .venv/bin/python benchmarks/bench_scale.py [--sizes 54,540,5400]

Each size is built in a process of its own, so its peak resident memory (RSS) is its own;
the peak of the forked worker that makes half the art is given beside it. Prints one line:
``cards=54:X.XXs/NNMB+workerWWMB/Pp cards=540:... cards=5400:...`` and the seconds per
thousand cards at each size (linear growth keeps them alike). The target: under 300 MB.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from workload import load

HERE = Path(__file__).resolve().parent
CHILD = """
import sys, tempfile
from pathlib import Path
sys.path.insert(0, {here!r})
from workload import build, peak_rss_mb, worker_peak_rss_mb, write_game
with tempfile.TemporaryDirectory() as tmp:
    folder = write_game(Path(tmp), {cards})
    seconds, pdf, pages = build(folder, Path(tmp) / "out")
    print(f"{{seconds:.2f}} {{peak_rss_mb():.0f}} {{worker_peak_rss_mb():.0f}} {{pages}}")
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="54,540,5400")
    args = parser.parse_args(argv)
    parts, peak = [], 0.0
    for cards in (int(s) for s in args.sizes.split(",")):
        code = CHILD.format(here=str(HERE), cards=cards)
        result = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        )
        seconds, rss, worker, pages = result.stdout.split()
        peak = max(peak, float(rss), float(worker))
        per_k = float(seconds) / cards * 1000
        parts.append(
            f"cards={cards}:{seconds}s/{rss}MB+worker{worker}MB/{pages}p({per_k:.2f}s_per_1000)"
        )
    print(" ".join(parts) + f" peak_mb={peak:.0f} {load()}")


if __name__ == "__main__":
    main()
