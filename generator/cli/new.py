"""``pnp new``: a game folder that builds at once, from a stock template and a spreadsheet of
three sample cards, or a copy of an example game: a bundled one, or one of the docs' small
games of other shapes (a wargame, a roll-and-write, a board game), to start a game of that
shape from data that already builds.

The folder is written in full under a temporary name and renamed into place, so an
interrupted ``pnp new`` leaves nothing half-made, and an existing folder is never touched.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import click

from generator.cli import Failed
from generator.cli.common import EXIT_CANNOT_WRITE, EXIT_SPEC_ERROR, components_option
from generator.errors import clean, display_path
from generator.model.gamefolders import (
    BUNDLED_GAMES,
    DEFAULT_COMPONENTS,
    OWN_OUTPUT,
    SAMPLE_GAMES,
    find_games,
    here_game,
)

# the deck a starter builds with, its columns and three sample rows
STARTERS: dict[str, tuple[str, str]] = {
    "card": (
        "the general card: title, type, art, text, flavor, cost, value, icons",
        "title,type,text,flavor,cost,value,icons,art,count\n"
        'First Light,Action,"Draw **two** cards, then discard one.",'
        "Every journey starts somewhere.,1,,card,,2\n"
        "Lucky Coin,Treasure,Gain :coin: :coin:.,,,2,coin,,2\n"
        'Storm,Event,"Every player passes a card to the left. *Nobody* draws this turn.",'
        ",,,bolt,,1\n",
    ),
    "playing-card": (
        "a playing card: rank and suit, pips or a picture",
        "name,rank,suit,title,art,count\nace-spades,A,spades,,,1\nseven-hearts,7,hearts,,,1\n"
        "queen-clubs,Q,clubs,Queen of Clubs,,1\n",
    ),
    "text-card": (
        "a text card: a question or a quote in large type",
        "title,text,flavor,count\n"
        'Would you rather,"Live by the sea **or** in the mountains?",,1\n'
        "Quote,The best way out is always through.,Robert Frost,1\n"
        "Tell us,What is the best meal you ever had?,,1\n",
    ),
}
# the docs' games of other shapes a new game may start from (docs/examples, shipped)
# (its shape, what it holds, the docs page that explains it)
SAMPLES: dict[str, tuple[str, str, str]] = {
    "ridge": (
        "a hex-and-counter wargame",
        "a hex map, counters from a spreadsheet, markers",
        "wargame.md",
    ),
    "orchard": (
        "a roll-and-write",
        "a score pad printed as often as needed, paper dice",
        "roll-and-write.md",
    ),
    "harbour": (
        "a board game",
        "tracks, cards, coins, tokens per player colour, two languages",
        "game.md",
    ),
}
DOCS = "https://github.com/pnp-generator/pnp-generator/blob/main/docs/"  # pyproject's, online
SNIPPET = re.compile(r"^# --8<-- \[(?:start|end):[\w-]+\]\n", re.MULTILINE)  # docs' quote marks
NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")


@click.command("new")
@click.argument("name")
@components_option
@click.option(
    "--template",
    type=click.Choice(list(STARTERS)),
    default="card",
    show_default=True,
    help="The stock template the first deck is drawn with.",
)
@click.option(
    "--from",
    "example",
    metavar="GAME",
    help="Copy an example game instead: a bundled one (e.g. schokoly) or a game of another "
    "shape: " + ", ".join(f"{name} ({shape})" for name, (shape, *_) in SAMPLES.items()) + ".",
)
def command(name: str, components_dir: Path, template: str, example: str | None) -> None:
    """Start a new game in <components>/NAME: a game.yaml, a deck read from cards.csv (three
    sample rows) drawn by a stock template, and a README of next steps; or, with --from, a
    copy of an example game. It builds at once: pnp build NAME. Run inside a game folder, it
    makes the new game beside that one."""
    beside = here_game(components_dir) is not None
    if beside:  # a components/ inside a game would be taken for the games from then on
        components_dir = Path("..")
    if not NAME.fullmatch(name):
        _fail(
            f"'{clean(name)}' cannot name a game folder; use lower-case letters, digits, "
            "dashes and underscores, e.g. my-game",
            EXIT_SPEC_ERROR,
        )
    target = components_dir / name
    if target.exists() or target.is_symlink():
        _fail(f"{display_path(target)} already exists; choose another name", EXIT_SPEC_ERROR)
    try:
        components_dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=components_dir))
        staging.chmod(0o777 & ~_umask())  # mkdtemp makes it private; a game folder is not
        try:
            if example is None:
                _starter(staging, name, template)
            else:
                _copy_example(staging, example)
            staging.rename(target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    except OSError as exc:
        _fail(f"cannot write {display_path(target)}: {exc.strerror}", EXIT_CANNOT_WRITE)
    click.echo(f"created {display_path(target)}/" + (" beside this game" if beside else ""))
    where = "" if components_dir == DEFAULT_COMPONENTS else f" --components {components_dir}"
    click.echo(f"next: pnp build {name}{where}   (or: cd {display_path(target)}; pnp build)")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fail(message: str, status: int) -> None:
    click.echo(message, err=True)
    raise Failed(status)


def _title(name: str) -> str:
    """'my-game' → 'My Game'."""
    return " ".join(part.capitalize() for part in re.split(r"[-_]+", name) if part)


def _starter(folder: Path, name: str, template: str) -> None:
    """A game.yaml, cards.yaml, cards.csv, an art/ folder and a README."""
    fields, rows = STARTERS[template]
    face = f"{template}.svg.j2"
    (folder / "art").mkdir()
    files = {
        "game.yaml": GAME.format(title=_title(name)),
        "cards.yaml": DECK.format(face=face, fields=fields),
        "cards.csv": rows,
        "README.md": README.format(title=_title(name), name=name, face=face, fields=fields),
    }
    for file, text in files.items():
        (folder / file).write_text(text, encoding="utf-8")


def _copy_example(folder: Path, example: str) -> None:
    """The files of an example game (not its built output); the docs' quoting marks are
    left out of a sample's specs."""
    games = {p.name: p for p in find_games(BUNDLED_GAMES)}
    if example not in games and example not in SAMPLES:
        shapes = "; ".join(
            f"{name}, {shape}: {holds}" for name, (shape, holds, _) in SAMPLES.items()
        )
        _fail(
            f"no example game named '{clean(example)}'; the bundled games are "
            f"{', '.join(games)}; games of other shapes: {shapes}",
            EXIT_SPEC_ERROR,
        )
    shutil.copytree(
        games.get(example, SAMPLE_GAMES / example),
        folder,
        dirs_exist_ok=True,
        symlinks=False,
        ignore=shutil.ignore_patterns(OWN_OUTPUT, "__pycache__"),
    )
    if example in SAMPLES:
        for spec in folder.glob("*.yaml"):
            spec.write_text(SNIPPET.sub("", spec.read_text(encoding="utf-8")), encoding="utf-8")
        shape, holds, page = SAMPLES[example]
        readme = SAMPLE_README.format(
            name=_title(example), shape=shape, holds=holds, page=DOCS + page
        )
        (folder / "README.md").write_text(readme, encoding="utf-8")


