"""Hardening: bad, hostile and faulty input ends in a clear error, never in a crash, a leak or a
damaged print pack.

Every game here is synthetic, written under a temporary folder, and the CLI runs as
``python -m generator`` in a process of its own, as a user runs it, so that a crash shows as a
traceback or an ``internal error`` (exit 4), which no test accepts. The README promises:

- a mistake in a spec, template or catalog exits 2, every mistake listed as
  ``file:LINE: what is wrong`` and nothing built;
- templates run in Jinja2's sandbox; ``asset()`` refuses files missing or outside the game
  folder; SVG is parsed without resolving entities; YAML has size and alias limits;
- the output folder that cannot be written exits 3, and a failed or interrupted build leaves
  the previous PDF and manifest as they were.

Hostile input must be refused or must leave no trace in the output of what lies outside the
game folder (a folder ``outside/`` beside ``components/`` holds the secrets the tests try to
reach).

To keep the suite fast, the synthetic games run in parallel when the module starts (``runs``),
several mistakes to a game where the engine reports them all in one run (it collects every
spec error before exiting). Cases that crashed the engine when these tests were written have
runs of their own, so a crash fails only their tests.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path

import pypdf
import pytest
from children import hears_ctrl_c
from PIL import Image
from waiting import PATIENCE

from generator.model.fields import MAX_COPIES
from generator.model.sizes import paper_sizes
from generator.model.yamlsource import MAX_FILE_BYTES, MAX_NODES
from generator.output.atomic import TMP_MARK

REPO = Path(__file__).resolve().parent.parent
TIMEOUT = PATIENCE  # s; a safety cap: a run that takes longer has hung
SECRET = "TOPSECRET-4711"  # the text of every file outside the game folder
PWNED = "PWNED"  # a file a template or spec would create if it could run a command

# --- running the CLI ----------------------------------------------------------------------------


def cli_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PNP_DEBUG"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def pnp_command(*args: object) -> list[str]:
    return [sys.executable, "-m", "generator", *map(str, args)]


@dataclass
class Proc:
    """A finished ``python -m generator`` run."""

    code: int
    stdout: str
    stderr: str
    folder: Path

    @property
    def out(self) -> str:
        return self.stdout + self.stderr


def run_pnp(folder: Path, *args: object, timeout: float = TIMEOUT, **popen: object) -> Proc:
    """``python -m generator ARGS`` with ``folder`` as the working directory."""
    proc = subprocess.run(
        pnp_command(*args),
        cwd=folder,
        env=cli_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        timeout=timeout,
        **popen,
    )
    return Proc(proc.returncode, proc.stdout, proc.stderr, folder)


def assert_no_crash(proc: Proc) -> None:
    assert "Traceback" not in proc.out, proc.out
    assert "internal error" not in proc.out, proc.out
    assert proc.code in (0, 1, 2, 3), f"exit status {proc.code}:\n{proc.out}"


def assert_spec_failure(proc: Proc) -> None:
    assert_no_crash(proc)
    assert proc.code == 2, f"exit status {proc.code}, expected 2:\n{proc.out}"
    assert "nothing was built" in proc.stderr, proc.stderr


def line_of(text: str, needle: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``text`` containing ``needle``."""
    hits = [i for i, line in enumerate(text.splitlines(), start=1) if needle in line]
    assert len(hits) >= nth, f"{needle!r} occurs {len(hits)} times in:\n{text}"
    return hits[nth - 1]


def message_at(proc: Proc, file: str, lines: set[int] | None) -> str:
    """The message of the first error line ``components/<file>:<LINE>: ...`` with LINE one of
    ``lines`` (any line, or none, when ``lines`` is None)."""
    pattern = re.compile(rf"^components/{re.escape(file)}(?::(\d+))?: (.*)$")
    for text in proc.stderr.splitlines():
        match = pattern.match(text)
        if match and (lines is None or (match[1] and int(match[1]) in lines)):
            return match[2]
    where = f"line {sorted(lines)}" if lines else "any line"
    raise AssertionError(f"no error at components/{file} ({where}):\n{proc.stderr}")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TMP_MARK in p.name)


# --- reading PDFs back --------------------------------------------------------------------------


def pdf_text(path: Path) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def image_sizes(path: Path) -> set[tuple[int, int]]:
    """The pixel sizes (w, h) of every raster image the PDF draws: image XObjects and the
    inline images (``BI /W w /H h ...``) of page and form content streams."""
    reader = pypdf.PdfReader(path)
    seen: set[tuple[int, int]] = set()
    sizes: set[tuple[int, int]] = set()

    def walk(obj: object) -> None:
        if isinstance(obj, pypdf.generic.IndirectObject):
            if (obj.idnum, obj.generation) in seen:
                return
            seen.add((obj.idnum, obj.generation))
            obj = obj.get_object()
        if isinstance(obj, pypdf.generic.StreamObject):
            if obj.get("/Subtype") == "/Image":
                sizes.add((int(obj["/Width"]), int(obj["/Height"])))
            elif obj.get("/Subtype") == "/Form" or "/Subtype" not in obj:
                data = obj.get_data()
                for match in re.finditer(rb"\bBI\s+/W\s+(\d+)\s+/H\s+(\d+)", data):
                    sizes.add((int(match[1]), int(match[2])))
        if isinstance(obj, pypdf.generic.DictionaryObject):
            for key, value in obj.items():
                if key != "/Parent":
                    walk(value)
        elif isinstance(obj, pypdf.generic.ArrayObject):
            for value in obj:
                walk(value)

    walk(reader.trailer.raw_get("/Root"))
    return sizes


def png(w: int, h: int, colour: tuple[int, int, int]) -> bytes:
    buffer = BytesIO()
    Image.new("RGB", (w, h), colour).save(buffer, "PNG")
    return buffer.getvalue()


INSIDE_PNG = png(8, 8, (250, 215, 205))  # an image of the game: 8 x 8, light under black text
SECRET_PNG = png(5, 7, (30, 30, 200))  # the image outside the game folder: 5 x 7

# --- a synthetic game -----------------------------------------------------------------------------

GAME_YAML = """\
title: Hardening
players: 2-4
colours:
  - {name: red, label: Red, colour: "#c0392b"}
"""

SVG_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>\n'
CARD_FACE = (
    SVG_OPEN
    + """\
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#ffffff"/>
  <text x="5" y="10" font-family="sans-serif" font-size="4">{{ card.title }}</text>
</svg>
"""
)
TOKEN_FACE = (
    SVG_OPEN
    + """\
  <circle cx="{{ box.cx }}" cy="{{ box.cy }}" r="{{ box.w / 2 }}" fill="#e8d8b0"/>
  <text x="{{ box.cx }}" y="{{ box.cy }}" font-family="sans-serif" font-size="3"
        text-anchor="middle">{{ token.name }}</text>
</svg>
"""
)
DIE_FACE = SVG_OPEN + '  <text x="4" y="8" font-size="5">{{ face }}</text>\n</svg>\n'
STANDEE_FACE = SVG_OPEN + '  <text x="4" y="8" font-size="5">{{ standee.name }}</text>\n</svg>\n'
HEADER = SVG_OPEN + '  <text x="2" y="8" font-size="5">{{ page.title }}</text>\n</svg>\n'
ICONS = """\
{% macro icon(name) -%}
{% if name == "star" -%}
<circle cx="0" cy="0" r="8" fill="#1a7a3a"/>
{%- endif %}
{%- endmacro %}
"""
TEMPLATES = {
    "templates/card.svg.j2": CARD_FACE,
    "templates/token.svg.j2": TOKEN_FACE,
    "templates/die.svg.j2": DIE_FACE,
    "templates/standee.svg.j2": STANDEE_FACE,
    "templates/header.svg.j2": HEADER,
    "templates/icons.svg.j2": ICONS,
}

DECK = """\
kind: deck
title: Deck
size: poker
face: card.svg.j2
cards:
  - name: a
    count: 2
    title: Visible A
  - name: b
    count: 1
    title: Visible B
"""
TOKENS = """\
kind: tokens
title: Tokens
shape: circle
size: 16
corner: 2
face: token.svg.j2
tokens:
  - name: a
    count: 2
    label: Crew
"""
DICE = """\
kind: dice
title: Dice
size: 16
face: die.svg.j2
dice:
  - name: d
    count: 1
"""
STANDEES = """\
kind: standees
title: Standees
size: 30 x 50
face: standee.svg.j2
standees:
  - name: s
    count: 1
"""
TOKEN_PAGES = """\
kind: token-pages
title: Token pages
size: 24
face: token.svg.j2
header: header.svg.j2
page_title: "Page {n}"
pages: 1
values: 1-3
each: 1
"""
BOARD = """\
kind: board
title: Board
size: 150 x 100
icons: icons.svg.j2
spaces:
  - {name: camp, at: [100, 30]}
labels:
  - {text: North, at: [20, 20]}
icons_at:
  - {icon: star, at: [130, 60]}
"""
SHEET = """\
kind: sheet
title: Rules
columns: 1
icons: icons.svg.j2
sections:
  - heading: Intro
    blocks:
      - text: "Pay :star: now."
"""


