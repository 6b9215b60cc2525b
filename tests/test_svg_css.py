"""The CSS matcher of ``svg.css``: the same subjects as the plain backtracking reading of a
selector (kept here as the reference), for every combinator and simple selector it supports,
at a cost that grows with compounds x elements, and a document past its budget reported."""

from __future__ import annotations

import random
import time

import pytest
from lxml import etree

from generator.svg import css
from generator.svg.compiler import compile_svg
from generator.svg.css import Selector, cascade, parse_selector
from generator.svg.safexml import SAFE_PARSER

DOCUMENT = """\
<svg xmlns="http://www.w3.org/2000/svg" id="root">
  <g id="a" class="x y">
    <rect id="r1" class="x" data-k="en-GB"/>
    <?pi between?>
    <circle id="c1" class="y z" data-k="alpha beta"/>
    <g id="b" class="x">
      <rect id="r2" data-k="prefix-mid-suffix"/>
      <path id="p1" class="x y z"/>
      <g id="d">
        <rect id="r3" class="w"/>
        <circle id="c2" class="x"/>
        <rect id="r4" class="x x"/>
      </g>
    </g>
    <path id="p2" data-k=""/>
    <rect id="r5" class="y"/>
  </g>
  <g id="e">
    <g id="f"><g id="h"><rect id="r6" class="x"/></g></g>
    <circle id="c3"/>
    <rect id="r7" class="z"/>
  </g>
</svg>
"""

SELECTORS = [
    "rect",
    "*",
    "g rect",
    "g g rect",
    "svg > g > rect",
    "g > rect",
    "#a rect",
    "#a > rect",
    ".x rect",
    ".x.y",
    ".x .x .x",
    "#a#r1",
    "rect + circle",
    "rect + path",
    "circle + *",
    "rect ~ rect",
    "rect ~ path ~ rect",
    "g ~ *",
    "* ~ * ~ * ~ *",
    "circle ~ g rect",
    ":first-child",
    "g > :first-child",
    "rect:first-child + circle",
    "g :first-child ~ rect",
    "[data-k]",
    "[data-k=en-GB]",
    "[data-k~=beta]",
    "[data-k |= en]",
    "[data-k^=prefix]",
    "[data-k$=suffix]",
    "[data-k*=mid]",
    "[data-k^='']",
    "[data-k='']",
    "[class~=x] [class~=z]",
    "g > g > g > rect",
    "svg g g g rect",
    "nope g rect",
    "g nope rect",
    "#e > g rect",
    "#e g > rect",
    "g > g rect ~ rect",
    "g rect + circle ~ rect",
    ".y > .x ~ .y",
]


def reference(selector: Selector, element: etree._Element, index: int | None = None) -> bool:
    """The reading the matcher replaced: try every ancestor or sibling, backtracking."""
    index = len(selector.parts) - 1 if index is None else index
    if not selector.parts[index].matches(element):
        return False
    if index == 0:
        return True
    combinator = selector.combinators[index - 1]
    if combinator in (">", " "):
        step, near = etree._Element.getparent, combinator == ">"
    else:
        step, near = css._previous_element, combinator == "+"
    other = step(element)
    while other is not None:
        if reference(selector, other, index - 1):
            return True
        if near:
            return False
        other = step(other)
    return False


def elements(root: etree._Element) -> list[etree._Element]:
    return [e for e in root.iter() if isinstance(e.tag, str)]


@pytest.mark.parametrize("text", SELECTORS)
def test_the_matcher_picks_what_backtracking_picks(text: str):
    root = etree.fromstring(DOCUMENT.encode(), SAFE_PARSER)
    selector = parse_selector(text)
    ours = [e.get("id") for e in elements(root) if selector.matches(e)]
    theirs = [e.get("id") for e in elements(root) if reference(selector, e)]
    assert ours == theirs


def test_the_selectors_above_pick_something_and_leave_something():
    """The cases are not idle: all but those meant to pick all or nothing pick some elements
    and leave others."""
    root = etree.fromstring(DOCUMENT.encode(), SAFE_PARSER)
    every = len(elements(root))
    idle = {
        t for t in SELECTORS if sum(map(parse_selector(t).matches, elements(root))) in (0, every)
    }
    assert idle == {"*", "[data-k^='']", "nope g rect", "g nope rect"}


