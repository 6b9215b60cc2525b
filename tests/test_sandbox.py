"""The template sandbox's budget (generator/art/sandbox.py): what a template asks for past a
limit is refused with a Budget error before it is made, and what stays inside runs as usual."""

from __future__ import annotations

import signal
import threading
import time

import pytest
from waiting import PATIENCE

from generator.art import clock, sandbox
from generator.art.sandbox import MAX_ITEMS, MAX_WIDTH, Budget, LimitedEnvironment


def render(source: str) -> str:
    return LimitedEnvironment().from_string(source).render()


@pytest.mark.parametrize(
    "source",
    [
        f'{{{{ "{{:>{MAX_WIDTH + 1}}}".format(1) }}}}',
        f'{{{{ "{{x:>{MAX_WIDTH + 1}}}".format_map({{"x": 1}}) }}}}',
        f'{{% set f = "{{:>{MAX_WIDTH + 1}}}".format %}}{{{{ f(1) }}}}',
    ],
    ids=["format", "format_map", "format kept and called later"],
)
def test_a_format_width_past_the_limit_is_refused(source: str) -> None:
    with pytest.raises(Budget, match=f"{MAX_WIDTH:,}"):
        render(source)


def test_a_format_width_within_the_limit_is_formatted() -> None:
    assert (
        render(f'{{{{ "{{:>{MAX_WIDTH}}}|{{}}".format(1, 2) }}}}') == " " * (MAX_WIDTH - 1) + "1|2"
    )


def test_a_string_repeated_past_the_limit_is_refused() -> None:
    with pytest.raises(Budget, match=f"{MAX_ITEMS + 1:,}"):
        render(f"{{{{ 'a' * {MAX_ITEMS + 1} }}}}")


# -- what would make too much is refused before the call that makes it ----------------------

SMALL = 100  # the limit these tests set, so that a check missed costs nothing