SAMPLE_README = """\
# Made from pnp-generator's {name}

A copy of {name}, {shape} made of data alone ({holds}), to make your own game from.
Every file is explained, key by key, on its page of pnp-generator's documentation:
{page}

    pnp check      # counts, text fit, how it prints: run it after each change
    pnp build      # the print pack: output/<game>/<game>.pdf
    pnp serve      # a page in your browser that redraws as you save

(run inside this folder, or name the game in the folder above it). Change the title,
`designer:` and `authored:` in `game.yaml` to your own.
"""
GAME = """\
# Your game. Change the title and the players; add `designer:`; every key is in pnp-generator's
# documentation (docs/reference.md).
title: {title}
players: 2-4

# The counts your rulebook gives, so that `pnp check` can tell you when the specs disagree:
# expect:
#   cards: 5

# How the stock templates draw your pieces; every key is optional.
style:
  accent: "#2f4f7f"       # frame, title band and discs
  paper: "#fbf7ee"        # background
  ink: "#222222"          # text
  font: sans-serif        # or serif, monospace, or a font of your own (fonts: in the docs)
  frame: rounded          # rounded, square, double or none
  pattern: diamonds       # card backs: diamonds, dots, stripes or plain
"""
DECK = """\
# The deck: one card per row of cards.csv (edit it in any spreadsheet program, save as CSV).
kind: deck
title: Cards
size: poker               # or bridge, mini-euro, euro, tarot, square, "63 x 88" ...
face: {face}     # {fields}
back: card-back.svg.j2    # the stock back: the game's title on the style's pattern
cards: {{from: cards.csv}}
"""
README = """\
# {title}

Made with `pnp new {name}`. Build the print pack with

    pnp build {name}          # or, inside this folder: pnp build

and print `output/{name}/{name}.pdf` (in the folder you ran it from) double-sided, at 100 %
(actual size): its first page says how.

## Next steps

1. **Your cards.** Open `cards.csv` in a spreadsheet program: one card per row, `count` copies
   of it. The columns are the fields of the stock template `{face}` ({fields}). Text may use
   `**bold**`, `*italic*` and icons such as `:coin:` or `:star:`.
2. **Pictures.** Put PNG or JPEG files in `art/` and name one in the `art` column
   (`art/dragon.png`).
3. **Looks.** Change the colours, font and frame under `style:` in `game.yaml`.
4. **Check.** `pnp check {name}` says if any text is too long for its card (even at 6 pt) and
   compares your counts with `expect:` in `game.yaml`.
5. **More.** Tokens, boards, dice, standees and reference sheets: see pnp-generator's
   documentation (docs/ in its repository, one page per kind). Write your own SVG templates
   in `templates/` when the stock ones are not enough. To see a game of another shape made
   of data alone, start one beside this: `pnp new my-war --from ridge` (a hex-and-counter
   wargame), `--from orchard` (a roll-and-write) or `--from harbour` (a board game).
"""
