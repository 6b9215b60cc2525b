"""reportlab's two hottest helpers, giving the same bytes for less CPU: every PDF the engine
writes formats its numbers with ``fp_str`` and encodes its strings with ``pdfdocEnc``, both
pure Python in reportlab 4 (its C accelerators are a separate package). Installed into the
reportlab modules that write pages by ``install`` (``svg.canvas`` calls it as it is imported);
``tests/test_reportlab_internals.py`` holds each to reportlab's own on every kind of input."""

from __future__ import annotations

import re
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
