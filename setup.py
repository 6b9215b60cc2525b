"""The wheel ships the five example games and nothing else of components/, and the docs' games
of other shapes from docs/examples (pyproject.toml's package data names them): this build step
also leaves out any file of theirs that git does not track (a designer's photo or licensed font
dropped into an example), and says on standard error what it left out, game folders not listed
included. The long description is the README with its links made absolute (the package index
shows it away from the repository). Everything else is in pyproject.toml."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

EXAMPLES = ("generator.examples", "generator.samples")  # packages of game folders


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
        if package not in EXAMPLES:
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
            print(f"left out of the wheel from {src_dir}/:\n" + "\n".join(said), file=sys.stderr)
        return kept


HERE = Path(__file__).resolve().parent
LINK = re.compile(r"(!?)\[([^\]]*)\]\((?![a-z]+:|#)([^)\s]+)\)")  # a relative Markdown link


def long_description() -> str:
    """The README, each relative link made absolute: a picture to its raw file in the
    repository, a page to its view there (project.urls Source, in pyproject.toml)."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    source = project["urls"]["Source"]

    def absolute(match: re.Match[str]) -> str:
        picture, text, target = match.groups()
        where = "raw" if picture else "blob"
        return f"{picture}[{text}]({source}/{where}/main/{target})"

    return LINK.sub(absolute, (HERE / "README.md").read_text(encoding="utf-8"))


setup(
    cmdclass={"build_py": BuildPy},
    long_description=long_description(),
    long_description_content_type="text/markdown",
)
