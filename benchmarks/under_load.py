"""Run a command (a tier of the test suite) with another build running beside it, as on a
busy machine: ``make test-loaded``. A test that waits on a fixed time instead of on the
condition it needs fails here first.

The load is ``--jobs`` processes, each building every bundled game again and again into a
folder of its own (a fresh one each time, so nothing is up to date) until the command has
run ``--runs`` times in a row; each run's exit and time are printed, and the script exits
with the first failing run's status (0 when every run passed).

    python benchmarks/under_load.py --jobs 2 --runs 5 -- python -m pytest -m e2e
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BURNER = """
import shutil, subprocess, sys, pathlib
out = pathlib.Path(sys.argv[1])
while True:
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "generator", "build", "--components", sys.argv[2],
                    "--out", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
"""


def burners(jobs: int, folder: Path) -> list[subprocess.Popen]:
    """``jobs`` processes building the bundled games over and over, each into its folder."""
    components = str(REPO / "components")
    return [
        subprocess.Popen(
            [sys.executable, "-c", BURNER, str(folder / f"load-{n}"), components],
            cwd=REPO,
            start_new_session=True,  # stopped as a group: the build it is running goes too
        )
        for n in range(jobs)
    ]


def stop(processes: list[subprocess.Popen]) -> None:
    """End the burners this script started, each by its own process group."""
    for process in processes:
        try:
            os.killpg(process.pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
    for process in processes:
        process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="builds running beside it")
    parser.add_argument("--runs", type=int, default=1, help="runs of the command in a row")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the command")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    folder = Path(tempfile.mkdtemp(prefix="pnp-load-"))
    load = burners(args.jobs, folder)
    status = 0
    try:
        for run in range(1, args.runs + 1):
            started = time.perf_counter()
            code = subprocess.run(command, cwd=REPO, check=False).returncode
            took = time.perf_counter() - started
            print(
                f"under load ({args.jobs} builds beside it): run {run} of {args.runs}: "
                f"exit {code} in {took:.0f} s",
                flush=True,
            )
            status = status or code
    finally:
        stop(load)
        shutil.rmtree(folder, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
