"""Plural forms: a catalog's ``Plural-Forms`` header read and bounded before anything else of
the catalog is (``nplurals=100000000`` would make Babel allocate that many strings for every
plural entry), the rule it states as a function, and the number a count stands for.

A language has at most ``MAX_PLURAL_FORMS`` forms (``generator.limits``; Arabic, the most
of any language, has six); the rule is a C expression, compiled by the standard library's
``gettext.c2py`` (which bounds its length and nesting) and tried on a range of numbers, each
of which must give a form the catalog has."""

from __future__ import annotations

import gettext
import re
from collections.abc import Callable
from functools import cache

from generator.i18n import numbers
from generator.limits import MAX_PLURAL_FORMS

ENGLISH = "(n != 1)"
TRIED = (*range(0, 220), 1000, 1001, 1_000_000, 1_000_001)  # numbers each rule is tried on
_HEADER = re.compile(rb"Plural-Forms:([^\"\\]*)")
_NPLURALS = re.compile(r"nplurals\s*=\s*([^;\s]*)")
_PLURAL = re.compile(r"plural\s*=\s*(.*?);?\s*$")

Rule = Callable[[int], int]


class PluralError(ValueError):
    """A ``Plural-Forms`` header that cannot be used: what is wrong, and its line."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


def check_header(raw: bytes) -> tuple[int, str] | None:
    """The number of forms and the rule of the ``Plural-Forms`` header in a catalog's bytes
    (None when it has none); ``PluralError`` at its line when the header is out of bounds
    or its rule gives a form the catalog does not have."""
    found = _HEADER.search(raw)
    if found is None:
        return None
    line = raw.count(b"\n", 0, found.start()) + 1
    value = found[1].decode("utf-8", "replace").strip()
    count = _NPLURALS.search(value)
    if count is None or not count[1].isdigit():
        raise PluralError(
            f"Plural-Forms '{value}' has no nplurals=N; write e.g. "
            f"'nplurals=2; plural=(n != 1);' (N from 1 to {MAX_PLURAL_FORMS})",
            line,
        )
    forms = int(count[1][:4])  # more digits than that is out of bounds anyway
    if len(count[1]) > 3 or not 1 <= forms <= MAX_PLURAL_FORMS:
        raise PluralError(
            f"Plural-Forms says nplurals={count[1][:12]}; a language has 1 to "
            f"{MAX_PLURAL_FORMS} plural forms (see the language's entry in the CLDR plural rules)",
            line,
        )
    expression = _PLURAL.search(value[count.end() :])
    if expression is None or not expression[1].strip():
        raise PluralError(f"Plural-Forms '{value}' has no plural=EXPRESSION", line)
    try:
        rule = rule_of(expression[1].strip())
        wrong = next((n for n in TRIED if not 0 <= rule(n) < forms), None)
    except (ValueError, ArithmeticError, TypeError, RecursionError) as exc:
        raise PluralError(
            f"the plural rule '{expression[1]}' cannot be read ({exc})", line
        ) from None
    if wrong is not None:
        raise PluralError(
            f"the plural rule gives form {rule(wrong)} for {wrong}, but nplurals={forms} "
            f"(forms 0 to {forms - 1})",
            line,
        )
    return forms, expression[1].strip()


@cache
def rule_of(expression: str) -> Rule:
    """The form index for a number, from a catalog's plural expression."""
    compiled: Rule = gettext.c2py(expression)
    return compiled


def choose(forms: tuple[str, ...], rule: str, n: int) -> str:
    """The form of ``forms`` the plural ``rule`` gives for ``n`` (the last one when the
    catalog has fewer: a source language's one text serves every number)."""
    return forms[min(rule_of(rule)(n), len(forms) - 1)]


def examples(rule: str, form: int, shown: int = 3) -> str:
    """The first numbers the plural ``rule`` gives ``form`` for ('2, 3, 4, …'), to tell a
    translator which msgstr[i] is which."""
    found = [n for n in TRIED if rule_of(rule)(n) == form]
    return ", ".join(map(str, found[:shown])) + (", …" if len(found) > shown else "")


class Forms:
    """A printed string that takes a number (``{n}``, a spec's ``Counted`` field) in one
    language: a text for each plural form of the language (the source language's one text
    serves every number) and the catalog's rule that chooses among them. A plain class, not
    a dataclass: the spec's schema says what a spec writes (a string), not this."""

    __slots__ = ("forms", "rule")

    def __init__(self, forms: tuple[str, ...], rule: str = ENGLISH):
        self.forms = forms
        self.rule = rule

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Forms) and (self.forms, self.rule) == (other.forms, other.rule)

    def __hash__(self) -> int:
        return hash((self.forms, self.rule))

    def __repr__(self) -> str:
        return f"Forms({self.forms!r}, {self.rule!r})"

    def text(self, n: int, language: str) -> str:
        """The form for ``n``, with ``{n}`` written as ``language`` writes numbers."""
        return choose(self.forms, self.rule, n).replace("{n}", numbers.number(n, language))


def number_of(value: object) -> int:
    """The number a count stands for when choosing a plural form: itself; the upper end of a
    range ('2-4' counts as 4); more than N for 'N+'."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else 2  # a fraction reads as plural
    numbers = re.findall(r"\d+", str(value))
    if not numbers:
        return 2
    last = int(numbers[-1][:9])
    return last + 1 if str(value).strip().endswith("+") else last