def reference_cascade(root: etree._Element) -> dict[str, list[tuple[str, str, bool]]]:
    """Every element against every rule in cascade order, as the cascade did before."""
    rules = []
    for style in root.iter(f"{css.SVG_NS}style"):
        rules.extend(css.parse_sheet(style.text or "", lambda *_: None, None))
    order = {id(rule): n for n, rule in enumerate(rules)}
    rules.sort(key=lambda r: (r.selector.specificity, order[id(r)]))
    found: dict[str, list[tuple[str, str, bool]]] = {}
    for element in elements(root):
        for rule in rules:
            if reference(rule.selector, element):
                found.setdefault(element.get("id"), []).extend(rule.block)
    return found


def test_the_cascade_gives_each_element_the_declarations_it_gave_before():
    """Every selector above as a rule (one property each, in a shuffled order): each
    element gets the same declarations in the same order as the element-by-rule cascade."""
    texts = list(SELECTORS)
    random.Random(7).shuffle(texts)
    sheet = "".join(
        f"{t} {{ p{n}: v{n}{' !important' if n % 5 == 0 else ''} }}\n" for n, t in enumerate(texts)
    )
    sheet += "rect, .x { q: 1 } g > rect { q: 2; r: 3 }"
    text = DOCUMENT.replace('<g id="e">', f'<style>{sheet}</style>\n  <g id="e">')
    root = etree.fromstring(text.encode(), SAFE_PARSER)
    want = reference_cascade(root)
    css = cascade(root, lambda *_: None)
    assert len(want) > 10
    for element in elements(root):
        expected = want.get(element.get("id"), [])
        assert css.normal.get(element, []) == [(n, v) for n, v, i in expected if not i]
        assert css.important.get(element, []) == [(n, v) for n, v, i in expected if i]


def random_tree(rng: random.Random) -> etree._Element:
    root = etree.Element(f"{css.SVG_NS}svg")
    nodes = [root]
    for n in range(rng.randint(5, 40)):
        parent = rng.choice(nodes)
        child = etree.SubElement(parent, css.SVG_NS + rng.choice("gabc"), id=f"n{n}")
        if rng.random() < 0.6:
            child.set("class", " ".join(rng.sample("xyz", rng.randint(1, 2))))
        nodes.append(child)
    return root


def random_selector(rng: random.Random) -> str:
    compounds = [
        rng.choice(["g", "a", "b", "*", ".x", ".y", "g.z", "[class~=x]", ":first-child", "c"])
        for _ in range(rng.randint(1, 5))
    ]
    text = compounds[0]
    for compound in compounds[1:]:
        text += rng.choice([" ", " > ", " + ", " ~ "]) + compound
    return text


def test_random_selectors_on_random_trees_pick_what_backtracking_picks():
    """One matcher per tree and selector, as the cascade uses it: what it worked out for
    one element (in document order, and in reverse) is right for the next."""
    rng = random.Random(2024)
    picked = 0
    for _ in range(300):
        root = random_tree(rng)
        selector = parse_selector(random_selector(rng))
        last = len(selector.parts) - 1
        for order in (elements(root), elements(root)[::-1]):
            matcher = css.Matcher(selector, css.Meter(None))
            for element in order:
                ours = matcher.matches(element, last)
                assert ours == reference(selector, element), (selector, element.get("id"))
                picked += ours
    assert picked > 600


def test_a_selector_of_too_many_compounds_is_reported_and_ignored():
    warnings = []
    sheet = "g " * css.MAX_COMPOUNDS + "rect { fill: red } rect { stroke: blue }"
    rules = css.parse_sheet(sheet, lambda *w: warnings.append(w), 3)
    assert [r.block for r in rules] == [(("stroke", "blue", False),)]
    assert f"may chain {css.MAX_COMPOUNDS}" in warnings[0][1], warnings


def nested(depth: int) -> etree._Element:
    return etree.fromstring(
        ('<svg xmlns="http://www.w3.org/2000/svg">' + "<g>" * depth + "<rect/>")
        + "</g>" * depth + "</svg>"
    )  # fmt: skip


def test_a_descendant_chain_costs_compounds_times_elements():
    """`nope g g ... rect` over 30 nested groups: backtracking tried C(30,15) ways; each
    (compound, element) pair is now tested once."""
    root = nested(30)
    selector = parse_selector("nope " + "g " * 15 + "rect")
    meter = css.Meter(10**9)
    rect = root.find(f".//{css.SVG_NS}rect")
    assert not css.Matcher(selector, meter).matches(rect, len(selector.parts) - 1)
    assert 10**9 - meter.left <= len(selector.parts) * 32


