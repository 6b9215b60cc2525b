"""The printer profile: how this user's printer prints (paper, duplex edge, back offset,
layout, ink saver), remembered so that a calibrated offset is typed once.

Two files may hold it, as a ``[printer]`` table: the user config (``~/.config/pnp/config.toml``
on Linux, the platform's own place elsewhere, or ``$PNP_CONFIG``) and ``pnp.toml`` in the folder
pnp runs in, which wins over it. A flag on the command line wins over both.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.errors import SpecError, display_path
from generator.options import PrintOptions
from generator.paths import PathRefused, read_text, write_replacing

HERE = Path("pnp.toml")
KEYS = ("paper", "duplex", "back_offset", "layout", "ink_saver", "card_thickness")
CHOICES = {"duplex": ("long", "short"), "layout": ("duplex", "fold")}
MAX_OFFSET = 20.0  # mm: more is not a printer's error
THICKNESS = (0.05, 2.0)  # mm: the card thicknesses a profile may give


def user_config() -> Path:
    """Where the user's own config lives (``$PNP_CONFIG`` names another file)."""
    if os.environ.get("PNP_CONFIG"):
        return Path(os.environ["PNP_CONFIG"])
    import platformdirs  # only when there is a profile to find

    return platformdirs.user_config_path("pnp") / "config.toml"


@dataclass
class Profile:
    """The printer settings found, and the files they came from (for the message)."""

    values: dict[str, Any] = field(default_factory=dict)
    sources: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # a place that could not be looked in

    def describe(self, overridden: Collection[str] = frozenset()) -> str:
        """'printer profile pnp.toml: duplex short, back offset 1.5,-0.5' for the build's first
        line, leaving out what the command line ``overridden``."""
        parts = []
        for key in KEYS:
            if key in self.values and key not in overridden:
                value = self.values[key]
                if key == "back_offset":
                    value = ",".join(f"{v:g}" for v in value)
                parts.append(f"{key.replace('_', ' ')} {value}")
        files = " and ".join(display_path(p) for p in self.sources)
        return f"printer profile {files}: {', '.join(parts)}"


def load_profile(papers: tuple[str, ...]) -> Profile:
    """The printer profile from the user config, then ./pnp.toml over it; a file that cannot
    be used raises SpecError naming it (and the line, where TOML tells it)."""
    profile = Profile()
    for path in (user_config(), HERE):
        try:
            if not (path.exists() or path.is_symlink()):
                continue
        except OSError as exc:  # HOME unreadable (run as another user): not a profile's fault
            profile.warnings.append(
                f"{display_path(path)}: cannot look for a printer profile here "
                f"({exc.strerror or exc}); none is read from it (PNP_CONFIG names another file)"
            )
            continue
        printer = _printer_table(path)
        for key, value in printer.items():
            profile.values[key] = _checked(path, key, value, papers)
        if printer:
            profile.sources.append(path)
    return profile


def _read(path: Path) -> dict[str, Any]:
    """A TOML file's data, read through the gate (a regular file in its own folder, not a
    link out of it); SpecError (with the line, where TOML tells it) if it is broken. tomllib
    is imported here: most commands find no profile and never parse TOML."""
    import tomllib

    try:
        return tomllib.loads(read_text(path.parent, path, "profile"))
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"line (\d+)", str(exc))
        raise SpecError(path, int(line[1]) if line else None, f"not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise SpecError(path, None, f"cannot read it: {exc}") from None
    except PathRefused as exc:
        raise SpecError(path, None, f"{exc}; a profile is a TOML file") from None
    except (RecursionError, ValueError):  # arrays nested thousands deep, a 5,000-digit number
        raise SpecError(
            path, None, "cannot be read as TOML (nested too deep, or a number too long)"
        ) from None


def _printer_table(path: Path) -> dict[str, Any]:
    printer = _read(path).get("printer", {})
    if not isinstance(printer, dict):
        raise SpecError(path, None, "'printer' must be a table: [printer]")
    return printer


def _checked(path: Path, key: str, value: Any, papers: tuple[str, ...]) -> Any:
    """A profile value, or a SpecError saying what is allowed."""
    if key not in KEYS:
        raise SpecError(path, None, f"unknown key '{key}' in [printer]; allowed: {', '.join(KEYS)}")
    allowed = {"paper": papers, **CHOICES}.get(key)
    if allowed is not None and value not in allowed:
        raise SpecError(path, None, f"{key} = {value!r}; allowed: {', '.join(allowed)}")
    if key == "ink_saver" and not isinstance(value, bool):
        raise SpecError(path, None, "ink_saver = true or false")
    if key == "card_thickness":
        low, high = THICKNESS
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if not number or not low <= value <= high:
            raise SpecError(path, None, f"card_thickness = mm a card adds, {low:g} to {high:g}")
        return float(value)
    if key == "back_offset":
        numbers = (
            [v for v in value if isinstance(v, int | float)] if isinstance(value, list) else []
        )
        if len(numbers) != 2 or not all(math.isfinite(v) and abs(v) <= MAX_OFFSET for v in numbers):
            raise SpecError(path, None, f"back_offset = [X, Y] in mm, each within ±{MAX_OFFSET:g}")
        return (float(numbers[0]), float(numbers[1]))
    return value


def resolve(given: dict[str, Any], profile: Profile) -> tuple[str | None, PrintOptions]:
    """The paper (None: the game's own) and print options: each flag given on the command
    line, else the profile's, else the default."""
    values = {k: v for k, v in given.items() if v is not None}
    merged = {**profile.values, **values}
    paper = merged.pop("paper", None)
    defaults = PrintOptions()
    options = PrintOptions(
        merged.get("duplex", defaults.duplex),
        tuple(merged.get("back_offset", defaults.back_offset)),
        merged.get("layout", defaults.layout),
        bool(merged.get("ink_saver", defaults.ink_saver)),
        merged.get("card_thickness", defaults.card_thickness),
    )
    return paper, options


def save(path: Path, updates: dict[str, Any]) -> None:
    """Write ``updates`` into the ``[printer]`` table of ``path``, keeping its other keys,
    tables and comments (tomlkit edits the document as written); the file is replaced whole
    through ``paths.write_replacing``, never written through a link."""
    import tomlkit  # only when a profile is saved

    text = ""
    if path.exists() or path.is_symlink():
        _read(path)  # its mistakes, at their lines, before anything is written
        text = read_text(path.parent, path, "profile")
    document = tomlkit.parse(text)
    printer = document.get("printer")
    if printer is None:
        printer = document["printer"] = tomlkit.table()
    if not isinstance(printer, dict):
        raise SpecError(path, None, "'printer' must be a table: [printer]")
    for key, value in updates.items():
        printer[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    write_replacing(path, tomlkit.dumps(document).encode("utf-8"))
