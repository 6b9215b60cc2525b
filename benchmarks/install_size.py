"""What ``pip install .`` weighs: the project installed alone (no extras) into a fresh virtual
environment, and each distribution's installed files added up from its RECORD, largest first
(pip, setuptools and the venv's own tools left out). ``--extras woff2`` installs extras too;
``--source DIR`` measures another checkout. One line per distribution and the total, in MB.

    .venv/bin/python benchmarks/install_size.py [--extras woff2] [--source DIR]
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TOOLS = {"pip", "setuptools", "wheel"}  # what a fresh venv brings before the project


def weights(site: Path) -> dict[str, int]:
    """Bytes installed per distribution, from each ``*.dist-info/RECORD``."""
    found: dict[str, int] = {}
    for record in site.glob("*.dist-info/RECORD"):
        name = record.parent.name.split("-")[0].lower().replace("_", "-")
        total = 0
        with record.open(newline="", encoding="utf-8") as handle:
            for row in csv.reader(handle):
                path = (site / row[0]).resolve() if row else site
                if path.is_file():
                    total += path.stat().st_size
        found[name] = total
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extras", default="", help="extras to install too, e.g. woff2")
    parser.add_argument("--source", type=Path, default=REPO, help="the checkout to install")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        python = venv / "bin" / "python"
        target = str(args.source.resolve()) + (f"[{args.extras}]" if args.extras else "")
        subprocess.run([str(python), "-m", "pip", "install", "-q", target], check=True)
        site = Path(
            subprocess.run(
                [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.strip()
        )
        found = {k: v for k, v in weights(site).items() if k not in TOOLS}
    for name, size in sorted(found.items(), key=lambda item: -item[1]):
        print(f"{size / 1e6:8.1f} MB  {name}")
    print(f"{sum(found.values()) / 1e6:8.1f} MB  total ({len(found)} distributions)")


if __name__ == "__main__":
    main()
