"""The budget a template renders under: Jinja2's sandbox (no attribute escapes, no imports),
with caps on what a stranger's template can make the engine do.

Whatever would make a large string or list is measured *before* the C call that makes it
(one call could take gigabytes before any timer stops it), from the sizes of its inputs:

- ``*``, ``+`` and ``~`` (concatenation): the result's length past ``MAX_ITEMS`` is refused;
  a power past ``MAX_BITS`` bits too;
- ``str.format``/``format_map`` (each field after its nested fields are filled in) and the
  ``%`` operator (``|format`` too): a field width or precision past ``MAX_WIDTH``, or a result
  past ``MAX_ITEMS``;
- the ``str`` methods that pad, expand or join (``ljust``, ``rjust``, ``center``, ``zfill``,
  ``expandtabs``, ``replace``, ``join``, ``translate``) and ``list.extend``/``append``/
  ``insert``, by the result they would make; the filters likewise (``join``, ``replace``,
  ``indent``, ``wordwrap``, ``tojson``, ``sum``, ``format``...), and every filter refuses a
  number argument past ``MAX_ITEMS`` and a result longer than that;
- printing (``{{ x }}``, ``{% print x %}``): the value weighed (``weight``) before it is
  turned into text, refused past ``MAX_ITEMS`` characters;
- ``range`` counts: one render may step through at most ``MAX_STEPS`` values in all;
- a render stops after ``clock.RENDER_SECONDS`` of CPU time (a watchdog thread: every
  thread) and when its output passes ``MAX_OUTPUT`` characters; a build's renders share a
  budget of CPU time and output that grows with each render (``clock.BUILD_SECONDS`` and
  ``clock.PIECE_SECONDS``, ``clock.BUILD_OUTPUT`` and ``clock.PIECE_OUTPUT``), and the first
  refused stops the rest.

Each refusal is a ``Budget`` error, which the renderer reports at the template's line.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import re
import string
import threading
from collections import deque
from collections.abc import Callable, ItemsView, Iterable, KeysView, Mapping, ValuesView
from types import CodeType
from typing import Any

import jinja2
from jinja2.nodes import EvalContext
from jinja2.runtime import Context, markup_join, str_join
from jinja2.sandbox import SandboxedEnvironment, SandboxedEscapeFormatter, SandboxedFormatter
from jinja2.utils import Namespace
from markupsafe import Markup

from generator.art import clock
from generator.art.clock import RENDER_SECONDS, Budget

__all__ = ["RENDER_SECONDS", "Budget", "LimitedEnvironment", "render", "weight"]

MAX_ITEMS = 1_000_000  # characters of a string, items of a list
MAX_BITS = 10_000  # a power's result: about 3,000 digits
MAX_STEPS = 1_000_000  # values all ranges of one render may step through
MAX_WIDTH = 10_000  # a field width or precision in a format string
MAX_OUTPUT = 5_000_000  # characters of SVG one render may write
MAX_COPIES = 100 * MAX_ITEMS  # items ``sum`` of lists may copy (it copies at every step)

_PRINTF = re.compile(r"%(\([^)]*\))?[#0\- +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?(.)", re.DOTALL)


class _Meter(threading.local):
    steps = 0


_meter = _Meter()


def weight(value: object, limit: int = MAX_ITEMS) -> int:
    """About how many characters ``value`` makes as text, counted until past ``limit`` (a
    list of a million copies of one long string is not walked to its end)."""
    total, stack = 0, [value]
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, str | bytes):
            total += len(item)
        elif isinstance(item, list | tuple | set | frozenset):
            total += 2 + 2 * len(item)
            if total <= limit:
                stack.extend(item)
        elif isinstance(item, Mapping):
            total += 2 + 4 * len(item)
            if total <= limit:
                stack.extend(itertools.chain.from_iterable(item.items()))
        elif isinstance(item, Namespace):  # printed as Namespace({...}): its attributes
            stack.append(item._Namespace__attrs)  # type: ignore[attr-defined]
        elif isinstance(item, KeysView | ValuesView | ItemsView | deque):
            total += 2 + 2 * len(item)
            if total <= limit:
                stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool):
            total += item.bit_length() // 3 + 2
        else:
            total += 24
    return total


_TEXTS = frozenset({str, Markup})  # weighed by their length alone


def printable(value: Any) -> Any:
    """A value a template prints (``{{ x }}``, ``{% print x %}``), weighed before it is
    turned into text: a list of a million copies of a long list would take gigabytes."""
    kind = type(value)
    if kind is float or (kind is int and value.bit_length() < 64):  # what cards print most
        return value
    if kind in _TEXTS and len(value) <= MAX_ITEMS:
        return value
    _refuse_past(weight(value), "characters")
    return value


def _refuse_past(size: int, what: str = "items") -> None:
    if size > MAX_ITEMS:
        raise Budget(f"that would make {size:,} {what}; a template may make {MAX_ITEMS:,}")


def _sized(value: Any) -> Any:
    """A list or string as it is; anything else iterable as a list (up to the limit)."""
    if isinstance(value, str | list | tuple):
        return value
    items = list(itertools.islice(value, MAX_ITEMS + 1))
    _refuse_past(len(items))
    return items


NUMBERS = frozenset({int, float})  # exactly these (not bool, not a subclass)
BINOPS = {"*": operator.mul, "%": operator.mod, "+": operator.add}


class LimitedEnvironment(SandboxedEnvironment):
    """Jinja2's sandbox with the budget of this module."""

    intercepted_binops = frozenset(["*", "**", "%", "+"])

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, finalize=printable, **kwargs)
        self.template_class = _Template
        self.globals["range"] = _range
        self.filters = {name: _guarded(name, f) for name, f in self.filters.items()}

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        """``*``, ``**``, ``%`` and ``+``, refused when their result would be too large."""
        if operator != "**" and left.__class__ in NUMBERS and right.__class__ in NUMBERS:
            return BINOPS[operator](left, right)  # plain arithmetic: nothing to grow
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, str | list | tuple | bytes) and isinstance(n, int):
                    _refuse_past(len(seq) * n)
        elif operator == "**" and isinstance(left, int) and isinstance(right, int):
            bits = abs(right) * math.log2(abs(left)) if abs(left) > 1 and right > 0 else 0
            if bits > MAX_BITS:
                raise Budget(f"{left} ** {right} has {bits:,.0f} bits; the limit is {MAX_BITS:,}")
        elif operator == "%" and isinstance(left, str):
            check_percent(left, right)
        elif operator == "+" and all(isinstance(v, str | list | tuple) for v in (left, right)):
            _refuse_past(len(left) + len(right))
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        """Every call a template makes: a method that would make too much refused first."""
        args = check_call(__obj, args, kwargs)
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        """``str.format`` and ``str.format_map`` (sandboxed by jinja2 since 3.1.5) through a
        formatter that checks each field's width and precision before formatting it, and the
        length of what it has made so far."""
        if super().wrap_str_format(value) is None:
            return None
        text: str = value.__self__
        formatter: _Checked = _BoundedFormatter(self)
        if isinstance(text, Markup):
            formatter = _BoundedEscapeFormatter(self, escape=text.escape)
        is_map = value.__name__ == "format_map"

        def wrapper(*args: Any, **kwargs: Any) -> str:
            fields: Mapping[str, Any] = kwargs
            if is_map:
                if kwargs or len(args) != 1:
                    raise TypeError("format_map() takes exactly one argument")
                fields = args[0]
            formatter.made = 0
            return type(text)(formatter.vformat(text, () if is_map else args, fields))

        return functools.update_wrapper(wrapper, value)