BEFORE_THE_CALL = {
    "str.format width": ("{{ '{:>101}'.format(1) }}", "field width"),
    "str.format fields": ("{{ '{0}{0}{0}'.format(s) }}", "characters"),
    "str.format nested width": ("{{ '{:>{w}}'.format(1, w=20000) }}", "field width"),
    "str.format precision": ("{{ '{:.20000f}'.format(1.0) }}", "field width"),
    "format_map": ("{{ '{x:>101}'.format_map({'x': 1}) }}", "field width"),
    "% precision": ("{{ '%.20000f' % 1.0 }}", "field width"),
    "% star width": ("{{ '%*d' % (20000, 1) }}", "field width"),
    "% many fields": ("{{ '%s%s%s' % (s, s, s) }}", "characters"),
    "|format": ("{{ '%s%s%s' | format(s, s, s) }}", "characters"),
    "ljust": ("{{ s.ljust(101) }}", "characters"),
    "rjust": ("{{ s.rjust(101) }}", "characters"),
    "center": ("{{ s.center(101) }}", "characters"),
    "zfill": ("{{ s.zfill(101) }}", "characters"),
    "expandtabs": ("{{ '\t\t'.expandtabs(60) }}", "characters"),
    "str.join": ("{{ '-'.join([s] * 3) }}", "characters"),
    "str.replace": ("{{ s.replace('x', s) }}", "characters"),
    "|join": ("{{ ([s] * 3) | join }}", "items"),
    "|join of an iterator": ("{{ [s, s, s] | map('upper') | join }}", "items"),
    "|replace": ("{{ s | replace('x', 'xxx') }}", "items"),
    "|indent": ("{{ (s ~ '\n' ~ s) | indent(60) }}", "items"),
    "|tojson": ("{{ [s, s] | tojson }}", "items"),
    "|sum of lists": ("{{ [[1] * 60, [1] * 60] | sum(start=[]) }}", "items"),
    "~": ("{{ s ~ s ~ s }}", "characters"),
    "list +": ("{{ l + l + l }}", "items"),
    "string +": ("{{ s + s + s }}", "items"),
    "list.extend": ("{{ l.extend(l) }}{{ l.extend(l) }}", "items"),
    "*": ("{{ s * 3 }}", "items"),
}


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sandbox's size limits at ``SMALL``: every case below stays tiny even if refused
    late, and must still be refused, by the check that runs before the call."""
    monkeypatch.setattr(sandbox, "MAX_ITEMS", SMALL)
    monkeypatch.setattr(sandbox, "MAX_WIDTH", SMALL)


@pytest.mark.parametrize("case", list(BEFORE_THE_CALL))
def test_what_would_make_too_much_is_refused_before_it_is_made(small, case: str) -> None:
    source, message = BEFORE_THE_CALL[case]
    template = LimitedEnvironment(autoescape=True).from_string(source)
    with clock.new_build(), pytest.raises(Budget, match=message):
        sandbox.render(template, {"s": "x" * 40, "l": [0] * 40})


def test_within_the_limits_everything_renders_as_jinja_does() -> None:
    source = (
        "{{ '{:>4}|{:.2f}'.format(1, 2) }} {{ '%-3s|%*d' % ('a', 3, 7) }} {{ 'ab'.center(6) }}"
        " {{ [1, 2] | join(',') }} {{ s ~ s }} {{ l + l }} {{ 'a\tb'.expandtabs(2) }}"
        " {{ s.replace('x', 'yz') }} {{ [[1], [2]] | sum(start=[]) }} {{ '%s' | format(s) }}"
    )
    with clock.new_build():
        out = sandbox.render(LimitedEnvironment().from_string(source), {"s": "x", "l": [1]})
    assert out == "   1|2.00 a  |  7   ab   1,2 xx [1, 1] a b yz [1, 2] x"


HOOKS = {
    "check_call": "{{ s.ljust(3) }}",
    "check_percent": "{{ '%s' % s }}",
    "check_spec": "{{ '{:3}'.format(s) }}",
    "_filter_result": "{{ [s] | join }}",
    "weight": "{{ s ~ s }}",
}


@pytest.mark.parametrize("hook", list(HOOKS))
def test_each_check_is_called_by_the_template_that_needs_it(
    monkeypatch: pytest.MonkeyPatch, hook: str
) -> None:
    """Fails when Jinja stops routing a call through the sandbox's hook (as happened when
    jinja2 3.1.5 moved str.format to wrap_str_format and left our check dead)."""
    called: list[str] = []
    real = getattr(sandbox, hook)

    def spy(*args, **kwargs):
        called.append(hook)
        return real(*args, **kwargs)

    monkeypatch.setattr(sandbox, hook, spy)
    template = LimitedEnvironment(autoescape=True).from_string(HOOKS[hook])
    with clock.new_build():
        sandbox.render(template, {"s": "ab"})
    assert called, f"{hook} was not called"


# -- time: a watchdog thread, in any thread; a budget per build -----------------------------

SPIN = "{% for i in range(1000) %}{% for c in 'abcdefghij' * 100000 %}{% endfor %}{% endfor %}"


def test_a_spinning_render_is_stopped_in_any_thread_without_sigalrm(monkeypatch) -> None:
    """The timer stops a render in a thread that is not the main one (where SIGALRM cannot
    reach) once it has used its CPU time, leaves the process's alarm alone, and nothing of it
    arrives after the render."""
    monkeypatch.setattr(clock, "RENDER_SECONDS", 0.3)
    env = LimitedEnvironment()
    outcome: list[object] = []

    def work() -> None:
        with clock.new_build():
            started = time.thread_time()
            try:
                sandbox.render(env.from_string(SPIN), {})
            except Budget as exc:
                outcome.append((type(exc), time.thread_time() - started))
        with clock.new_build():
            for _ in range(10):  # a stray timeout would break one of these
                outcome.append(sandbox.render(env.from_string("{{ 1 + 1 }}"), {}))
                time.sleep(0.1)  # time for a stray timeout to arrive, were there one

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(PATIENCE)
    assert not thread.is_alive()
    (kind, seconds), *rest = outcome
    assert kind is clock.RenderTimeout and 0.25 < seconds < 2, outcome  # 0.3 s of CPU
    assert rest == ["2"] * 10
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_render_waiting_without_working_is_not_stopped(monkeypatch) -> None:
    """The budget is CPU time: a render whose thread is kept waiting (a busy machine, here a
    helper that sleeps) for longer than the render's time is not refused for it."""
    monkeypatch.setattr(clock, "RENDER_SECONDS", 0.2)
    env = LimitedEnvironment()
    env.globals["nap"] = lambda: time.sleep(0.6) or "rested"
    with clock.new_build() as build:
        assert sandbox.render(env.from_string("{{ nap() }} {{ nap() }}"), {}) == "rested rested"
        assert build.seconds < 0.2 and build.refused is None


