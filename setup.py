"""The wheel ships the five example games and nothing else of components/ (pyproject.toml's
package data names them): this build step also leaves out any file of theirs that git does
not track (a designer's photo or licensed font dropped into an example), and says on standard
error what it left out, game folders not listed included. Everything else is in
pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

EXAMPLES = "generator.examples"


def tracked(folder: Path) -> set[str] | None:
    """The files git tracks under ``folder`` (paths relative to it), or None outside a git
    checkout (a source copy: then the package data's list of games is the only filter)."""
    try:
        run = subprocess.run(
            ["git", "ls-files", "-z", "--", "."],
            cwd=folder,
            capture_output=True,
            check=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return {name for name in run.stdout.decode("utf-8", "replace").split("\0") if name}


class BuildPy(build_py):
    """build_py that keeps untracked files of the example games out of the wheel."""

    def find_data_files(self, package: str, src_dir: str) -> list[str]:
        files = super().find_data_files(package, src_dir)
        if package != EXAMPLES:
            return files
        folder = Path(src_dir)
        known = tracked(folder)
        kept = [
            f for f in files if known is None or Path(f).relative_to(folder).as_posix() in known
        ]
        left = sorted(set(files) - set(kept))
        games = {Path(f).relative_to(folder).parts[0] for f in kept}
        others = sorted(
            p.name
            for p in folder.iterdir()
            if p.is_dir() and p.name not in games and p.name != "__pycache__"
        )
        if left or others:
            said = [f"  {Path(f).relative_to(folder)} (not tracked by git)" for f in left]
            said += [f"  {name}/ (not one of the example games)" for name in others]
            print("left out of the wheel from components/:\n" + "\n".join(said), file=sys.stderr)
        return kept


setup(cmdclass={"build_py": BuildPy})