class _Checked(string.Formatter):
    """A formatter that refuses a field too wide or too precise before formatting it."""

    made = 0

    def format_field(self, value: Any, format_spec: str) -> Any:
        check_spec(format_spec)
        self.made += max(weight(value), _widest(format_spec))
        _refuse_past(self.made, "characters")
        return super().format_field(value, format_spec)


class _BoundedFormatter(_Checked, SandboxedFormatter):
    pass


class _BoundedEscapeFormatter(_Checked, SandboxedEscapeFormatter):
    pass


def _widest(spec: str) -> int:
    numbers = re.findall(r"\d+", spec)
    return sum(int(n) for n in numbers) if numbers else 0


def check_spec(spec: str) -> None:
    """Refuse a format spec (after its nested fields are filled in) whose width or precision
    passes ``MAX_WIDTH``."""
    if any(len(n) > 5 or int(n) > MAX_WIDTH for n in re.findall(r"\d+", spec)):
        raise Budget(f"a field width or precision above {MAX_WIDTH:,} in a format string")


def check_percent(text: str, values: Any) -> None:
    """Refuse ``text % values`` when a width or precision passes ``MAX_WIDTH`` (written or
    given by ``*``) or the result would pass ``MAX_ITEMS`` characters."""
    specs = _PRINTF.findall(text)
    numbers = [n for _, width, precision, _ in specs for n in (width, precision) if n and n != "*"]
    given = values if isinstance(values, tuple) else (values,)
    if any(w == "*" or p == "*" for _, w, p, _ in specs):
        numbers += [str(abs(v)) for v in given if isinstance(v, int)]
    if any(len(n) > 5 or int(n) > MAX_WIDTH for n in numbers):
        raise Budget(f"a field width or precision above {MAX_WIDTH:,} in a format string")
    if isinstance(values, Mapping):
        largest = max((weight(v) for v in values.values()), default=0)
        made = len(specs) * largest
    else:
        made = weight(given)
    _refuse_past(len(text) + made + sum(int(n) for n in numbers), "characters")


