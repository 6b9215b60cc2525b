"""The one gate every file a game names is read through (``paths.read_bytes``): inside its
folder, a regular file, no larger than its kind may be, refused before a byte is read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.limits import FILE_BYTES
from generator.paths import PathRefused, read_bytes, read_text


def test_a_file_inside_is_read(tmp_path: Path):
    (tmp_path / "a.yaml").write_text("title: Ä\n", encoding="utf-8")
    assert read_text(tmp_path, tmp_path / "a.yaml", "spec") == "title: Ä\n"


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda root, p: None, "not found"),
        (lambda root, p: p.mkdir(), "not a regular file"),
        (lambda root, p: os.mkfifo(p), "not a regular file"),
        (lambda root, p: p.symlink_to("/etc/hostname"), "outside its folder"),
        (lambda root, p: p.symlink_to(p), "loop of links"),
    ],
    ids=["missing", "folder", "fifo", "link out", "link to itself"],
)
def test_what_is_not_a_file_inside_is_refused(tmp_path: Path, make, said: str):
    path = tmp_path / "x.yaml"
    make(tmp_path, path)
    with pytest.raises(PathRefused, match=said):
        read_bytes(tmp_path, path, "spec")


def test_a_file_past_its_kind_is_refused_before_it_is_read(tmp_path: Path):
    """A sparse file of 3 GB (a few bytes on disk) is refused by its size, not read."""
    path = tmp_path / "big.csv"
    with open(path, "wb") as handle:
        handle.truncate(3_000_000_000)
    with pytest.raises(PathRefused, match=f"may be {FILE_BYTES['data']:,} at most"):
        read_bytes(tmp_path, path, "data")


def test_an_unreadable_file_is_refused(tmp_path: Path):
    path = tmp_path / "a.yaml"
    path.write_text("x: 1\n")
    path.chmod(0)
    if os.access(path, os.R_OK):  # root reads anything: give it a file it cannot open
        path.chmod(0o644)
        path.unlink()
        path.mkdir()
    with pytest.raises(PathRefused):
        read_bytes(tmp_path, path, "spec")
