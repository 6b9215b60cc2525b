"""How quickly the command line answers: ``pnp --help`` and ``pnp build --help``, each in a
fresh process, the median of R runs (wall time, interpreter start included).

    .venv/bin/python benchmarks/bench_cli.py [--runs R]

Prints ``help_seconds=X build_help_seconds=Y``. The target: help_seconds < 0.2 (listing the
commands imports none of them).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from workload import median


def wall(*args: str) -> float:
    """Seconds from start to exit of ``python -m generator ARGS``."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", *args], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    help_seconds = median([wall("--help") for _ in range(runs)])
    build_help = median([wall("build", "--help") for _ in range(runs)])
    print(f"help_seconds={help_seconds:.3f} build_help_seconds={build_help:.3f}")


if __name__ == "__main__":
    main()