def test_a_timeout_swallowed_inside_the_render_still_ends_it(monkeypatch) -> None:
    """A helper that catches every exception cannot keep a render going past its time."""
    monkeypatch.setattr(clock, "RENDER_SECONDS", 0.3)

    def swallow() -> str:
        try:
            while True:
                pass
        except Exception:
            return "swallowed"

    env = LimitedEnvironment()
    env.globals["swallow"] = swallow
    started = time.thread_time()
    with clock.new_build(), pytest.raises(clock.RenderTimeout):
        sandbox.render(env.from_string("{{ swallow() }}" + SPIN), {})
    assert time.thread_time() - started < 3  # 0.3 s, then again after REPEAT_SECONDS


def test_a_build_stops_at_its_first_refused_render_and_its_time_is_shared(monkeypatch) -> None:
    env = LimitedEnvironment()
    quick = env.from_string("{{ 1 }}")
    with clock.new_build() as build:
        with pytest.raises(Budget):
            sandbox.render(env.from_string("{{ 'x' * 10**7 }}"), {})
        with pytest.raises(clock.Stopped, match="that would make 10,000,000 items"):
            sandbox.render(quick, {})
        assert build.refused
    with clock.new_build():  # the next build starts afresh
        assert sandbox.render(quick, {}) == "1"
    monkeypatch.setattr(clock, "BUILD_SECONDS", 0.5)
    monkeypatch.setattr(clock, "PIECE_SECONDS", 0.0)
    slow = env.from_string("{% for i in range(300000) %}{% endfor %}")
    with clock.new_build() as build:
        started = time.thread_time()
        with pytest.raises(Budget):
            for _ in range(100):
                sandbox.render(slow, {})
        assert time.thread_time() - started < 3  # 0.5 s of CPU, and the render refused
        assert build.seconds > 0.45  # its time spent (the last render stopped as it ran out)


def test_a_builds_budget_grows_with_its_renders(monkeypatch) -> None:
    """Each render brings its share of CPU time and output to the build: 40 renders that
    each take half their share pass, where a fixed budget of the same start would refuse
    the build (a 1,000-card export gets 1,000 renders' worth)."""
    env = LimitedEnvironment()
    slow = env.from_string("{% for i in range(100000) %}{% endfor %}" + "x" * 500)
    with clock.new_build() as build:
        started = time.thread_time()
        sandbox.render(slow, {})
        each = time.thread_time() - started
    monkeypatch.setattr(clock, "BUILD_SECONDS", 0.0)
    monkeypatch.setattr(clock, "PIECE_SECONDS", 2 * each + 0.01)
    monkeypatch.setattr(clock, "BUILD_OUTPUT", 0)
    monkeypatch.setattr(clock, "PIECE_OUTPUT", 1000)
    with clock.new_build() as build:
        for _ in range(40):
            assert sandbox.render(slow, {}) == "x" * 500
        assert build.renders == 40 and build.refused is None
        assert build.seconds > 10 * each and build.output == 40 * 500
    monkeypatch.setattr(clock, "PIECE_OUTPUT", 400)  # less than a render writes: refused
    with clock.new_build() as build, pytest.raises(Budget, match="more than 400 characters"):
        sandbox.render(slow, {})
