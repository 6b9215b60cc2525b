"""The template sandbox's budget (generator/art/sandbox.py): what a template asks for past a
limit is refused with a Budget error before it is made, and what stays inside runs as usual."""

from __future__ import annotations

import pytest

from generator.art.sandbox import MAX_ITEMS, MAX_WIDTH, Budget, LimitedEnvironment


def render(source: str) -> str:
    return LimitedEnvironment().from_string(source).render()


@pytest.mark.parametrize(
    "source",
    [
        f'{{{{ "{{:>{MAX_WIDTH + 1}}}".format(1) }}}}',
        f'{{{{ "{{x:>{MAX_WIDTH + 1}}}".format_map({{"x": 1}}) }}}}',
        f'{{{{ [1] | map("{{:>{MAX_WIDTH + 1}}}".format) | list }}}}',
    ],
    ids=["format", "format_map", "format passed to a filter"],
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
