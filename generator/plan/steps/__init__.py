"""Each kind's plan step, in a module named after the kind (``model.kinds.module_name``):
how its designs become pieces on sheets. ``step_for`` finds a component's step by its model,
importing only the kinds a game has (a card game loads no board or pad code)."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Any

from generator.model.component import ComponentBase
from generator.model.kinds import kind_of, module_name
from generator.plan.planner import Step


@cache
def step_for(model: type[ComponentBase]) -> Step[Any]:
    """The step in the module named after the model's kind; it must be for that model."""
    step = import_module(f"{__name__}.{module_name(kind_of(model))}").STEP
    if not isinstance(step, Step):
        raise TypeError(f"the STEP of kind {kind_of(model)} is not a Step")
    if step.model is not model:
        raise TypeError(f"the step of kind {kind_of(model)} is for {step.model.__name__}")
    return step
