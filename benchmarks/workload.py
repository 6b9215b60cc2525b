"""Shared pieces of the benchmarks: synthetic games, a timed build, medians and peak memory.

The card workload (workloads 1 and 4 of the speed issue): N distinct poker cards without bleed
(9 per A4 page), each face a Jinja2 SVG with a title, a dozen shapes and two lines of text
from the card's fields, one common back, crop marks and duplex backs.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from cards import card_fields, colour, cpu_seconds  # noqa: E402, F401 (the workload's own)

from generator.errors import ErrorList  # noqa: E402
from generator.model.fields import MAX_COPIES  # noqa: E402
from generator.model.loader import load_game  # noqa: E402
from generator.output.write import write_pack  # noqa: E402
from generator.plan.pipeline import plan_pack  # noqa: E402

FACE = """\
{% set n = card.number %}
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="{{ card.colour }}"/>
  <rect x="3" y="3" width="{{ box.w - 6 }}" height="{{ box.h - 6 }}" rx="3" fill="#fbf6ee"
        stroke="#333333" stroke-width="0.5"/>
  <text x="{{ box.w / 2 }}" y="12" font-family="sans-serif" font-weight="bold" font-size="6"
        fill="#222222" text-anchor="middle">{{ card.title }}</text>
  {% for i in range(12) %}
  {% set x = 8 + (i % 4) * 13 %}
  {% set y = 20 + (i // 4) * 16 %}
  {% if (i + n) % 3 == 0 %}
  <circle cx="{{ x + 4 }}" cy="{{ y + 4 }}" r="{{ 2 + (n + i) % 4 }}" fill="#c0392b"
          fill-opacity="0.7"/>
  {% elif (i + n) % 3 == 1 %}
  <rect x="{{ x }}" y="{{ y }}" width="{{ 4 + (n * i) % 6 }}" height="8" fill="#2980b9"/>
  {% else %}
  <path d="M{{ x }} {{ y + 8 }} L{{ x + 4 }} {{ y }} L{{ x + 8 }} {{ y + 8 }} Z" fill="#27ae60"/>
  {% endif %}
  {% endfor %}
  <text x="{{ box.w / 2 }}" y="{{ box.h - 16 }}" font-family="sans-serif" font-size="3.2"
        fill="#333333" text-anchor="middle">{{ card.line1 }}</text>
  <text x="{{ box.w / 2 }}" y="{{ box.h - 10 }}" font-family="sans-serif" font-style="italic"
        font-size="2.8" fill="#555555" text-anchor="middle">{{ card.line2 }}</text>
</svg>
"""

BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#2c3e50"/>
  <circle cx="{{ box.w / 2 }}" cy="{{ box.h / 2 }}" r="18" fill="none" stroke="#ecf0f1"
          stroke-width="1.2"/>
  <text x="{{ box.w / 2 }}" y="{{ box.h / 2 + 2 }}" font-family="sans-serif" font-weight="bold"
        font-size="3.6" fill="#ecf0f1" text-anchor="middle">{{ deck.title }}</text>
</svg>
"""


def write_game(root: Path, cards: int, face: str = FACE, extra=None) -> Path:
    """A game folder with ``cards`` distinct poker cards without bleed (decks of at most
    1000, the spec's limit per deck); ``extra(n)`` adds fields to card n."""
    folder = root / "bench"
    (folder / "templates").mkdir(parents=True, exist_ok=True)
    (folder / "templates" / "face.svg.j2").write_text(face, encoding="utf-8")
    (folder / "templates" / "back.svg.j2").write_text(BACK, encoding="utf-8")
    starts = range(1, cards + 1, MAX_COPIES)
    expect = [f"  cards-{i}: {min(MAX_COPIES, cards - s + 1)}" for i, s in enumerate(starts, 1)]
    (folder / "game.yaml").write_text(
        "title: Benchmark\nplayers: 2-4\nexpect:\n" + "\n".join(expect) + "\n", encoding="utf-8"
    )
    for deck, first in enumerate(starts, 1):
        lines = [
            "kind: deck",
            "title: Benchmark",
            "size: poker",
            "bleed: 0",
            "face: face.svg.j2",
            "back: back.svg.j2",
            "cards:",
        ]
        for n in range(first, min(first + MAX_COPIES, cards + 1)):
            fields = {**card_fields(n, cards), **(extra(n) if extra else {})}
            lines.append(f"  - name: card-{n:05d}")
            lines.append("    count: 1")
            lines += [
                f'    {k}: "{v}"' if isinstance(v, str) else f"    {k}: {v}"
                for k, v in fields.items()
            ]
        (folder / f"cards-{deck}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def build(folder: Path, out: Path) -> tuple[float, Path, int]:
    """Load, plan and write the game as pnp build does; CPU seconds (all processes: workers
    included), the PDF and its pages."""
    start = cpu_seconds()
    errors = ErrorList()
    game = load_game(folder, errors)
    if game is None:
        raise SystemExit("\n".join(str(e) for e in errors))
    pack = plan_pack(game, game.spec.paper)
    built = write_pack(pack, out)
    return cpu_seconds() - start, built.pdf, built.pages


def median(values: list[float]) -> float:
    return statistics.median(values)


def run_python(args: list[str], **kwargs) -> tuple[str, float, float]:
    """Run a Python child to its end: its standard output, the CPU seconds it and its own
    children took (all processes), and the wall-clock seconds."""
    env = _installed_env(kwargs.pop("env", None))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, *args], check=True, capture_output=True, text=True, env=env, **kwargs
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return run.stdout, cpu, wall


_COMPILED: list[bool] = []


def _installed_env(env: dict[str, str] | None) -> dict[str, str]:
    """A child's environment with Python's compiled bytecode kept and used, as an installed
    package has it (pip compiles it as it installs): with PYTHONDONTWRITEBYTECODE set (this
    machine's shell sets it) every child compiled the engine's source again, a fifth of a
    second that neither a user nor the floor pays. The source is compiled once, untimed."""
    env = {k: v for k, v in (env or os.environ).items() if k != "PYTHONDONTWRITEBYTECODE"}
    if not _COMPILED:
        folders = [str(REPO / "generator"), str(Path(__file__).resolve().parent)]
        compiling = [sys.executable, "-m", "compileall", "-q", *folders]
        subprocess.run(compiling, check=True, capture_output=True, env=env)
        _COMPILED.append(True)
    return env


def load() -> str:
    """The machine's load average (1, 5, 15 minutes) and its cores, printed beside every
    figure: CPU time holds under load, wall time does not."""
    one, five, fifteen = os.getloadavg()
    return f"load={one:.2f}/{five:.2f}/{fifteen:.2f}@{os.cpu_count()}cores"


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker_peak_rss_mb() -> float:
    """The largest peak resident memory of a finished worker process in MB (0: none ran);
    forked workers share the pages they did not change, so the machine's peak is at most
    this process's and the workers' added up."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
