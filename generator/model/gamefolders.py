"""Where games are: the components folder, its game folders and the shared templates.

Kept apart from the loader (and its spec models) so that a build with nothing to do, which
only needs to find the games and hash their files, starts without loading the whole engine.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from generator.errors import STOCK_TEMPLATES, SpecError, shipped
from generator.paths import PathRefused, within

SHARED_TEMPLATES = STOCK_TEMPLATES  # the stock template library (messages: stock/…)
BUNDLED_GAMES = shipped("examples", "components")  # the example games pnp new --from copies
# the docs' small games of other shapes pnp new --from copies too (pnp new's SAMPLES names them)
SAMPLE_GAMES = shipped("samples", "docs/examples")
DEFAULT_COMPONENTS = Path("components")
OWN_OUTPUT = "output"  # where pnp run inside a game folder writes; never part of the game
READY_MS = 500  # a watch that has heard nothing this long says it is watching
MAX_WATCHED = 2_000  # folders a watch follows (each one an inotify watch)


def slugify(text: str) -> str:
    """A component id from a file name: ASCII, lower case, dashes for anything else."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "component"


def here_game(components_dir: Path) -> Path | None:
    """The game folder pnp runs in, when it runs in one: a game.yaml here and no components/
    folder (the default ``components_dir`` not found)."""
    if components_dir != DEFAULT_COMPONENTS or components_dir.is_dir():
        return None
    named = Path("game.yaml").is_file() or Path("game.yml").is_file()  # .yml: to say so
    return Path.cwd() if named else None


def game_files(root: Path) -> list[Path]:
    """Every file of a game folder, but not its own output folder."""
    return [
        path
        for path in root.rglob("*")
        if path.is_file() and path.relative_to(root).parts[0] != OWN_OUTPUT
    ]


def real_folders(roots: list[Path]) -> list[Path]:
    """The real folders of ``roots`` and every folder inside them (a game's own output, hidden
    folders and bytecode caches aside), links to folders left out, at most ``MAX_WATCHED``:
    what a watch follows folder by folder, since the operating system's recursive watch
    follows links, out of the game too."""
    found: list[Path] = []
    left = [root.resolve() for root in reversed(roots) if root.is_dir()]
    tops = set(left)
    while left and len(found) < MAX_WATCHED:
        top = left.pop()
        found.append(top)
        try:
            with os.scandir(top) as listing:
                inner = sorted(
                    Path(entry.path)
                    for entry in listing
                    if entry.is_dir(follow_symlinks=False)
                    and not entry.name.startswith(".")
                    and entry.name != "__pycache__"
                    and not (top in tops and entry.name == OWN_OUTPUT)
                )
        except OSError:
            continue
        left.extend(reversed(inner))
    return found


def watch_real_folders(
    roots: list[Path], ready: Callable[[], None] | None = None, **options: Any
) -> Iterator[set[tuple[Any, str]]]:
    """The bursts of changes (watchfiles' ``watch`` with ``options``) in the real folders of
    ``roots``, each folder watched by itself: listed again after every burst, and watched
    anew when they changed (a folder made, removed or renamed). ``ready`` hears once that
    the folders are watched (every change from then on is seen): the first quiet spell of
    ``READY_MS`` or the first burst, whichever comes first."""
    import watchfiles  # only a watch pays for it

    if ready is not None:
        options = {**options, "yield_on_timeout": True, "rust_timeout": READY_MS}
    folders = real_folders(roots)
    while folders:
        bursts = watchfiles.watch(*folders, recursive=False, **options)
        try:
            for changes in bursts:
                if ready is not None:
                    ready()
                    ready = None
                if not changes:
                    continue
                yield changes
                now = real_folders(roots)
                if now != folders:
                    folders = now
                    break
            else:
                return
        finally:
            bursts.close()


def template_dirs(root: Path) -> list[Path]:
    """The template folders of the game in ``root``: its own first (left out when it is a
    link leading outside the game folder: the loader says so), then the shared ones."""
    own = root / "templates"
    try:
        within(root, own)
    except PathRefused:
        return [SHARED_TEMPLATES]
    return [own, SHARED_TEMPLATES]


