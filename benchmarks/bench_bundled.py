"""Workload 3: pnp build of all five bundled games, cold and warm, and after one change.

    .venv/bin/python benchmarks/bench_bundled.py [--runs R]

Each build is a fresh ``pnp build`` process (interpreter start included), as a user runs it:
cold into an empty output folder, warm with nothing changed (the target: under 1 second), and
after touching one game's spec (only that game is rebuilt). Prints one line of medians.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def pnp(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "generator", *args], cwd=REPO, check=True, capture_output=True
    )
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    cold, warm, one = [], [], []
    with tempfile.TemporaryDirectory(prefix="pnp-bundled-") as tmp:
        components = Path(tmp) / "components"
        shutil.copytree(REPO / "components", components)
        spec = components / "schokoly" / "smarties.yaml"
        for run in range(args.runs):
            out = Path(tmp) / f"out-{run}"
            cold.append(pnp("build", "--components", str(components), "--out", str(out)))
            warm.append(pnp("build", "--components", str(components), "--out", str(out)))
            spec.write_text(spec.read_text(encoding="utf-8") + f"\n# run {run}\n", "utf-8")
            one.append(pnp("build", "--components", str(components), "--out", str(out)))
    print(
        f"games=5 cold_seconds={statistics.median(cold):.2f} "
        f"warm_seconds={statistics.median(warm):.2f} "
        f"one_changed_seconds={statistics.median(one):.2f}"
    )


if __name__ == "__main__":
    main()
