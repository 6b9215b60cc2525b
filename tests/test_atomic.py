"""A failed or interrupted build never damages the previous print pack."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from waiting import PATIENCE

from generator.output import atomic, manifest
from generator.output.atomic import TMP_MARK, replacing

GAME = "chocolate-market"
REPO = Path(__file__).resolve().parent.parent


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if TMP_MARK in p.name)


def run_real_cli(*args: object) -> subprocess.CompletedProcess[str]:
    """The installed entry point in its own process, for its real exit status and output."""
    env = {k: v for k, v in os.environ.items() if k != "PNP_DEBUG"}
    return subprocess.run(
        [sys.executable, "-m", "generator", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=PATIENCE,
    )


# -- generator.atomic.replacing ---------------------------------------------------------------


def test_replacing_keeps_the_previous_file_when_the_writer_raises(tmp_path: Path) -> None:
    target = tmp_path / "pack.pdf"
    target.write_bytes(b"previous pack")
    with pytest.raises(RuntimeError, match="renderer failed"), replacing(target) as tmp:
        tmp.write_bytes(b"half a new pa")
        raise RuntimeError("renderer failed")
    assert target.read_bytes() == b"previous pack"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack.pdf"]


def test_replacing_creates_nothing_when_the_writer_raises_before_writing(tmp_path: Path) -> None:
    target = tmp_path / "out" / "pack.pdf"
    with pytest.raises(KeyError), replacing(target):
        raise KeyError("nothing written yet")
    assert list(tmp_path.iterdir()) == []  # not even the folder made for it


def test_replacing_replaces_the_file_and_leaves_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "pack.pdf"
    target.write_bytes(b"previous pack")
    with replacing(target) as tmp:
        assert tmp.parent == target.parent and tmp != target
        tmp.write_bytes(b"new pack")
        assert target.read_bytes() == b"previous pack"  # not visible until complete
    assert target.read_bytes() == b"new pack"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack.pdf"]


# -- whole builds -------------------------------------------------------------------------------


def good_build(pnp, components: Path, out: Path, *options: str) -> tuple[bytes, bytes]:
    result = pnp("build", GAME, "--components", components, "--out", out, *options)
    assert result.exit_code == 0, result.output
    return pack_bytes(out)


def pack_bytes(out: Path) -> tuple[bytes, bytes]:
    folder = out / GAME
    return (folder / f"{GAME}.pdf").read_bytes(), (folder / "manifest.json").read_bytes()


def add_to_template(components: Path, name: str, svg: str) -> None:
    path = components / GAME / "templates" / name
    text = path.read_text(encoding="utf-8")
    assert text.count("</svg>") == 1
    path.write_text(text.replace("</svg>", f"  {svg}\n</svg>"), encoding="utf-8")


BROKEN_TEMPLATES = {
    # Jinja2 fails while rendering: StrictUndefined
    "undefined-variable": ("ingredient-face.svg.j2", "<text>{{ card.no_such_field }}</text>"),
    # well-formed SVG that cannot be drawn: text the embedded font cannot write
    "unwritable-svg-text": ("ingredient-back.svg.j2", "<text>\u6f22</text>"),
}


@pytest.mark.parametrize("broken", sorted(BROKEN_TEMPLATES))
def test_failed_rendering_exits_2_and_keeps_the_previous_pack(
    pnp, bundled_copy: Path, tmp_path: Path, broken: str
) -> None:
    out = tmp_path / "out"
    before = good_build(pnp, bundled_copy, out)
    template, svg = BROKEN_TEMPLATES[broken]
    add_to_template(bundled_copy, template, svg)

    # on Letter, so that anything written at all would differ from the A4 pack
    args = ("build", GAME, "--components", bundled_copy, "--out", out, "--paper", "letter")
    result = run_real_cli(*args)

    assert result.returncode == 2, result.stderr
    assert f"{template}:" in result.stderr  # file:LINE of the mistake
    assert "Traceback" not in result.stderr
    assert pack_bytes(out) == before
    assert leftovers(out / GAME) == []


def test_failure_while_writing_keeps_both_previous_files(
    pnp, bundled_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new PDF is written completely, then the manifest fails: neither file may change."""
    out = tmp_path / "out"
    before = good_build(pnp, bundled_copy, out)

    def broken_write(pack, path: Path, pdf: Path) -> None:
        path.write_text("{ half a manifest", encoding="utf-8")
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(manifest, "write", broken_write)
        result = pnp("build", GAME, "--components", bundled_copy, "--out", out, "--paper", "letter")

    assert result.exit_code == 3, result.output
    assert pack_bytes(out) == before
    assert leftovers(out / GAME) == []
    assert good_build(pnp, bundled_copy, out, "--paper", "letter") != before  # not vacuous


