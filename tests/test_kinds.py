"""A component kind has one home: its model in ``generator/model/kinds/<kind>.py`` says what
it is (noun, entries, export decision), its plan step in ``generator/plan/steps/<kind>.py``,
a page in ``docs/kinds/<kind>.md`` and a component in the sample game whose pictures the docs
show. Adding a kind without any of them fails here."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
import yaml

from generator.model.kinds import COMPONENT_KINDS, ENTRY_LISTS, MODELS, kind_of, module_name
from generator.output.ttspieces import MAKERS
from generator.plan.steps import step_for

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "docs" / "stock-templates"
KINDS = [kind_of(model) for model in MODELS]


@pytest.mark.parametrize("kind", KINDS)
def test_a_kind_is_a_model_and_a_step_found_by_its_name(kind: str):
    model = COMPONENT_KINDS[kind]
    module = importlib.import_module(f"generator.model.kinds.{module_name(kind)}")
    assert vars(module).get(model.__name__) is model, f"{model.__name__} is not in its module"
    assert step_for(model).model is model
    step = importlib.import_module(f"generator.plan.steps.{module_name(kind)}")
    assert step.STEP is step_for(model)


@pytest.mark.parametrize("kind", KINDS)
def test_a_kind_states_what_it_is_and_whether_shops_get_it(kind: str):
    model = COMPONENT_KINDS[kind]
    for fact in ("noun", "shop"):
        assert fact in vars(model), f"kind {kind} does not state its {fact}"
    if model.entries_key:
        assert model.entries_key in model.model_fields and model.entries_key in ENTRY_LISTS


@pytest.mark.parametrize("kind", KINDS)
def test_a_kind_has_a_docs_page_and_a_sample_in_the_pictured_game(kind: str):
    page = REPO / "docs" / "kinds" / f"{module_name(kind)}.md"
    assert page.is_file(), f"no docs page {page.relative_to(REPO)}"
    assert f"kind: {kind}" in page.read_text(encoding="utf-8")
    sampled = {
        yaml.safe_load(p.read_text(encoding="utf-8")).get("kind") for p in SAMPLE.glob("*.yaml")
    }
    assert kind in sampled, f"the sample game {SAMPLE.relative_to(REPO)} has no {kind}"


def test_every_kind_module_is_a_kind():
    """A module in model/kinds/ or plan/steps/ that no kind uses is a kind half added."""
    modules = {module_name(kind) for kind in KINDS}
    for package in ("model/kinds", "plan/steps"):
        found = {p.stem for p in (REPO / "generator" / package).glob("*.py")} - {"__init__"}
        assert found == modules, (package, found ^ modules)


@pytest.mark.parametrize("kind", KINDS)
def test_a_kind_reaches_shops_and_tabletop_simulator_or_says_why_not(kind: str):
    """The exports' lists of kinds are held to the models: a kind shops do not get says why;
    Tabletop Simulator gets a deck (its cards) or a kind it has a maker for (through the shop
    pages, so only a kind shops get), or the kind says why it does not."""
    model = COMPONENT_KINDS[kind]
    if not model.shop:
        assert model.shop_note, f"kind {kind} does not say why shops do not get it"
    reaches = model.shop and (model.noun == "card" or model.noun in MAKERS)
    assert reaches or model.tts_note, f"kind {kind} is left out of TTS without a word"
    assert not (reaches and model.tts_note), f"kind {kind} reaches TTS but says it does not"
