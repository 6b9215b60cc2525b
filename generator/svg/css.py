"""CSS in SVG: ``<style>`` sheets, ``style=""`` attributes and the cascade that merges them
with the presentation attributes, as resvg does.

A sheet's selectors may use type, class, id, universal and attribute selectors (``[a]``,
``=``, ``~=``, ``|=``, ``^=``, ``$=``, ``*=``), the ``:first-child`` pseudo-class and the
descendant, child (``>``) and sibling (``+``, ``~``) combinators. The cascade, weakest first:
presentation attributes, sheet rules by specificity and then order, the ``style`` attribute,
then ``!important`` declarations of the sheets and of the ``style`` attribute. A rule this
module cannot read is reported through ``warn`` and skipped.

Matching never backtracks: a rule is tried only on the elements its rightmost compound's id,
class or type allows, right to left, each (compound, element) pair tested once, so a sheet
costs at most a few steps per compound and element. A document's cascade may take
``MAX_SELECTOR_STEPS``; a sheet that would take more is reported and not applied. The steps
a cascade took are kept (``Cascade.steps``, ``Drawer.css_steps``), so that a build can bound
what all its documents take together (``generator.art.clock``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from lxml import etree

SVG_NS = "{http://www.w3.org/2000/svg}"
Warn = Callable[[str, str], None]  # (what to look for in the template, message)
Declaration = tuple[str, str, bool]  # name, value, !important

_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_IDENT = r"-?[_a-zA-Z][\w-]*"
_SIMPLE = re.compile(
    rf"""(?P<type>{_IDENT}|\*)
    |\#(?P<id>[\w-]+)
    |\.(?P<cls>{_IDENT})
    |\[\s*(?P<attr>[\w:|-]+)\s*(?:(?P<op>[~|^$*]?=)\s*(?P<value>"[^"]*"|'[^']*'|[^\]\s]+)\s*)?\]
    |(?P<pseudo>::?{_IDENT}(?:\([^)]*\))?)""",
    re.VERBOSE,
)
_COMBINATOR = re.compile(r"\s*([>+~])\s*|\s+")
SUPPORTED_PSEUDO = frozenset((":first-child",))
MAX_COMPOUNDS = 64  # compound selectors in one selector (each a level of the matcher's recursion)
# selector tests and declarations applied in one document's cascade: past it, a sheet's rules
# are not applied (a sheet within it costs at most a few steps per compound and element)
MAX_SELECTOR_STEPS = 250_000  # about a second of matching


@dataclass(frozen=True)
class Compound:
    """One compound selector: a type (None for any), ids, classes, attribute tests and
    pseudo-classes, all of which an element must match."""

    tag: str | None = None
    ids: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    attributes: tuple[tuple[str, str | None, str | None], ...] = ()
    pseudo: tuple[str, ...] = ()

    def matches(self, element: etree._Element) -> bool:
        """Whether ``element`` matches every part of this compound."""
        if self.tag is not None and etree.QName(element).localname != self.tag:
            return False
        if self.ids and element.get("id") not in self.ids:
            return False
        if self.classes:
            have = (element.get("class") or "").split()
            if any(c not in have for c in self.classes):
                return False
        for name, op, value in self.attributes:
            if not _attribute_matches(element.get(name), op, value):
                return False
        return all(_pseudo_matches(element, p) for p in self.pseudo)


def _attribute_matches(actual: str | None, op: str | None, value: str | None) -> bool:
    """An attribute selector's test on the attribute's value (None when absent)."""
    if actual is None:
        return False
    if op is None or value is None:
        return True
    tests = {
        "=": lambda: actual == value,
        "~=": lambda: value in actual.split(),
        "|=": lambda: actual == value or actual.startswith(value + "-"),
        "^=": lambda: bool(value) and actual.startswith(value),
        "$=": lambda: bool(value) and actual.endswith(value),
        "*=": lambda: bool(value) and value in actual,
    }
    return tests[op]()


def _pseudo_matches(element: etree._Element, pseudo: str) -> bool:
    """The pseudo-classes this module knows: ``:first-child``."""
    if pseudo == ":first-child":
        return _previous_element(element) is None
    return False


def _previous_element(element: etree._Element) -> etree._Element | None:
    """The element before this one among its siblings (comments skipped)."""
    previous = element.getprevious()
    while previous is not None and not isinstance(previous.tag, str):
        previous = previous.getprevious()
    return previous


@dataclass(frozen=True)
class Selector:
    """Compounds from left to right with the combinators between them (``parts[i]`` is
    joined to ``parts[i + 1]`` by ``combinators[i]``)."""

    parts: tuple[Compound, ...]
    combinators: tuple[str, ...]

    @property
    def specificity(self) -> tuple[int, int, int]:
        """(ids, classes + attributes + pseudo-classes, types) as CSS counts them."""
        a = sum(len(p.ids) for p in self.parts)
        b = sum(len(p.classes) + len(p.attributes) + len(p.pseudo) for p in self.parts)
        c = sum(1 for p in self.parts if p.tag is not None)
        return (a, b, c)

    def matches(self, element: etree._Element) -> bool:
        """Whether ``element`` is the subject this selector picks."""
        return Matcher(self, Meter(None)).matches(element, len(self.parts) - 1)


class TooCostly(Exception):
    """The cascade of one document needs more than ``MAX_SELECTOR_STEPS`` steps."""


class Meter:
    """The steps the cascade of one document has left (None: no limit)."""

    def __init__(self, limit: int | None) -> None:
        self.left = limit

    def spend(self, steps: int = 1) -> None:
        """Count ``steps``; TooCostly once the budget is spent."""
        if self.left is not None:
            self.left -= steps
            if self.left < 0:
                raise TooCostly


class Matcher:
    """Which elements one selector picks, read right to left: each compound is tested on
    each element at most once, and whether some ancestor (or earlier sibling) matches the
    compounds to its left is worked out once per element, so no selector backtracks."""

    def __init__(self, selector: Selector, meter: Meter) -> None:
        self.parts = selector.parts
        self.combinators = selector.combinators
        self.meter = meter
        self.known: dict[tuple[int, etree._Element], bool] = {}
        self.before: dict[tuple[int, etree._Element], bool] = {}

    def matches(self, element: etree._Element, index: int) -> bool:
        """Whether ``element`` matches the compounds up to ``index`` as their rightmost."""
        key = (index, element)
        found = self.known.get(key)
        if found is None:
            found = self.known[key] = self._test(element, index)
        return found

    def _test(self, element: etree._Element, index: int) -> bool:
        """Whether ``element`` matches the selector's parts up to ``index`` (uncached)."""
        self.meter.spend()
        if not self.parts[index].matches(element):
            return False
        if index == 0:
            return True
        combinator = self.combinators[index - 1]
        if combinator == ">":
            parent = element.getparent()
            return parent is not None and self.matches(parent, index - 1)
        if combinator == "+":
            previous = _previous_element(element)
            return previous is not None and self.matches(previous, index - 1)
        return self._any_before(element, index - 1, combinator == " ")

    def _any_before(self, element: etree._Element, index: int, up: bool) -> bool:
        """Whether an ancestor (``up``) or an earlier sibling of ``element`` matches the
        compounds up to ``index``; the answer is kept for every element walked past."""
        step = _parent if up else _previous_element
        walked = [element]
        node = step(element)
        found = False
        while node is not None:
            if self.matches(node, index):
                found = True
                break
            known = self.before.get((index, node))
            if known is not None:
                found = known
                break
            walked.append(node)
            node = step(node)
        for passed in walked:
            self.before[(index, passed)] = found
        return found


def _parent(element: etree._Element) -> etree._Element | None:
    """An element's parent (None for the root): the step a descendant combinator takes."""
    return element.getparent()


def parse_selector(text: str) -> Selector:
    """One selector (no commas); ValueError when it uses syntax this module cannot read."""
    text = text.strip()
    parts: list[Compound] = []
    combinators: list[str] = []
    position = 0
    while position < len(text):
        compound, position = _compound(text, position)
        parts.append(compound)
        if position >= len(text):
            break
        match = _COMBINATOR.match(text, position)
        if match is None:
            raise ValueError(f"cannot read selector {text!r}")
        combinators.append(match[1] or " ")
        position = match.end()
    if not parts or len(combinators) != len(parts) - 1:
        raise ValueError(f"cannot read selector {text!r}")
    if len(parts) > MAX_COMPOUNDS:
        raise ValueError(
            f"a selector may chain {MAX_COMPOUNDS} compound selectors, not {len(parts)}"
        )
    return Selector(tuple(parts), tuple(combinators))


def _compound(text: str, position: int) -> tuple[Compound, int]:
    """The compound selector at ``text[position:]`` and where it ends."""
    tag = None
    ids: list[str] = []
    classes: list[str] = []
    attributes: list[tuple[str, str | None, str | None]] = []
    pseudo: list[str] = []
    start = position
    while position < len(text):
        match = _SIMPLE.match(text, position)
        if match is None:
            break
        if match["type"] is not None:
            if position != start:
                raise ValueError(f"type selector after others in {text!r}")
            tag = None if match["type"] == "*" else match["type"]
        elif match["id"] is not None:
            ids.append(match["id"])
        elif match["cls"] is not None:
            classes.append(match["cls"])
        elif match["attr"] is not None:
            value = match["value"]
            if value is not None and value[:1] in "\"'":
                value = value[1:-1]
            attributes.append((match["attr"], match["op"], value))
        else:
            if match["pseudo"] not in SUPPORTED_PSEUDO:
                raise ValueError(f"the selector {match['pseudo']} is not supported")
            pseudo.append(match["pseudo"])
        position = match.end()
    if position == start:
        raise ValueError(f"cannot read selector {text!r}")
    return Compound(tag, tuple(ids), tuple(classes), tuple(attributes), tuple(pseudo)), position


# --- declarations ----------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def declarations(text: str) -> tuple[Declaration, ...]:
    """The declarations of a ``style`` attribute or a rule's block, in order."""
    if "/*" in text:
        text = _COMMENT.sub("", text)
    out = []
    for part in _split_declarations(text):
        name, colon, value = part.partition(":")
        name = name.strip()
        value = value.strip()
        if not colon or not name or not value:
            continue
        important = False
        if value.lower().endswith("!important"):
            value = value[: -len("!important")].rstrip()
            important = True
        out.append((name.lower() if name.lower() == name.lower() else name, value, important))
    return tuple(out)


def _split_declarations(text: str) -> list[str]:
    """Split at semicolons outside quotes and parentheses."""
    parts: list[str] = []
    current: list[str] = []
    quote, depth = "", 0
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
        elif char == ";" and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


# --- sheets ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rule:
    """One selector of a rule with its block, and the rule's place in the sheets."""

    selector: Selector
    order: int
    block: tuple[Declaration, ...]


def parse_sheet(text: str, warn: Warn, line: int | None) -> list[Rule]:
    """The rules of a style sheet; what cannot be read is reported and skipped."""
    text = _COMMENT.sub("", text).replace("<!--", "").replace("-->", "")
    rules: list[Rule] = []
    position = 0
    while True:
        brace = text.find("{", position)
        if brace < 0:
            break
        prelude = text[position:brace].strip()
        end = _block_end(text, brace)
        block = text[brace + 1 : end]
        position = end + 1
        if prelude.startswith("@"):
            warn("@", f"the CSS rule {prelude.split()[0]} in <style> (line {line}) is ignored")
            continue
        parsed = declarations(block)
        for part in prelude.split(","):
            try:
                rules.append(Rule(parse_selector(part), len(rules), parsed))
            except ValueError as exc:
                warn("<style", f"{exc} (<style> line {line}); its rule is ignored")
    rest = text[position:].strip()
    if rest.startswith("@import"):
        warn("@import", f"@import in <style> (line {line}): external style sheets are not read")
    return rules


def _block_end(text: str, brace: int) -> int:
    """The index of the brace closing the block opened at ``brace`` (the end if none)."""
    depth = 0
    for index in range(brace, len(text)):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
    return len(text)


@dataclass
class Cascade:
    """The declarations the sheets of one document give each element, in cascade order."""

    normal: dict[etree._Element, list[tuple[str, str]]] = field(default_factory=dict)
    important: dict[etree._Element, list[tuple[str, str]]] = field(default_factory=dict)
    steps: int = 0  # the steps matching took (a build counts them across its documents)

    def specified(self, element: etree._Element) -> dict[str, str]:
        """The element's attributes with the sheets and its ``style`` attribute applied."""
        attrs = {name: value.strip() for name, value in element.attrib.items()}
        style = attrs.pop("style", None)
        inline = declarations(style) if style else ()
        for name, value in self.normal.get(element, ()):
            attrs[name] = value
        for name, value, important in inline:
            if not important:
                attrs[name] = value
        for name, value in self.important.get(element, ()):
            attrs[name] = value
        for name, value, important in inline:
            if important:
                attrs[name] = value
        return attrs


def cascade(root: etree._Element, warn: Warn) -> Cascade:
    """The sheets of every ``<style>`` in the document applied to its elements; a sheet
    whose matching would pass ``MAX_SELECTOR_STEPS`` is reported and not applied."""
    sheets = _sheets(root, warn)
    result = Cascade()
    if not any(rules for _, rules in sheets):
        return result
    elements = _index(root)
    meter = Meter(MAX_SELECTOR_STEPS)
    matched: list[tuple[Rule, list[etree._Element]]] = []
    known: dict[Selector, list[etree._Element]] = {}
    for line, rules in sheets:
        try:
            matched.extend([(rule, _subjects(rule, elements, meter, known)) for rule in rules])
        except TooCostly:
            warn(
                "<style",
                f"matching the {len(rules):,} rules of <style> (line {line}) against the SVG's "
                f"{len(elements.all):,} elements takes more than {MAX_SELECTOR_STEPS:,} steps; "
                "its rules are not applied (use fewer rules or simpler selectors)",
            )
    result.steps = MAX_SELECTOR_STEPS - (meter.left or 0)
    for rule, subjects in sorted(matched, key=lambda m: (m[0].selector.specificity, m[0].order)):
        for element in subjects:
            for name, value, important in rule.block:
                target = result.important if important else result.normal
                target.setdefault(element, []).append((name, value))
    return result


def _sheets(root: etree._Element, warn: Warn) -> list[tuple[int | None, list[Rule]]]:
    """Each CSS ``<style>``'s line and rules, numbered in order across the document."""
    sheets: list[tuple[int | None, list[Rule]]] = []
    count = 0
    for style in root.iter(f"{SVG_NS}style"):
        kind = (style.get("type") or "text/css").strip()
        if kind not in ("", "text/css"):
            continue
        rules = []
        for rule in parse_sheet(style.text or "", warn, style.sourceline):
            rules.append(Rule(rule.selector, count, rule.block))
            count += 1
        sheets.append((style.sourceline, rules))
    return sheets


@dataclass
class Elements:
    """A document's elements in order, and by tag (local name), id and class: where the
    subjects of a rule can be found without testing every element."""

    all: list[etree._Element] = field(default_factory=list)
    tags: dict[str, list[etree._Element]] = field(default_factory=dict)
    ids: dict[str, list[etree._Element]] = field(default_factory=dict)
    classes: dict[str, list[etree._Element]] = field(default_factory=dict)


def _index(root: etree._Element) -> Elements:
    """The document's elements in order, and by tag, id and class: where a selector's last
    part looks for candidates."""
    found = Elements()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        found.all.append(element)
        found.tags.setdefault(etree.QName(element).localname, []).append(element)
        key = element.get("id")
        if key is not None:
            found.ids.setdefault(key, []).append(element)
        for name in dict.fromkeys((element.get("class") or "").split()):
            found.classes.setdefault(name, []).append(element)
    return found


def _candidates(compound: Compound, elements: Elements) -> list[etree._Element]:
    """The elements that can match ``compound`` as far as its id, classes or type tell, in
    document order (all of them when it names none)."""
    if len(compound.ids) == 1:
        return elements.ids.get(compound.ids[0], [])
    if compound.classes:
        return min((elements.classes.get(c, []) for c in compound.classes), key=len)
    if compound.tag is not None:
        return elements.tags.get(compound.tag, [])
    return elements.all


def _subjects(
    rule: Rule, elements: Elements, meter: Meter, known: dict[Selector, list[etree._Element]]
) -> list[etree._Element]:
    """The elements ``rule`` applies to, in document order, its declarations counted (a
    selector met before in the document is matched once: ``known``)."""
    found = known.get(rule.selector)
    if found is None:
        matcher = Matcher(rule.selector, meter)
        last = len(rule.selector.parts) - 1
        candidates = _candidates(rule.selector.parts[last], elements)
        found = known[rule.selector] = [e for e in candidates if matcher.matches(e, last)]
    meter.spend(len(found) * max(len(rule.block), 1))
    return found
