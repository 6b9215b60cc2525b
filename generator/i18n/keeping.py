"""What a translation must keep of its source: the icon codes (``:coin:``), the markup
(``**bold**``, ``*italic*``), the ``{placeholders}`` the engine fills in and the line
structure. Each difference is said in a few words, for a message at the catalog's line."""

from __future__ import annotations

import re
from collections import Counter

ICON = re.compile(r":[a-z0-9][a-z0-9-]*:")
PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)\}")
BOLD = re.compile(r"\*\*")
ITALIC = re.compile(r"(?<!\*)\*(?!\*)")


def differences(source: str, translation: str) -> list[str]:
    """What ``translation`` lost, changed or invented of what ``source`` must keep (empty
    when it keeps everything)."""
    return [
        *_icons(source, translation),
        *_placeholders(source, translation),
        *_markup(source, translation),
        *_lines(source, translation),
    ]


def _icons(source: str, translation: str) -> list[str]:
    """Icon codes: each as often as in the source, none the source does not have."""
    want, have = Counter(ICON.findall(source)), Counter(ICON.findall(translation))
    out = []
    for code, count in want.items():
        if have[code] < count:
            times = f" ({count} in the source, {have[code]} here)" if count > 1 else ""
            out.append(f"`{code}` is missing{times}")
        elif have[code] > count:
            out.append(f"`{code}` is there {have[code]} times, {count} in the source")
    for code in have.keys() - want.keys():
        known = ", ".join(f"`{c}`" for c in want) or "none"
        out.append(f"unknown icon `{code}` (the source's icons: {known})")
    return out


def _placeholders(source: str, translation: str) -> list[str]:
    """Placeholders: the same names, none lost, none renamed, none invented."""
    want, have = set(PLACEHOLDER.findall(source)), set(PLACEHOLDER.findall(translation))
    lost, new = sorted(want - have), sorted(have - want)
    out = []
    for old, renamed in zip(lost, new, strict=False):
        out.append(f"placeholder `{{{old}}}` renamed `{{{renamed}}}`; keep the source's name")
    out += [f"placeholder `{{{name}}}` is missing" for name in lost[len(new) :]]
    out += [f"unknown placeholder `{{{name}}}`" for name in new[len(lost) :]]
    return out


def _markup(source: str, translation: str) -> list[str]:
    """Bold and italic markers: closed, and as many as in the source."""
    out = []
    for pattern, name in ((BOLD, "**"), (ITALIC, "*")):
        want, have = len(pattern.findall(source)), len(pattern.findall(translation))
        if have % 2 and not want % 2:
            out.append(f"a closing `{name}` is missing")
        elif want != have:
            style = "bold" if name == "**" else "italic"
            out.append(
                f"the source has {want // 2} {style} part(s) (`{name}…{name}`), "
                f"the translation {have // 2}"
            )
    return out


def _lines(source: str, translation: str) -> list[str]:
    """The line structure: as many lines (the templates place lines one by one)."""
    want, have = source.count("\n") + 1, translation.count("\n") + 1
    if want == have:
        return []
    return [f"the source has {want} line(s), the translation {have}; keep the line breaks"]
