"""Workload 1: 540 distinct template cards against the floor of a hand-written reportlab script.

    .venv/bin/python benchmarks/bench_cards.py [--cards N] [--runs R]

Builds the card workload (see workload.py) with pnp-generator and draws the same pack with
benchmarks/floor_cards.py, R times each; prints the medians and their ratios on one line:
``cards=N pnp_seconds=X floor_seconds=Y time_ratio=X/Y pnp_bytes=A floor_bytes=B size_ratio=A/B
pages=P``. The targets: time_ratio <= 2, size_ratio <= 1.5.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import floor_cards
from workload import build, median, write_game


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=540)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    pnp_times, floor_times = [], []
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as tmp:
        root = Path(tmp)
        folder = write_game(root, args.cards)
        for run in range(args.runs):
            seconds, pdf, pages = build(folder, root / f"out-{run}")
            pnp_times.append(seconds)
            floor_times.append(floor_cards.build(args.cards, root / f"floor-{run}.pdf"))
        pnp_bytes = pdf.stat().st_size
        floor_bytes = (root / "floor-0.pdf").stat().st_size
    pnp_s, floor_s = median(pnp_times), median(floor_times)
    print(
        f"cards={args.cards} pnp_seconds={pnp_s:.2f} floor_seconds={floor_s:.2f} "
        f"time_ratio={pnp_s / floor_s:.2f} pnp_bytes={pnp_bytes} floor_bytes={floor_bytes} "
        f"size_ratio={pnp_bytes / floor_bytes:.2f} pages={pages}"
    )


if __name__ == "__main__":
    main()
