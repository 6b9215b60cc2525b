"""Benchmark: build a deck of distinct poker cards and print one line of numbers.

    .venv/bin/python benchmarks/bench_cards.py [--cards N] [--paper a4] [--keep DIR]

A synthetic game is written to a temporary folder: N poker cards, each with its own title and
number (so every face is distinct art), a Jinja2 SVG face with a title, a dozen shapes and two
lines of text, and one common back. The timed part is the build as ``pnp build`` does it: load
the specs, plan the pack (render, parse and impose every card) and write the PDF and manifest.
Output: ``cards=N seconds=X.XX pdf_bytes=N pages=P``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.errors import ErrorList  # noqa: E402
from generator.loader import load_game  # noqa: E402
from generator.pipeline import plan_pack, write_pack  # noqa: E402
from generator.spec import MAX_COPIES  # noqa: E402

FACE = """\
{# Benchmark face: a title, a dozen shapes and two lines of text. #}
{% set n = card.number %}
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}" height="{{ box.full_h }}"
        fill="hsl({{ card.hue }}, 55%, 45%)"/>
  <rect x="3" y="3" width="{{ box.w - 6 }}" height="{{ box.h - 6 }}" rx="3" fill="#fbf6ee"
        stroke="#333333" stroke-width="0.5"/>
  <text x="{{ box.w / 2 }}" y="12" font-family="sans-serif" font-weight="bold" font-size="6"
        fill="#222222" text-anchor="middle">{{ card.title }}</text>
  {% for i in range(12) %}
  {% set x = 8 + (i % 4) * 16 %}
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
        fill="#333333" text-anchor="middle">Card number {{ n }} of {{ card.total }}</text>
  <text x="{{ box.w / 2 }}" y="{{ box.h - 10 }}" font-family="sans-serif" font-style="italic"
        font-size="2.8" fill="#555555" text-anchor="middle">{{ card.flavour }}</text>
</svg>
"""

BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}" height="{{ box.full_h }}"
        fill="#2c3e50"/>
  <circle cx="{{ box.w / 2 }}" cy="{{ box.h / 2 }}" r="18" fill="none" stroke="#ecf0f1"
          stroke-width="1.2"/>
  <text x="{{ box.w / 2 }}" y="{{ box.h / 2 + 2 }}" font-family="sans-serif" font-weight="bold"
        font-size="3.6" fill="#ecf0f1" text-anchor="middle">{{ deck.title }}</text>
</svg>
"""


def write_game(root: Path, cards: int) -> Path:
    """A game folder with ``cards`` distinct poker cards (decks of at most 1000, the spec's
    limit per deck); returns the folder."""
    folder = root / "bench"
    (folder / "templates").mkdir(parents=True, exist_ok=True)
    (folder / "templates" / "face.svg.j2").write_text(FACE, encoding="utf-8")
    (folder / "templates" / "back.svg.j2").write_text(BACK, encoding="utf-8")
    starts = range(1, cards + 1, MAX_COPIES)
    expect = [f"  cards-{i}: {min(MAX_COPIES, cards - s + 1)}" for i, s in enumerate(starts, 1)]
    (folder / "game.yaml").write_text(
        "title: Benchmark\nplayers: 2-4\nexpect:\n" + "\n".join(expect) + "\n", encoding="utf-8"
    )
    for deck, first in enumerate(starts, 1):
        lines = [
            "kind: deck",
            f"title: Benchmark cards {deck}",
            "size: poker",
            "bleed: 3",
            "face: face.svg.j2",
            "back: back.svg.j2",
            "fields:",
            f"  total: {cards}",
            "cards:",
        ]
        for n in range(first, min(first + MAX_COPIES, cards + 1)):
            lines += [
                f"  - name: card-{n:05d}",
                "    count: 1",
                f"    number: {n}",
                f'    title: "Card {n}"',
                f"    hue: {n * 37 % 360}",
                f'    flavour: "Distinct flavour text for card {n}"',
            ]
        (folder / f"cards-{deck}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def build(folder: Path, out: Path, paper: str | None) -> tuple[float, Path, int]:
    """Load, plan and write the game; returns seconds, the PDF path and its page count."""
    start = time.perf_counter()
    errors = ErrorList()
    game = load_game(folder, errors)
    if game is None:
        raise SystemExit("\n".join(str(e) for e in errors))
    pack = plan_pack(game, paper or game.spec.paper)
    built = write_pack(pack, out)
    return time.perf_counter() - start, built.pdf, built.pages


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=540, help="distinct cards (default 540)")
    parser.add_argument("--paper", default=None, help="paper size (default: the game's, a4)")
    parser.add_argument("--keep", type=Path, default=None, help="write the game and PDF here")
    args = parser.parse_args(argv)
    if args.cards < 1:
        parser.error("--cards must be at least 1")
    with tempfile.TemporaryDirectory(prefix="pnp-bench-") as tmp:
        root = args.keep or Path(tmp)
        folder = write_game(root, args.cards)
        seconds, pdf, pages = build(folder, root / "out", args.paper)
        size = pdf.stat().st_size
    print(f"cards={args.cards} seconds={seconds:.2f} pdf_bytes={size} pages={pages}")


if __name__ == "__main__":
    main()
