"""Rows of a card list that share a title: each gets an id of its own ('storm', 'storm-2'),
which is right for two different cards and wrong for one card written twice, so it is said at
the second row with both fixes."""

from __future__ import annotations

from typing import Any

from generator.model.columns import Notice

MAX_SAID = 20  # titles said before the rest are left for the next run


def same_titles(table: Any, noun: str) -> list[Notice]:
    """A warning at each row whose title an earlier row has, when the ids come from the
    titles (no name column): which row it repeats, the ids each got, and what to do."""
    if table is None or "name" in table.columns:
        return []
    first: dict[str, int] = {}
    notices: list[Notice] = []
    for index, row in enumerate(table.rows):
        title = row.get("title")
        if not isinstance(title, str) or not title.strip():
            continue
        key = " ".join(title.split()).casefold()
        if key not in first:
            first[key] = index
            continue
        earlier = table.rows[first[key]]
        at, line = table.lines.get((first[key],)), table.lines.get((index,))
        notices.append(
            (
                table.path,
                line,
                f"a second {noun} titled '{title}' (as row {at}): it gets the id "
                f"'{row.get('name')}' beside '{earlier.get('name')}'; if it is the same {noun}, "
                f"delete this row and give row {at} the count of both; if it is another "
                f"{noun}, give it a title of its own or add a 'name' column with an id for each",
            )
        )
        if len(notices) == MAX_SAID:
            break
    return notices
