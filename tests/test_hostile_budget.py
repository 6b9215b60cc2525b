"""A template that asks for gigabytes in one call, or spins on every card, measured in a child
process with a time and a memory limit (tests/test_hostile.py's ``limited_build``): each
refusal comes from the sandbox's own check, before the call (a check skipped would end in
MemoryError under the limit, whose message differs), at the template's line, in seconds."""

from __future__ import annotations

import pytest
from conftest import CARD_FACE
from test_hostile import DECK, SECONDS, game, limited_build

BIG = "{% set s = 'x' * 1000000 %}"
ONE_CALL = {
    "str.format width": ("{{ '{:>3000000000}'.format(1) }}", "field width"),
    "str.format precision": ("{{ '{:.2000000000f}'.format(1.0) }}", "field width"),
    "str.format nested width": ("{{ '{:>{w}}'.format(1, w=3000000000) }}", "field width"),
    "format_map": ("{{ '{x:>3000000000}'.format_map({'x': 1}) }}", "field width"),
    "% precision": ("{{ '%.2000000000f' % 1.0 }}", "field width"),
    "% star width": ("{{ '%*d' % (1000000000, 1) }}", "field width"),
    "% fields": ("{{ ('%9999d' * 90000) % ((1,) * 90000) }}", "characters"),
    "|format": ("{{ '%.2000000000f' | format(1.0) }}", "field width"),
    "ljust": ("{{ 'x'.ljust(3000000000) }}", "characters"),
    "rjust": ("{{ 'x'.rjust(3000000000) }}", "characters"),
    "center": ("{{ 'x'.center(3000000000) }}", "characters"),
    "zfill": ("{{ 'x'.zfill(3000000000) }}", "characters"),
    "expandtabs": ("{{ ('\\t' * 100000).expandtabs(100000) }}", "characters"),
    "|join": (BIG + "{{ ([s] * 3000) | join }}", "items"),
    "str.join": (BIG + "{{ ''.join([s] * 3000) }}", "characters"),
    "str.replace": (BIG + "{{ s.replace('x', s) }}", "characters"),
    "|replace": (BIG + "{{ s | replace('x', s) }}", "items"),
    "|tojson": (BIG + "{{ ([s] * 3000) | tojson }}", "items"),
    "|indent": (BIG + "{{ ('\\n' * 900000) | indent(900000) }}", "items"),
    "|sum of lists": ("{{ ([[0] * 1000000] * 3000) | sum(start=[]) | length }}", "lists"),
    "~ doubling": (
        "{% set ns = namespace(s='x' * 1000) %}{% for i in range(40) %}"
        "{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
        "characters",
    ),
    "list + doubling": (
        "{% set ns = namespace(l=[0] * 1000) %}{% for i in range(40) %}"
        "{% set ns.l = ns.l + ns.l %}{% endfor %}",
        "items",
    ),
    "list.extend doubling": (
        "{% set l = [0] * 1000 %}{% for i in range(40) %}{{ l.extend(l) }}{% endfor %}",
        "items",
    ),
}


@pytest.mark.parametrize("case", list(ONE_CALL))
def test_one_call_that_would_take_gigabytes_is_refused_before_it_runs(tmp_path, case: str):
    payload, message = ONE_CALL[case]
    face = CARD_FACE.replace("{{ card.name }}", "\n" + payload)
    components = game(tmp_path, {"templates/face.svg.j2": face})
    run, seconds = limited_build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert seconds < SECONDS, f"it took {seconds:.1f} s of CPU"
    line = next(n for n, text in enumerate(face.splitlines(), 1) if payload[:12] in text)
    error = next((e for e in run.stderr.splitlines() if f"face.svg.j2:{line}:" in e), "")
    assert "asks too much" in error and message in error, run.stderr
    assert "MemoryError" not in run.stderr, run.stderr


def test_a_build_stops_at_the_first_card_that_spins(tmp_path):
    """30 cards whose template spins: 5 s of CPU for the first, none for the others (the
    build took 156 s when each card had its own 5 s and a refused card did not stop it)."""
    spin = "{% for i in range(1000) %}{% for c in 'abcdefghij' * 100000 %}{% endfor %}{% endfor %}"
    face = CARD_FACE.replace("{{ card.name }}", "\n" + spin)
    cards = "".join(f"  - {{name: c{i}, count: 1, title: T{i}}}\n" for i in range(30))
    deck = DECK.split("cards:")[0] + "cards:\n" + cards
    components = game(tmp_path, {"templates/face.svg.j2": face, "deck.yaml": deck})
    run, seconds = limited_build(tmp_path, components)
    assert run.returncode == 2, run.stderr
    assert seconds < SECONDS, f"it took {seconds:.1f} s of CPU"
    errors = [e for e in run.stderr.splitlines() if "face.svg.j2" in e]
    assert sum("used more than 5 s of CPU" in e for e in errors) >= 1, run.stderr
    assert sum("not drawn: the build stopped" in e for e in errors) <= 1, run.stderr
    assert len(errors) <= 3, run.stderr
