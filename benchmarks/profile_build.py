"""Where a build spends its time: a pyinstrument profile of one cold build, in this process.

    .venv/bin/pip install -e '.[bench]'      # pyinstrument
    .venv/bin/python benchmarks/profile_build.py cards [--cards N] [--flat]
    .venv/bin/python benchmarks/profile_build.py bundled [--flat]

``cards`` profiles the card workload of bench_cards.py (load, plan, write); ``bundled`` runs
``pnp build`` of the five bundled games into a fresh folder on one core (PNP_JOBS=1), so the
profile sees every game's work rather than the workers'. Prints the call tree, or with
``--flat`` the functions by their own time.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from workload import build, write_game

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workload", choices=["cards", "bundled"])
    parser.add_argument("--cards", type=int, default=540)
    parser.add_argument("--flat", action="store_true", help="functions by their own time")
    args = parser.parse_args(argv)
    try:
        from pyinstrument import Profiler
    except ImportError:
        raise SystemExit("pyinstrument is missing: .venv/bin/pip install -e '.[bench]'") from None
    from click.testing import CliRunner

    from generator.cli import cli

    with tempfile.TemporaryDirectory(prefix="pnp-profile-") as tmp:
        folder = write_game(Path(tmp), args.cards) if args.workload == "cards" else None
        profiler = Profiler(interval=0.001)
        profiler.start()
        if folder is not None:
            build(folder, Path(tmp) / "out")
        else:
            os.environ["PNP_JOBS"] = "1"
            components = str(REPO / "components")
            result = CliRunner().invoke(cli, ["build", "--components", components, "--out", tmp])
            assert result.exit_code == 0, result.output
        profiler.stop()
    print(profiler.output_text(flat=args.flat, show_all=False))


if __name__ == "__main__":
    main()
