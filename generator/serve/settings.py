"""What a page asks to see: the game, its language and how it is printed (paper, duplex
edge or fold, ink saver), read from the page's address, so that a reload keeps it. Every
value is checked against the few it may be: nothing from an address becomes a path."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from generator.options import PrintOptions

LANGUAGE = re.compile(r"^[a-z]{2,3}(_[A-Z]{2})?$")  # as game.yaml's languages: are written
DUPLEX = ("long", "short")
LAYOUTS = ("duplex", "fold")
YES = ("1", "true", "on", "yes")
NO = ("0", "false", "off", "no", "")


class BadSettings(ValueError):
    """A value of the page's address that is not one the preview offers."""


@dataclass(frozen=True)
class Settings:
    """One way of seeing one game: its language ('' the source language), its paper ('' the
    game's own) and print options."""

    game: str
    language: str = ""
    paper: str = ""
    duplex: str = "long"
    layout: str = "duplex"
    ink_saver: bool = False

    def options(self, back_offset: tuple[float, float]) -> PrintOptions:
        """The print options these settings give, with the printer's back offset."""
        return PrintOptions(self.duplex, back_offset, self.layout, self.ink_saver)

    def as_query(self) -> dict[str, str]:
        """The settings as the page's address holds them."""
        values = asdict(self)
        values["ink_saver"] = "1" if self.ink_saver else "0"
        return {_NAMES[k]: v for k, v in values.items()}


_NAMES = {
    "game": "game",
    "language": "lang",
    "paper": "paper",
    "duplex": "duplex",
    "layout": "layout",
    "ink_saver": "ink",
}


def parse(
    query: dict[str, list[str]], games: list[str], papers: list[str], base: Settings
) -> Settings:
    """The settings a page's address asks for, ``base`` for what it leaves out; ``BadSettings``
    for a value that is not offered (an unknown game, paper or language code)."""
    given = {name: values[-1] for name, values in query.items() if values}
    unknown = set(given) - set(_NAMES.values())
    if unknown:
        raise BadSettings(f"unknown setting: {', '.join(sorted(unknown))}")
    settings = base
    if "game" in given:
        settings = _with(settings, "game", given["game"], games)
    if "lang" in given:
        language = given["lang"]
        if language and not LANGUAGE.match(language):
            raise BadSettings("lang: a language code such as de or pt_BR")
        settings = replace(settings, language=language)
    if "paper" in given:
        settings = _with(settings, "paper", given["paper"], ["", *papers])
    if "duplex" in given:
        settings = _with(settings, "duplex", given["duplex"], DUPLEX)
    if "layout" in given:
        settings = _with(settings, "layout", given["layout"], LAYOUTS)
    if "ink" in given:
        if given["ink"] not in YES + NO:
            raise BadSettings("ink: 1 or 0")
        settings = replace(settings, ink_saver=given["ink"] in YES)
    return settings


def _with(settings: Settings, name: str, value: str, allowed: Sequence[str]) -> Settings:
    """``settings`` with ``name`` set to ``value``, one of ``allowed``."""
    if value not in allowed:
        offered = ", ".join(a or "(empty)" for a in allowed)
        raise BadSettings(f"{_NAMES[name]}: not one of {offered}")
    changes: dict[str, Any] = {name: value}
    return replace(settings, **changes)
