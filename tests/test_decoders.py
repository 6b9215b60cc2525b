"""Every third-party decoder behind its guard, measured: each is fed a bomb, a loop and a
damaged input of its kind in a child process held to ``MEMORY`` bytes and ``CPU`` seconds, and
must answer in words (the guard's own error) within them; and no module of the engine imports
a decoder but its guard (a new decoder cannot come in without one)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
MEMORY = 1_000_000_000  # bytes of address space a child may have (the 1 GB)
CPU = 20  # seconds of CPU a child may spend (a hang ends as SIGXCPU, a failure here)


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU, CPU))


def bounded(code: str) -> dict:
    """Run ``code`` (which sets ``said``: what the guard answered) in a child held to
    ``MEMORY`` and ``CPU``; its answer, the CPU seconds it used and its peak memory (KB)."""
    script = textwrap.dedent(code) + textwrap.dedent("""
        import json, resource
        use = resource.getrusage(resource.RUSAGE_SELF)
        print(json.dumps({"said": said, "cpu": use.ru_utime + use.ru_stime, "kb": use.ru_maxrss}))
    """)
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=_limited,  # noqa: PLW1509 - limits only, set before the exec
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


# --- shaping: HarfBuzz and python-bidi, behind generator/svg/shaping.py ----------------------

SHAPE = """
from generator.svg.fonts import FONT_DIR
from generator.svg.shaping import Shaper, ShapingProblem
shaper = Shaper((FONT_DIR / "DejaVuSans.ttf").read_bytes())
text = {text}
try:
    shaped = shaper.shape(text)
    said = len(shaped.glyphs)
except ShapingProblem as exc:
    said = str(exc)
"""
WORDS = "'مرحبا بالعالم لدي 3 بطاقات و 25 نقطة abc (x) '"
SHAPING = {
    # 10,000 characters (the limit) of Arabic: was 5 s and quadratic (42 KB: 146 s)
    "a long Arabic line": (f"({WORDS} * 400)[:10_000]", 10_000),
    # bidi controls nested and unpaired, a run at every character
    "bidi controls": ("('\\u202b\\u05d0a1\\u202e\\u200f\\u202a ' * 1_500)[:10_000]", None),
    # a loop of isolates, which python-bidi's algorithm asserts on (an internal error before)
    "isolates": ("'\\u05d0\\u2066b\\u2069c\\u2068\\u05d3\\u2069\\u2067' * 1_000", None),
    # damaged: a closing control without its opening, one past the nesting depth
    "unpaired controls": (
        "'\\u2069\\u202c' * 10 + '\\u202b' * 200 + '\\u05d0' + '\\u202c' * 300",
        None,
    ),
    # a bomb: a text past the limit is refused before any work
    "past the limit": ("'\\u05d0' * 10_000_000", "at most"),
}


@pytest.mark.parametrize("case", list(SHAPING))
def test_shaping_is_linear_in_the_text_and_never_fails_inside(case: str):
    text, expected = SHAPING[case]
    result = bounded(SHAPE.format(text=text))
    if isinstance(expected, str):
        assert expected in result["said"], result
    else:
        assert isinstance(result["said"], int) and result["said"] > 0, result
        if expected is not None:
            assert result["said"] >= expected * 0.9
    assert result["cpu"] < 3, result  # the import of the engine and HarfBuzz included
