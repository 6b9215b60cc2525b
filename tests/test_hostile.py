"""A game folder from a stranger, measured: no file outside it is read or written, whatever
names it (a linked folder, a catalog, an include), nothing blocks or runs without end, no
limit is passed, and what reaches the terminal cannot drive it.

Each case builds a small game in ``tmp_path`` and runs ``pnp`` in a child process with a
timeout (a case that hangs fails instead of hanging the suite); every one must end with its
own error (exit 2, ``file:LINE: message``), no traceback, within seconds.
"""

from __future__ import annotations

import base64
import os
import resource
import struct
import subprocess
import sys
import textwrap
import time
import zlib
from pathlib import Path

import pytest
from conftest import CARD_FACE
from PIL import Image
from waiting import PATIENCE, children_cpu

REPO = Path(__file__).resolve().parent.parent
SECRET = "TOP-SECRET-CONTENT"
GAME = "title: Hostile\nplayers: 2\nlanguages: [en, de]\n"
DECK = """\
kind: deck
title: Cards
size: poker
face: face.svg.j2
cards:
  - {name: a, count: 1, title: Alpha}
"""


def game(tmp_path: Path, files: dict[str, str] | None = None) -> Path:
    """``components/g`` with a one-card deck (and ``files``); returns the components folder."""
    root = tmp_path / "components" / "g"
    (root / "templates").mkdir(parents=True)
    (root / "game.yaml").write_text(GAME, encoding="utf-8")
    (root / "deck.yaml").write_text(DECK, encoding="utf-8")
    (root / "templates" / "face.svg.j2").write_text(CARD_FACE, encoding="utf-8")
    for name, text in (files or {}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    return tmp_path / "components"


def pnp(tmp_path: Path, *args: object, timeout: float = PATIENCE) -> subprocess.CompletedProcess:
    """``pnp`` in a child process; ``run.cpu`` is the CPU seconds it took (the bound a test
    holds it to: wall-clock time is the machine's load as much as the command's); the
    timeout is a safety cap only."""
    command = [sys.executable, "-m", "generator", *map(str, args)]
    before = children_cpu()
    run = subprocess.run(
        command, cwd=tmp_path, capture_output=True, text=True, timeout=timeout, check=False
    )
    run.cpu = children_cpu() - before  # type: ignore[attr-defined]
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
    return run


def build(
    tmp_path: Path, components: Path, *extra: object, timeout: float = PATIENCE
) -> subprocess.CompletedProcess:
    out = tmp_path / "out"
    return pnp(tmp_path, "build", "--components", components, "--out", out, *extra, timeout=timeout)


def no_leak(tmp_path: Path, run: subprocess.CompletedProcess) -> None:
    """The secret is nowhere: not printed, not in any file written."""
    assert SECRET not in run.stdout + run.stderr
    for path in (tmp_path / "out").rglob("*") if (tmp_path / "out").exists() else ():
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


def test_a_templates_folder_linked_to_the_root_reads_nothing(tmp_path):
    """templates/ a link to /, a face template named through it: the folder is refused, the
    template is not found, /etc/passwd is not printed."""
    components = game(tmp_path)
    root = components / "g"
    for child in (root / "templates").iterdir():
        child.unlink()
    (root / "templates").rmdir()
    (root / "templates").symlink_to("/")
    (root / "deck.yaml").write_text(DECK.replace("face.svg.j2", "etc/passwd"), encoding="utf-8")
    run = build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert "templates: leads outside its folder" in run.stderr, run.stderr
    assert "root:" not in run.stdout + run.stderr  # /etc/passwd's first line


def test_a_template_including_a_linked_file_reads_nothing(tmp_path):
    components = game(tmp_path)
    templates = components / "g" / "templates"
    (templates / "notes.txt").symlink_to(tmp_path / "outside" / "secret.txt")
    face = CARD_FACE.replace("{{ card.name }}", "{% include 'notes.txt' %}")
    (templates / "face.svg.j2").write_text(face, encoding="utf-8")
    run = build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert "leads outside its folder" in run.stderr
    no_leak(tmp_path, run)


def test_a_linked_locale_folder_and_a_linked_catalog_are_refused(tmp_path):
    components = game(tmp_path)
    outside = tmp_path / "outside"
    (outside / "de.po").write_text(f'msgid "Alpha"\nmsgstr "{SECRET}"\n', encoding="utf-8")
    (components / "g" / "locale").symlink_to(outside)
    run = build(tmp_path, components, "--lang", "de")
    assert run.returncode == 2 and "locale: leads outside its folder" in run.stderr, run.stderr
    no_leak(tmp_path, run)
    (components / "g" / "locale").unlink()
    (components / "g" / "locale").mkdir()
    (components / "g" / "locale" / "de.po").symlink_to(outside / "de.po")
    run = build(tmp_path, components, "--lang", "de")
    assert run.returncode == 2 and "de.po: leads outside its folder" in run.stderr, run.stderr
    no_leak(tmp_path, run)


def test_i18n_never_writes_through_a_link_or_outside_the_game(tmp_path):
    components = game(tmp_path)
    outside = tmp_path / "outside"
    locale = components / "g" / "locale"
    locale.mkdir()
    (locale / "fr.po").symlink_to(outside / "created.po")  # dangling: init would create it
    run = pnp(tmp_path, "i18n", "init", "g", "fr", "--components", components)
    assert run.returncode != 0 and "exists" in run.stderr, run.stderr
    assert not (outside / "created.po").exists()
    (locale / "fr.po").unlink()
    (outside / "de.po").write_text('msgid "Alpha"\nmsgstr "Alpha"\n', encoding="utf-8")
    (locale / "de.po").symlink_to(outside / "de.po")
    before = (outside / "de.po").read_bytes()
    run = pnp(tmp_path, "i18n", "update", "g", "--components", components)
    assert run.returncode != 0 and "leads outside its folder" in run.stderr, run.stderr
    assert (outside / "de.po").read_bytes() == before
    (locale / "de.po").unlink()
    locale.rmdir()
    locale.symlink_to(outside)
    run = pnp(tmp_path, "i18n", "extract", "g", "--components", components)
    assert run.returncode != 0, run.stderr
    assert not (outside / "g.pot").exists()
    run = pnp(tmp_path, "i18n", "init", "g", "../../escape", "--components", components)
    assert run.returncode == 2 and "language code" in run.stderr, run.stderr


@pytest.mark.parametrize("where", ["spec", "template"])
def test_a_pipe_in_the_game_folder_is_refused_at_once(tmp_path, where: str):
    """A FIFO named like a spec or a template would block a build for ever when opened."""
    components = game(tmp_path)
    path = components / "g" / ("extra.yaml" if where == "spec" else "templates/pipe.svg.j2")
    os.mkfifo(path)
    if where == "template":
        deck = DECK.replace("face.svg.j2", "pipe.svg.j2")
        (components / "g" / "deck.yaml").write_text(deck, encoding="utf-8")
    for command in ("build", "check", "list"):
        extra = ("--out", tmp_path / "out") if command == "build" else ()
        run = pnp(tmp_path, command, "--components", components, *extra)
        assert run.returncode == 2, (command, run.stderr)
        assert "not a regular file" in run.stderr, (command, run.stderr)


def test_control_characters_reach_the_terminal_escaped(tmp_path):
    """An escape code and a newline in a spec value come out written as escapes: they can
    neither clear the screen nor forge an error line of their own."""
    components = game(tmp_path, {"extra.yaml": 'kind: deck\ntitle: "\\e[2J\\nfake.yaml:1: ok"\n'})
    run = build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert "\x1b" not in run.stdout + run.stderr
    assert not any(line.startswith("fake.yaml") for line in run.stderr.splitlines())


@pytest.mark.parametrize("size", ["0/0", "1e20", "-3", "'a'"])
def test_fit_with_an_absurd_size_is_an_error_at_the_template_line(tmp_path, size: str):
    face = CARD_FACE.replace(
        "{{ card.name }}", "{{ fit(card.name, 20, 10, " + size + ", 1).lines | join(' ') }}"
    )
    components = game(tmp_path)
    (components / "g" / "templates" / "face.svg.j2").write_text(face, encoding="utf-8")
    run = build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert "face.svg.j2:" in run.stderr, run.stderr


# -- what a template may make the engine do -------------------------------------------------

PAYLOADS = {
    "nested ranges": "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}"
    "{% endfor %}",
    "a huge list": "{{ ([0] * 10**9) | length }}",
    "a huge string": "{{ ('a' * 10**9) | length }}",
    "a huge power": "{{ 10 ** (10 ** 8) }}",
    "a huge centre": "{{ 'x' | center(10**9) }}",
    "a huge format width": "{{ '{:>1000000000}'.format(1) }}",
    "a huge percent width": "{{ '%*d' % (10**9, 1) }}",
    "runaway recursion": "{% macro f(n) %}{{ f(n + 1) }}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
    "a long loop": "{% for i in range(1000000) %}{% for c in 'abcdefghij' * 100000 %}"
    "{% endfor %}{% endfor %}",
    "huge output": "{% for i in range(1000000) %}{{ 'abcdefghij' }}{% endfor %}",
}


@pytest.mark.parametrize("payload", list(PAYLOADS))
def test_a_template_past_its_budget_is_stopped_at_its_line(tmp_path, payload: str):
    """Each would hang the build or take gigabytes: it is stopped within seconds, and the
    error names the template and its line."""
    face = CARD_FACE.replace("{{ card.name }}", "\n" + PAYLOADS[payload])
    components = game(tmp_path)
    (components / "g" / "templates" / "face.svg.j2").write_text(face, encoding="utf-8")
    run = build(tmp_path, components)
    assert run.cpu < 20, f"it took {run.cpu:.1f} s of CPU"
    assert run.returncode == 2, run.stderr
    assert "face.svg.j2:" in run.stderr and "asks too much" in run.stderr, run.stderr


def test_the_build_cache_reads_no_file_whole_and_follows_no_link_out(tmp_path):
    """A 6 GB sparse file in the game folder and a link to a large file outside: the build
    (and the next one, which finds its pack up to date) stays within a few hundred MB. The peak
    is the process's own (VmHWM): ru_maxrss survives exec and would count this test runner's."""
    components = game(tmp_path)
    with open(components / "g" / "huge.bin", "wb") as handle:
        handle.truncate(6 * 1024**3)
    big = tmp_path / "outside" / "big.bin"
    with open(big, "wb") as handle:
        handle.truncate(3 * 1024**3)
    (components / "g" / "link.bin").symlink_to(big)
    code = (
        "import runpy, sys\n"
        "sys.argv = ['pnp', 'build', '--components', sys.argv[1], '--out', sys.argv[2]]\n"
        "try:\n    runpy.run_module('generator', run_name='__main__')\n"
        "except SystemExit as exit:\n"
        "    status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
        "    peak = int(status.split()[0]) // 1024\n"
        "    print('exit', exit.code, 'peak', peak)\n"
    )
    for expected in ("g.pdf", "up to date"):
        run = subprocess.run(
            [sys.executable, "-c", code, str(components), str(tmp_path / "out")],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=PATIENCE,
            check=False,
        )
        assert expected in run.stdout, run.stdout + run.stderr
        exit_code, peak = run.stdout.split()[-3], int(run.stdout.split()[-1])
        assert exit_code == "0" and peak < 400, run.stdout


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to find the workers")
def test_workers_die_with_a_build_killed_by_sigkill(tmp_path):
    """kill -9 of the build leaves no worker behind: each dies with it, the output pipe closes
    and a caller waiting on it is not left hanging."""
    import shutil
    import signal

    components = tmp_path / "components"
    shutil.copytree(REPO / "components", components)
    env = {**os.environ, "PNP_JOBS": "2"}
    command = [sys.executable, "-m", "generator", "build", "--components", str(components)]
    popen = subprocess.Popen(
        [*command, "--out", str(tmp_path / "out")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    workers: list[int] = []
    deadline = time.monotonic() + PATIENCE  # a safety cap: the condition ends the loop
    while not workers and time.monotonic() < deadline and popen.poll() is None:
        workers = _children(popen.pid)
        time.sleep(0.01)
    assert workers, "the build ended before it forked a worker"
    popen.send_signal(signal.SIGKILL)
    popen.communicate(timeout=PATIENCE)  # the pipe closes: no worker holds it
    deadline = time.monotonic() + PATIENCE
    while any(Path(f"/proc/{w}").exists() for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    alive = [w for w in workers if _running(w)]
    assert not alive, f"workers {alive} outlived the build"


def _running(pid: int) -> bool:
    """Whether process ``pid`` is alive (not gone, not a zombie waiting to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# -- typos and absurd sizes: errors at their lines, within seconds --------------------------


def _grids(count: int) -> str:
    grids = "".join(
        f"  - {{prefix: g{i}, layout: square, origin: [0, 0], size: 5, cols: 60, rows: 60}}\n"
        for i in range(count)
    )
    return f"kind: board\ntitle: B\nsize: 300 x 300\ngrids:\n{grids}"


def _aliased(length: int, times: int) -> str:
    text = "x" * length
    cards = "".join(f"  - {{name: c{i}, count: 1, text: *long}}\n" for i in range(times))
    return f"kind: deck\ntitle: D\nsize: poker\nface: face.svg.j2\nx: &long {text}\ncards:\n{cards}"


TYPOS = {
    "a standee without a count": (
        "standees.yaml",
        "kind: standees\ntitle: S\nsize: 20 x 30\nface: face.svg.j2\nstandees:\n  - name: a\n",
        "standees.yaml:6:",
        "needs exactly one of count",
    ),
    "a card's group as a list": (
        "deck.yaml",
        DECK.replace("title: Alpha}", "title: Alpha, group: [x, y]}"),
        "deck.yaml:6:",
        "group",
    ),
    "a number of 5,000 digits": (
        "deck.yaml",
        DECK.replace("count: 1,", "count: " + "9" * 5000 + ","),
        "deck.yaml:6:",
        "digits",
    ),
    "a board of 1,000 grids": ("board.yaml", _grids(1000), "board.yaml:4:", "may hold 5,000"),
    "a sheet of 900 KB": (
        "sheet.yaml",
        "kind: sheet\ntitle: S\nsections:\n  - heading: H\n    blocks:\n      - text: "
        + "word " * 180_000
        + "\n",
        "sheet.yaml",
        "characters",
    ),
    "a long text through 400 aliases": (
        "extra.yaml",
        _aliased(60_000, 400),
        "extra.yaml",
        "aliases of a long text",
    ),
}


@pytest.mark.parametrize("case", list(TYPOS))
def test_a_typo_or_an_absurd_size_is_an_error_at_its_line(tmp_path, case: str):
    name, text, where, message = TYPOS[case]
    components = game(tmp_path, {name: text})
    run = build(tmp_path, components)
    assert run.cpu < 20, f"it took {run.cpu:.1f} s of CPU"
    assert run.returncode == 2, run.stderr
    line = next((line for line in run.stderr.splitlines() if where in line), "")
    assert message in line, run.stderr


def test_a_loop_of_links_and_a_huge_catalog_are_errors(tmp_path):
    components = game(tmp_path)
    root = components / "g"
    (root / "loop1.yaml").symlink_to(root / "loop2.yaml")
    (root / "loop2.yaml").symlink_to(root / "loop1.yaml")
    (root / "locale").mkdir()
    with open(root / "locale" / "de.po", "wb") as handle:
        handle.write(b'msgid "Alpha"\nmsgstr "Alpha"\n' * 2_500_000)  # 70 MB
    run = build(tmp_path, components, "--lang", "de")
    assert run.returncode == 2, run.stderr
    assert "loop1.yaml: is a loop of links" in run.stderr, run.stderr
    assert "de.po: broken catalog: the file is" in run.stderr, run.stderr


def test_an_image_out_of_the_svg_namespace_or_a_pipe_reads_nothing(tmp_path):
    """<image xmlns=""> naming a file outside is not SVG and is not followed; a picture that
    is a pipe is refused at once (never waited on), naming the spec line that asked for it."""
    face = CARD_FACE.replace(
        "</svg>",
        f'  <image xmlns="" href="{tmp_path}/outside/secret.txt" width="9" height="9"/>\n'
        '  <image href="{{ asset(\'art/p.png\') }}" width="9" height="9"/>\n</svg>',
    )
    components = game(tmp_path, {"templates/face.svg.j2": face})
    (components / "g" / "art").mkdir()
    os.mkfifo(components / "g" / "art" / "p.png")
    run = build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert "asset 'art/p.png' is not a regular file" in run.stderr, run.stderr
    no_leak(tmp_path, run)
    (components / "g" / "art" / "p.png").unlink()
    Image.new("RGB", (4, 4), "red").save(components / "g" / "art" / "p.png")
    run = build(tmp_path, components)
    assert run.returncode == 0, run.stderr
    no_leak(tmp_path, run)


# -- style sheets and SVG pictures that would multiply the renderer's work ------------------


def _picture_nest() -> dict[str, str]:
    """Seven SVG files of about 0.5 KB, each drawing the next ten times, six levels deep."""
    files = {}
    open_ = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n'
    for level in range(6):
        images = "".join(
            f'<image href="art/p{level + 1}.svg" x="{i}" width="1" height="1"/>\n'
            for i in range(10)
        )
        files[f"art/p{level}.svg"] = open_ + images + "</svg>\n"
    files["art/p6.svg"] = open_ + '<rect width="5" height="5" fill="red"/></svg>\n'
    return files


MULTIPLIERS = {
    # C(30,15) ways to place the 15 g's of the selector on the 30 groups, tried one by one
    "a descendant chain over 30 nested groups": (
        "<style>nope g g g g g g g g g g g g g g g rect {fill:red}</style>\n"
        + "<g>" * 30 + '<rect width="9" height="9"/>' + "</g>" * 30,
        {}, 0, "",
    ),
    "a sibling chain over 30 groups": (
        "<style>nope ~ g ~ g ~ g ~ g ~ g ~ g ~ g ~ g ~ g ~ g ~ g ~ g ~ g ~ g ~ g ~ rect"
        " {fill:red}</style>\n" + "<g/>" * 30 + '<rect width="9" height="9"/>',
        {}, 0, "",
    ),
    "20,000 class rules over 20,000 elements": (
        "<style>{% for i in range(20000) %}.c{{ i }} {fill:red}\n{% endfor %}</style>\n"
        '{% for i in range(20000) %}<rect class="c{{ i }}" width="1" height="1"/>{% endfor %}',
        {}, 0, "",
    ),
    "20,000 rules every element may match": (
        "<style>{% for i in range(20000) %}g rect {fill:red}\n{% endfor %}</style>\n<g>"
        '{% for i in range(20000) %}<rect width="1" height="1"/>{% endfor %}</g>',
        {}, 0, "warning: matching the 20,000 rules of <style>",
    ),
    "seven SVG pictures drawing each other ten times": (
        '<image href="{{ asset(\'art/p0.svg\') }}" width="20" height="20"/>',
        _picture_nest(), 2, "draws the SVG picture 'art/p0.svg': the SVG draws more than",
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", list(MULTIPLIERS))
def test_style_sheets_and_pictures_cannot_multiply_the_work(tmp_path, case: str):
    """Each hung the build (or was killed after minutes): it now ends within seconds,
    drawn, or with its warning or error at the template line that asks for the work."""
    body, files, code, message = MULTIPLIERS[case]
    face = CARD_FACE.replace("</svg>", body + "\n</svg>")
    components = game(tmp_path, {"templates/face.svg.j2": face, **files})
    run = build(tmp_path, components)
    assert run.returncode == code, run.stderr
    if message:
        needle = "<style" if "<style" in body else "<image"
        line = next(n for n, text in enumerate(face.splitlines(), 1) if needle in text)
        assert f"face.svg.j2:{line}: " in run.stderr and message in run.stderr, run.stderr
    else:
        assert "face.svg.j2" not in run.stderr, run.stderr
        assert (tmp_path / "out" / "g").is_dir()


# -- the gate: every file the engine reads, whatever names it -------------------------------

MEMORY = 1_500_000_000  # bytes of address space a hostile run may take (a build needs < 1 GB)
SECONDS = 20  # CPU seconds each case ends within, its error said


def _limited() -> None:
    """In the child: no more address space than ``MEMORY`` (a read of a sparse file's size,
    or a picture decoded past its limit, ends in MemoryError instead of swapping)."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def limited_build(
    tmp_path: Path, components: Path, *extra: object, cwd: Path | None = None
) -> tuple[subprocess.CompletedProcess, float]:
    """``pnp build`` in a child process with a memory limit: how it ended, and the CPU
    seconds it took (the wall-clock timeout is a safety cap only)."""
    command = [sys.executable, "-m", "generator", "build", "--components", components]
    command += ["--out", tmp_path / "out", *extra]
    before = children_cpu()
    run = subprocess.run(
        [str(part) for part in command],
        cwd=cwd or tmp_path,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
        preexec_fn=_limited,  # noqa: PLW1509 - a limit only, set before the exec
    )
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
    return run, children_cpu() - before


def _face(body: str) -> str:
    return CARD_FACE.replace("</svg>", f"  {body}\n</svg>")


# where a file is named, the game files that name it, and what else the build is given
PLACES: dict[str, tuple[str, dict[str, str], tuple[str, ...]]] = {
    "spec": ("extra.yaml", {}, ()),
    "template": ("templates/t.svg.j2", {"deck.yaml": DECK.replace("face.svg.j2", "t.svg.j2")}, ()),
    "include": (
        "templates/part.svg",
        {"templates/face.svg.j2": CARD_FACE.replace("{{ card.name }}", "{% include 'part.svg' %}")},
        (),
    ),
    "data file": (
        "cards.csv",
        {"deck.yaml": DECK.split("cards:")[0] + "cards: {from: cards.csv}\n"},
        (),
    ),
    "font": ("f.ttf", {"game.yaml": GAME + "fonts:\n  - {family: Mine, file: f.ttf}\n"}, ()),
    "picture": (
        "art/p.png",
        {"templates/face.svg.j2": _face("<image href=\"{{ asset('art/p.png') }}\" width='9'/>")},
        (),
    ),
    "picture named in the SVG": (
        "art/p.png",
        {"templates/face.svg.j2": _face('<image href="art/p.png" width="9" height="9"/>')},
        (),
    ),
    "SVG picture": (
        "art/p.svg",
        {"templates/face.svg.j2": _face("<image href=\"{{ asset('art/p.svg') }}\" width='9'/>")},
        (),
    ),
    "catalog": ("locale/de.po", {}, ("--lang", "de")),
    "pnp.toml": ("../../here/pnp.toml", {}, ()),
}


def _sparse(path: Path, tmp_path: Path) -> None:
    with open(path, "wb") as handle:
        handle.truncate(3_000_000_000)


TRICKS = {
    "a pipe": lambda path, tmp_path: os.mkfifo(path),
    "a link to /dev/zero": lambda path, tmp_path: path.symlink_to("/dev/zero"),
    "a link out": lambda path, tmp_path: path.symlink_to(tmp_path / "outside" / "secret.txt"),
    "a 3 GB sparse file": _sparse,
}


@pytest.mark.parametrize("trick", list(TRICKS))
@pytest.mark.parametrize("place", list(PLACES))
def test_a_file_that_is_no_file_of_the_game_is_refused_where_it_is_named(
    tmp_path, place: str, trick: str
):
    """A pipe (which would block), a link to /dev/zero (which never ends), a link out of the
    folder and a 3 GB sparse file (a few bytes in a tar), each as every kind of file a game
    names: refused before a byte is read, an error naming the file (exit 2), within seconds,
    in bounded memory, nothing of the file outside printed."""
    name, files, extra = PLACES[place]
    components = game(tmp_path, files)
    here = tmp_path / "here"
    here.mkdir()
    path = components / "g" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    TRICKS[trick](path, tmp_path)
    run, seconds = limited_build(tmp_path, components, *extra, cwd=here)
    assert run.returncode == 2, run.stderr
    assert seconds < SECONDS, f"it took {seconds:.1f} s of CPU"
    assert Path(name).name in run.stderr, run.stderr
    assert SECRET not in run.stdout + run.stderr
    assert not (tmp_path / "out" / "g").exists()


def _eps() -> bytes:
    """EPS that would keep Ghostscript busy for ever (Pillow hands EPS to it)."""
    return b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n{ } loop\n"


def _dds() -> bytes:
    """A DDS header alone (200 bytes), a format Pillow has a plugin for."""
    header = struct.pack("<4sII", b"DDS ", 124, 0x1007) + struct.pack("<II", 64, 64)
    return (header + bytes(124)).ljust(200, b"\0")


def _huge_png(side: int) -> bytes:
    """A PNG of ``side`` x ``side`` RGBA pixels, all zero: under a megabyte on disk."""
    packer = zlib.compressobj(9)
    row = bytes(1 + side * 4)
    data = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body).to_bytes(4, "big")
        return len(body).to_bytes(4, "big") + kind + body + crc

    head = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + chunk(b"IHDR", head) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def _ico(inside: bytes) -> bytes:
    """An ICO holding one picture (a PNG) that its directory calls 256 x 256."""
    entry = struct.pack("<BBBBHHII", 0, 0, 0, 0, 1, 32, len(inside), 22)
    return struct.pack("<HHH", 0, 1, 1) + entry + inside


def _icns(inside: bytes) -> bytes:
    """An ICNS holding one picture (a PNG) as its 512 x 512 icon."""
    body = b"ic09" + struct.pack(">I", len(inside) + 8) + inside
    return b"icns" + struct.pack(">I", len(body) + 8) + body


PICTURES = {
    "EPS named a.png": lambda: _eps(),
    "a DDS header": lambda: _dds(),
    "an ICO with a 15,000 px picture inside": lambda: _ico(_huge_png(15_000)),
    "an ICNS with a 15,000 px picture inside": lambda: _icns(_huge_png(15_000)),
    "random bytes": lambda: os.urandom(5000),
}


@pytest.mark.parametrize("place", ["picture", "picture named in the SVG"])
@pytest.mark.parametrize("case", list(PICTURES))
def test_a_picture_is_decoded_only_as_one_of_the_kinds_the_readme_lists(
    tmp_path, case: str, place: str
):
    """A picture may be PNG, JPEG, WebP, GIF or TIFF: EPS (Ghostscript), DDS, ICO and ICNS
    (which decode the picture inside before its size is known) are never decoded; the error
    names the picture and the card that draws it, within seconds, in bounded memory."""
    name, files, _ = PLACES[place]
    components = game(tmp_path, files)
    (components / "g" / "art").mkdir()
    (components / "g" / name).write_bytes(PICTURES[case]())
    run, seconds = limited_build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert seconds < SECONDS, f"it took {seconds:.1f} s of CPU"
    assert "'art/p.png'" in run.stderr and "card 'a'" in run.stderr, run.stderr


def test_an_eps_as_a_data_uri_is_a_warning_and_never_runs_ghostscript(tmp_path):
    """EPS in a ``data:`` URI is not drawn: a warning at the template line, as every picture
    the art cannot draw, and no Ghostscript (whose ``{ } loop`` would never end)."""
    uri = "data:image/png;base64," + base64.b64encode(_eps()).decode()
    face = _face(f'<image href="{uri}" width="9" height="9"/>')
    components = game(tmp_path, {"templates/face.svg.j2": face})
    run, seconds = limited_build(tmp_path, components)
    assert seconds < SECONDS, f"it took {seconds:.1f} s of CPU"
    line = next(n for n, text in enumerate(face.splitlines(), 1) if "<image" in text)
    assert f"face.svg.j2:{line}: warning:" in run.stderr, run.stderr
    assert "cannot be read as an image" in run.stderr, run.stderr
    assert run.returncode in (0, 1), run.stderr


@pytest.mark.parametrize("place", ["picture", "picture named in the SVG", "font"])
def test_a_file_that_is_a_link_to_itself_is_an_error(tmp_path, place: str):
    name, files, _ = PLACES[place]
    components = game(tmp_path, files)
    path = components / "g" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(path.name)
    run, seconds = limited_build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert seconds < SECONDS, f"it took {seconds:.1f} s of CPU"
    assert "loop of links" in run.stderr and Path(name).name in run.stderr, run.stderr


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_font_refused_at_loading_is_never_opened_again(tmp_path, command: str):
    """``build`` and ``check`` keep loading errors back to draw what they can; the art stage
    then registers the game's fonts: one refused at loading (random bytes, a pipe) is not
    among them, so nothing blocks and nothing is exit 4."""
    fonts = "fonts:\n  - {family: Mine, file: f.ttf}\n  - {family: Pipe, file: p.ttf}\n"
    face = CARD_FACE.replace('font-family="sans-serif"', 'font-family="Mine, Pipe"')
    components = game(tmp_path, {"game.yaml": GAME + fonts, "templates/face.svg.j2": face})
    (components / "g" / "f.ttf").write_bytes(os.urandom(5000))
    os.mkfifo(components / "g" / "p.ttf")
    extra = ("--out", tmp_path / "out") if command == "build" else ()
    run = pnp(tmp_path, command, "--components", components, *extra)
    assert run.cpu < SECONDS, f"it took {run.cpu:.1f} s of CPU"
    assert run.returncode == 2, run.stderr
    assert "game.yaml:5: font 'f.ttf' is not a font file" in run.stderr, run.stderr
    assert "game.yaml:6: font 'p.ttf' is not a regular file" in run.stderr, run.stderr