def test_a_sheet_past_the_budget_is_reported_and_not_applied(monkeypatch):
    monkeypatch.setattr(css, "MAX_SELECTOR_STEPS", 500)  # the 600 "rect" rules: 600 steps
    cheap = "<style>rect { fill: blue }</style>"
    costly = "<style>\n" + "".join(f"g rect.c{n}, rect {{ stroke: red }}\n" for n in range(600))
    text = f'<svg xmlns="http://www.w3.org/2000/svg">{cheap}{costly}</style><rect/></svg>'
    root = etree.fromstring(text.encode())
    warnings = []
    styles = cascade(root, lambda *w: warnings.append(w))
    rect = root.find(f"{css.SVG_NS}rect")
    assert styles.normal[rect] == [("fill", "blue")]
    ((needle, message),) = warnings
    assert needle == "<style" and "1,200 rules of <style> (line 1)" in message, message
    assert "more than 500 steps; its rules are not applied" in message


def test_20000_class_rules_reach_their_20000_elements():
    """Each rule is tried on the elements of its class alone, and every one is applied."""
    count = 20_000
    rules = "".join(f".c{n} {{ fill: #{n:06x} }}\n" for n in range(count))
    rects = "".join(f'<rect class="c{n} all"/>' for n in range(count))
    text = f'<svg xmlns="http://www.w3.org/2000/svg"><style>{rules}</style>{rects}</svg>'
    root = etree.fromstring(text.encode(), SAFE_PARSER)
    styles = cascade(root, lambda *w: pytest.fail(str(w)))
    found = [styles.normal.get(rect) for rect in root.iter(f"{css.SVG_NS}rect")]
    assert found == [[("fill", f"#{n:06x}")] for n in range(count)]


def test_a_sibling_chain_costs_compounds_times_elements():
    """`nope ~ g ~ g ... ~ rect` over 30 sibling groups: each pair tested once, as for the
    descendant chain."""
    body = "<g/>" * 30 + "<rect/>"
    root = etree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>'.encode())
    selector = parse_selector("nope ~ " + "g ~ " * 15 + "rect")
    meter = css.Meter(10**9)
    rect = root.find(f"{css.SVG_NS}rect")
    assert not css.Matcher(selector, meter).matches(rect, len(selector.parts) - 1)
    assert 10**9 - meter.left <= len(selector.parts) * 32


@pytest.mark.parametrize(
    "rule", ["g rect {{fill:red}}", 'g rect[x="{i}"] {{fill:red}}'], ids=["same", "distinct"]
)
def test_twenty_thousand_rules_over_twenty_thousand_elements_end_in_a_second_or_two(rule):
    """Rules x elements is capped by the step budget (a repeated selector matched once): the
    sheet is reported and not applied, quickly, instead of running for minutes."""
    sheet = "".join(rule.format(i=i) + "\n" for i in range(20_000))
    text = f'<svg xmlns="http://www.w3.org/2000/svg"><style>{sheet}</style><g>'
    root = etree.fromstring((text + "<rect/>" * 20_000 + "</g></svg>").encode())
    warnings = []
    started = time.process_time()  # this process's own time: other work on the machine aside
    cascade(root, lambda *w: warnings.append(w))
    assert time.process_time() - started < 5
    assert len(warnings) == 1 and "its rules are not applied" in warnings[0][1]


def test_the_steps_a_cascade_takes_are_kept_for_the_build():
    """A document's cascade counts its steps (rules tried on elements, declarations applied),
    and its drawing carries them, so a build can bound what its documents take together."""
    rules = "".join(f"rect.c{n}, g rect {{ fill: red }}\n" for n in range(20))
    rects = '<rect width="1" height="1"/>' * 10
    text = f'<svg xmlns="http://www.w3.org/2000/svg"><style>{rules}</style><g>{rects}</g></svg>'
    steps = cascade(etree.fromstring(text.encode()), lambda *w: pytest.fail(str(w))).steps
    assert 200 <= steps < css.MAX_SELECTOR_STEPS  # 20 "g rect" rules on 10 rects at least
    assert compile_svg(etree.fromstring(text.encode())).css_steps == steps
    plain = '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>'
    assert compile_svg(etree.fromstring(plain.encode())).css_steps == 0
