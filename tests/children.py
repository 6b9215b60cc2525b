"""What the tests' child processes share."""

from __future__ import annotations

import signal


def hears_ctrl_c() -> None:
    """In a child (``preexec_fn``): Ctrl-C delivered as a terminal delivers it. A test run
    started in the background (``make test &``, as CI scripts do) ignores SIGINT, and a child
    inherits that: a command would never hear the Ctrl-C a test sends it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
