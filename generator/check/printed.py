"""What the checks of printed text share: where a finding is (the spec and line, component,
piece and side), the text and its size, and the count of the pieces and texts like it that
one finding stands for. Legibility and contrast both derive their findings from it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, replace
from pathlib import Path
from typing import Generic, TypeVar

SHORT = 40  # characters of a text a message quotes before it cuts it short


@dataclass(frozen=True)
class PrintedText:
    """A text a pack prints that a check finds wrong: where it comes from (the spec and line
    of its piece, or of the text itself), on which piece and side, what it says and its size
    in points, and the other pieces and texts of its component it stands for."""

    path: Path
    line: int | None
    component: str
    piece: str
    side: str
    text: str
    size: float
    _: KW_ONLY
    others: tuple[str, ...] = ()  # other pieces of the component with this finding
    texts: int = 1  # how many different texts they print

    @property
    def more(self) -> int:
        """How many other pieces print it."""
        return len(self.others)

    def subject(self, side: str) -> str:
        """ "cards 'cocoa' and 3 more (front): 2 texts (such as 'Trade')": what a message says
        the finding is on (``side``: the side as the message names it)."""
        what = f"'{short(self.text)}'"
        if self.texts > 1:
            what = f"{self.texts} texts (such as {what})"
        return f"{pieces(self.component, self.piece, self.more)} ({side}): {what}"


def pieces(component: str, piece: str, more: int) -> str:
    """ "cards 'cocoa' and 3 more": the pieces a finding is on, as every message names them."""
    return f"{component} '{piece}'" + (f" and {more} more" if more else "")


def short(text: str) -> str:
    """``text``, cut to ``SHORT`` characters with '...' if it is longer."""
    return text if len(text) <= SHORT else text[: SHORT - 3] + "..."


Found = TypeVar("Found", bound=PrintedText)


class Tally(Generic[Found]):
    """Findings counted once per key: the first found, then each other piece and text that
    shares its key counted in it (the longest text kept, as it says most)."""

    def __init__(self) -> None:
        self.found: dict[tuple, Found] = {}
        self._seen: dict[tuple, tuple[set[str], set[str]]] = {}  # its pieces and texts

    def add(self, key: tuple, piece: str, text: str, make: Callable[[], Found]) -> None:
        """Count ``text`` on ``piece`` under ``key``: the first of its key (made by ``make``,
        called only then), or one more piece or text."""
        first = self.found.get(key)
        if first is None:
            self.found[key] = make()
            self._seen[key] = ({piece}, {text})
            return
        pieces, texts = self._seen[key]
        if piece not in pieces:
            pieces.add(piece)
            first = replace(first, others=(*first.others, piece))
        if text not in texts:
            texts.add(text)
            first = replace(first, texts=first.texts + 1)
            if len(text) > len(first.text):
                first = replace(first, text=text)
        self.found[key] = first
