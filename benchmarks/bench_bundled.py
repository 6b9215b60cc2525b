"""Workload 3: pnp build of all five bundled games, cold and warm, and after one change.

    .venv/bin/python benchmarks/bench_bundled.py [--runs R]

Each build is a fresh ``pnp build`` process (interpreter start included), as a user runs it:
cold into an empty output folder, warm with nothing changed, and after touching one game's
spec (only that game is rebuilt). Each is timed in CPU (all processes, workers included)
and in wall-clock seconds. ``warm_extra_cpu`` is the warm build's CPU beyond the
interpreter's start and the command's imports (``pnp build --help``, run beside it in each
round). Prints one line of medians and the machine's load. The targets: warm under 1
second, and under 0.1 CPU seconds beyond the interpreter.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
from pathlib import Path

from workload import load, run_python

REPO = Path(__file__).resolve().parent.parent


def pnp(*args: str) -> tuple[float, float]:
    """CPU (all processes) and wall-clock seconds of ``pnp ARGS`` in a process of its own."""
    _, cpu, wall = run_python(["-m", "generator", *args], cwd=REPO)
    return cpu, wall


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    cold, warm, one, extra = [], [], [], []
    with tempfile.TemporaryDirectory(prefix="pnp-bundled-") as tmp:
        components = Path(tmp) / "components"
        shutil.copytree(REPO / "components", components)
        spec = components / "schokoly" / "smarties.yaml"
        for run in range(args.runs):
            out = Path(tmp) / f"out-{run}"
            build = ("build", "--components", str(components), "--out", str(out))
            cold.append(pnp(*build))
            pnp(*build)  # the first warm build records what it saw
            interpreter = pnp("build", "--help")
            warm.append(pnp(*build))
            extra.append(warm[-1][0] - interpreter[0])
            spec.write_text(spec.read_text(encoding="utf-8") + f"\n# run {run}\n", "utf-8")
            one.append(pnp(*build))

    def med(pairs: list[tuple[float, float]], index: int) -> float:
        return statistics.median(p[index] for p in pairs)

    print(
        f"games=5 cold_cpu={med(cold, 0):.2f} warm_cpu={med(warm, 0):.2f} "
        f"warm_extra_cpu={statistics.median(extra):.3f} one_changed_cpu={med(one, 0):.2f} "
        f"cold_seconds={med(cold, 1):.2f} warm_seconds={med(warm, 1):.2f} "
        f"one_changed_seconds={med(one, 1):.2f} runs={args.runs} {load()}"
    )


if __name__ == "__main__":
    main()
