"""Every benchmark, one after another, and a table of each goal beside its figure (make bench).

    .venv/bin/python benchmarks/bench_all.py [--only bench_cards,bench_serve]

Each benchmark runs in a process of its own and prints one line of ``key=value`` figures
(its full line is shown as it finishes); the table then gives each goal, the figure it is
judged by, and whether it is met. The machine's load is printed beside: on a busy machine
wall-clock figures are slower than they are, CPU figures hold. Exits 1 when a goal is
missed.
"""

from __future__ import annotations

import argparse
import operator
import re
import sys
from pathlib import Path

from workload import load, run_python

HERE = Path(__file__).resolve().parent
# (benchmark, figure, comparison, goal, what the goal is)
GOALS: list[tuple[str, str, str, float, str]] = [
    ("bench_cards", "cpu_ratio", "<=", 1.2, "540 cards: CPU over the floor's, whole process"),
    ("bench_cards", "build_cpu_ratio", "<=", 1.2, "540 cards: CPU over the floor's, build"),
    ("bench_cards", "size_ratio", "<=", 1.0, "540 cards: PDF size over the floor's"),
    ("bench_art", "cpu_seconds", "<", 5.0, "540 art cards: build CPU seconds"),
    ("bench_bundled", "warm_seconds", "<", 1.0, "bundled games: warm no-op build, wall s"),
    ("bench_bundled", "warm_extra_cpu", "<", 0.1, "warm no-op: CPU s beyond the interpreter"),
    ("bench_scale", "peak_mb", "<", 300, "5,400 cards: peak memory MB"),
    ("bench_cli", "help_seconds", "<", 0.2, "pnp --help, wall s"),
    ("bench_serve", "server_cpu_per_save", "<", 0.1, "pnp serve, CSV: server CPU s per save"),
    ("bench_serve", "save_to_picture_ms", "<", 300, "pnp serve, CSV: save to picture, ms"),
    ("bench_serve --source xlsx", "server_cpu_per_save", "<", 0.1, "... XLSX: server CPU s"),
    ("bench_serve --source xlsx", "save_to_picture_ms", "<", 300, "... XLSX: save to picture"),
    ("bench_serve --source yaml", "server_cpu_per_save", "<", 0.1, "... YAML: server CPU s"),
    ("bench_serve --source yaml", "save_to_picture_ms", "<", 300, "... YAML: save to picture"),
    (
        "bench_serve --source counters --cards 46",
        "server_cpu_per_save",
        "<",
        0.1,
        "60 counters, tiled map: server CPU s",
    ),
    (
        "bench_serve --source counters --cards 46",
        "save_to_picture_ms",
        "<",
        300,
        "... 60 counters: save to picture",
    ),
    ("bench_photo", "extra_seconds", "<", 2.0, "50 MP photo: seconds it adds"),
    ("bench_photo", "extra_mb", "<", 500, "50 MP photo: memory MB it adds"),
    ("bench_exports", "tgc_peak_mb", "<", 500, "1,000 cards for TGC: peak MB"),
    ("bench_exports", "board_peak_mb", "<", 500, "990 mm board for a shop: peak MB"),
]
COMPARE = {"<": operator.lt, "<=": operator.le}
# (benchmark, figure, what it is): printed under the goals, for reading them (no goal)
BOUNDS: list[tuple[str, str, str]] = [
    ("bench_cards", "import_ratio", "... the least the engine's imports allow"),
    ("bench_cards", "work_ratio", "... the work beyond imports, over the floor's"),
]


def figures(line: str) -> dict[str, float]:
    """The numbers of a benchmark's ``key=value`` line (the last of a key wins)."""
    found = {}
    for key, value in re.findall(r"([a-z_]+)=([-\d.]+)(?=\s|$)", line):
        try:
            found[key] = float(value)
        except ValueError:
            continue
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="comma-separated benchmark names")
    args = parser.parse_args(argv)
    names = list(dict.fromkeys(goal[0] for goal in GOALS))
    if args.only:
        names = [n for n in names if n.split()[0] in args.only.split(",")]
    results: dict[str, dict[str, float]] = {}
    for name in names:
        print(f"{name} ({load()})", flush=True)
        script, *options = name.split()
        out, cpu, wall = run_python([str(HERE / f"{script}.py"), *options], cwd=HERE)
        line = out.strip().splitlines()[-1] if out.strip() else ""
        print(f"  {line}\n  [benchmark process: cpu={cpu:.1f}s wall={wall:.1f}s]", flush=True)
        results[name] = figures(line)
    print(f"\n{'goal':<48} {'figure':>10} {'goal':>8}  met   ({load()})")
    missed = 0
    for name, key, sign, goal, what in GOALS:
        if name not in results:
            continue
        value = results[name].get(key)
        met = value is not None and COMPARE[sign](value, goal)
        missed += not met
        shown = "missing" if value is None else f"{value:g}"
        print(f"{what:<48} {shown:>10} {sign}{goal:<7g}  {'yes' if met else 'NO'}")
    for name, key, what in BOUNDS:
        if key in results.get(name, {}):
            print(f"{what:<48} {results[name][key]:>10g} {'(bound)':>8}")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
