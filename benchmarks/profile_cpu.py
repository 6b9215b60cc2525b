"""Where a cold ``pnp build`` of the card workload spends its CPU, stage by stage.

    .venv/bin/python benchmarks/profile_cpu.py [--cards N] [--runs R] [--top K]

Each run is a fresh process building the workload of bench_cards.py (see workload.py) as a
designer runs it, on one core (PNP_JOBS=1), sampled on its own CPU clock (ITIMER_PROF: a busy
machine slows the build, not the shares); the runs' samples are pooled. A stage's share is the
samples taken anywhere inside it, so a stage holds its inner ones (plan holds templates and
compile, checks hold contrast). Prints one line: ``cards=N runs=R samples=… imports=…
load=… plan=… templates=… compile=… checks=… contrast=… write=… readback=…`` (percentages
of the process), then with ``--top`` the functions with most samples of their own.
"""

from __future__ import annotations

import argparse
import collections
import json
import tempfile
from pathlib import Path

from workload import run_python, write_game

HERE = Path(__file__).resolve().parent
INTERVAL = 0.001  # seconds of the process's CPU between samples
STAGES = {  # a stage: the function (file:name) whose frames it is
    "imports": "<frozen importlib._bootstrap>:_find_and_load",
    "load": "generator/model/loader.py:load_game",
    "plan": "generator/plan/pipeline.py:plan_pack",
    "templates": "generator/art/templates.py:render_design",
    "compile": "generator/svg/compiler.py:compile_svg",
    "checks": "generator/check/printing.py:check_printing",
    "contrast": "generator/check/contrast.py:low_contrast",
    "write": "generator/output/pdf.py:write",
    "readback": "generator/output/readback.py:check",
}
CHILD = """
import json, os, signal, sys
sys.path[:0] = [{here!r}, {repo!r}]
os.environ["PNP_JOBS"] = "1"
inside, own, count = {{}}, {{}}, [0]

def key(frame):
    code = frame.f_code
    name = code.co_filename.split("site-packages/")[-1].replace({repo!r} + "/", "")
    return name + ":" + code.co_name

def sample(signum, frame):
    count[0] += 1
    seen = set()
    own[key(frame)] = own.get(key(frame), 0) + 1
    while frame is not None:
        name = key(frame)
        if name not in seen:
            seen.add(name)
            inside[name] = inside.get(name, 0) + 1
        frame = frame.f_back

signal.signal(signal.SIGPROF, sample)
signal.setitimer(signal.ITIMER_PROF, {interval}, {interval})
from generator.cli import cli
try:
    cli.main(["--quiet", "build", "--components", {components!r}, "--out", {out!r}], "pnp")
except SystemExit as end:
    if end.code:
        raise
signal.setitimer(signal.ITIMER_PROF, 0, 0)
print(json.dumps({{"samples": count[0], "inside": inside, "own": own}}))
"""


def profile(cards: int, runs: int) -> tuple[int, collections.Counter, collections.Counter]:
    """The pooled samples of ``runs`` cold builds of ``cards`` cards: how many, and the
    samples inside each function and of each function's own."""
    inside: collections.Counter = collections.Counter()
    own: collections.Counter = collections.Counter()
    samples = 0
    with tempfile.TemporaryDirectory(prefix="pnp-cpu-") as tmp:
        components = write_game(Path(tmp), cards).parent
        for run in range(runs):
            code = CHILD.format(
                here=str(HERE), repo=str(HERE.parent), components=str(components),
                out=str(Path(tmp) / f"out-{run}"), interval=INTERVAL,
            )  # fmt: skip
            found = json.loads(run_python(["-c", code])[0].strip().splitlines()[-1])
            samples += found["samples"]
            inside.update(found["inside"])
            own.update(found["own"])
    return samples, inside, own


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=540)
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--top", type=int, default=0, help="functions by their own samples")
    args = parser.parse_args(argv)
    samples, inside, own = profile(args.cards, args.runs)
    shares = " ".join(
        f"{stage}={100 * inside[name] / max(samples, 1):.1f}" for stage, name in STAGES.items()
    )
    print(f"cards={args.cards} runs={args.runs} samples={samples} {shares}")
    for name, count in own.most_common(args.top):
        print(f"  {100 * count / samples:5.1f}% {name}")


if __name__ == "__main__":
    main()
