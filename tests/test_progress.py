"""Progress on long work: a bar for work done in parts by a server's queue, drawn only on a
terminal and closed by its last part."""

from __future__ import annotations

import io

import pytest

from generator.cli import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_work_in_parts_gets_a_bar_on_a_terminal_closed_by_its_last_part(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(progress.sys, "stderr", screen)
    monkeypatch.setattr(progress, "on_terminal", lambda: True)
    tick = progress.counted("drawing deck", 3)
    tick("cards one")
    tick("cards two")
    assert "drawing deck" in screen.getvalue() and "2/3" in screen.getvalue()
    assert not screen.getvalue().endswith("\n")  # still drawing
    tick("cards three")
    assert "3/3" in screen.getvalue() and screen.getvalue().endswith("\n")


@pytest.mark.parametrize("total", [0, 5])
def test_no_bar_off_a_terminal_or_for_no_work(monkeypatch, total):
    screen = Terminal()
    monkeypatch.setattr(progress.sys, "stderr", screen)
    monkeypatch.setattr(progress, "on_terminal", lambda: total == 0)
    tick = progress.counted("drawing deck", total)
    for n in range(total):
        tick(f"cards {n}")
    assert screen.getvalue() == ""
