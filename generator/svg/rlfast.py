"""reportlab's two hottest helpers, giving the same bytes for less CPU: every PDF the engine
writes formats its numbers with ``fp_str`` and encodes its strings with ``pdfdocEnc``, both
pure Python in reportlab 4 (its C accelerators are a separate package). Installed into the
reportlab modules that write pages by ``install`` (``svg.canvas`` calls it as it is imported);
``tests/test_reportlab_internals.py`` holds each to reportlab's own on every kind of input.

Beside them, ``defer_paragraph_pattern``: the URL pattern reportlab's paragraph module compiles
as it is imported, compiled instead when a paragraph first breaks a URL."""

from __future__ import annotations

import re
import sys
from typing import Any

from reportlab.lib import colors, rl_accel
from reportlab.lib.utils import isSeq
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen import canvas, pathobject, textobject

NUMBERS_KEPT = 65536  # numbers kept formatted (a pack's pages repeat their positions); then anew
_REPORTLAB_FP_STR = rl_accel.fp_str
_REPORTLAB_PDFDOC = pdfdoc.pdfdocEnc
_NOT_PDFDOC = re.compile("[\x18-\x1f]")  # ASCII that PDFDocEncoding gives other characters
_FORMATTED: dict[float, str] = {}


def fp_str(*numbers: Any) -> str:
    """reportlab's numbers for a content stream, each formatted once by reportlab's own
    ``fp_str`` and then looked up: the same transforms, positions and sizes recur on every
    page, and reportlab formats each number through a logarithm and a loop in Python."""
    if len(numbers) == 1 and isSeq(numbers[0]):
        numbers = numbers[0]
    out = []
    for number in numbers:
        try:
            text = _FORMATTED.get(number)
        except TypeError:  # a value that cannot be a key: formatted as reportlab would
            out.append(_REPORTLAB_FP_STR(number))
            continue
        if text is None:
            if len(_FORMATTED) >= NUMBERS_KEPT:
                _FORMATTED.clear()
            text = _FORMATTED[number] = _REPORTLAB_FP_STR(number)
        out.append(text)
    return " ".join(out)


def pdfdoc_encoded(text: Any) -> Any:
    """reportlab's PDFDocEncoding of a document's strings (its pages' streams among them),
    ASCII written as ASCII: reportlab's codec maps each character through a dict, ~18 ns a
    character, and a page's stream is ASCII numbers and operators."""
    if isinstance(text, str) and text.isascii() and not _NOT_PDFDOC.search(text):
        return text.encode("ascii")
    return _REPORTLAB_PDFDOC(text)


def install() -> None:
    """Put both in place in the modules that write a document's pages."""
    for module in (canvas, pathobject, textobject, pdfdoc, colors):
        module.fp_str = fp_str
    pdfdoc.pdfdocEnc = pdfdoc_encoded


# reportlab.platypus.paragraph's ``uri_pat``, as it compiles it (with re.IGNORECASE)
PARAGRAPH_URI = (
    "(^(?:[a-z0-9\\.\\-\\+]*)://)(?:\\S+(?::\\S*)?@)?(?:(?:25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)"
    "(?:\\.(?:25[0-5]|2[0-4]\\d|[0-1]?\\d?\\d)){3}|\\[[0-9a-f:\\.]+\\]|([a-z\xa1-\uffff0-9]"
    "(?:[a-z\xa1-\uffff0-9-]{0,61}[a-z\xa1-\uffff0-9])?(?:\\.(?!-)[a-z\xa1-\uffff0-9-]{1,63}(?<!-))*"
    "\\.(?!-)(?:[a-z\xa1-\uffff-]{2,63}|xn--[a-z0-9]{1,59})(?<!-)\\.?|localhost))"
    "(?::\\d{2,5})?(?:[/?#][^\\s]*)?\\Z"
)
RE_CACHES = ("_cache", "_cache2")  # where re keeps compiled patterns (3.11; 3.12 adds _cache2)


class DeferredPattern:
    """A regular expression that compiles itself the first time it is needed: a stand-in
    for one a module compiles as it is imported and seldom uses. ``needs``: a text the
    pattern cannot match without, so that ``match`` answers None to any other text
    without compiling."""

    def __init__(self, pattern: str, flags: int, needs: str = "") -> None:
        self.key = (str, pattern, flags)
        self.needs = needs
        self.compiled: re.Pattern[str] | None = None

    def match(self, text: str, *where: int) -> re.Match[str] | None:
        """``re.Pattern.match``; None at once for a text without ``needs``."""
        if self.needs not in text:
            return None
        return self.pattern_compiled().match(text, *where)

    def pattern_compiled(self) -> re.Pattern[str]:
        """The pattern, compiled now if it was not yet."""
        if self.compiled is None:
            for cache in (getattr(re, name, None) for name in RE_CACHES):
                if isinstance(cache, dict) and cache.get(self.key) is self:
                    del cache[self.key]  # so that re compiles the pattern itself
            self.compiled = re.compile(self.key[1], self.key[2])
        return self.compiled

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern_compiled(), name)


def defer_paragraph_pattern() -> None:
    """reportlab's paragraph module compiles ``PARAGRAPH_URI`` as it is imported: ~23 ms of
    every build (its character ranges over all of Unicode, case-folded), for breaking a URL
    too long for its line. Put in re's cache beforehand as a ``DeferredPattern``, it is
    compiled when a URL first needs breaking: a match needs ``://`` (the pattern's first
    group is a scheme and ``://``, from the start), and reportlab asks it of every word too
    long for its line. Nothing is done once that module is imported, or if re keeps no such
    cache (then it compiles as before)."""
    cache = getattr(re, RE_CACHES[0], None)  # re's, not reportlab's: a name of the standard library
    if "reportlab.platypus.paragraph" not in sys.modules and isinstance(cache, dict):
        flags = re.IGNORECASE.value
        cache[(str, PARAGRAPH_URI, flags)] = DeferredPattern(PARAGRAPH_URI, flags, "://")
