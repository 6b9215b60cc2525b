"""Where pieces stand: each component's ``stands_on`` checked against the game's boards when
the game loads (the board exists, every place it names is on it, the pieces it names are the
component's), so the fit check (``check.fit``) only ever measures places that exist."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from generator.model.component import ComponentBase
from generator.model.kinds.board import BoardSpec
from generator.model.yamlsource import YamlDoc

SHOWN = 8  # names listed in a message


class Loaded(Protocol):
    """A component as loaded: its id, spec and document."""

    @property
    def id(self) -> str: ...

    @property
    def spec(self) -> ComponentBase: ...

    @property
    def doc(self) -> YamlDoc: ...


def _listed(names: Sequence[str]) -> str:
    shown = ", ".join(names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "") or "none"


def stand_problems(
    components: Sequence[Loaded], unloaded: frozenset[str] = frozenset()
) -> list[tuple[Loaded, tuple, str]]:
    """Every mistake in the components' ``stands_on``: (component, where in its spec, what);
    a board among ``unloaded`` (a spec whose own errors are said) is not missing."""
    boards = {c.id: c.spec for c in components if isinstance(c.spec, BoardSpec)}
    out: list[tuple[Loaded, tuple, str]] = []
    for component in components:
        spec = component.spec
        entries = [e.name for e in spec.entries]
        for index, stand in enumerate(spec.stands_on):
            loc = ("stands_on", index)
            board = boards.get(stand.board)
            if board is None and stand.board in unloaded:
                continue
            if board is None:
                message = (
                    f"stands_on: no board '{stand.board}' in this game (its boards: "
                    f"{_listed(sorted(boards))}); name a component of kind board"
                )
                out.append((component, (*loc, "board"), message))
                continue
            for number, ref in enumerate(stand.places):
                if not board.resolve(ref):
                    message = (
                        f"stands_on: board '{stand.board}' has no place '{ref}' (its rows, "
                        f"tracks and groups: {_listed(_collections(board))}; its places: "
                        f"{_listed(board.names())})"
                    )
                    out.append((component, (*loc, "places", number), message))
            for number, name in enumerate(stand.pieces or []):
                if name not in entries:
                    message = (
                        f"stands_on: '{name}' is not one of this component's pieces "
                        f"({_listed(entries)})"
                    )
                    out.append((component, (*loc, "pieces", number), message))
            if spec.standing(stand) is None:
                message = "stands_on: a reference sheet does not stand on a board"
                out.append((component, loc, message))
    return out


def _collections(board: BoardSpec) -> list[str]:
    """The names that stand for several places: rows, tracks, grids and groups."""
    return [
        *(r.name for r in board.rows),
        *(t.name for t in board.tracks),
        *(g.prefix for g in board.grids),
        *(g.name for g in board.groups),
    ]


def stood_on(components: Sequence[Loaded], board: str, spec: BoardSpec) -> set[str]:
    """The places of board ``board`` that some component's pieces stand on."""
    return {
        name
        for other in components
        for stand in other.spec.stands_on
        if stand.board == board
        for ref in stand.places
        for name in spec.resolve(ref)
    }