def _str_result(text: str, name: str, args: tuple, kwargs: dict) -> tuple[int, tuple]:
    """The length a ``str`` method would make, and its arguments (an iterator to join made
    a list, so it can be measured)."""
    given = [*args, *kwargs.values()]
    if name in ("ljust", "rjust", "center", "zfill") and given and isinstance(given[0], int):
        return max(len(text), given[0]), args
    if name == "expandtabs":
        size = given[0] if given and isinstance(given[0], int) else 8
        return len(text) + text.count("\t") * max(size, 0), args
    if name == "replace" and len(given) >= 2 and all(isinstance(g, str) for g in given[:2]):
        old, new = given[0], given[1]
        times = text.count(old) if old else len(text) + 1
        if len(given) > 2 and isinstance(given[2], int) and given[2] >= 0:
            times = min(times, given[2])
        return len(text) + times * max(len(new) - len(old), 0), args
    if name == "join" and args:
        items = _sized(args[0])
        return weight(items) + len(items) * len(text), (items, *args[1:])
    if name == "translate" and given and isinstance(given[0], Mapping):
        return len(text) * max((weight(v) for v in given[0].values()), default=1), args
    return 0, args


def check_call(obj: Any, args: tuple, kwargs: dict) -> tuple:
    """Refuse a call of a ``str`` or ``list`` method that would make more than
    ``MAX_ITEMS``; the arguments to call it with."""
    owner = getattr(obj, "__self__", None)
    name = getattr(obj, "__name__", "")
    if isinstance(owner, str):
        size, args = _str_result(owner, name, args, kwargs)
        _refuse_past(size, "characters")
    elif isinstance(owner, list) and name in ("extend", "append", "insert") and args:
        if name == "extend":
            args = (_sized(args[0]), *args[1:])
        _refuse_past(len(owner) + (len(args[0]) if name == "extend" else 1))
    return args


