"""No input ends in an internal error (exit 4), and nothing is left where another user could
plant it: a lone surrogate in a data file or a template, an unreadable HOME, Ctrl-C just as a
command ends, and the placeholder of a sheet's icons (a file in /tmp before). Each in a child
process, as a user runs pnp."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import CARD_FACE
from test_hostile import DECK, game, limited_build, pnp
from test_sheets import ICON_SHEET, make_game, sheet
from waiting import PATIENCE

REPO = Path(__file__).resolve().parent.parent
SURROGATES = {
    "a JSON data file": (
        {
            "deck.yaml": DECK.split("cards:")[0] + "cards: {from: cards.json}\n",
            "cards.json": '[{"name": "a", "count": 1, "title": "x\\ud800y"}]',
            "templates/face.svg.j2": CARD_FACE.replace("card.name", "card.title"),
        },
        "cards.json:1: the text holds an escape that is no character (a lone surrogate)",
    ),
    "a template's string": (
        {"templates/face.svg.j2": CARD_FACE.replace("{{ card.name }}", '{{ "x\\ud800" }}')},
        "face.svg.j2: the template failed: ValueError: the template wrote an escape that is "
        "no character (a lone surrogate)",
    ),
}


@pytest.mark.parametrize("case", list(SURROGATES))
def test_a_lone_surrogate_is_an_error_at_its_file(tmp_path, case: str):
    """'\\ud800' decodes (JSON, a Jinja string) to text no file can hold: it was exit 4 when
    the PDF was written; now an error where it was written."""
    files, message = SURROGATES[case]
    components = game(tmp_path, files)
    run, _ = limited_build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert message in run.stderr, run.stderr


def _without_root() -> list[str]:
    """As root, the capabilities that let root read any folder dropped (``setpriv``)."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"]


@pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("setpriv"), reason="needs setpriv")
def test_an_unreadable_home_is_a_warning_not_an_internal_error(tmp_path):
    """HOME the user cannot look into (sudo -u nobody): no printer profile is read from it,
    said once; the build goes on (it was a PermissionError, exit 4)."""
    components = game(tmp_path)
    home = tmp_path / "home"
    (home / ".config" / "pnp").mkdir(parents=True)
    (home / ".config" / "pnp" / "config.toml").write_text("[printer]\n")
    home.chmod(0)
    env = {k: v for k, v in os.environ.items() if k not in ("PNP_CONFIG", "XDG_CONFIG_HOME")}
    env["HOME"] = str(home)
    command = [sys.executable, "-m", "generator", "build", "--components", str(components)]
    try:
        run = subprocess.run(
            [*_without_root(), *command, "--out", str(tmp_path / "out")],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        )
    finally:
        home.chmod(0o755)
    assert run.returncode == 0, run.stderr
    assert "cannot look for a printer profile here (Permission denied)" in run.stderr
    assert "Traceback" not in run.stderr


def test_ctrl_c_as_a_command_ends_prints_no_traceback(tmp_path):
    """Ctrl-C at random moments around the end of a build: 'stopped' (exit 130) or done,
    never a traceback from an atexit handler or a thread (1 of 20 printed one before)."""
    components = game(tmp_path)
    command = [sys.executable, "-m", "generator", "build", "--components", str(components)]
    started = time.monotonic()
    pnp(tmp_path, *command[3:], "--out", tmp_path / "timed")
    seconds = time.monotonic() - started
    for attempt in range(12):
        out = tmp_path / f"out{attempt}"
        child = subprocess.Popen(
            [*command, "--out", str(out)],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # Ctrl-C goes to the process group, as a terminal's does
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
        )
        time.sleep(seconds * random.uniform(0.8, 1.1))
        with contextlib.suppress(ProcessLookupError):  # it ended already
            os.killpg(child.pid, signal.SIGINT)
        _, stderr = child.communicate(timeout=PATIENCE)
        # stopped (130, also while click parses the command line), killed by it before
        # Python listens (-2) or done (0); never click's own 'Aborted!' (exit 1)
        assert child.returncode in (0, 130, -2), (child.returncode, stderr)
        assert child.returncode != 130 or stderr.rstrip().endswith("stopped"), stderr
        assert "Traceback" not in stderr and "Exception ignored" not in stderr, stderr


def test_a_sheets_icons_leave_no_file_in_the_temp_folder(tmp_path):
    """The placeholder image that holds an icon's place in a line of text is in memory: no
    file of a predictable name in /tmp for another user to plant first."""
    components = make_game(tmp_path, {"rules.yaml": sheet(ICON_SHEET, icons="icons.svg.j2")})
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    command = [sys.executable, "-m", "generator", "build", "--components", str(components)]
    run = subprocess.run(
        [*command, "--out", str(tmp_path / "out")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    assert run.returncode == 0, run.stderr
    assert list(temp.iterdir()) == []
