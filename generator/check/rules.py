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
    note: str = ""  # for a key that matches nothing: what exists instead


def check_counts(game: Game) -> list[CountRow]:
    """Compare ``expect:`` with what the specs generate, key by key."""
    generated = generated_counts(game)
    specified = {c.id for c in game.components}
    rows: list[CountRow] = []
    for key, expected in game.spec.expect.items():
        line = game.doc.line_of(("expect", key))
        if key.split("/")[0] not in specified:
            note = f"no component has the id '{key.split('/')[0]}' yet ({_listed(specified)})"
            rows.append(CountRow(key, expected, None, NOT_YET, line, note))
            continue
        made = generated.get(key, 0)
        status = OK if made == expected else MISMATCH
        rows.append(CountRow(key, expected, made, status, line, _no_such_kind(key, generated)))
    for component in game.components:
        if component.id not in game.spec.expect:
            rows.append(CountRow(component.id, None, generated[component.id], NO_COUNT))
    return rows


MAX_LISTED = 12  # names listed when an expect: key matches none of them


def _listed(names: set[str] | list[str]) -> str:
    """'the components: a, b, c' (the first few, then how many more)."""
    found = sorted(names)
    more = f" and {len(found) - MAX_LISTED} more" if len(found) > MAX_LISTED else ""
    return f"the components: {', '.join(found[:MAX_LISTED])}{more}" if found else "none yet"


def _no_such_kind(key: str, generated: Counter[str]) -> str:
    """For ``id/name`` that names no piece or group of the component: what it has."""
    component, _, part = key.partition("/")
    if not part or key in generated:
        return ""
    parts = sorted(k.partition("/")[2] for k in generated if k.startswith(f"{component}/"))
    more = f" and {len(parts) - MAX_LISTED} more" if len(parts) > MAX_LISTED else ""
    listing = ", ".join(parts[:MAX_LISTED]) + more if parts else "no named kinds"
    return f"no piece or group of '{component}' is called '{part}'; it has: {listing}"


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
