"""Both cores: games are planned and written in forked workers, and nothing about the output
depends on how the work was spread."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest
from conftest import BUNDLED
from lxml import etree
from reportlab.lib.fonts import tt2ps
from waiting import until

from generator.errors import ErrorList
from generator.model.designs import designs
from generator.model.loader import load_game
from generator.options import DEFAULT_OPTIONS
from generator.output.atomic import TMP_MARK
from generator.plan import parallel
from generator.plan.shares import made_on_all_cores
from generator.svg.compiler import compile_svg
from generator.svg.fonts import BOLD, REGULAR
from generator.svg.safexml import SAFE_PARSER

GAMES = ("candiescollectors", "chaos-cove", "chocolate-coin", "chocolate-market", "schokoly")


_MARKS: Path | None = None  # where each worker marks that it began (set before the fork)


def _pid_of(item: int) -> tuple[int, int]:
    """The item and the process that took it; with ``_MARKS`` set, an item waits until two
    workers have each begun one (no time allowance: one worker cannot take every item before
    the other starts, however busy the machine)."""
    if _MARKS is not None:
        (_MARKS / str(os.getpid())).touch()
        until(lambda: len(list(_MARKS.iterdir())) >= 2)
    return item, os.getpid()


def _fail_on_three(item: int) -> int:
    if item == 3:
        raise ValueError("item three")
    return item


def test_work_is_spread_over_forked_workers_and_comes_back_in_order(monkeypatch, tmp_path):
    monkeypatch.setenv("PNP_JOBS", "2")
    monkeypatch.setattr(sys.modules[__name__], "_MARKS", tmp_path)
    results = parallel.map_forked(_pid_of, list(range(6)), weight=lambda i: i)
    assert [item for item, _ in results] == list(range(6))
    pids = {pid for _, pid in results}
    assert os.getpid() not in pids and len(pids) == 2


def test_one_job_or_one_core_runs_in_this_process(monkeypatch):
    monkeypatch.setenv("PNP_JOBS", "1")
    assert {pid for _, pid in parallel.map_forked(_pid_of, [1, 2, 3])} == {os.getpid()}
    monkeypatch.setenv("PNP_JOBS", "2")
    assert parallel.map_forked(_pid_of, [7]) == [(7, os.getpid())]


def test_a_failing_job_fails_the_whole_map(monkeypatch):
    monkeypatch.setenv("PNP_JOBS", "2")
    with pytest.raises(ValueError, match="item three"):
        parallel.map_forked(_fail_on_three, [1, 2, 3, 4])


def test_every_game_builds_the_same_bytes_on_one_core_as_on_two(
    pnp, bundled_build, tmp_path, monkeypatch
):
    """One process building the games one after another must not carry anything from one
    game into the next (a font family untied once made bold text regular in the games
    built after the first art drawn by another library)."""
    spread = bundled_build()
    monkeypatch.setenv("PNP_JOBS", "1")
    alone = tmp_path / "alone"
    result = pnp("build", "--components", BUNDLED, "--out", alone, "--paper", "a4")
    assert result.exit_code == 0, result.output
    for game in GAMES:
        for name in (f"{game}.pdf", "manifest.json"):
            assert (spread / game / name).read_bytes() == (alone / game / name).read_bytes(), (
                game,
                name,
            )


def test_bold_and_italic_stay_tied_to_the_family_after_art_draws_text():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text y="5" '
        'font-family="Helvetica" font-weight="bold" font-style="italic">A</text></svg>'
    )
    compile_svg(etree.fromstring(svg.encode(), SAFE_PARSER))
    assert tt2ps(REGULAR, 1, 0) == BOLD
    assert tt2ps(REGULAR, 0, 1) == "PnpSans-Italic"


def test_a_mistake_in_one_game_writes_no_game(pnp, bundled_copy: Path, tmp_path, monkeypatch):
    """The workers write under temporary names; the build puts nothing in place, and leaves
    no temporary file or empty folder, when any game has a mistake."""
    monkeypatch.setenv("PNP_JOBS", "2")
    template = bundled_copy / "schokoly" / "templates"
    broken = next(template.glob("*.svg.j2"))
    broken.write_text(broken.read_text(encoding="utf-8") + "{{ card.no_such_field }}\n")
    out = tmp_path / "out"
    result = pnp("build", "--components", bundled_copy, "--out", out)
    assert result.exit_code == 2, result.output
    assert "no_such_field" in result.stderr
    leftovers = [p for p in out.rglob("*")] if out.exists() else []
    assert leftovers == [], leftovers


def test_workers_files_are_named_for_the_build_that_commits_them(monkeypatch, tmp_path):
    """A forked worker's temporary files carry the parent build's process id, so another
    build sweeping stale files leaves them alone while the parent lives."""
    monkeypatch.setenv("PNP_JOBS", "2")

    def names(item: int) -> str:
        from generator.output.atomic import temp_path

        return temp_path(tmp_path / f"file-{item}").name

    found = parallel.map_forked(names, [1, 2])
    assert found == [f".file-{i}{TMP_MARK}{os.getpid()}" for i in (1, 2)]


def _die_on_two(item: int) -> int:
    if item == 2:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's out-of-memory killer would
    return item


def test_a_worker_killed_midway_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PNP_JOBS", "2")
    with pytest.raises(parallel.WorkerLost, match="PNP_JOBS=1"):
        parallel.map_forked(_die_on_two, [1, 2, 3, 4])


def test_one_game_built_with_its_designs_on_two_cores_is_the_same_pack(pnp, tmp_path, monkeypatch):
    """A game built alone has its designs' art made on both cores (the build's own process
    and a worker, every other design each); the pack is the one a single process makes."""
    for game in GAMES:
        packs = []
        for jobs in ("1", "2"):
            monkeypatch.setenv("PNP_JOBS", jobs)
            out = tmp_path / f"{game}-{jobs}"
            result = pnp("build", game, "--components", BUNDLED, "--out", out)
            assert result.exit_code == 0, result.output
            packs.append([(out / game / n).read_bytes() for n in (f"{game}.pdf", "manifest.json")])
        assert packs[0] == packs[1], game


def test_the_designs_are_shared_between_the_cores(monkeypatch):
    monkeypatch.setenv("PNP_JOBS", "2")
    game = load_game(BUNDLED / "chocolate-coin", ErrorList())
    shares = made_on_all_cores(game, "a4", DEFAULT_OPTIONS)
    assert len(shares) == 2
    made = [set(share.memo) for share in shares]
    assert made[0] and made[1] and not made[0] & made[1]
    total = sum(len(designs(c, game.spec.colours)) for c in game.components)
    assert len(made[0] | made[1]) >= total - 5  # boards and sheets aside, every design


SHARED_FACE = """\
<svg xmlns="http://www.w3.org/2000/svg" {{ box.svg_attrs }}>
  <rect x="0" y="0" width="{{ box.w }}" height="{{ box.h }}" fill="#eeeeee"/>
  {% set t = fit(card.text, box.w - 10, 12, 5, 4.5, box="text") %}
  {% for line in t.lines %}
  <text x="5" y="{{ 20 + loop.index * t.leading }}" font-size="{{ t.size }}">{{ line }}</text>
  {% endfor %}
  <text x="5" y="80" font-size="4">{{ card.motto }}</text>
