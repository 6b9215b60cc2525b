"""Fuzzing the files a game brings besides its specs: fonts, catalogs, printer profiles and
data files, damaged at the byte level as a cut download, a broken editor or a stranger would.
Each ends in what the command reports as ``file:LINE: message`` (exit 2) or in a file read,
never in another exception (an internal error, exit 4) or a hang.

Fonts go through a whole ``pnp build`` (loading checks their characters, the art stage
registers them, the PDF embeds a subset), catalogs through ``pnp i18n update`` and
``pnp check --lang de``; profiles and data files through the functions the commands read them
with (fast enough for thousands of examples).

The suite runs ``PNP_FUZZ_EXAMPLES`` (default 10) derandomized examples of each; set it for a
long run with fresh random examples, e.g. ``PNP_FUZZ_EXAMPLES=3000 pytest
tests/test_fuzz_files.py --hypothesis-show-statistics``.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import struct
import tempfile
import zipfile
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import CARD_FACE
from fuzzing import call_within, ended_cleanly, run_within
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st
from test_datafiles import FORMATS as DATA_FORMATS
from test_hostile import DECK as HOSTILE_DECK

from generator import profile
from generator.errors import SpecError
from generator.model.datafiles import read_table

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("PNP_FUZZ_EXAMPLES", "10"))
LONG_RUN = "PNP_FUZZ_EXAMPLES" in os.environ
HANG_SECONDS = 60
fuzz = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=60),
    database=None,
    derandomize=not LONG_RUN,
    phases=list(Phase) if LONG_RUN else [Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
FONT = (REPO / "generator" / "svg" / "dejavu" / "DejaVuSans.ttf").read_bytes()
GAME = """\
title: Files
players: 2
languages: [en, de]
fonts:
  - {family: Mine, file: f.ttf}
"""
DECK = HOSTILE_DECK + "  - {name: b, count: 1, title: Beta}\n"
FACE = CARD_FACE.replace('font-family="sans-serif"', 'font-family="Mine"').replace(
    "{{ card.name }}", "{{ card.title }} ÄÖÜ ß"
)


def write_game(folder: Path, files: dict[str, bytes]) -> Path:
    """The game ``g`` of ``files`` under ``folder/components``; the components folder."""
    root = folder / "components" / "g"
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root.parent


BASE = {
    "game.yaml": GAME.encode(),
    "deck.yaml": DECK.encode(),
    "templates/face.svg.j2": FACE.encode(),
    "f.ttf": FONT,
}


# -- byte-level damage, for every kind of file ------------------------------------------------


@st.composite
def damaged(draw, data: bytes, specials: list[bytes]) -> bytes:
    """``data`` with one to three kinds of damage: bytes flipped, cut, zeroed, inserted or
    deleted, a run duplicated, or a value a reader trusts replaced by one of ``specials``."""
    for _ in range(draw(st.integers(1, 3))):
        if not data:  # cut to nothing: nothing more to damage
            break
        op = draw(st.sampled_from(["flip", "cut", "zero", "insert", "delete", "repeat", "special"]))
        event(f"damage: {op}")
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        size = draw(st.sampled_from([1, 2, 4, 16, 256, 4096]))
        if op == "flip":
            data = data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]
        elif op == "cut":
            data = data[:at]
        elif op == "zero":
            data = data[:at] + bytes(min(size, len(data) - at)) + data[at + size :]
        elif op == "insert":
            data = data[:at] + draw(st.binary(min_size=1, max_size=32)) + data[at:]
        elif op == "delete":
            data = data[:at] + data[at + size :]
        elif op == "repeat":
            data = data[:at] + data[at : at + size] * draw(st.integers(2, 50)) + data[at:]
        elif specials:
            old, new = draw(st.sampled_from(_pairs(data, specials)))
            data = data.replace(old, new, 1)
    return data


def _pairs(data: bytes, specials: list[bytes]) -> list[tuple[bytes, bytes]]:
    """(a value in ``data``, what replaces it): numbers swapped for ``specials``."""
    numbers = re.findall(rb"\d+", data[:200_000])[:50] or [b""]
    return [(n, s) for n in numbers for s in specials][:200] or [(b"", b"")]


# -- fonts -----------------------------------------------------------------------------------


def _tables(font: bytes) -> dict[bytes, tuple[int, int]]:
    """The table directory of a TrueType font: tag -> (offset, length)."""
    (count,) = struct.unpack(">H", font[4:6])
    found = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack(">4sIII", font[12 + 16 * i : 28 + 16 * i])
        found[tag] = (offset, length)
    return found


TABLES = _tables(FONT)


@st.composite
def damaged_font(draw) -> bytes:
    """The stock TrueType font damaged: a table zeroed or cut, ``unitsPerEm`` (head) set to 0
    or huge, a table's offset or length in the directory changed, another format's magic
    (WOFF, CFF, a collection, a zip), or bytes damaged anywhere."""
    font = FONT
    op = draw(st.sampled_from(["table", "units", "directory", "magic", "bytes"]))
    event(f"font: {op}")
    if op == "table":
        offset, length = TABLES[draw(st.sampled_from(sorted(TABLES)))]
        keep = draw(st.integers(0, length))
        font = font[: offset + keep] + bytes(length - keep) + font[offset + length :]
    elif op == "units":
        offset = TABLES[b"head"][0] + 18
        value = draw(st.sampled_from([0, 1, 3, 0xFFFF]))
        font = font[:offset] + struct.pack(">H", value) + font[offset + 2 :]
    elif op == "directory":
        entry = 12 + 16 * draw(st.integers(0, len(TABLES) - 1)) + draw(st.sampled_from([8, 12]))
        value = draw(st.sampled_from([0, 1, len(FONT), 0x7FFFFFFF, 0xFFFFFFFF]))
        font = font[:entry] + struct.pack(">I", value) + font[entry + 4 :]
    elif op == "magic":
        font = draw(st.sampled_from([b"wOFF", b"OTTO", b"ttcf", b"PK\x03\x04", b"true"])) + font[4:]
    else:
        font = draw(damaged(font, []))
    return font


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-files")


def _built_in_a_child(args: list[str]) -> tuple[int, str, str | None]:
    """``pnp ARGS`` in a forked child (a damaged font parsed and registered stays in the
    process that built with it: thousands would fill this one): its exit status, output, and
    the exception it crashed with (None)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: build, report, and end without running pytest's clean-up
        try:
            os.close(read)
            result = run_within(args, 120)
            error = result.exception
            crash = None if error is None or isinstance(error, SystemExit) else repr(error)
            with os.fdopen(write, "w", encoding="utf-8") as pipe:
                json.dump([result.exit_code, result.output, crash], pipe)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, encoding="utf-8") as pipe:
        report = pipe.read()
    os.waitpid(pid, 0)
    code, output, crash = json.loads(report) if report else (-1, "the child died", None)
    return code, output, crash


