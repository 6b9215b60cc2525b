"""The kinds of component, one module each, named after the kind (``kind: token-pages`` is
``token_pages``): its model and what it states about itself. ``COMPONENT_KINDS`` is every
kind, in the order messages list them; the other stages find a kind's parts by its name (its
plan step in ``generator.plan.steps``, its stock picture and docs page)."""

from __future__ import annotations

from typing import get_args

from generator.model.component import ComponentBase
from generator.model.kinds.board import BoardSpec
from generator.model.kinds.box import BoxSpec
from generator.model.kinds.deck import DeckSpec
from generator.model.kinds.dice import DiceSpec
from generator.model.kinds.pad import PadSpec
from generator.model.kinds.sheet import SheetSpec
from generator.model.kinds.standees import StandeeSpec
from generator.model.kinds.token_pages import TokenPagesSpec
from generator.model.kinds.tokens import TokenSpec

MODELS: tuple[type[ComponentBase], ...] = (
    DeckSpec,
    TokenSpec,
    DiceSpec,
    TokenPagesSpec,
    BoardSpec,
    SheetSpec,
    StandeeSpec,
    PadSpec,
    BoxSpec,
)


def kind_of(model: type[ComponentBase]) -> str:
    """The ``kind:`` a model is chosen by: the value its ``kind`` field allows."""
    (kind,) = get_args(model.model_fields["kind"].annotation)
    return str(kind)


def module_name(kind: str) -> str:
    """The module a kind's parts live in, in every stage: ``token-pages`` → ``token_pages``."""
    return kind.replace("-", "_")


COMPONENT_KINDS: dict[str, type[ComponentBase]] = {kind_of(m): m for m in MODELS}
ComponentSpec = (
    DeckSpec
    | TokenSpec
    | DiceSpec
    | TokenPagesSpec
    | BoardSpec
    | SheetSpec
    | StandeeSpec
    | PadSpec
    | BoxSpec
)
# the keys whose entries may come from a data file and offer their fields to translators
ENTRY_LISTS = frozenset(m.entries_key for m in MODELS if m.entries_key)