def sub(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` (which must be there) replaced by ``new``."""
    assert old in text, (old, text)
    return text.replace(old, new)


def entries(kind_key: str, *values: str, key: str = "count") -> str:
    """A list of entries ``e1, e2, ...`` with ``key: value`` each, one per line pair."""
    lines = [f"{kind_key}:"]
    for i, value in enumerate(values, start=1):
        lines += [f"  - name: e{i}", f"    {key}: {value}"]
    return "\n".join(lines) + "\n"


def game(files: dict[str, str | bytes], name: str = "game", base: bool = True) -> dict:
    """Files of game ``name`` (keys relative to ``components/``), with game.yaml and the
    templates unless given."""
    out: dict[str, str | bytes] = {}
    if base:
        out |= {f"{name}/game.yaml": GAME_YAML}
        out |= {f"{name}/{path}": text for path, text in TEMPLATES.items()}
    out |= {f"{name}/{path}": text for path, text in files.items()}
    return out


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def write_outside(folder: Path) -> None:
    """``outside/``: what no game may read (beside ``components/``)."""
    write_files(
        folder / "outside",
        {
            "secret.txt": SECRET,
            "secret.png": SECRET_PNG,
            "secret.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
            f'<g id="s"><text x="1" y="9" font-size="4">{SECRET}</text></g></svg>',
            "face.svg.j2": sub(CARD_FACE, "{{ card.title }}", SECRET),
            "extra.yaml": sub(sub(DECK, "title: Visible A", f"title: {SECRET}"), "Deck", "Extra"),
            "entities.dtd": f'<!ENTITY leak "{SECRET}">\n',
        },
    )


@dataclass(frozen=True)
class Run:
    """One ``python -m generator`` run on a synthetic components folder."""

    files: dict[str, str | bytes]  # relative to components/
    args: tuple[str, ...] = ("check",)  # the command and its options (--components is added)
    setup: Callable[[Path], None] | None = None  # gets the run's folder, after the files

    def text(self, file: str) -> str:
        content = self.files[file]
        if isinstance(content, str):
            return content
        try:
            return content.decode("utf-8")
        except UnicodeDecodeError:
            return content.decode("latin-1")


def execute(folder: Path, run: Run) -> Proc:
    folder.mkdir(parents=True)
    write_files(folder / "components", run.files)
    write_outside(folder)
    if run.setup:
        run.setup(folder)
    command, *options = run.args
    return run_pnp(folder, command, "--components", "components", *options)


BUILD = ("build", "--out", "out")


def symlink(link: str, target: str) -> Callable[[Path], None]:
    """A setup that makes ``components/<link>`` a symlink to ``<target>`` (from the run's
    folder)."""

    def setup(folder: Path) -> None:
        path = folder / "components" / link
        if path.exists() or path.is_symlink():
            path.unlink()
        path.symlink_to(folder / target)

    return setup


def absolute(file: str, placeholder: str, target: str) -> Callable[[Path], None]:
    """A setup that writes the absolute path of ``<target>`` into ``components/<file>``."""

    def setup(folder: Path) -> None:
        path = folder / "components" / file
        text = path.read_text(encoding="utf-8")
        path.write_text(sub(text, placeholder, str(folder / target)), encoding="utf-8")

    return setup


def setups(*steps: Callable[[Path], None]) -> Callable[[Path], None]:
    def setup(folder: Path) -> None:
        for step in steps:
            step(folder)

    return setup


# --- the runs -----------------------------------------------------------------------------------

DUP_EXPECT = GAME_YAML + "expect:\n  deck: 3\n  deck: 4\n"
DUP_ENTRY = sub(DECK, "    title: Visible A\n", "    title: Visible A\n    title: A again\n")
DUP_NESTED = TOKENS + "fields:\n  style:\n    colour: red\n    colour: blue\n"
DUP_FLOW = sub(BOARD, "{name: camp, at: [100, 30]}", "{name: camp, at: [100, 30], name: fort}")
TYPE_COUNT = sub(TOKENS, "count: 2", "count: [2]")
TYPE_POINT = sub(BOARD, "at: [100, 30]", "at: [100, north]")
TYPE_ROWS = sub(SHEET, '      - text: "Pay :star: now."', '      - table: {rows: "1, 2"}')
TYPE_FIELDS = sub(DECK, "cards:", "fields: [a, b]\ncards:")
TYPE_FACE = sub(DECK, "face: card.svg.j2", "face: [card.svg.j2]")
UNKNOWN_TOKENS = sub(TOKENS, "corner: 2", "coner: 2")
UNKNOWN_BOARD = sub(BOARD, "at: [100, 30]}", "at: [100, 30], sise: 4}")
UNKNOWN_BLOCK = sub(SHEET, "- text:", "- txt:")
UNKNOWN_SHEET = sub(SHEET, "columns: 1", "colums: 1")
UNKNOWN_ENTRY = sub(TOKENS, "    count: 2", "    per_playr: 2")
EMPTY_DECK = DECK.split("cards:")[0] + "cards: []\n"
EVIL_ID = sub(DECK, "title: Deck", "id: ../evil\ntitle: Deck")
EVIL_NAME = sub(DECK, "name: a", "name: ../a")

VALUES_GAME = sub(GAME_YAML, 'colour: "#c0392b"', "colour: 12") + "paper: b5\n"
COUNTS_TOKENS = TOKENS.split("tokens:")[0] + entries("tokens", "-1", "0", "1.5", "5000", "many")
COUNTS_DICE = DICE.split("dice:")[0] + entries("dice", "0", "2.5", "100000")
COUNTS_STANDEES = STANDEES.split("standees:")[0] + entries("standees", "-3", "1001")
COUNTS_PAGES = sub(sub(TOKEN_PAGES, "pages: 1", "pages: 0"), "each: 1", "each: 101")
COUNTS_PAGES2 = sub(sub(TOKEN_PAGES, "pages: 1", "pages: 201"), "each: 1", "each: 1.5")
SIZE_CARD_ZERO = sub(DECK, "size: poker", "size: 0 x 10")
SIZE_CARD_NEG = sub(DECK, "size: poker", "size: -5 x 10")
SIZE_TOKEN_ZERO = sub(TOKENS, "size: 16", "size: 0")
SIZE_TOKEN_NEG = sub(TOKENS, "size: 16", "size: -5")
GLYPH_TOKEN = sub(TOKENS, "label: Crew", "label: Crew 漢")
GLYPH_BOARD = sub(BOARD, "{text: North,", "{text: North 漢,")
GLYPH_SHEET = sub(SHEET, "Pay :star:", "Pay 漢 :star:")
PATH_FACE = sub(DECK, "face: card.svg.j2", "face: /etc/passwd")
PATH_BACK = sub(TOKENS, "face: token.svg.j2", "face: token.svg.j2\nback: ../../../../etc/passwd")
PATH_HEADER = sub(TOKEN_PAGES, "header: header.svg.j2", "header: /etc/passwd")
PATH_ICONS = sub(BOARD, "icons: icons.svg.j2", "icons: ../../outside/secret.svg")
PATH_SHEET_ICONS = sub(SHEET, "icons: icons.svg.j2", "icons: 'C:\\secret.svg'")


def alias_bomb(levels: int = 8, width: int = 10) -> str:
    """Nested aliases: ``width ** levels`` values from a few hundred bytes."""
    items = ", ".join(["x"] * width)
    lines = [f"a0: &a0 [{items}]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def merge_bomb(levels: int = 8, width: int = 10) -> str:
    """Nested merge keys and aliases."""
    lines = ["m0: &m0 {k: 1}"]
    for i in range(1, levels + 1):
        refs = ", ".join([f"*m{i - 1}"] * width)
        lines += [f"m{i}: &m{i}", f"  <<: [*m{i - 1}]", f"  k{i}: [{refs}]"]
    return "\n".join(lines) + "\n"


HUGE = DECK + "fields:\n" + "".join(f"  f{i}: {'x' * 60}\n" for i in range(MAX_FILE_BYTES // 64))
TAG_SCALAR = sub(DECK, "title: Deck", "title: !!python/name:os.system")
TAG_SEQUENCE = TOKENS + f"fields:\n  x: !!python/object/apply:os.system ['touch {PWNED}']\n"
NUL_TITLE = sub(DECK, "title: Visible A", "title: Visible\x00A")

MISSING_FACE = sub(TOKENS, "face: token.svg.j2", "face: nothere-face.svg.j2")
MISSING_HEADER = sub(TOKEN_PAGES, "header: header.svg.j2", "header: nothere-header.svg.j2")
MISSING_ICONS = sub(BOARD, "icons: icons.svg.j2", "icons: nothere-icons.svg.j2")
MISSING_SHEET = sub(SHEET, "icons: icons.svg.j2", "icons: nothere-sheet.svg.j2")

ICONS_IFF = sub(ICONS, '{% if name == "star" -%}', '{% iff name == "star" -%}')
ICONS_UNDEFINED = sub(ICONS, 'r="8"', 'r="{{ nope }}"')
ICONS_BAD_SVG = sub(ICONS, 'fill="#1a7a3a"/>', 'fill="#1a7a3a">')
SANDBOX = {
    "mro": "{{ ''.__class__.__mro__ }}",
    "cycler": "{{ cycler.__init__.__globals__ }}",
    "import": f"{{% from 'os' import system %}}{{{{ system('touch {PWNED}') }}}}",
}
LOL = (
    '<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY lol "lol">\n'
    + "".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'
        for i in range(1, 10)
    )
    + "]>\n"
)


def with_face(spec: str, template: str) -> str:
    """``spec`` drawn by the face template ``template``."""
    return re.sub(r"^face: .*$", f"face: {template}", spec, count=1, flags=re.M)


def with_key(spec: str, key: str, template: str) -> str:
    return re.sub(rf"^{key}: .*$", f"{key}: {template}", spec, count=1, flags=re.M)


TEMPLATE_MISTAKES = {
    # spec file: (spec, template file, template text)
    "syntax-token": (
        with_face(TOKENS, "syntax-token.svg.j2"),
        sub(TOKEN_FACE, "{{ token.name }}", "{% iff token.name %}"),
    ),
    "syntax-icons": (with_key(BOARD, "icons", "syntax-icons.svg.j2"), ICONS_IFF),
    "syntax-sheet": (with_key(SHEET, "icons", "syntax-sheet.svg.j2"), ICONS_IFF),
    "syntax-header": (
        with_key(TOKEN_PAGES, "header", "syntax-header.svg.j2"),
        sub(HEADER, "{{ page.title }}", "{% iff page.title %}"),
    ),
    "undefined-token": (
        with_face(TOKENS, "undefined-token.svg.j2"),
        sub(TOKEN_FACE, "token.name", "token.nope"),
    ),
    "undefined-icons": (with_key(BOARD, "icons", "undefined-icons.svg.j2"), ICONS_UNDEFINED),
    "undefined-sheet": (with_key(SHEET, "icons", "undefined-sheet.svg.j2"), ICONS_UNDEFINED),
    "undefined-header": (
        with_key(TOKEN_PAGES, "header", "undefined-header.svg.j2"),
        sub(HEADER, "page.title", "page.nope"),
    ),
    **{
        f"sandbox-{name}": (
            with_face(DECK, f"sandbox-{name}.svg.j2"),
            sub(CARD_FACE, "{{ card.title }}", payload),
        )
        for name, payload in SANDBOX.items()
    },
    "badsvg-token": (
        with_face(TOKENS, "badsvg-token.svg.j2"),
        sub(TOKEN_FACE, 'fill="#e8d8b0"/>', 'fill="#e8d8b0">'),
    ),
    "badsvg-sheet": (with_key(SHEET, "icons", "badsvg-sheet.svg.j2"), ICONS_BAD_SVG),
    "lol": (
        with_face(DECK, "lol.svg.j2"),
        LOL + sub(CARD_FACE, "{{ card.title }}", "&lol9;"),
    ),
}

ASSET_CARDS = {
    # card name: its `art:` (the face draws <image href="{{ asset(card.art) }}">)
    "missing": "missing.png",
    "corrupt": "corrupt.png",
    "text": "text.png",
    "dotdot": "../../outside/secret.png",
    "absolute": "/etc/passwd",
    "url": "file:///etc/passwd",
    "link": "link.png",
}
ASSET_FACE = sub(
    CARD_FACE,
    "</svg>",
    '  <image x="0" y="0" width="20" height="20" href="{{ asset(card.art) }}"/>\n</svg>',
)
ASSETS = "kind: deck\ntitle: Assets\nsize: poker\nface: asset.svg.j2\ncards:\n" + "".join(
    f"  - name: {name}\n    count: 1\n    title: Visible {name}\n    art: {art}\n"
    for name, art in ASSET_CARDS.items()
)

CATALOG_HEAD = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
CATALOG_OK = 'msgid "Deck"\nmsgstr "Stapel"\n\nmsgid "Visible A"\nmsgstr "Sichtbar A"\n'
BROKEN_CATALOGS = {
    # game: (de.po, the text of the broken line)
    "po-garbage": (CATALOG_HEAD + CATALOG_OK + "\nhello world\n", "hello world"),
    "po-unterminated": (
        CATALOG_HEAD + CATALOG_OK + '\nmsgid "Visible B\nmsgstr "Sichtbar B"\n',
        'msgid "Visible B',
    ),
    "po-latin1": (
        CATALOG_HEAD + CATALOG_OK + '\nmsgid "Visible B"\nmsgstr "Sichtbar \xe4"\n',
        "\xe4",
    ),
}


def catalog_game(name: str, po: str, encoding: str = "utf-8") -> dict:
    return game(
        {
            "game.yaml": GAME_YAML + "languages: [en, de]\n",
            "deck.yaml": DECK,
            "locale/de.po": po.encode(encoding),
        },
        name,
    )


NAMES_GAME = "Mein Spiel ä ö"
NAMES_DECK = "Plättchen und Karten.yaml"
NAMES_FACE = sub(
    CARD_FACE,
    "</svg>",
    '  <image x="0" y="0" width="20" height="20" href="{{ asset(card.art) }}"/>\n</svg>',
)

HREF_FACE = sub(
    CARD_FACE,
    "</svg>",
    '  <image x="0" y="0" width="20" height="20" href="{{ card.href }}"/>\n'
    '  <use href="{{ card.use }}"/>\n</svg>',
)
HREF_CARDS = {
    # card name: (image href, use href), written raw by the template (no asset())
    "url": ("file://OUTSIDE/secret.png", "file://OUTSIDE/secret.svg#s"),
    "relative": ("../../outside/secret.png", "../../outside/secret.svg#s"),
    "absolute": ("OUTSIDE/secret.png", "OUTSIDE/secret.svg#s"),
    "link": ("link.png", "link.svg#s"),
}
HREF_DECK = "kind: deck\ntitle: Links\nsize: poker\nface: href.svg.j2\ncards:\n" + "".join(
    f"  - {{name: {name}, count: 1, title: Visible {name}, href: '{image}', use: '{use}'}}\n"
    for name, (image, use) in HREF_CARDS.items()
)
LEGIT_DECK = sub(with_face(DECK, "legit.svg.j2"), "title: Deck", "title: Legit")
LEGIT_FACE = sub(
    CARD_FACE,
    "</svg>",
    '  <image x="0" y="0" width="20" height="20" href="{{ asset(\'inside.png\') }}"/>\n</svg>',
)


def fill_outside(file: str) -> Callable[[Path], None]:
    def setup(folder: Path) -> None:
        path = folder / "components" / file
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("OUTSIDE", str(folder / "outside")), encoding="utf-8")

    return setup


XXE_TEXT = (
    '<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY xxe SYSTEM "file://SECRET">\n]>\n'
    + sub(CARD_FACE, "{{ card.title }}", "{{ card.title }} &xxe;")
)
XXE_PARAMETER = (
    '<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY % pe SYSTEM "file://DTD">\n%pe;\n]>\n'
    + sub(CARD_FACE, "{{ card.title }}", "{{ card.title }} &leak;")
)
XXE_DTD = '<?xml version="1.0"?>\n<!DOCTYPE svg SYSTEM "file://DTD">\n' + sub(
    CARD_FACE, "{{ card.title }}", "{{ card.title }} &leak;"
)


def fill_secrets(file: str) -> Callable[[Path], None]:
    def setup(folder: Path) -> None:
        path = folder / "components" / file
        text = path.read_text(encoding="utf-8")
        text = text.replace("file://SECRET", (folder / "outside/secret.txt").as_uri())
        text = text.replace("file://DTD", (folder / "outside/entities.dtd").as_uri())
        path.write_text(text, encoding="utf-8")

    return setup


RUNS: dict[str, Run] = {
    "structure": Run(
        game(
            {
                "game.yaml": DUP_EXPECT,
                "dup-entry.yaml": DUP_ENTRY,
                "dup-nested.yaml": DUP_NESTED,
                "dup-flow.yaml": DUP_FLOW,
                "type-count.yaml": TYPE_COUNT,
                "type-point.yaml": TYPE_POINT,
                "type-rows.yaml": TYPE_ROWS,
                "type-fields.yaml": TYPE_FIELDS,
                "type-face.yaml": TYPE_FACE,
                "unknown-tokens.yaml": UNKNOWN_TOKENS,
                "unknown-board.yaml": UNKNOWN_BOARD,
                "unknown-block.yaml": UNKNOWN_BLOCK,
                "unknown-sheet.yaml": UNKNOWN_SHEET,
                "unknown-entry.yaml": UNKNOWN_ENTRY,
                "empty-deck.yaml": EMPTY_DECK,
                "evil-id.yaml": EVIL_ID,
                "evil-name.yaml": EVIL_NAME,
                "Karten ä.yaml": DECK,
                "karten-a.yaml": DECK,
            }
        )
    ),
    "values": Run(
        game(
            {
                "game.yaml": VALUES_GAME,
                "counts-tokens.yaml": COUNTS_TOKENS,
                "counts-dice.yaml": COUNTS_DICE,
                "counts-standees.yaml": COUNTS_STANDEES,
                "counts-pages.yaml": COUNTS_PAGES,
                "counts-pages2.yaml": COUNTS_PAGES2,
                "size-card-zero.yaml": SIZE_CARD_ZERO,
                "size-card-neg.yaml": SIZE_CARD_NEG,
                "size-token-zero.yaml": SIZE_TOKEN_ZERO,
                "size-token-neg.yaml": SIZE_TOKEN_NEG,
                "glyph-token.yaml": GLYPH_TOKEN,
                "glyph-board.yaml": GLYPH_BOARD,
                "glyph-sheet.yaml": GLYPH_SHEET,
                "path-face.yaml": PATH_FACE,
                "path-back.yaml": PATH_BACK,
                "path-header.yaml": PATH_HEADER,
                "path-icons.yaml": PATH_ICONS,
                "path-sheet-icons.yaml": PATH_SHEET_ICONS,
            }
        )
    ),
    "limits": Run(
        game(
            {
                "bomb.yaml": alias_bomb(),
                "merge.yaml": merge_bomb(),
                "huge.yaml": HUGE,
                "tag-scalar.yaml": TAG_SCALAR,
                "tag-sequence.yaml": TAG_SEQUENCE,
                "nul.yaml": NUL_TITLE,
            }
        )
    ),
    "missing-templates": Run(
        game(
            {
                "missing-face.yaml": MISSING_FACE,
                "missing-header.yaml": MISSING_HEADER,
                "missing-icons.yaml": MISSING_ICONS,
                "missing-sheet.yaml": MISSING_SHEET,
            }
        )
    ),
    "templates": Run(
        game(
            {f"{name}.yaml": spec for name, (spec, _) in TEMPLATE_MISTAKES.items()}
            | {f"templates/{name}.svg.j2": tpl for name, (_, tpl) in TEMPLATE_MISTAKES.items()}
            | {
                "large-card.yaml": sub(DECK, "size: poker", "size: 300 x 400"),
                "large-token.yaml": sub(sub(TOKENS, "circle", "square"), "size: 16", "size: 250"),
            }
        )
    ),
    # cases that crashed the engine (exit 4) when these tests were written have runs of their
    # own, so that a crash fails only their tests: while drawing ...
    "crashes": Run(
        game(
            {
                "badsvg-board.yaml": with_key(BOARD, "icons", "badsvg-board.svg.j2"),
                "templates/badsvg-board.svg.j2": ICONS_BAD_SVG,
                "range.yaml": with_face(DECK, "range.svg.j2"),
                "templates/range.svg.j2": sub(
                    CARD_FACE, "{{ card.title }}", "{% for i in range(10**9) %}{% endfor %}"
                ),
                "again.yaml": with_face(DECK, "again.svg.j2"),
                "templates/again.svg.j2": sub(
                    CARD_FACE, "{{ card.title }}", "{% include 'again.svg.j2' %}"
                ),
                "surrogate.yaml": sub(DECK, "title: Visible A", 'title: "A\\uD800"'),
            }
        )
    ),
    "template-inf": Run(
        game(
            {
                "inf.yaml": with_face(DECK, "inf.svg.j2"),
                "templates/inf.svg.j2": sub(CARD_FACE, "{{ box.w }}", "{{ box.w - 1e309 }}"),
            }
        )
    ),
    # ... and while loading
    "load-crashes": Run(
        game({"deep.yaml": "x: " + "[" * 5000 + "]" * 5000 + "\n", "kind-list.yaml": "kind: []\n"})
    ),
    "too-large-letter": Run(
        game({"large-card.yaml": sub(DECK, "size: poker", "size: 250 x 200")}),
        (*BUILD, "--paper", "letter"),
    ),
    "assets": Run(
        game(
            {
                "assets.yaml": ASSETS,
                "templates/asset.svg.j2": ASSET_FACE,
                "corrupt.png": random.Random(4711).randbytes(300),
                "text.png": "This is text, not a PNG image.\n",
            }
        ),
        BUILD,
        symlink("game/link.png", "outside/secret.png"),
    ),
    "glyphs-drawn": Run(
        game(
            {
                "glyph-field.yaml": sub(
                    with_face(DECK, "suit.svg.j2"),
                    "title: Visible A",
                    "title: Visible A\n    suit: 漢",
                ),
                "templates/suit.svg.j2": sub(CARD_FACE, "{{ card.title }}", "{{ card.suit }}"),
                "glyph-literal.yaml": with_face(DECK, "literal.svg.j2"),
                "templates/literal.svg.j2": sub(CARD_FACE, "{{ card.title }}", "Literal 漢"),
            }
        ),
        BUILD,
    ),
    "catalog": Run(
        {
            path: content
            for name, (po, _) in BROKEN_CATALOGS.items()
            for path, content in catalog_game(
                name, po, "latin-1" if name == "po-latin1" else "utf-8"
            ).items()
        },
        ("check", "--lang", "de"),
    ),
    "catalog-charset": Run(
        catalog_game("po-charset", CATALOG_HEAD.replace("UTF-8", "klingon") + CATALOG_OK),
        ("check", "--lang", "de"),
    ),
    "catalog-backslash": Run(
        game(
            {
                "game.yaml": GAME_YAML + "languages: [en, de]\n",
                "deck.yaml": sub(DECK, "title: Visible A", "title: 'Path C:\\'"),
                "locale/de.po": CATALOG_HEAD + 'msgid "Path C:\\\\"\nmsgstr "Pfad C:\\\\"\n',
            },
            "po-backslash",
        ),
        ("check", "--lang", "de"),
    ),
    "names": Run(
        game(
            {
                NAMES_DECK: sub(
                    with_face(DECK, "Vorderseite ä.svg.j2"),
                    "cards:",
                    "fields:\n  art: Bild ü.png\ncards:",
                ),
                "templates/Vorderseite ä.svg.j2": NAMES_FACE,
                "Bild ü.png": INSIDE_PNG,
            },
            NAMES_GAME,
        ),
        BUILD,
    ),
    "cli-paper": Run(game({"deck.yaml": DECK}), (*BUILD, "--paper", "b5")),
    "lang-xx": Run(game({"deck.yaml": DECK}), (*BUILD, "--lang", "xx")),
    "game-arg": Run(game({"deck.yaml": DECK}), ("build", "../evil", "--out", "out")),
    "href": Run(
        game(
            {
                "links.yaml": HREF_DECK,
                "templates/href.svg.j2": HREF_FACE,
                "legit.yaml": LEGIT_DECK,
                "templates/legit.svg.j2": LEGIT_FACE,
                "inside.png": INSIDE_PNG,
            }
        ),
        BUILD,
        setups(
            fill_outside("game/links.yaml"),
            symlink("game/link.png", "outside/secret.png"),
            symlink("game/link.svg", "outside/secret.svg"),
        ),
    ),
    "symlink-include": Run(
        game(
            {
                "deck.yaml": with_face(DECK, "include.svg.j2"),
                "templates/include.svg.j2": sub(
                    CARD_FACE, "{{ card.title }}", "{{ card.title }} {% include 'notes.txt' %}"
                ),
            }
        ),
        BUILD,
        symlink("game/templates/notes.txt", "outside/secret.txt"),
    ),
    "symlink-template": Run(
        game({"deck.yaml": DECK}),
        BUILD,
        symlink("game/templates/card.svg.j2", "outside/face.svg.j2"),
    ),
    "symlink-spec": Run(
        game({"deck.yaml": DECK, "extra.yaml": ""}),
        BUILD,
        symlink("game/extra.yaml", "outside/extra.yaml"),
    ),
    "xxe": Run(
        game(
            {
                "system.yaml": with_face(DECK, "system.svg.j2"),
                "templates/system.svg.j2": XXE_TEXT,
                "parameter.yaml": with_face(DECK, "parameter.svg.j2"),
                "templates/parameter.svg.j2": XXE_PARAMETER,
                "dtd.yaml": with_face(DECK, "dtd.svg.j2"),
                "templates/dtd.svg.j2": XXE_DTD,
            }
        ),
        BUILD,
        setups(
            fill_secrets("game/templates/system.svg.j2"),
            fill_secrets("game/templates/parameter.svg.j2"),
            fill_secrets("game/templates/dtd.svg.j2"),
        ),
    ),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Proc]]:
    """``runs(name)``: the finished run ``RUNS[name]``; all start at once, in parallel."""
    base = tmp_path_factory.mktemp("hardening")
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures: dict[str, Future[Proc]] = {
            name: pool.submit(execute, base / name, run) for name, run in RUNS.items()
        }
        yield lambda name: futures[name].result()
        for future in futures.values():
            future.cancel()


# --- bad input: file:LINE: message, exit 2 --------------------------------------------------------


@dataclass(frozen=True)
class Mistake:
    """A mistake planted in ``file`` (relative to components/) of run ``run``: the error must
    point at a line containing one of ``at`` (any line when None) and its message must match
    every regular expression of ``words``. Where two places are as good (the spec line of a
    value, or the template that draws it), an error at any line of ``or_file`` will do."""

    run: str
    file: str
    at: tuple[str, ...] | None
    words: tuple[str, ...] = ()
    or_file: str | None = None


def first_line(run: str, file: str, needle: str) -> str:
    return f"line {line_of(RUNS[run].text(file), needle)}"


MISTAKES: dict[str, Mistake] = {
    # duplicate keys at several depths
    "duplicate key in game.yaml expect": Mistake(
        "structure",
        "game/game.yaml",
        ("  deck: 4",),
        ("duplicate key 'deck'", first_line("structure", "game/game.yaml", "  deck: 3")),
    ),
    "duplicate key in a card": Mistake(
        "structure",
        "game/dup-entry.yaml",
        ("title: A again",),
        ("duplicate key 'title'", first_line("structure", "game/dup-entry.yaml", "Visible A")),
    ),
    "duplicate key in nested fields": Mistake(
        "structure",
        "game/dup-nested.yaml",
        ("colour: blue",),
        ("duplicate key 'colour'", first_line("structure", "game/dup-nested.yaml", "colour: red")),
    ),
    "duplicate key in a flow mapping": Mistake(
        "structure", "game/dup-flow.yaml", ("name: fort",), ("duplicate key 'name'",)
    ),
    # wrong types in nested places
    "token count given as a list": Mistake(
        "structure", "game/type-count.yaml", ("count: [2]",), (r"tokens\.0\.count", "integer")
    ),
    "board point with a word": Mistake(
        "structure", "game/type-point.yaml", ("north",), (r"spaces\.0\.at\.1", "number")
    ),
    "sheet table rows given as text": Mistake(
        "structure", "game/type-rows.yaml", ("rows:",), ("rows", "list")
    ),
    "deck fields given as a list": Mistake(
        "structure", "game/type-fields.yaml", ("fields:",), ("fields", "dictionary")
    ),
    "template name given as a list": Mistake(
        "structure", "game/type-face.yaml", ("face:",), ("face", "string")
    ),
    "player colour given as a number": Mistake(
        "values", "game/game.yaml", ("colour: 12",), (r"colours\.0\.colour", "string")
    ),
    # unknown keys
    "unknown key in tokens": Mistake(
        "structure", "game/unknown-tokens.yaml", ("coner:",), ("'coner'", "did you mean 'corner'")
    ),
    "unknown key in a board space": Mistake(
        "structure", "game/unknown-board.yaml", ("sise:",), ("'sise'", "did you mean 'size'")
    ),
    "unknown key in a sheet block": Mistake(
        "structure", "game/unknown-block.yaml", ("txt:",), ("'txt'", "did you mean 'text'")
    ),
    "unknown key in a sheet": Mistake(
        "structure", "game/unknown-sheet.yaml", ("colums:",), ("'colums'", "did you mean 'columns'")
    ),
    "misspelt per_player in a token entry": Mistake(
        "structure",
        "game/unknown-entry.yaml",
        ("per_playr:", "- name: a"),
        ("per_playr", "did you mean 'per_player'"),
    ),
    # counts
    **{
        f"token count {value}": Mistake(
            "values", "game/counts-tokens.yaml", (f"count: {value}",), w
        )
        for value, w in [
            ("-1", ("-1", r"(at least|greater than or equal to) 1\b")),
            # count 0 parks an entry (issue 26: listed by pnp list, not printed), no error
            ("1.5", (r"1\.5", "integer")),
            ("5000", ("5000", rf"\b{MAX_COPIES}\b")),
            ("many", ("'many'", "integer")),
        ]
    },
    **{
        f"die count {value}": Mistake("values", "game/counts-dice.yaml", (f"count: {value}",), w)
        for value, w in [
            ("2.5", (r"2\.5", "integer")),
            ("100000", ("100000", rf"\b{MAX_COPIES}\b")),
        ]
    },
    **{
        f"standee count {value}": Mistake(
            "values", "game/counts-standees.yaml", (f"count: {value}",), w
        )
        for value, w in [
            ("-3", ("-3", r"(at least|greater than or equal to) 1\b")),
            ("1001", ("1001", rf"\b{MAX_COPIES}\b")),
        ]
    },
    "token pages: 0 pages": Mistake(
        "values", "game/counts-pages.yaml", ("pages: 0",), ("pages", r"(at least|or equal to) 1\b")
    ),
    "token pages: 101 each": Mistake(
        "values", "game/counts-pages.yaml", ("each: 101",), ("each", "101", r"\b100\b")
    ),
    "token pages: 201 pages": Mistake(
        "values", "game/counts-pages2.yaml", ("pages: 201",), ("pages", "201", r"\b200\b")
    ),
    "token pages: 1.5 each": Mistake(
        "values", "game/counts-pages2.yaml", ("each: 1.5",), ("each", "integer")
    ),
    # sizes
    "card size zero": Mistake(
        "values", "game/size-card-zero.yaml", ("size:",), ("size", "greater than 0")
    ),
    "card size negative": Mistake("values", "game/size-card-neg.yaml", ("size:",), ("-5 x 10",)),
    "token size zero": Mistake(
        "values", "game/size-token-zero.yaml", ("size:",), ("size", "greater than 0")
    ),
    "token size negative": Mistake(
        "values", "game/size-token-neg.yaml", ("size:",), ("size", "-5", "greater than 0")
    ),
    "card larger than the paper": Mistake(
        "templates", "game/large-card.yaml", ("size:",), ("300 x 400", r"\ba4\b")
    ),
    "token larger than the paper": Mistake(
        "templates", "game/large-token.yaml", ("size:",), ("250", r"\ba4\b")
    ),
    "card larger than letter paper": Mistake(
        "too-large-letter", "game/large-card.yaml", ("size:",), ("250 x 200", r"\bletter\b")
    ),
    "unknown paper in game.yaml": Mistake(
        "values", "game/game.yaml", ("paper: b5",), ("b5", *map(re.escape, paper_sizes()))
    ),
    "empty deck": Mistake(
        "structure", "game/empty-deck.yaml", ("cards: []",), ("cards", r"at least 1")
    ),
    # glyphs the font lacks
    "glyph missing in a token label": Mistake(
        "values", "game/glyph-token.yaml", ("label:",), ("漢", "Crew 漢")
    ),
    "glyph missing in a board label": Mistake(
        "values", "game/glyph-board.yaml", ("North 漢",), ("漢",)
    ),
    "glyph missing in sheet text": Mistake("values", "game/glyph-sheet.yaml", ("Pay 漢",), ("漢",)),
    "glyph missing in a data field a template prints": Mistake(
        "glyphs-drawn",
        "game/glyph-field.yaml",
        ("suit:",),
        ("漢",),
        or_file="game/templates/suit.svg.j2",
    ),
    "glyph missing in a template's own text": Mistake(
        "glyphs-drawn",
        "game/templates/literal.svg.j2",
        None,
        ("漢",),
        or_file="game/glyph-literal.yaml",
    ),
    # templates: missing, syntax errors, undefined variables
    "token face template missing": Mistake(
        "missing-templates",
        "game/missing-face.yaml",
        ("face:",),
        ("nothere-face.svg.j2", "not found"),
    ),
    "token-pages header template missing": Mistake(
        "missing-templates",
        "game/missing-header.yaml",
        ("header:",),
        ("nothere-header.svg.j2", "not found"),
    ),
    "board icons template missing": Mistake(
        "missing-templates",
        "game/missing-icons.yaml",
        ("icons:",),
        ("nothere-icons.svg.j2", "not found"),
    ),
    "sheet icons template missing": Mistake(
        "missing-templates",
        "game/missing-sheet.yaml",
        ("icons:",),
        ("nothere-sheet.svg.j2", "not found"),
    ),
    **{
        f"template {name}": Mistake(
            "templates", f"game/templates/{name}.svg.j2", (needle,), (word,)
        )
        for name, needle, word in [
            ("syntax-token", "{% iff", "iff"),
            ("syntax-icons", "{% iff", "iff"),
            ("syntax-sheet", "{% iff", "iff"),
            ("syntax-header", "{% iff", "iff"),
            ("undefined-token", "token.nope", "nope"),
            ("undefined-icons", "nope", "nope"),
            ("undefined-sheet", "nope", "nope"),
            ("undefined-header", "page.nope", "nope"),
        ]
    },
    "token template renders bad SVG": Mistake(
        "templates",
        "game/templates/badsvg-token.svg.j2",
        None,
        ("not well-formed", "badsvg-token.yaml"),
    ),
    "sheet icon macro renders bad SVG": Mistake(
        "templates",
        "game/templates/badsvg-sheet.svg.j2",
        None,
        ("not well-formed", "badsvg-sheet.yaml"),
    ),
    "board icon macro renders bad SVG": Mistake(
        "crashes",
        "game/templates/badsvg-board.svg.j2",
        None,
        ("not well-formed",),
        or_file="game/badsvg-board.yaml",
    ),
    # catalogs
    **{
        f"catalog {name.removeprefix('po-')}": Mistake(
            "catalog", f"{name}/locale/de.po", (needle,), ("catalog",)
        )
        for name, (_, needle) in BROKEN_CATALOGS.items()
    },
    "catalog with an unknown charset": Mistake(
        "catalog-charset", "po-charset/locale/de.po", None, ("klingon",)
    ),
    # YAML limits and malformed text
    "nested YAML aliases": Mistake("limits", "game/bomb.yaml", None, (f"{MAX_NODES:,}",)),
    "nested YAML merge keys": Mistake("limits", "game/merge.yaml", None, (f"{MAX_NODES:,}",)),
    "YAML document over the size limit": Mistake(
        "limits", "game/huge.yaml", None, (f"{MAX_FILE_BYTES:,}",)
    ),
    "YAML python tag": Mistake("limits", "game/tag-scalar.yaml", ("!!python",), ("python",)),
    "NUL character in YAML": Mistake("limits", "game/nul.yaml", ("Visible\x00A",), ("character",)),
    "YAML nested 5000 deep": Mistake("load-crashes", "game/deep.yaml", None, (r"nest|deep",)),
    "kind given as a list": Mistake(
        "load-crashes", "game/kind-list.yaml", ("kind:",), ("kind", r"deck, tokens")
    ),
    "lone surrogate in YAML text": Mistake(
        "crashes",
        "game/surrogate.yaml",
        ("A\\uD800",),
        (r"(?i)surrogate|character|\\ud800",),
        or_file="game/templates/card.svg.j2",
    ),
    # ids that would become output names
    "component id ../evil": Mistake("structure", "game/evil-id.yaml", ("id:",), (r"\.\./evil",)),
    "card name ../a": Mistake("structure", "game/evil-name.yaml", ("name: ../a",), (r"\.\./a",)),
    "two file names with the same slug": Mistake(
        "structure", "game/karten-a.yaml", None, ("'karten-a'", "Karten ä.yaml")
    ),
    # the sandbox
    "sandbox: ''.__class__.__mro__": Mistake(
        "templates", "game/templates/sandbox-mro.svg.j2", ("__mro__",), ("unsafe",)
    ),
    "sandbox: cycler.__init__.__globals__": Mistake(
        "templates", "game/templates/sandbox-cycler.svg.j2", ("cycler",), ("unsafe",)
    ),
    "sandbox: range(10**9)": Mistake(
        "crashes", "game/templates/range.svg.j2", ("range(",), ("range",)
    ),
    "sandbox: a template including itself": Mistake(
        "crashes", "game/templates/again.svg.j2", None, (r"(?i)recurs|include|itself",)
    ),
    "a number in a template beyond floating point": Mistake(
        "template-inf", "game/templates/inf.svg.j2", ("1e309",)
    ),
    # XML entities
    "billion laughs in rendered SVG": Mistake(
        "templates", "game/templates/lol.svg.j2", None, (r"(?i)entit",)
    ),
}


@pytest.mark.parametrize("name", list(MISTAKES), ids=list(MISTAKES))
def test_bad_input_is_an_error_at_its_line(runs, name: str) -> None:
    mistake = MISTAKES[name]
    proc = runs(mistake.run)
    assert_spec_failure(proc)
    lines = None
    if mistake.at is not None:
        text = RUNS[mistake.run].text(mistake.file)
        lines = {line_of(text, needle) for needle in mistake.at}
    try:
        message = message_at(proc, mistake.file, lines)
    except AssertionError:
        if mistake.or_file is None:
            raise
        message = message_at(proc, mistake.or_file, None)
    for word in mistake.words:
        assert re.search(word, message), f"{word!r} not in: {message}"
    assert SECRET not in proc.out, proc.out
    assert not (proc.folder / "out").exists(), "a failed build wrote output"


@pytest.mark.parametrize("card", list(ASSET_CARDS))
def test_a_bad_asset_is_an_error_naming_it_and_its_spec_line(runs, card: str) -> None:
    """An image asset that is missing, not an image (random bytes, or text, named .png),
    outside the game folder or a link out of it: the build exits 2 with an error that names
    the asset and the spec line of the card (its entry or its ``art:``)."""
    proc = runs("assets")
    assert_spec_failure(proc)
    art = ASSET_CARDS[card]
    text = RUNS["assets"].text("game/assets.yaml")
    lines = {line_of(text, f"- name: {card}"), line_of(text, f"art: {art}")}
    spec_line = re.compile(rf"components/game/assets\.yaml:({'|'.join(map(str, lines))})\b")
    hits = [t for t in proc.stderr.splitlines() if f"'{art}'" in t and spec_line.search(t)]
    assert hits, f"no error names '{art}' and assets.yaml line {sorted(lines)}:\n{proc.stderr}"
    assert SECRET not in proc.out
    assert not (proc.folder / "out").exists()


# --- bad input on the command line --------------------------------------------------------------


def test_a_sound_catalog_entry_ending_in_a_backslash_is_read(runs) -> None:
    """``msgid "Path C:\\\\"`` is a closed string (an escaped backslash, then the quote)."""
    proc = runs("catalog-backslash")
    assert_no_crash(proc)
    assert "broken catalog" not in proc.stderr, proc.stderr
    assert proc.code in (0, 1), proc.out
    assert "'Path C:\\\\'" not in proc.stderr, "the entry's translation was not used"


def test_unknown_paper_on_the_command_line(runs) -> None:
    proc = runs("cli-paper")
    assert_no_crash(proc)
    assert proc.code == 2, proc.out
    assert "'b5'" in proc.stderr, proc.stderr
    assert all(name in proc.stderr for name in paper_sizes()), proc.stderr
    assert not (proc.folder / "out").exists()


def test_unknown_language_on_the_command_line(runs) -> None:
    """``--lang xx`` when no game declares xx is a mistake, not a build of nothing."""
    proc = runs("lang-xx")
    assert_no_crash(proc)
    assert proc.code == 2, f"exit status {proc.code} for --lang xx:\n{proc.out}"
    assert "'xx'" in proc.stderr, proc.stderr
    assert not (proc.folder / "out").exists()


def test_a_game_name_cannot_lead_out_of_the_folders(runs) -> None:
    proc = runs("game-arg")
    assert_spec_failure(proc)
    assert "../evil" in proc.stderr, proc.stderr
    assert not (proc.folder / "evil").exists()
    assert not (proc.folder / "out").exists()


def test_file_names_with_spaces_and_umlauts_build(runs) -> None:
    proc = runs("names")
    assert_no_crash(proc)
    assert proc.code == 0, proc.out
    folder = proc.folder / "out" / NAMES_GAME
    pdf = folder / f"{NAMES_GAME}.pdf"
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["pages"] == len(pypdf.PdfReader(pdf).pages)
    assert {item["component"] for item in manifest["items"]} == {"plattchen-und-karten"}
    assert len([i for i in manifest["items"] if i["side"] == "front"]) == 3
    assert (8, 8) in image_sizes(pdf), "the asset 'Bild ü.png' is not printed"
    assert "Visible A" in pdf_text(pdf)


# --- hostile input ----------------------------------------------------------------------------


def assert_no_leak(proc: Proc, own_text: str | None = "Visible A") -> None:
    """Either the build failed cleanly (exit 2, nothing written) or its PDF holds nothing of
    the files outside the game folder; the output never shows them either. ``own_text`` is
    text the game itself prints, to show that the PDF's text can be read."""
    assert_no_crash(proc)
    assert SECRET not in proc.out, proc.out
    pdf = proc.folder / "out" / "game" / "game.pdf"
    if proc.code != 0:
        assert proc.code == 2, proc.out
        assert "nothing was built" in proc.stderr, proc.stderr
        assert not pdf.exists()
        return
    text = pdf_text(pdf)
    assert SECRET not in text, f"{pdf} shows the content of a file outside the game"
    assert own_text is None or own_text in text, "the text extraction sees the cards' text"
    assert (5, 7) not in image_sizes(pdf), f"{pdf} holds the image outside the game"


def test_raw_hrefs_cannot_reach_outside_the_game(runs) -> None:
    """``<image href>`` and ``<use href>`` written by a template (no asset()): file URLs,
    relative paths out, absolute paths and symlinks print nothing of what they point at, while
    an asset of the game is printed (so the check is not vacuous)."""
    proc = runs("href")
    assert_no_leak(proc)
    if proc.code == 0:
        pdf = proc.folder / "out" / "game" / "game.pdf"
        assert (8, 8) in image_sizes(pdf), "the game's own image is missing"
    else:
        assert "links.yaml" in proc.stderr, proc.stderr


@pytest.mark.parametrize(
    "run", ["symlink-include", "symlink-template", "symlink-spec"], ids=["include", "face", "spec"]
)
def test_a_symlink_cannot_reach_outside_the_game(runs, run: str) -> None:
    """A template included through a symlink, a face template or a spec that is a symlink to
    a file outside the game folder: refused, or at least not printed."""
    assert_no_leak(runs(run), None if run == "symlink-template" else "Visible A")


def test_external_entities_are_not_expanded(runs) -> None:
    """A SYSTEM entity naming a file outside, a parameter entity and an external DTD."""
    assert_no_leak(runs("xxe"))


def test_sandbox_refuses_import_and_runs_nothing(runs) -> None:
    proc = runs("templates")
    assert_spec_failure(proc)
    hits = [t for t in proc.stderr.splitlines() if "sandbox-import" in t and "os" in t]
    assert hits, proc.stderr
    assert not (proc.folder / PWNED).exists(), "the template ran a command"


def test_yaml_python_tags_run_nothing(runs) -> None:
    proc = runs("limits")
    assert_spec_failure(proc)
    assert not (proc.folder / PWNED).exists(), "a YAML tag ran a command"
    assert not (proc.folder / "components" / "game" / PWNED).exists()


PIECES_CPU = 30  # s of CPU: a refusal from the spec's numbers alone takes about one;
# building the pieces would take many minutes. CPU time, not wall time: a loaded machine
# slows a refusal down, but does not make it cost more work.


def _cpu_limited() -> None:
    """In the child: killed by SIGXCPU past ``PIECES_CPU`` seconds of CPU (workers too)."""
    resource.setrlimit(resource.RLIMIT_CPU, (PIECES_CPU, PIECES_CPU))


def test_a_build_of_a_million_pieces_is_refused_with_its_limit(tmp_path: Path) -> None:
    """1000 kinds of card x 1000 copies, and a token series of 1000 values x 1000 copies:
    each spec is valid alone, but the build would run for many minutes and take gigabytes; it
    must be refused quickly, naming the limit."""
    cards = "".join(
        f"  - name: c{i}\n    count: {MAX_COPIES}\n    title: Card {i}\n" for i in range(MAX_COPIES)
    )
    specs = {
        "cards": ("deck.yaml", DECK.split("cards:")[0] + "cards:\n" + cards),
        "tokens": (
            "tokens.yaml",
            TOKENS.split("tokens:")[0]
            + f"tokens:\n  - name: t\n    series: 1-{MAX_COPIES}\n    count: {MAX_COPIES}\n",
        ),
    }
    procs = {}
    for name, (file, text) in specs.items():
        folder = tmp_path / name
        write_files(folder / "components", game({file: text}))
        procs[name] = subprocess.Popen(
            pnp_command("build", "--components", "components", "--out", "out"),
            cwd=folder,
            env=cli_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=_cpu_limited,
        )
    results = {}
    for name, popen in procs.items():
        out, err = popen.communicate(timeout=TIMEOUT)
        results[name] = Proc(popen.returncode, out, err, tmp_path / name)
    slow = [name for name, proc in results.items() if proc.code == -signal.SIGXCPU]
    assert not slow, f"past {PIECES_CPU} s of CPU, no limit refused: {slow}"
    for name, proc in results.items():
        file, _ = specs[name]
        assert_spec_failure(proc)
        message = message_at(proc, f"game/{file}", None)
        assert re.search(r"\d", message) and re.search(r"(?i)limit|at most|more than", message)


# --- faults: interrupted builds, unwritable output, concurrent builds --------------------------


def big_deck(kinds: int, count: int) -> str:
    head = sub(DECK.split("cards:")[0], "title: Deck", "title: Big deck")
    body = "".join(
        f"  - name: c{i}\n    count: {count}\n    title: Visible card {i}\n" for i in range(kinds)
    )
    return head + "cards:\n" + body


KILL_GAME = "game"


@dataclass
class Pack:
    """A built pack in ``out``: its files' bytes."""

    out: Path
    game: str = KILL_GAME
    papers: list[str] = field(default_factory=lambda: ["letter", "a3", "a4-letter", "a4"])

    @property
    def folder(self) -> Path:
        return self.out / self.game

    def files(self) -> tuple[bytes, bytes]:
        return (self.folder / f"{self.game}.pdf").read_bytes(), (
            self.folder / "manifest.json"
        ).read_bytes()

    def assert_valid(self) -> dict:
        """The PDF opens and the manifest describes it; returns the manifest."""
        reader = pypdf.PdfReader(self.folder / f"{self.game}.pdf")
        manifest = json.loads((self.folder / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["game"] == self.game
        assert manifest["pages"] == len(reader.pages), "the manifest is not this PDF's"
        width_mm = float(reader.pages[0].mediabox.width) * 25.4 / 72
        assert width_mm == pytest.approx(paper_sizes()[manifest["paper"]][0], abs=0.5)
        assert max(item["page"] for item in manifest["items"]) <= len(reader.pages)
        return manifest

    def next_paper(self) -> str:
        """A paper the pack is not built on, so that a build has work to do."""
        current = json.loads((self.folder / "manifest.json").read_text(encoding="utf-8"))["paper"]
        return next(p for p in self.papers if p != current)


@pytest.fixture(scope="module")
def kill_pack(tmp_path_factory: pytest.TempPathFactory) -> Pack:
    """1500 cards (150 kinds x 10): a build takes about a second, its writing a few tenths."""
    folder = tmp_path_factory.mktemp("kill")
    write_files(folder / "components", game({"deck.yaml": big_deck(150, 10)}))
    proc = run_pnp(folder, "build", "--components", "components", "--out", "out")
    assert proc.code == 0, proc.out
    pack = Pack(folder / "out")
    pack.assert_valid()
    return pack


def build_and_kill(pack: Pack, paper: str, sig: signal.Signals) -> tuple[Proc, bool]:
    """Start a build on ``paper`` and send ``sig`` while it writes its temporary PDF;
    returns the finished process and whether it was caught writing. The build is frozen
    (SIGSTOP) the moment its temporary PDF is seen, and signalled only if the file is still
    there once it is frozen, so that a loaded machine cannot let the write finish between
    the look and the signal."""
    folder = pack.out.parent
    popen = subprocess.Popen(
        pnp_command("build", "--components", "components", "--out", "out", "--paper", paper),
        cwd=folder,
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=hears_ctrl_c,
    )
    tmp = pack.folder / f".{pack.game}.pdf{TMP_MARK}{popen.pid}"
    caught = False
    deadline = time.monotonic() + TIMEOUT
    while popen.poll() is None and time.monotonic() < deadline:
        if tmp.exists():
            popen.send_signal(signal.SIGSTOP)
            caught = tmp.exists()  # frozen while still writing: the signal lands mid-write
            if caught:
                popen.send_signal(sig)
            popen.send_signal(signal.SIGCONT)
            break
        time.sleep(0.002)
    out, err = popen.communicate(timeout=TIMEOUT)
    return Proc(popen.returncode, out, err, folder), caught


@pytest.mark.parametrize(
    "sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name
)
def test_a_build_killed_while_writing_leaves_the_previous_pack(
    kill_pack: Pack, sig: signal.Signals
) -> None:
    before = kill_pack.files()
    paper = kill_pack.next_paper()

    proc, caught = build_and_kill(kill_pack, paper, sig)

    assert caught, f"the build finished before it could be killed:\n{proc.out}"
    assert proc.code != 0, proc.out
    if sig == signal.SIGINT:
        assert "Traceback" not in proc.out, proc.out
    else:
        assert proc.code == -sig, proc.code
    assert kill_pack.files() == before, "the previous pack changed"
    kill_pack.assert_valid()

    again = run_pnp(
        kill_pack.out.parent,
        *("build", "--components", "components", "--out", "out"),
        *("--paper", paper),
    )
    assert again.code == 0, again.out
    assert leftovers(kill_pack.folder) == []
    assert kill_pack.assert_valid()["paper"] == paper
    assert kill_pack.files() != before


def small_game(folder: Path) -> Pack:
    write_files(folder / "components", game({"deck.yaml": DECK}))
    proc = run_pnp(folder, "build", "--components", "components", "--out", "out")
    assert proc.code == 0, proc.out
    return Pack(folder / "out")


def test_an_unwritable_pack_folder_exits_3_and_keeps_the_previous_pack(tmp_path: Path) -> None:
    """The pack folder is read-only (chmod 0o500). Root ignores that, so as root the build is
    instead limited to files of 4 KB (RLIMIT_FSIZE), which fails the same way: the PDF cannot
    be written."""
    pack = small_game(tmp_path)
    before = pack.files()
    pack.folder.chmod(0o500)
    try:
        probe = pack.folder / ".probe"
        try:
            probe.write_text("x")
            probe.unlink()
            writable = True  # root
        except PermissionError:
            writable = False

        def limit_file_size() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

        proc = run_pnp(
            tmp_path,
            *("build", "--components", "components", "--out", "out", "--paper", "letter"),
            preexec_fn=limit_file_size if writable else None,
        )
    finally:
        pack.folder.chmod(0o755)
    assert_no_crash(proc)
    assert proc.code == 3, proc.out
    assert "cannot write" in proc.stderr, proc.stderr
    assert pack.files() == before
    assert leftovers(pack.folder) == []
    pack.assert_valid()
    again = run_pnp(
        tmp_path, *("build", "--components", "components", "--out", "out", "--paper", "letter")
    )
    assert again.code == 0 and pack.files() != before, again.out


def test_an_output_folder_under_a_file_exits_3(tmp_path: Path) -> None:
    write_files(tmp_path / "components", game({"deck.yaml": DECK}))
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder\n")
    proc = run_pnp(tmp_path, "build", "--components", "components", "--out", "blocker/out")
    assert_no_crash(proc)
    assert proc.code == 3, proc.out
    assert "cannot write" in proc.stderr and "blocker" in proc.stderr, proc.stderr
    assert blocker.read_text() == "a file, not a folder\n"


def test_builds_running_at_once_into_one_folder_corrupt_nothing(tmp_path: Path) -> None:
    """Two games built at once into one output folder by two processes, and a third process
    building the first game again on other paper: every PDF opens and every manifest describes
    the PDF beside it."""
    files = {}
    for name in ("alpha", "beta"):
        files |= game({"deck.yaml": big_deck(60, 10)}, name)
    write_files(tmp_path / "components", files)
    builds = [("alpha", "a4"), ("beta", "a4"), ("alpha", "letter")]
    popens = [
        subprocess.Popen(
            pnp_command("build", name, "--components", "components", "--out", "out", "--paper", p),
            cwd=tmp_path,
            env=cli_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, p in builds
    ]
    for popen in popens:
        out, err = popen.communicate(timeout=TIMEOUT)
        assert popen.returncode == 0, out + err
        assert "Traceback" not in err
    for name in ("alpha", "beta"):
        pack = Pack(tmp_path / "out", name)
        manifest = pack.assert_valid()
        assert {item["component"] for item in manifest["items"]} == {"deck"}
        assert len([i for i in manifest["items"] if i["side"] == "front"]) == 600
        assert leftovers(pack.folder) == []


def test_yaml_nested_past_what_libyaml_survives_is_an_error_not_a_crash(tmp_path: Path) -> None:
    """libyaml's composer overflows the C stack somewhere past 20,000 levels and takes the
    process with it; such text must go to the Python parser, which says how deep is too deep."""
    spec = tmp_path / "deep.yaml"
    spec.write_text("x: " + "[" * 200_000 + "]" * 200_000 + "\n", encoding="utf-8")
    code = (
        "import sys\nfrom pathlib import Path\nfrom generator.errors import SpecError\n"
        "from generator.model.yamlsource import load_yaml\n"
        "try:\n    load_yaml(Path(sys.argv[1]))\nexcept SpecError as exc:\n    print(exc)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code, str(spec)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
        timeout=PATIENCE,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "deep.yaml" in run.stdout and re.search("nest|deep", run.stdout), run.stdout


def test_libyaml_and_the_python_parser_read_every_bundled_spec_alike() -> None:
    """Specs are parsed by libyaml for speed; data and lines must be what the Python parser
    (whose messages the errors use) makes of them."""
    from unittest.mock import patch

    from generator.model import yamlsource

    specs = sorted((Path(__file__).resolve().parent.parent / "components").rglob("*.yaml"))
    assert len(specs) > 20
    for spec in specs:
        fast = yamlsource.load_yaml(spec)
        with patch.object(yamlsource, "FAST_LOADER", yamlsource.yaml.SafeLoader):
            slow = yamlsource.load_yaml(spec)
        assert (fast.data, fast.lines) == (slow.data, slow.lines), spec
    assert yamlsource.FAST_LOADER is not yamlsource.yaml.SafeLoader  # libyaml is installed


def test_ctrl_c_during_a_build_of_several_games_leaves_no_staged_pack(tmp_path: Path) -> None:
    """Ctrl-C reaches the build and its workers. A small game already staged (written under
    temporary names, waiting for the others) and the big one being drawn are both dropped:
    no temporary file stays behind, and the packs built before are as they were."""
    components = tmp_path / "components"
    write_files(components, game({"deck.yaml": DECK}, name="small"))
    write_files(components, game({"deck.yaml": big_deck(300, 10)}, name="big"))
    first = run_pnp(tmp_path, "build", "--components", "components", "--out", "out")
    assert first.code == 0, first.out
    packs = [Pack(tmp_path / "out", name) for name in ("small", "big")]
    before = [pack.files() for pack in packs]
    popen = subprocess.Popen(
        pnp_command("build", "--components", "components", "--out", "out", "--paper", "letter"),
        cwd=tmp_path,
        env={**cli_env(), "PNP_JOBS": "2"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=hears_ctrl_c,
    )
    staged = packs[0].folder / f".manifest.json{TMP_MARK}{popen.pid}"
    caught = False
    deadline = time.monotonic() + TIMEOUT
    while popen.poll() is None and time.monotonic() < deadline:
        if staged.exists():
            os.killpg(popen.pid, signal.SIGINT)
            caught = True
            break
        time.sleep(0.002)
    out, err = popen.communicate(timeout=TIMEOUT)
    assert caught, f"the small game was never staged, or the build ended first:\n{out}{err}"
    assert popen.returncode != 0 and "Traceback" not in err, err
    assert [pack.files() for pack in packs] == before
    assert [leftovers(pack.folder) for pack in packs] == [[], []]
