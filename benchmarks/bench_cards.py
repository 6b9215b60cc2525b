"""Workload 1: 540 distinct template cards against the floor of a hand-written reportlab script.

    .venv/bin/python benchmarks/bench_cards.py [--cards N] [--runs R]

Builds the card workload (see workload.py) with ``pnp build`` as a designer runs it (load,
plan, the checks of how the pack prints, write, the PDF read back) and draws the same pack
with benchmarks/floor_cards.py, in pairs (pnp, then the floor, R times), every build in a
fresh process of its own: nothing is cached from one build to the next. The floor imports
nothing of pnp, registers the same DejaVu faces by hand and writes its streams binary as pnp
does; both run with their bytecode compiled, as an installed package has it. CPU time comes
first, counted over all processes (a forked worker's CPU is the build's too), so a build that
spreads over two cores is not flattered against a floor on one; wall-clock time comes second,
and the machine's load beside it.

``cpu_ratio`` is the whole process (interpreter start and imports included) of pnp over the
floor's, ``build_cpu_ratio`` the command alone (from its call, the engine's imports included)
over the floor's drawing; each is the median of the pairs' ratios. ``import_ratio`` is a
bound, not a goal: the CPU of a process that only imports the modules the build had loaded
(the interpreter's start included) over the floor's whole process, the least cpu_ratio
this design of the engine can reach; ``work_ratio`` is pnp's CPU beyond those imports over
the floor's drawing (its fonts registered, its pages drawn and saved). Prints one line:
``cards=N cpu_ratio=… build_cpu_ratio=… size_ratio=… wall_ratio=… import_ratio=…
work_ratio=… pnp_cpu=… floor_cpu=… pnp_import_cpu=… pnp_build_cpu=… floor_build_cpu=…
pnp_wall=… floor_wall=… pnp_bytes=… floor_bytes=… pages=… load=…``.
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
sys.path[:0] = [{here!r}, {repo!r}]  # this checkout's engine, whatever is installed
from cards import cpu_seconds
from generator.cli import cli
start = cpu_seconds()
try:
    cli.main(["--quiet", "build", "--components", {components!r}, "--out", {out!r}], "pnp")
except SystemExit as end:
    if end.code:
        raise
print("build_cpu", cpu_seconds() - start)
own = ("__main__", "cards")
loaded = [n for n, m in sys.modules.items() if n not in own and getattr(m, "__spec__", None)]
print("modules", loaded)
"""
IMPORT_CHILD = """
import importlib, sys
sys.path[:0] = [{here!r}, {repo!r}]
from generator.cli import collect_less
collect_less()  # as a command runs: the collector's passes are the command's to pay
for name in {modules}:
    importlib.import_module(name)
"""


def pair(components: Path, root: Path, run: int, cards: int) -> dict[str, float]:
    """One ``pnp build`` as a designer runs it (its checks of the pack included) and one
    floor drawing, each in a process of its own: their figures."""
    out = root / f"out-{run}"
    code = PNP_CHILD.format(
        here=str(HERE), repo=str(HERE.parent), components=str(components), out=str(out)
    )
    pnp_out, cpu, wall = run_python(["-c", code])
    build_cpu = float(pnp_out.split("build_cpu")[1].split()[0])
    modules = pnp_out.split("modules")[-1].strip()
    imports = IMPORT_CHILD.format(here=str(HERE), repo=str(HERE.parent), modules=modules)
    import_cpu = run_python(["-c", imports])[1]
    pdf = out / "bench" / "bench.pdf"
    floor = root / f"floor-{run}.pdf"
    floor_out, floor_cpu, floor_wall = run_python(
        [str(HERE / "floor_cards.py"), "--cards", str(cards), "--out", str(floor)]
    )
    return {
        "pnp_cpu": cpu,
        "floor_cpu": floor_cpu,
        "pnp_import_cpu": import_cpu,
        "pnp_build_cpu": build_cpu,
        "floor_build_cpu": float(floor_out.split("cpu_seconds=")[1].split()[0]),
        "pnp_wall": wall,
        "floor_wall": floor_wall,
        "pnp_bytes": pdf.stat().st_size,
        "floor_bytes": floor.stat().st_size,
        "pages": _pages(pdf),
    }


def _work(pair: dict[str, float]) -> float:
    """pnp's CPU beyond the interpreter's start and the imports of the modules it used."""
    return pair["pnp_cpu"] - pair["pnp_import_cpu"]


def _pages(pdf: Path) -> int:
    """The pages of a PDF (read outside the figures' processes)."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    try:
        return len(document)
    finally:
        document.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=540)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as tmp:
        root = Path(tmp)
        write_game(root / "games", args.cards)
        pairs = [pair(root / "games", root, run, args.cards) for run in range(args.runs)]

    def ratio(name: str) -> float:
        return median([p[f"pnp_{name}"] / p[f"floor_{name}"] for p in pairs])

    figures = {key: median([p[key] for p in pairs]) for key in pairs[0]}
    print(
        f"cards={args.cards} cpu_ratio={ratio('cpu'):.2f} "
        f"build_cpu_ratio={ratio('build_cpu'):.2f} size_ratio={ratio('bytes'):.2f} "
        f"wall_ratio={ratio('wall'):.2f} "
        f"import_ratio={median([p['pnp_import_cpu'] / p['floor_cpu'] for p in pairs]):.2f} "
        f"work_ratio={median([_work(p) / p['floor_build_cpu'] for p in pairs]):.2f} "
        + " ".join(
            # seconds to the millisecond: a small pack's floor draws in a hundredth of one
            f"{k}={v:.0f}" if k.endswith(("bytes", "pages")) else f"{k}={v:.3f}"
            for k, v in figures.items()
        )
        + f" runs={args.runs} {load()}"
    )


if __name__ == "__main__":
    main()
