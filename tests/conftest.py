"""Shared fixtures: run the CLI, build the bundled games once, and make games in tmp_path."""

from __future__ import annotations

import os
import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli import cli
from generator.plan import cache

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "components"

# The test tiers (pytest -m unit|e2e|acceptance; make test runs them all, make test-fast the
# unit tier). A file's tests are in its tier unless a test is marked with another.
# unit: one stage at a time, in this process, in seconds.
# e2e: the command line on small games made by the test.
# acceptance: every bundled pack in every mode, the installed wheel, the fuzzers, the SVG
# suite, hostile input in child processes, the benchmarks.
TIERS = {
    "unit": {
        "test_stages",
        "test_kinds",
        "test_svg_css",
        "test_svg_draw",
        "test_svg_pictures",
        "test_layers",
        "test_rules",
        "test_specs",
        "test_datafiles",
        "test_grid_geometry",
        "test_profile",
        "test_legibility",
        "test_sandbox",
        "test_gate",
        "test_templatefields",
        "test_keeping",
        "test_progress",
        "test_interrupts",
    },
    "acceptance": {
        "test_duplex",
        "test_bundled",
        "test_wheel",
        "test_fuzz",
        "test_fuzz_art",
        "test_fuzz_files",
        "test_svg_suite",
        "test_hostile",
        "test_hostile_budget",
        "test_hostile_exits",
        "test_hardening",
        "test_benchmarks",
        "test_parallel",
        "test_tutorial",
        "test_serve_browser",
        "test_shops",
        "test_bundled_languages",
    },
}
TIER_NAMES = ("unit", "e2e", "acceptance")


def pytest_configure(config: pytest.Config) -> None:
    for tier in TIER_NAMES:
        config.addinivalue_line("markers", f"{tier}: a test of the {tier} tier (see conftest)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give each test its file's tier, unless the test names its own."""
    for item in items:
        if any(item.get_closest_marker(tier) for tier in TIER_NAMES):
            continue
        module = item.path.stem
        tier = next((t for t, files in TIERS.items() if module in files), "e2e")
        item.add_marker(getattr(pytest.mark, tier))


@pytest.fixture(autouse=True, scope="session")
def no_printer_profile(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests see no printer profile of the person running them: the user config is a file
    that does not exist (a test that wants one writes it or sets its own)."""
    os.environ["PNP_CONFIG"] = str(tmp_path_factory.mktemp("config") / "none.toml")


@pytest.fixture(autouse=True, scope="session")
def own_digests(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The remembered file hashes of a test run are its own, not the user's cache."""
    os.environ["PNP_DIGESTS"] = str(tmp_path_factory.mktemp("digests"))
    # the engine's key is kept for the process: taken here, before a test patches a limit of
    # the hashing (a key taken under MAX_HASHED_TOTAL=10 made every later in-process build
    # of that worker "not up to date" for a child process)
    cache.engine_key()


def _invoke(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="session")
def pnp() -> Callable[..., Result]:
    """Run ``pnp ARGS...`` in-process; the click ``Result`` has exit_code, stdout, stderr."""
    return _invoke


@pytest.fixture(scope="session")
def bundled_build(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """``bundled_build(paper)``: the output folder of every bundled game built on ``paper``,
    built once per session (read-only: copy before changing anything)."""
    built: dict[str, Path] = {}

    def build(paper: str = "a4") -> Path:
        if paper not in built:
            out = tmp_path_factory.mktemp(f"bundled-{paper}")
            result = _invoke("build", "--components", BUNDLED, "--out", out, "--paper", paper)
            assert result.exit_code == 0, result.output
            built[paper] = out
        return built[paper]

    return build


@pytest.fixture
def bundled_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled components folder; returns the copy's folder."""
    target = tmp_path / "components"
    shutil.copytree(BUNDLED, target)
    return target


CARD_FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#dde8f0"/>
  <text x="{{ box.w / 2 }}" y="{{ box.h / 2 }}" font-family="sans-serif" font-size="6"
        text-anchor="middle">{{ card.name }}</text>
</svg>
"""
CARD_BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#553322"/>
  <text x="{{ box.w / 2 }}" y="8" font-family="sans-serif" font-size="5"
        text-anchor="middle" fill="#ffffff">{{ deck.title }}</text>
</svg>
"""


# token templates shared by the token and printing tests: the name on the face, and
# "<name> back" on the back, so that a side can be told from its text
TOKEN_FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#dde8f0"/>
  <text x="{{ box.cx }}" y="{{ box.cy }}" font-family="sans-serif" font-size="3"
        text-anchor="middle">{{ token.name }}</text>
</svg>
"""
TOKEN_BACK = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="{{ -box.bleed }}" y="{{ -box.bleed }}" width="{{ box.full_w }}"
        height="{{ box.full_h }}" fill="#553322"/>
  <text x="{{ box.cx }}" y="{{ box.cy }}" font-family="sans-serif" font-size="3"
        text-anchor="middle" fill="#ffffff">{{ token.name }} back</text>
</svg>
"""


@pytest.fixture
def make_deck_game(tmp_path: Path) -> Callable[..., Path]:
    """``make_deck_game(cards={"a": 6, "b": 5}, size="poker", bleed=0, back=True)`` writes a
    one-deck game ``synth`` (game.yaml with matching counts, deck.yaml, templates/) under
    ``tmp_path/components`` and returns that components folder."""

    def make(
        cards: dict[str, int] | None = None,
        size: str = "poker",
        bleed: float = 3,
        back: bool = True,
        name: str = "synth",
    ) -> Path:
        cards = cards or {"a": 6, "b": 5}
        root = tmp_path / "components" / name
        (root / "templates").mkdir(parents=True, exist_ok=True)
        expect = "".join(f"  deck/{k}: {n}\n" for k, n in cards.items())
        (root / "game.yaml").write_text(
            f"title: Synthetic {name}\nplayers: 2-4\npaper: a4\nexpect:\n"
            f"  deck: {sum(cards.values())}\n{expect}",
            encoding="utf-8",
        )
        card_lines = "".join(f"  - name: {k}\n    count: {n}\n" for k, n in cards.items())
        back_line = "back: back.svg.j2\n" if back else ""
        (root / "deck.yaml").write_text(
            textwrap.dedent(
                f"""\
                kind: deck
                title: Test deck
                size: {size}
                bleed: {bleed}
                face: face.svg.j2
                """
            )
            + back_line
            + "cards:\n"
            + card_lines,
            encoding="utf-8",
        )
        (root / "templates" / "face.svg.j2").write_text(CARD_FACE, encoding="utf-8")
        (root / "templates" / "back.svg.j2").write_text(CARD_BACK, encoding="utf-8")
        return tmp_path / "components"

    return make