def _filter_result(name: str, args: list, kwargs: dict) -> int:
    """The size a filter would make from its arguments (0 for the filters that cannot make
    much more than they are given); ``args`` may be changed (an iterator made a list)."""
    given = [*args, *kwargs.values()]
    if not given:
        return 0
    value = given[0]
    if name == "join":
        args[0] = items = _sized(value)
        separator = given[1] if len(given) > 1 else ""
        return weight(items) + len(items) * weight(separator)
    if name in ("replace", "center"):
        return _str_result(str(value), name, tuple(given[1:]), {})[0]
    if name == "indent":
        width = given[1] if len(given) > 1 else 4
        each = width if isinstance(width, int) else weight(width)
        return weight(value) + (str(value).count("\n") + 1) * each
    if name == "wordwrap":
        text = str(value)
        width = given[1] if len(given) > 1 and isinstance(given[1], int) else 79
        wrap = given[3] if len(given) > 3 and isinstance(given[3], str) else "\n"
        return len(text) + (len(text) // max(width, 1) + text.count("\n") + 1) * len(wrap)
    if name == "tojson":
        indent = given[1] if len(given) > 1 and isinstance(given[1], int) else 0
        return weight(value) * (6 + max(indent, 0))
    if name == "format":
        check_percent(str(value), kwargs if kwargs else tuple(given[1:]))
    if name == "sum":
        start = kwargs.get("start", given[2] if len(given) > 2 else 0)
        if isinstance(start, list | tuple | str):
            args[0] = items = _sized(value)
            size = len(start) + sum(len(i) for i in items if isinstance(i, list | tuple | str))
            if size * len(items) > MAX_COPIES:
                raise Budget(f"summing {len(items):,} lists copies them too often; use a loop")
            return size
    if name in ("string", "pprint", "list", "e", "escape", "forceescape", "urlencode"):
        return weight(value)
    return 0


_PASSED = (EvalContext, Context, jinja2.Environment)  # what Jinja hands a filter before its value


def _guarded(name: str, func: Callable) -> Callable:
    """A filter that refuses a number argument past ``MAX_ITEMS``, arguments that would make
    a result past it, and a result past it."""

    @functools.wraps(func)
    def filter_(*args: Any, **kwargs: Any) -> Any:
        passed = [a for a in args[:1] if isinstance(a, _PASSED)]
        rest = list(args[len(passed) :])
        for value in (*rest, *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_ITEMS:
                _refuse_past(abs(value))
        _refuse_past(_filter_result(name, rest, kwargs))
        result = func(*passed, *rest, **kwargs)
        if isinstance(result, str | list | tuple | bytes):
            _refuse_past(len(result))
        return result

    return filter_


def _joined(join: Callable[[Iterable[Any]], str]) -> Callable[[Iterable[Any]], str]:
    """``~`` (Jinja's concatenation) measured before it joins."""

    def concatenate(values: Iterable[Any]) -> str:
        values = tuple(values)
        _refuse_past(weight(values), "characters")
        return join(values)

    return concatenate


class _Template(jinja2.Template):
    """A template whose ``~`` is measured: the compiled code's join functions replaced."""

    @classmethod
    def from_code(
        cls,
        environment: jinja2.Environment,
        code: CodeType,
        globals: Any,  # noqa: A002 - jinja2's name
        uptodate: Callable[[], bool] | None = None,
    ) -> jinja2.Template:
        namespace: dict[str, Any] = {"environment": environment, "__file__": code.co_filename}
        exec(code, namespace)  # noqa: S102 - what jinja2's own from_code does
        namespace["markup_join"] = _joined(markup_join)
        namespace["str_join"] = _joined(str_join)
        template = cls._from_namespace(environment, namespace, globals)
        template._uptodate = uptodate
        return template


def _range(*args: int) -> range:
    """``range``, counted against the render's budget of steps."""
    if not all(isinstance(a, int) for a in args):
        raise TypeError("range() takes whole numbers")
    values = range(*args)
    _meter.steps += len(values)
    if _meter.steps > MAX_STEPS:
        raise Budget(f"the loops step through more than {MAX_STEPS:,} values")
    return values


def render(template: jinja2.Template, context: dict[str, Any]) -> str:
    """``template`` rendered with ``context`` under the budget (the render's and its
    build's), its output capped."""
    _meter.steps = 0
    with clock.timed():
        build = clock.current()
        parts: list[str] = []
        written = 0
        for part in template.generate(context):
            written += len(part)
            if written > MAX_OUTPUT:
                raise Budget(f"the template wrote more than {MAX_OUTPUT:,} characters")
            parts.append(part)
        build.write(written)
        text = "".join(parts)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # '\ud800' in a template's string: no file can hold it
        raise ValueError(
            "the template wrote an escape that is no character (a lone surrogate); "
            "write the character itself"
        ) from None
    return text
