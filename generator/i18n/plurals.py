"""Plural forms: a catalog's ``Plural-Forms`` header bounded as it is read (``pofile`` checks
it on the header Babel parsed, before Babel acts on it: ``nplurals=100000000`` would make Babel
allocate that many strings for every plural entry), the rule it states as a function, the
number a count stands for, and the rule each language's catalogs are written with.

A language has at most ``MAX_PLURAL_FORMS`` forms (``generator.limits``; Arabic, the most
of any language, has six); the rule is a C expression, compiled by the standard library's
``gettext.c2py`` (which bounds its length and nesting) and tried on a range of numbers, each
of which must give a form the catalog has.

A catalog pnp starts is written with the rule GNU gettext and Poedit use for its language
(``GETTEXT``: French ``nplurals=2; plural=(n > 1);``), not CLDR's through Babel, which gives
French, Spanish, Italian and Portuguese a third form for a million."""

from __future__ import annotations

import gettext
import re
from collections import Counter
from collections.abc import Callable
from functools import cache

from babel.core import Locale, UnknownLocaleError
from babel.messages.plurals import get_plural

from generator.i18n import numbers
from generator.limits import MAX_PLURAL_FORMS

ENGLISH = "(n != 1)"
TRIED = (*range(0, 220), 1000, 1001, 1_000_000, 1_000_001)  # numbers each rule is tried on
RUSSIAN = "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"
# The rules of the GNU gettext manual (node "Plural forms"), which msginit writes and Poedit
# offers; a language not listed takes CLDR's rule (Babel's).
GETTEXT = {
    **dict.fromkeys(("ja", "vi", "ko", "zh", "th", "id"), "nplurals=1; plural=0;"),
    **dict.fromkeys(
        ("en", "de", "nl", "sv", "da", "no", "nb", "nn", "fo", "es", "pt", "it", "bg", "el"),
        "nplurals=2; plural=(n != 1);",
    ),
    **dict.fromkeys(("fi", "et", "he", "eo", "hu", "tr", "ca"), "nplurals=2; plural=(n != 1);"),
    **dict.fromkeys(("fr", "pt_BR"), "nplurals=2; plural=(n > 1);"),
    "lv": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);",
    "ga": "nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;",
    "ro": "nplurals=3; plural=n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2;",
    "lt": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
    "n%10>=2 && (n%100<10 || n%100>=20) ? 1 : 2);",
    **dict.fromkeys(("ru", "uk", "be", "sr", "hr"), f"nplurals=3; plural={RUSSIAN};"),
    **dict.fromkeys(("cs", "sk"), "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"),
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "sl": "nplurals=4; plural=(n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3);",
    "ar": "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : "
    "n%100>=11 ? 4 : 5;",
}

Rule = Callable[[int], int]


class PluralError(ValueError):
    """A ``Plural-Forms`` header that cannot be used: what is wrong, and its line."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


def check_forms(value: str, count: str | None, expression: str | None, line: int) -> int:
    """The number of forms of a ``Plural-Forms`` header (``value``, its ``nplurals`` and
    ``plural`` as Babel reads them); ``PluralError`` at ``line`` when the header is out of
    bounds or its rule gives a form the catalog does not have."""
    shown = value.strip()[:200]
    if count is None or not count.strip().isdigit():
        raise PluralError(
            f"Plural-Forms '{shown}' has no nplurals=N; write e.g. "
            f"'nplurals=2; plural=(n != 1);' (N from 1 to {MAX_PLURAL_FORMS})",
            line,
        )
    digits = count.strip()
    forms = int(digits[:4])  # more digits than that is out of bounds anyway
    if len(digits) > 3 or not 1 <= forms <= MAX_PLURAL_FORMS:
        raise PluralError(
            f"Plural-Forms says nplurals={digits[:12]}; a language has 1 to "
            f"{MAX_PLURAL_FORMS} plural forms (see the language's entry in the CLDR plural rules)",
            line,
        )
    if expression is None or not expression.strip():
        raise PluralError(f"Plural-Forms '{shown}' has no plural=EXPRESSION", line)
    _try_rule(expression.strip(), forms, line)
    return forms


def _try_rule(expression: str, forms: int, line: int) -> None:
    """``PluralError`` for a rule that cannot be read or gives a form past ``forms``."""
    try:
        rule = rule_of(expression)
        wrong = next((n for n in TRIED if not 0 <= rule(n) < forms), None)
    except (ValueError, ArithmeticError, TypeError, RecursionError) as exc:
        shown = expression[:200]
        raise PluralError(f"the plural rule '{shown}' cannot be read ({exc})", line) from None
    if wrong is not None:
        raise PluralError(
            f"the plural rule gives form {rule(wrong)} for {wrong}, but nplurals={forms} "
            f"(forms 0 to {forms - 1})",
            line,
        )


def forms_header(language: str) -> str:
    """The ``Plural-Forms`` a catalog of ``language`` is written with: gettext's rule for it
    (or its language without the region: ``pt_BR`` has its own, ``de_AT`` is ``de``'s), else
    CLDR's."""
    found = GETTEXT.get(language) or GETTEXT.get(re.split(r"[_@-]", language)[0])
    if found:
        return found
    try:
        count, expression = get_plural(Locale.parse(language))
    except (UnknownLocaleError, ValueError):
        return f"nplurals=2; plural={ENGLISH};"
    return f"nplurals={count}; plural={expression};"


def cldr_rule(language: str) -> tuple[int, str] | None:
    """CLDR's plural forms for ``language`` as Babel gives them (the rule catalogs pnp wrote
    before had), None for a language Babel does not know."""
    try:
        count, expression = get_plural(Locale.parse(language))
    except (UnknownLocaleError, ValueError):
        return None
    return count, expression


def same_rule(one: tuple[int, str], other: tuple[int, str]) -> bool:
    """Whether two plural rules (forms, expression) give every number the same form."""
    return one[0] == other[0] and all(rule_of(one[1])(n) == rule_of(other[1])(n) for n in TRIED)


def parse_header(value: str) -> tuple[int, str]:
    """(nplurals, plural) of a ``Plural-Forms`` value pnp trusts (its own tables')."""
    count = re.search(r"nplurals\s*=\s*(\d+)", value)
    expression = re.search(r"plural\s*=\s*(.*?);?\s*$", value[count.end() :] if count else value)
    assert count is not None and expression is not None, value
    return int(count[1]), expression[1]


def remap(old: tuple[int, str], new: tuple[int, str]) -> list[int]:
    """For each form of the ``new`` rule, the form of the ``old`` one that served most of its
    numbers (French's CLDR 'other' for gettext's plural, not its form for millions)."""
    out = []
    for form in range(new[0]):
        served = Counter(
            min(rule_of(old[1])(n), old[0] - 1) for n in TRIED if rule_of(new[1])(n) == form
        )
        out.append(max(sorted(served), key=served.__getitem__, default=0))
    return out


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
