"""The benchmark scripts keep working: each runs at a tiny size and prints its one line of
figures, with values that agree with what it built. (The speed targets themselves are checked
by running the scripts at full size, not here.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def output(script: str, *args: str) -> str:
    """Run a benchmark script; its single line of output."""
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=BENCHMARKS.parent,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, result.stdout
    return lines[0]


def run(script: str, *args: str) -> dict[str, str]:
    """Run a benchmark script; its line of figures as key=value pairs."""
    return dict(pair.split("=", 1) for pair in output(script, *args).split())


def test_bench_cards_compares_with_the_floor():
    figures = run("bench_cards.py", "--cards", "20", "--runs", "1")
    assert figures["cards"] == "20"
    # a sheet for the inventory (its back blank), then 3 sheets of 9 fronts with their backs
    assert figures["pages"] == "8"
    for kind in ("cpu", "build_cpu", "wall"):  # CPU of all processes first, wall beside
        pnp, floor = float(figures[f"pnp_{kind}"]), float(figures[f"floor_{kind}"])
        assert floor > 0 and pnp > 0, figures
        assert float(figures[f"{kind}_ratio"]) == pytest.approx(pnp / floor, rel=0.1, abs=0.05)
    # the whole process holds the build and the interpreter's start
    assert float(figures["pnp_cpu"]) > float(figures["pnp_build_cpu"])
    # the bound: a process that only imports what the build loaded costs less than the build
    imports = float(figures["pnp_import_cpu"])
    assert 0 < imports < float(figures["pnp_cpu"])
    ratio = imports / float(figures["floor_cpu"])
    assert float(figures["import_ratio"]) == pytest.approx(ratio, rel=0.1, abs=0.05)
    work = (float(figures["pnp_cpu"]) - imports) / float(figures["floor_build_cpu"])
    assert float(figures["work_ratio"]) == pytest.approx(work, rel=0.15, abs=0.1)
    size = int(figures["pnp_bytes"]) / int(figures["floor_bytes"])
    assert float(figures["size_ratio"]) == pytest.approx(size, abs=0.01)
    assert figures["load"].endswith("cores")


def test_bench_art_embeds_each_png_once():
    figures = run("bench_art.py", "--cards", "6", "--runs", "1")
    assert figures["images_in_pdf"] == "6"
    assert int(figures["pdf_bytes"]) > int(figures["png_bytes"])  # the PNGs are all in it
    assert float(figures["drawn_diff"]) < 8, figures  # and printed as drawn, not black


def test_bench_scale_gives_time_and_memory_for_each_size():
    line = output("bench_scale.py", "--sizes", "9,27")
    found = re.findall(r"cards=(\d+):([\d.]+)s/(\d+)MB\+worker(\d+)MB/(\d+)p\(", line)
    assert [(cards, pages) for cards, _, _, _, pages in found] == [("9", "4"), ("27", "8")], line
    assert all(0 < int(rss) < 300 for _, _, rss, _, _ in found), line


def test_bench_bundled_builds_cold_warm_and_after_a_change():
    figures = run("bench_bundled.py", "--runs", "1")
    assert figures["games"] == "5"
    cold, warm = float(figures["cold_cpu"]), float(figures["warm_cpu"])
    assert warm < cold  # nothing changed: nothing is built again
    assert float(figures["warm_extra_cpu"]) < warm  # the interpreter's start taken off


def test_bench_serve_times_a_save_to_its_picture():
    figures = run("bench_serve.py", "--cards", "6", "--runs", "2")
    assert (figures["cards"], figures["runs"]) == ("6", "2")
    save, plan = float(figures["save_to_picture_ms"]), float(figures["plan_ms"])
    assert 0 < plan < save <= float(figures["save_to_picture_max_ms"])  # the plan is a part
    assert float(figures["full_plan_ms"]) > 0
    assert 0 <= float(figures["server_cpu_per_save"]) < 60


def test_bench_exports_gives_time_and_memory_of_both_exports():
    figures = run("bench_exports.py", "--cards", "12", "--board-mm", "200")
    assert (figures["cards"], figures["board_mm"]) == ("12", "200")
    assert figures["tgc_pngs"] == "13", "12 faces and the back"
    assert figures["board_pdfs"] == "1"
    for key in ("tgc_peak_mb", "board_peak_mb"):
        assert 0 < float(figures[key]) < 500, figures


def test_bench_photo_gives_time_memory_and_the_pixels_kept():
    figures = run("bench_photo.py", "--megapixels", "2")
    assert figures["megapixels"] == "2"
    width, height = map(int, figures["image"].split("x"))
    assert height <= 946 and width <= 1419, figures  # 40 mm tall at 600 dpi, its 3:2 kept
    assert 0 < float(figures["peak_mb"]) < 500, figures
    # the card without the photo builds too: the extra is over a real build
    assert float(figures["extra_seconds"]) < float(figures["seconds"]), figures


def test_bench_all_puts_each_goal_beside_its_figure():
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_all.py"), "--only", "bench_cli"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=BENCHMARKS.parent,
    )
    row = [line for line in result.stdout.splitlines() if line.startswith("pnp --help")]
    assert len(row) == 1, result.stdout
    figure = float(row[0].split()[-3])
    assert figure > 0 and row[0].endswith("yes" if figure < 0.2 else "NO"), row
    assert result.returncode == (0 if figure < 0.2 else 1)


def test_profile_cpu_gives_each_stages_share_of_the_build():
    figures = run("profile_cpu.py", "--cards", "20", "--runs", "1")
    assert figures["cards"] == "20" and figures["runs"] == "1" and int(figures["samples"]) > 50
    share = {stage: float(figures[stage]) for stage in ("imports", "plan", "compile", "checks")}
    share |= {stage: float(figures[stage]) for stage in ("contrast", "write", "readback", "load")}
    assert all(0 < value < 100 for value in share.values()), share
    assert share["plan"] >= share["compile"] and share["checks"] >= share["contrast"], share
