"""The rules validator: what the specs generate against the counts the rulebook states."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from generator.errors import ErrorList, display_path
from generator.model.designs import designs, generated_counts
from generator.model.game import Recipe
from generator.model.loader import Component, Game, load_game

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


def _expected_cards(recipe: Recipe) -> list[Counter[tuple[str, ...]]]:
    """The cards each line of a recipe asks for, as tuples of the identifying fields."""
    lines = []
    for line in recipe.cards:
        values = [[str(v) for v in line[f]] for f in recipe.identify]
        lines.append(Counter(itertools.product(*values)))
    return lines


def _as_written(game: Game) -> dict[str, Component]:
    """The game's components as the designer wrote them, in the source language: a recipe
    names the cards by what the specs say (``identify: [type, value]``), never by their
    translation, so that it passes in every language when it passes in the source one."""
    if game.language == game.spec.languages[0]:
        return {c.id: c for c in game.components}
    source = load_game(game.root, ErrorList(), None, partial=True)
    found = source.components if source is not None else game.components
    return {c.id: c for c in found}


def check_recipes(game: Game) -> list[str]:
    """Problems with the decks' compositions and setup piles, card by card."""
    problems: list[str] = []
    components = _as_written(game) if game.spec.recipes else {}
    for deck_id, recipe in game.spec.recipes.items():
        where = f"{display_path(game.doc.path)}:{game.doc.line_of(('recipes', deck_id))}"
        component = components.get(deck_id)
        if component is None:
            problems.append(f"{where}: recipe for '{deck_id}', which is not a component yet")
            continue
        made: Counter[tuple[str, ...]] = Counter()
        for design in designs(component, game.spec.colours):
            fields = design.fields()
            key = tuple(str(fields.get(f, "?")) for f in recipe.identify)
            made[key] += design.count
        lines = _expected_cards(recipe)
        wanted = sum(lines, Counter())
        label = "/".join(recipe.identify)
        for card, n in sorted((wanted - made).items()):
            problems.append(f"{where}: {deck_id}: missing {n} x {' '.join(card)} ({label})")
        for card, n in sorted((made - wanted).items()):
            problems.append(f"{where}: {deck_id}: {n} x {' '.join(card)} too many ({label})")
        if recipe.piles:
            split = sum(lines[recipe.piles_from].values())
            if sum(recipe.piles) != split:
                problems.append(
                    f"{where}: {deck_id}: the piles {recipe.piles} add up to {sum(recipe.piles)}, "
                    f"but recipe line {recipe.piles_from + 1} has {split} cards"
                )
    return problems
