"""CFF glyph programs run under a counter before they are drawn.

A CFF (PostScript-outline) glyph is a program: it calls subroutines, which call others, and
fontTools runs them as they say when it draws the glyph. A subroutine calling itself ends in
a ``RecursionError``, an index past the end of the list in an ``IndexError`` (or, negative,
in another subroutine), a fan of calls (each calling the next ten times, ten deep) in a run of
10^10 steps. ``check_cff`` runs every glyph once with fontTools' own decompiler (the one its
drawing extends, so the calls are those the drawing will make) under a counter: the tokens
run, the depth of calls and each call's index bounded, and an accented glyph (``seac``) may
not be made of accented glyphs (the loop of components it could make).
"""

from __future__ import annotations

import io
from typing import Any

from fontTools.cffLib import CFFFontSet
from fontTools.encodings.StandardEncoding import StandardEncoding
from fontTools.misc.psCharStrings import SimpleT2Decompiler

from generator.limits import MAX_CFF_OPERATIONS, MAX_GLYPH_OPERATIONS, MAX_SUBR_DEPTH
from generator.model.fonterrors import FontFileError


def check_cff(table: bytes) -> None:
    """``FontFileError`` unless every glyph program of the CFF table runs within the limits:
    its tokens counted (subroutines each time called), its calls nested at most
    ``MAX_SUBR_DEPTH`` deep, each to a subroutine that exists."""
    try:
        fonts = CFFFontSet()
        fonts.decompile(io.BytesIO(table), None, isCFF2=False)
        charstrings = fonts[fonts.fontNames[0]].CharStrings
        names = list(charstrings.keys())
    except FontFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged table raises anything in fontTools
        raise FontFileError(f"has a damaged CFF table ({type(exc).__name__})") from None
    counter = Counter()
    accents: dict[str, tuple[str, str]] = {}
    for name in names:
        counter.glyph(name)
        try:
            program = charstrings[name]
            runner = CountedDecompiler(program, counter)
            runner.execute(program)
        except FontFileError:
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged program raises anything
            raise FontFileError(
                f"has a damaged glyph program (CFF glyph '{name}': {type(exc).__name__})"
            ) from None
        if runner.accent:
            accents[name] = runner.accent
    _check_accents(accents, set(names))


class Counter:
    """The tokens run so far: by the glyph being run, and by all glyphs of the font."""

    def __init__(self) -> None:
        self.total = 0
        self.here = 0
        self.name = ""

    def glyph(self, name: str) -> None:
        """Start counting a glyph of its own."""
        self.name, self.here = name, 0

    def spend(self, tokens: int) -> None:
        """Count ``tokens`` more; ``FontFileError`` past either limit."""
        self.here += tokens
        self.total += tokens
        if self.here > MAX_GLYPH_OPERATIONS or self.total > MAX_CFF_OPERATIONS:
            limit = MAX_GLYPH_OPERATIONS if self.here > MAX_GLYPH_OPERATIONS else None
            said = (
                f"glyph '{self.name}' runs more than {MAX_GLYPH_OPERATIONS:,} operations"
                if limit
                else f"its glyphs run more than {MAX_CFF_OPERATIONS:,} operations in all"
            )
            raise FontFileError(
                f"has glyph programs (CFF) that never end: {said} (subroutines calling each "
                "other in a fan); the file is damaged or made to hang: use another font"
            )


class CountedDecompiler(SimpleT2Decompiler):  # type: ignore[misc]
    """fontTools' Type 2 decompiler, each program's tokens counted before it runs, calls
    bounded in depth and checked in index, an accent (``seac``) noted."""

    def __init__(self, program: Any, counter: Counter) -> None:
        private = program.private
        super().__init__(getattr(private, "Subrs", []), program.globalSubrs, private)
        self.counter = counter
        self.accent: tuple[str, str] | None = None

    def execute(self, charString: Any, **kwargs: Any) -> None:  # noqa: N803 - fontTools' name
        """Run one program (a glyph or a subroutine), counted and bounded in depth."""
        if len(self.callingStack) > MAX_SUBR_DEPTH:
            raise FontFileError(
                f"has a glyph program (CFF glyph '{self.counter.name}') calling subroutines "
                f"more than {MAX_SUBR_DEPTH} deep (a subroutine calling itself); the file is "
                "damaged: use another font"
            )
        code = charString.bytecode
        self.counter.spend(len(code) if code is not None else len(charString.program))
        super().execute(charString, **kwargs)

    def op_callsubr(self, index: int) -> None:
        """Call a local subroutine that exists."""
        self._exists(self.localSubrs, self.localBias, "local")
        super().op_callsubr(index)

    def op_callgsubr(self, index: int) -> None:
        """Call a global subroutine that exists."""
        self._exists(self.globalSubrs, self.globalBias, "global")
        super().op_callgsubr(index)

    def _exists(self, subrs: Any, bias: int, kind: str) -> None:
        """``FontFileError`` unless the operand on top names one of ``subrs``."""
        number = self.operandStack[-1] if self.operandStack else None
        if not isinstance(number, int) or not 0 <= number + bias < len(subrs):
            called = f"{number + bias:,}" if isinstance(number, int) else "an unknown one"
            raise FontFileError(
                f"has a glyph program (CFF glyph '{self.counter.name}') calling {kind} "
                f"subroutine {called} of {len(subrs):,} (past the end of the list); the file "
                "is damaged: use another font"
            )

    def op_endchar(self, index: int) -> None:
        """The end of a glyph, which may make it an accented one (``seac``: base and accent
        by their standard code, from the last four operands)."""
        operands = self.popall()
        if len(operands) >= 4:
            base, accent = operands[-2], operands[-1]
            self.accent = (_standard(base, self.counter.name), _standard(accent, self.counter.name))


def _standard(code: Any, glyph: str) -> str:
    """The glyph name of a standard code, as ``seac`` names its parts."""
    if not isinstance(code, int) or not 0 < code < len(StandardEncoding):
        raise FontFileError(
            f"has an accented glyph (CFF glyph '{glyph}') made of an unknown glyph; the file is "
            "damaged: use another font"
        )
    return str(StandardEncoding[code])


def _check_accents(accents: dict[str, tuple[str, str]], names: set[str]) -> None:
    """``FontFileError`` when an accented glyph's parts are missing or accented themselves."""
    for glyph, parts in accents.items():
        for part in parts:
            if part not in names or part in accents:
                raise FontFileError(
                    f"has an accented glyph (CFF glyph '{glyph}') made of '{part}', which the "
                    "font lacks or which is accented itself; the file is damaged: use another "
                    "font"
                )