def find_games(components_dir: Path) -> list[Path]:
    """Game folders under ``components_dir``: every sub-folder holding YAML files (or a
    game.yml, so that loading says it is not read, instead of no game being found)."""
    if not components_dir.is_dir():
        return []
    return sorted(
        p
        for p in components_dir.iterdir()
        if p.is_dir()
        and not p.name.startswith((".", "_"))
        and (any(p.glob("*.yaml")) or (p / "game.yml").is_file())
    )


def unread_yaml(root: Path, read: set[Path]) -> list[tuple[Path, str]]:
    """The YAML files of a game folder (and two levels down) that pnp does not read, each
    with how to have it read: one beside game.yaml not named .yaml (.yml, .YAML), one in a
    sub-folder that no spec names as a table (``read``): a spec there is never loaded."""
    found = _near_paths(root)
    taken = {p.resolve() for p in read}
    out: list[tuple[Path, str]] = []
    for path in found:
        parts = path.relative_to(root).parts
        if path.suffix.lower() not in (".yaml", ".yml") or not path.is_file():
            continue
        if parts[0] == OWN_OUTPUT or any(part.startswith(".") for part in parts):
            continue
        if len(parts) == 1:
            if path.suffix != ".yaml":
                rename = f"not read: pnp reads the specs named .yaml; rename it {path.stem}.yaml"
                out.append((path, rename))
        elif path.resolve() not in taken:
            out.append(
                (
                    path,
                    "not read: pnp reads component specs beside game.yaml only; move it there, "
                    "or name it in a spec's from: if it is a card list",
                )
            )
    return out


def select_games(components_dir: Path, names: tuple[str, ...]) -> list[Path]:
    """The folders of the named games (all when none are named); unknown names are errors."""
    found = {p.name: p for p in find_games(components_dir)}
    if not found and not names:
        raise SpecFailureFor(components_dir, "no game folders found (each needs a game.yaml)")
    missing = [n for n in names if n not in found]
    if missing:
        known = ", ".join(found) or "none"
        raise SpecFailureFor(
            components_dir, f"no game named {', '.join(missing)}; games here: {known}"
        )
    return [found[n] for n in names] if names else list(found.values())


class SpecFailureFor(Exception):
    """A problem with the components folder itself, before any spec is read."""

    def __init__(self, path: Path, message: str):
        self.error = SpecError(path, None, message)
        super().__init__(str(self.error))


MAX_NEAR_FILES = 2000  # files of a game folder looked at for a "did you mean"


def _near_paths(root: Path) -> list[Path]:
    """The paths of a game folder and two levels down, at most ``MAX_NEAR_FILES``."""
    return [*root.glob("*"), *root.glob("*/*"), *root.glob("*/*/*")][:MAX_NEAR_FILES]


def near_file(root: Path, name: str, suffixes: set[str] | None = None) -> str | None:
    """The file of the game folder ``root`` a missing ``name`` most likely meant: the same
    path written with Windows' ``\\``, in another case, or the closest name (in the folder
    and two levels down, of the ``suffixes`` given); None when nothing is near."""
    import difflib

    wanted = name.replace("\\", "/").strip()
    found = _near_paths(root)
    files = [
        p.relative_to(root).as_posix()
        for p in found
        if p.is_file() and (suffixes is None or p.suffix.lower() in suffixes)
    ]
    for candidate in files:
        if candidate == wanted or candidate.casefold() == wanted.casefold():
            return candidate
    close = difflib.get_close_matches(wanted, files, n=1, cutoff=0.75)
    return close[0] if close else None


def did_you_mean(root: Path, name: str, suffixes: set[str] | None = None) -> str:
    """'; did you mean 'art/Dragon.png'?' for a missing file, or nothing."""
    near = near_file(root, name, suffixes)
    return f"; did you mean '{near}'?" if near else ""
