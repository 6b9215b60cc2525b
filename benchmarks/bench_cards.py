"""Workload 1: 540 distinct template cards against the floor of a hand-written reportlab script.

    .venv/bin/python benchmarks/bench_cards.py [--cards N] [--runs R]

Builds the card workload (see workload.py) with pnp-generator and draws the same pack with
benchmarks/floor_cards.py, in pairs (pnp, then the floor, R times), every build in a fresh
process of its own: nothing is cached from one build to the next, and both sides register
their fonts. CPU time comes first, counted over all processes (a forked worker's CPU is
the build's too), so a build that spreads over two cores is not flattered against a floor
on one; wall-clock time comes second, and the machine's load beside it.

``cpu_ratio`` is the whole process (interpreter start and imports included) of pnp over the
floor's, ``build_cpu_ratio`` the build alone (load, plan and write) over the floor's drawing;
each is the median of the pairs' ratios. Prints one line: ``cards=N cpu_ratio=…
build_cpu_ratio=… size_ratio=… wall_ratio=… pnp_cpu=… floor_cpu=… pnp_build_cpu=…
floor_build_cpu=… pnp_wall=… floor_wall=… pnp_bytes=… floor_bytes=… pages=… load=…``.
The targets: cpu_ratio and build_cpu_ratio <= 1.2, size_ratio <= 1.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from workload import load, median, run_python, write_game

HERE = Path(__file__).resolve().parent
PNP_CHILD = """
import sys
from pathlib import Path
sys.path.insert(0, {here!r})
from workload import build
seconds, pdf, pages = build(Path({folder!r}), Path({out!r}))
print(seconds, pdf.stat().st_size, pages)
"""


def pair(folder: Path, root: Path, run: int, cards: int) -> dict[str, float]:
    """One pnp build and one floor drawing, each in a process of its own: their figures."""
    code = PNP_CHILD.format(here=str(HERE), folder=str(folder), out=str(root / f"out-{run}"))
    out, cpu, wall = run_python(["-c", code])
    build_cpu, pnp_bytes, pages = out.split()
    floor = root / f"floor-{run}.pdf"
    floor_out, floor_cpu, floor_wall = run_python(
        [str(HERE / "floor_cards.py"), "--cards", str(cards), "--out", str(floor)]
    )
    return {
        "pnp_cpu": cpu,
        "floor_cpu": floor_cpu,
        "pnp_build_cpu": float(build_cpu),
        "floor_build_cpu": float(floor_out.split("cpu_seconds=")[1].split()[0]),
        "pnp_wall": wall,
        "floor_wall": floor_wall,
        "pnp_bytes": int(pnp_bytes),
        "floor_bytes": floor.stat().st_size,
        "pages": int(pages),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=540)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as tmp:
        root = Path(tmp)
        folder = write_game(root, args.cards)
        pairs = [pair(folder, root, run, args.cards) for run in range(args.runs)]

    def ratio(name: str) -> float:
        return median([p[f"pnp_{name}"] / p[f"floor_{name}"] for p in pairs])

    figures = {key: median([p[key] for p in pairs]) for key in pairs[0]}
    print(
        f"cards={args.cards} cpu_ratio={ratio('cpu'):.2f} "
        f"build_cpu_ratio={ratio('build_cpu'):.2f} size_ratio={ratio('bytes'):.2f} "
        f"wall_ratio={ratio('wall'):.2f} "
        + " ".join(
            # seconds to the millisecond: a small pack's floor draws in a hundredth of one
            f"{k}={v:.0f}" if k.endswith(("bytes", "pages")) else f"{k}={v:.3f}"
            for k, v in figures.items()
        )
        + f" runs={args.runs} {load()}"
    )


if __name__ == "__main__":
    main()