def test_failure_committing_the_pdf_keeps_the_previous_manifest(
    pnp, bundled_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Renaming the new PDF into place fails: the manifest must not describe a PDF that is
    not there (README: a failed build leaves the previous pack intact)."""
    out = tmp_path / "out"
    before = good_build(pnp, bundled_copy, out)
    real_replace = os.replace

    def replace(src, dst) -> None:
        if str(dst).endswith(".pdf"):
            raise OSError(errno.EIO, "Input/output error")
        real_replace(src, dst)

    with monkeypatch.context() as patch:
        patch.setattr(atomic.os, "replace", replace)
        result = pnp("build", GAME, "--components", bundled_copy, "--out", out, "--paper", "letter")

    assert result.exit_code == 3, result.output
    assert leftovers(out / GAME) == []
    pdf_after, manifest_after = pack_bytes(out)
    assert pdf_after == before[0]
    assert json.loads(manifest_after)["paper"] == "a4", "the manifest is the new build's"
    assert manifest_after == before[1]


def test_stale_temp_files_of_dead_builds_are_swept(pnp, bundled_copy, tmp_path: Path) -> None:
    out = tmp_path / "out"
    good_build(pnp, bundled_copy, out)
    folder = out / GAME
    finished = subprocess.Popen(["true"])
    finished.wait()
    dead = finished.pid
    live_build = subprocess.Popen(["sleep", "60"])
    try:
        stale = [
            folder / f".{GAME}.pdf{TMP_MARK}{dead}",
            folder / f".manifest.json{TMP_MARK}{dead}",
        ]
        for path in stale:
            path.write_bytes(b"left behind by a killed build")
        in_progress = folder / f".{GAME}.pdf{TMP_MARK}{live_build.pid}"
        in_progress.write_bytes(b"another build, still writing")

        good_build(pnp, bundled_copy, out)

        assert not any(p.exists() for p in stale)
        assert in_progress.exists(), "the temporary file of a running build was removed"
        assert leftovers(folder) == [in_progress.name]
    finally:
        live_build.kill()
        live_build.wait()


def test_a_pdf_and_manifest_of_two_builds_are_never_taken_for_one_pack(
    pnp, bundled_copy: Path, tmp_path: Path
) -> None:
    """A build killed between its two renames, or two builds at once, could leave one
    build's PDF beside another's manifest: the manifest holds its PDF's checksum, so such a
    pair is built again instead of being called up to date."""
    out = tmp_path / "out"
    good_build(pnp, bundled_copy, out)
    other = tmp_path / "other"
    good_build(pnp, bundled_copy, other, "--paper", "letter")
    manifest_data = json.loads((out / GAME / "manifest.json").read_text(encoding="utf-8"))
    assert len(manifest_data["pdf_sha256"]) == 64
    shutil.copy(other / GAME / f"{GAME}.pdf", out / GAME / f"{GAME}.pdf")  # a mixed pack
    result = pnp("build", GAME, "--components", bundled_copy, "--out", out)
    assert result.exit_code == 0, result.output
    assert "up to date" not in result.output
    again = pnp("build", GAME, "--components", bundled_copy, "--out", out)
    assert "up to date" in again.output


# -- kill -9 mid-commit, links planted under temporary names, unwritable folders ----------

KILLED_COMMIT = """
import os, sys
from pathlib import Path
from generator.output import atomic
folder = Path(sys.argv[1])
targets = [folder / sys.argv[2], folder / "manifest.json"]
def write(temps):
    for temp in temps:
        temp.write_bytes(b"the new build's " + temp.name.encode())
staged = atomic.stage_all(targets, write)
real = os.replace
def replace(src, dst):
    real(src, dst)
    os.kill(os.getpid(), 9)  # killed right after the first rename, as kill -9 would
atomic.os.replace = replace
staged.commit()
"""


def test_a_commit_killed_between_its_renames_is_rolled_back_by_the_next_command(
    pnp, bundled_copy: Path, tmp_path: Path
) -> None:
    """kill -9 after the PDF was renamed into place and before the manifest: the folder holds
    the new PDF beside the old manifest. The next command puts the old PDF back (kept aside
    as a hard link) before it looks at the pack, which is then up to date, untouched."""
    out = tmp_path / "out"
    before = good_build(pnp, bundled_copy, out)
    folder = out / GAME
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_COMMIT, str(folder), f"{GAME}.pdf"],
        cwd=REPO,
        capture_output=True,
        timeout=PATIENCE,
    )
    assert killed.returncode == -9, killed.stderr
    assert (folder / f"{GAME}.pdf").read_bytes().startswith(b"the new build's")  # mixed
    assert any(".old" in name for name in leftovers(folder))
    result = pnp("build", GAME, "--components", bundled_copy, "--out", out)
    assert result.exit_code == 0, result.output
    assert "is up to date" in result.output, result.output
    assert pack_bytes(out) == before
    assert leftovers(folder) == []


def test_a_finished_commit_killed_before_its_clean_up_is_kept(tmp_path: Path) -> None:
    """Both files renamed, the old ones still kept aside: the commit was whole, so the new
    pair stays and only the aside names go."""
    folder = tmp_path / "pack"
    folder.mkdir()
    for name in ("p.pdf", "manifest.json"):
        (folder / name).write_bytes(b"old")
        os.link(folder / name, folder / f".{name}.old{TMP_MARK}999999999")
        (folder / name).unlink()
        (folder / name).write_bytes(b"new")
    atomic.sweep_stale(folder)
    assert sorted(p.name for p in folder.iterdir()) == ["manifest.json", "p.pdf"]
    assert {p.read_bytes() for p in folder.iterdir()} == {b"new"}


def test_temporary_files_are_never_written_through_a_planted_link(tmp_path: Path) -> None:
    """A link planted under the temporary name (in a folder a stranger prepared) is removed
    and a new file made in its place: what it points to is untouched."""
    victim = tmp_path / "victim"
    victim.write_text("precious")
    target = tmp_path / "pack.pdf"
    atomic.temp_path(target).symlink_to(victim)
    with replacing(target) as tmp, open(tmp, "wb") as handle:
        handle.write(b"new pack")
    assert victim.read_text() == "precious"
    assert target.read_bytes() == b"new pack" and not target.is_symlink()


def test_calibrate_here_never_writes_through_a_link(tmp_path: Path) -> None:
    """``pnp calibrate --save X,Y --here`` in a folder holding ``pnp.toml.tmp`` (the name the
    old writer wrote through) as a link to a file of the user's: untouched; the profile
    written is valid TOML (from tomlkit: a table name with a space) and keeps its comments."""
    victim = tmp_path / "bashrc"
    victim.write_text("precious\n")
    here = tmp_path / "here"
    here.mkdir()
    (here / "pnp.toml.tmp").symlink_to(victim)
    (here / "pnp.toml").write_text('# my printer\n["a table"]\nx = 1\n', encoding="utf-8")
    env = {**os.environ, "PNP_CONFIG": str(tmp_path / "none.toml")}
    run = subprocess.run(
        [sys.executable, "-m", "generator", "calibrate", "--save", "1.5,-0.5", "--here"],
        cwd=here,
        capture_output=True,
        text=True,
        env=env,
        timeout=PATIENCE,
    )
    assert run.returncode == 0, run.stderr
    assert victim.read_text() == "precious\n"
    text = (here / "pnp.toml").read_text(encoding="utf-8")
    assert tomllib.loads(text)["printer"]["back_offset"] == [1.5, -0.5]
    assert tomllib.loads(text)["a table"] == {"x": 1}
    assert text.startswith("# my printer\n")


def _without_root(command: list[str]) -> list[str]:
    """``command`` unable to write where its user may not: as root, with the capabilities
    that let root ignore file modes dropped (``setpriv``)."""
    if os.geteuid() != 0:
        return command
    drop = "-dac_override,-dac_read_search,-fowner"
    return ["setpriv", f"--bounding-set={drop}", *command]


@pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("setpriv"), reason="needs setpriv")
def test_a_pack_folder_that_cannot_be_written_exits_3_even_without_its_lock_file(
    pnp, bundled_copy: Path, tmp_path: Path
) -> None:
    """A pack folder the user may read but not write, its ``.pnp-lock`` gone: the lock could
    not be made (PermissionError, exit 4 before); now 'up to date' is still read, and a build
    that must write ends with exit 3, the previous pack untouched."""
    out = tmp_path / "out"
    before = good_build(pnp, bundled_copy, out)
    folder = out / GAME
    (folder / atomic.LOCK).unlink()
    folder.chmod(0o500)
    base = [sys.executable, "-m", "generator", "build", GAME, "--components", str(bundled_copy)]
    try:
        runs = [
            subprocess.run(
                _without_root([*base, "--out", str(out), *extra]),
                capture_output=True,
                text=True,
                cwd=REPO,
                timeout=PATIENCE,
            )
            for extra in ((), ("--paper", "letter"))
        ]
    finally:
        folder.chmod(0o755)
    same, letter = runs
    assert same.returncode == 0 and "is up to date" in same.stdout, same.stderr
    assert letter.returncode == 3, letter.stderr
    assert "cannot write" in letter.stderr and "Traceback" not in letter.stderr, letter.stderr
    assert pack_bytes(out) == before


def test_an_export_folder_killed_between_its_renames_is_put_back(tmp_path: Path) -> None:
    """kill -9 after the old export folder was moved aside and before the new one took its
    name: the next sweep (every export starts with one) moves the old folder back."""
    pack = tmp_path / "pack"
    aside = pack / f".shop.old{TMP_MARK}999999999"
    aside.mkdir(parents=True)
    (aside / "shop.json").write_text("old export")
    (pack / f".shop{TMP_MARK}999999999").mkdir()  # the new one, half-written
    atomic.sweep_stale(pack)
    assert sorted(p.name for p in pack.iterdir()) == ["shop"]
    assert (pack / "shop" / "shop.json").read_text() == "old export"


def test_whether_a_build_runs_is_asked_without_signalling_it() -> None:
    """A live process (this one) runs; a finished child's does not (POSIX signal 0)."""
    code = "import os; print(os.getpid())"
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert atomic._alive(os.getpid())
    assert not atomic._alive(int(child.stdout))


class _Kernel32:
    """kernel32 as Windows answers OpenProcess and GetExitCodeProcess for one process."""

    def __init__(self, handle: int, code: int, error: int = 0) -> None:
        self.handle, self.code, self.error, self.closed = handle, code, error, 0

    def OpenProcess(self, access: int, inherit: bool, pid: int) -> int:  # noqa: N802
        return self.handle

    def GetLastError(self) -> int:  # noqa: N802
        return self.error

    def GetExitCodeProcess(self, handle: int, code: object) -> int:  # noqa: N802
        code._obj.value = self.code  # type: ignore[attr-defined]  # what ctypes.byref wraps
        return 1

    def CloseHandle(self, handle: int) -> int:  # noqa: N802
        self.closed += 1
        return 1


@pytest.mark.parametrize(
    ("kernel32", "alive"),
    [
        (_Kernel32(7, atomic.STILL_ACTIVE), True),
        (_Kernel32(7, 0), False),  # exited with 0
        (_Kernel32(0, 0, error=87), False),  # ERROR_INVALID_PARAMETER: no such process
        (_Kernel32(0, 0, error=5), True),  # ERROR_ACCESS_DENIED: another user's
    ],
)
def test_on_windows_a_process_is_opened_not_killed(kernel32: _Kernel32, alive: bool) -> None:
    assert atomic._alive_on_windows(1234, kernel32) is alive
    assert kernel32.closed == (1 if kernel32.handle else 0)
