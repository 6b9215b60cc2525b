"""Workload 5: the exports that used to hold everything in memory (issue 25 item 12): 1,000
distinct poker cards for The Game Crafter (3.7 GB before) and a shop export of one board
990 mm wide (1.15 GB before): time and peak memory of each.

    .venv/bin/python benchmarks/bench_exports.py [--cards 1000] [--board-mm 990]

Each export runs as ``pnp export`` in a process of its own, so its peak resident memory is
its own. Prints one line: ``cards=1000 tgc_seconds=… tgc_peak_mb=… board_mm=990
board_seconds=… board_peak_mb=…`` with the files each wrote. The target: under 500 MB each.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHILD = """
import resource, sys, time
sys.argv = ["pnp", *{args!r}]
from generator.cli import cli
start = time.perf_counter()
try:
    code = cli(standalone_mode=False)
    if code:  # a build that failed returns its exit code: a benchmark must not time it
        raise SystemExit(code)
finally:
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"RESULT {{seconds:.2f}} {{peak:.0f}}", file=sys.stderr)
"""
BOARD = """\
kind: board
title: Big board
size: {w} x {h}
background: "#d9c89e"
regions:
{regions}
"""


def export(args: list[str]) -> tuple[float, float]:
    """Run ``pnp ARGS`` in a process of its own: its seconds and peak memory (MB)."""
    result = subprocess.run(
        [sys.executable, "-c", CHILD.format(args=args)],
        capture_output=True,
        text=True,
        cwd=HERE.parent,
        check=False,
    )
    lines = [line for line in result.stderr.splitlines() if line.startswith("RESULT")]
    if result.returncode or not lines:
        raise SystemExit(result.stderr[-3000:])
    _, seconds, peak = lines[-1].split()
    return float(seconds), float(peak)


def board_game(root: Path, width: float) -> Path:
    """A game of one board ``width`` mm wide (two thirds as tall), its regions a grid."""
    folder = root / "board"
    folder.mkdir(parents=True)
    (folder / "game.yaml").write_text("title: Big board\nplayers: 2\n", encoding="utf-8")
    height = round(width * 2 / 3)
    cells = []
    w, h = (width - 40) / 9, (height - 40) / 6
    for row in range(6):
        for col in range(9):
            x, y = 10 + col * (w + 2.5), 10 + row * (h + 4)
            corners = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
            points = ", ".join(f"[{a:.0f}, {b:.0f}]" for a, b in corners)
            colour = f"#{row * 30 + 60:02x}{col * 18 + 60:02x}80"
            cells.append(
                f'  - {{name: r{row}c{col}, label: "R{row}C{col}", polygon: [{points}], '
                f'fill: "{colour}"}}'
            )
    spec = BOARD.format(w=width, h=height, regions="\n".join(cells))
    (folder / "board.yaml").write_text(textwrap.dedent(spec), encoding="utf-8")
    return folder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--board-mm", type=float, default=990)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from workload import write_game

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write_game(root / "cards", args.cards)
        cards = ["export", "--shop", "thegamecrafter", "--components", str(root / "cards")]
        tgc_seconds, tgc_peak = export([*cards, "--out", str(root / "out")])
        pngs = len(list((root / "out").glob("**/*.png")))
        board_game(root / "boards", args.board_mm)
        shop = ["export", "--shop", "--components", str(root / "boards")]
        board_seconds, board_peak = export([*shop, "--out", str(root / "out")])
        pdfs = len(list((root / "out" / "board").glob("shop/*.pdf")))
    print(
        f"cards={args.cards} tgc_seconds={tgc_seconds:.2f} tgc_peak_mb={tgc_peak:.0f} "
        f"tgc_pngs={pngs} board_mm={args.board_mm:g} board_seconds={board_seconds:.2f} "
        f"board_peak_mb={board_peak:.0f} board_pdfs={pdfs}"
    )


if __name__ == "__main__":
    main()