@fuzz
@given(font=damaged_font())
def test_a_damaged_font_is_an_error_at_its_line_never_a_crash(fuzz_dir: Path, font: bytes):
    folder = Path(tempfile.mkdtemp(dir=fuzz_dir))
    try:
        components = write_game(folder, {**BASE, "f.ttf": font})
        out = folder / "out"
        code, output, crash = _built_in_a_child(
            ["build", "--components", str(components), "--out", str(out)]
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    event(f"font: exit {code}")
    assert crash is None, f"pnp build crashed: {crash}\n{output}"
    assert code in (0, 1, 2), output
    assert "Traceback" not in output and "internal error" not in output, output
    if code == 2:
        assert "game.yaml:5: font 'f.ttf'" in output, output


# -- catalogs --------------------------------------------------------------------------------

CATALOG = b"""\
# German
msgid ""
msgstr ""
"Project-Id-Version: Files\\n"
"Language: de\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=utf-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

#: components/g/game.yaml:1
msgid "Files"
msgstr "Dateien"

#: components/g/deck.yaml:2
msgid "Cards"
msgstr "Karten"

#: components/g/deck.yaml:6
msgid "Alpha"
msgstr "Alfa"

#: components/g/deck.yaml:7
msgid "Beta"
msgstr "Beta"

msgid "one card"
msgid_plural "{n} cards"
msgstr[0] "eine Karte"
msgstr[1] "{n} Karten"
"""
PO_SPECIALS = [
    b"100000000", b"-1", b"abc", b"0", b"7", b"99999999999999999999", b"latin-1", b"nonsense",
    b"\\", b'"', b"\\x00", b"{n", b"%s", b"\xff\xfe", b"\x00",
]  # fmt: skip


@fuzz
@given(catalog=damaged(CATALOG, PO_SPECIALS), command=st.sampled_from(["update", "check"]))
def test_a_damaged_catalog_is_an_error_at_its_line_never_a_crash(
    fuzz_dir: Path, catalog: bytes, command: str
):
    folder = Path(tempfile.mkdtemp(dir=fuzz_dir))
    try:
        files = {**BASE, "locale/de.po": catalog}
        del files["f.ttf"]
        files["game.yaml"] = GAME.split("fonts:")[0].encode()
        files["templates/face.svg.j2"] = CARD_FACE.encode()
        components = write_game(folder, files)
        args = ["i18n", "update", "g"] if command == "update" else ["check", "--lang", "de"]
        result = run_within([*args, "--components", str(components)], HANG_SECONDS)
        ended_cleanly(result, folder, command)
        event(f"catalog {command}: exit {result.exit_code}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- printer profiles ------------------------------------------------------------------------

PROFILE = b"""\
# my printer
[printer]
paper = "a4"
duplex = "short"
back_offset = [1.5, -0.5]
layout = "duplex"
ink_saver = false

["another table"]
x = 1
"""
TOML_SPECIALS = [
    b"[" * 5000, b"9" * 5000, b"nan", b"inf", b"1e309", b'"\\ud800"', b"'", b'"""', b"[[printer]]",
    b"printer = 3", b"\x00", b"\xff", b"-0", b"0x10", b"1979-05-27T07:32:00Z",
]  # fmt: skip
PAPERS = ("a4", "letter", "a3")


@fuzz
@given(text=damaged(PROFILE, TOML_SPECIALS))
def test_a_damaged_profile_is_an_error_at_its_file_never_a_crash(fuzz_dir: Path, text: bytes):
    """Read (as every command does) and saved into (``pnp calibrate --save``): SpecError, or
    values in range; a save keeps a file TOML reads back."""
    folder = Path(tempfile.mkdtemp(dir=fuzz_dir))
    path = folder / "config.toml"
    path.write_bytes(text)
    previous = os.environ.get("PNP_CONFIG")
    os.environ["PNP_CONFIG"] = str(path)
    try:
        try:
            found = call_within(HANG_SECONDS, profile.load_profile, PAPERS)
        except SpecError as exc:
            event("profile: refused")
            assert exc.path == path
            return
        event("profile: read")
        profile.resolve({}, found)
        call_within(HANG_SECONDS, profile.save, path, {"back_offset": [1.0, 2.0]})
        assert tuple(profile.load_profile(PAPERS).values["back_offset"]) == (1.0, 2.0)
    finally:
        os.environ["PNP_CONFIG"] = previous or ""
        if previous is None:
            del os.environ["PNP_CONFIG"]
        shutil.rmtree(folder, ignore_errors=True)


# -- data files ------------------------------------------------------------------------------

DATA = {name: make() for name, make in DATA_FORMATS.items()}
DATA_SPECIALS = [
    b"abc", b"1e3", b"-1", b"99999999999", b"9" * 5000, b'"', b"\x00", b"\\ud800", b"one",
    b"NaN", b"\t", b"\r", b"\xef\xbb\xbf", b"[", b"{",
]  # fmt: skip


def _zip_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def _zipped(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, body in members.items():
            archive.writestr(name, body)
    return out.getvalue()


@st.composite
def damaged_table(draw) -> tuple[str, bytes]:
    """A data file of any format damaged: a text format's bytes, or, in a spreadsheet, the
    XML inside its zip (repeat counts, values, cell types) or the zip itself."""
    name = draw(st.sampled_from(sorted(DATA)))
    data = DATA[name]
    if name.endswith((".xlsx", ".ods")) and draw(st.booleans()):
        members = _zip_members(data)
        member = draw(st.sampled_from(sorted(n for n in members if n.endswith(".xml"))))
        members[member] = draw(damaged(members[member], DATA_SPECIALS))
        event(f"data: {name} inside the zip")
        return name, _zipped(members)
    event(f"data: {name}")
    return name, draw(damaged(data, DATA_SPECIALS))


@fuzz
@given(table=damaged_table())
def test_a_damaged_data_file_is_an_error_at_its_row_never_a_crash(fuzz_dir: Path, table):
    name, data = table
    folder = Path(tempfile.mkdtemp(dir=fuzz_dir))
    try:
        (folder / name).write_bytes(data)
        try:
            read = call_within(HANG_SECONDS, read_table, folder, name)
        except SpecError as exc:
            event("data: refused")
            assert exc.path == folder / name
            return
        event("data: read")
        assert all(isinstance(row, dict) for row in read.rows)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