</svg>
"""


def _many_cards(root: Path, without_motto: int | None) -> None:
    """60 cards; card 45's text is far too long, card ``without_motto`` has no motto."""
    cards = []
    for n in range(1, 61):
        text = "word " * (120 if n == 45 else 3)
        motto = "" if n == without_motto else f"    motto: Motto {n}\n"
        cards.append(f"  - name: card-{n}\n    count: 1\n    text: {text.strip()}\n{motto}")
    spec = "kind: deck\ntitle: Many\nsize: poker\nface: face.svg.j2\ncards:\n" + "".join(cards)
    (root / "deck.yaml").write_text(spec, encoding="utf-8")


def _check_on(pnp, components: Path, monkeypatch, status: int) -> list[str]:
    """``pnp check`` on one core and on two: its error output each time."""
    reports = []
    for jobs in ("1", "2"):
        monkeypatch.setenv("PNP_JOBS", jobs)
        result = pnp("check", "--components", components)
        assert result.exit_code == status, result.output
        reports.append(result.stderr)
    return reports


def test_mistakes_found_on_either_core_are_reported_as_one_process_reports_them(
    pnp, tmp_path, monkeypatch
):
    """A template error (card 37 has no motto) and text that does not fit (card 45) come
    back from whichever core made the card, at the same lines and in the same order."""
    root = tmp_path / "components" / "many"
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "face.svg.j2").write_text(SHARED_FACE, encoding="utf-8")
    (root / "game.yaml").write_text("title: Many\nplayers: 2\n", encoding="utf-8")
    _many_cards(root, without_motto=37)
    one, two = _check_on(pnp, tmp_path / "components", monkeypatch, 2)
    assert one == two
    assert "motto" in one and "card 'card-37'" in one, one
    _many_cards(root, without_motto=None)
    one, two = _check_on(pnp, tmp_path / "components", monkeypatch, 1)
    assert one == two
    assert "does not fit" in one and "card-45" in one, one


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failed_map_hands_back_what_was_finished(monkeypatch, jobs):
    """So a build stopped midway (Ctrl-C, a crash) can remove the packs already staged: the
    results are taken in order and the pool is shut down waiting for the running items, so
    the finished ones are handed back whichever item fails first (no sleep orders them)."""
    monkeypatch.setenv("PNP_JOBS", jobs)
    abandoned: list[int] = []
    with pytest.raises(ValueError, match="item three"):
        parallel.map_forked(_fail_on_three, [1, 2, 3], abandon=abandoned.append)
    assert sorted(abandoned) == [1, 2]
