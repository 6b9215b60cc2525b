"""The rules validator: what the specs generate against the counts the rulebook states."""

from __future__ import annotations

from dataclasses import dataclass

from generator.loader import Game
from generator.pieces import generated_counts

OK = "ok"
MISMATCH = "MISMATCH"
NOT_YET = "not yet specified"
NO_COUNT = "no rulebook count"


@dataclass(frozen=True)
class CountRow:
    """One line of the check table."""

    key: str
    expected: int | None
    generated: int | None
    status: str
    line: int | None = None


def check_counts(game: Game) -> list[CountRow]:
    """Compare ``expect:`` with what the specs generate, key by key."""
    generated = generated_counts(game)
    specified = {c.id for c in game.components}
    rows: list[CountRow] = []
    for key, expected in game.spec.expect.items():
        line = game.doc.line_of(("expect", key))
        if key.split("/")[0] not in specified:
            rows.append(CountRow(key, expected, None, NOT_YET, line))
            continue
        made = generated.get(key, 0)
        rows.append(CountRow(key, expected, made, OK if made == expected else MISMATCH, line))
    for component in game.components:
        if component.id not in game.spec.expect:
            rows.append(CountRow(component.id, None, generated[component.id], NO_COUNT))
    return rows


def mismatches(rows: list[CountRow]) -> list[CountRow]:
    """The rows that fail the check."""
    return [r for r in rows if r.status == MISMATCH]
