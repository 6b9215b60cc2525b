"""A component through its kind's step (``steps``), then what components share laid out
once every component is planned: the runs of card sheets and the counter sheets."""

from __future__ import annotations

from generator.errors import SpecError
from generator.layout.counters import PackingError, pack_counters
from generator.layout.grids import printable_box
from generator.layout.impose import ImpositionError, impose_cards
from generator.layout.pack import ComponentPlan
from generator.layout.sheets import Sheet, Space
from generator.model.designs import designs
from generator.model.loader import Component
from generator.model.sizes import sheet_geometry
from generator.plan.planner import COUNTERS, CardRun, Planner
from generator.plan.steps import step_for

MAX_PIECES = 20_000  # printed pieces per build: more would run for minutes


def plan_component(planner: Planner, component: Component) -> None:
    """A component's designs, art and sheets, by the steps of its kind."""
    spec = component.spec
    component_designs = designs(component, planner.game.spec.colours)
    planner.total += sum(d.count for d in component_designs)
    if planner.total > MAX_PIECES:
        line = component.doc.line_of((spec.entries_key,) if spec.entries_key else ())
        planner.errors.append(
            SpecError(
                component.path,
                line,
                f"the game asks for {planner.total:,} pieces so far; one build prints at most "
                f"{MAX_PIECES:,} (split the game, or lower the counts)",
            )
        )
        planner.total = -(10**12)  # report once
        return
    planner.pack.components.append(ComponentPlan(component, component_designs))
    if not planner.game.spec.colours:
        uncoloured = [i for i, e in enumerate(spec.entries) if getattr(e, "per_player", None)]
        for index in uncoloured:
            planner.error(
                component,
                (spec.entries_key, index, "per_player"),
                f"'{spec.entries[index].name}' is given per_player, but game.yaml "
                "lists no 'colours'; add the player colours there",
            )
        if uncoloured:
            return
    try:
        step_for(type(spec)).plan(planner, component, spec, component_designs)
    except SpecError as exc:
        planner.errors.append(exc)
    except ImpositionError as exc:
        planner.error(
            component, ("size",), f"{exc} ({planner.pack.paper_name}); choose a smaller size"
        )


def finish(planner: Planner) -> None:
    """Lay out what components share, once every component is planned: each size of card on
    its own run of sheets, where the first deck of that size stood, then the counters, first
    into the room the cards leave, the rest on counter sheets where the first counter stood;
    then the pack's body in that order."""
    spaces: list[Space] = []
    made: dict[object, list[Sheet]] = {}
    for run in [slot for slot in planner.slots if isinstance(slot, CardRun)]:
        try:
            made[run], room = impose_cards(
                run.pieces,
                planner.pack.paper,
                sheet_geometry(),
                planner.titles,
                planner.pack.options,
            )
        except ImpositionError as exc:
            first = next(c for c in planner.game.components if c.id == run.pieces[0].component)
            planner.error(
                first, ("size",), f"{exc} ({planner.pack.paper_name}); choose a smaller size"
            )
            continue
        spaces += room
    if planner.counters:
        try:
            made[COUNTERS] = pack_counters(
                planner.counters,
                spaces,
                planner.pack.paper,
                sheet_geometry(),
                planner.pack.options,
                planner.pack.words.text("counter_sheets"),
            )
        except PackingError as exc:
            first_id = planner.counters[0].pieces[0].component
            first = next(c for c in planner.game.components if c.id == first_id)
            planner.error(
                first, ("size",), f"{exc} ({planner.pack.paper_name}); choose a smaller size"
            )
    for slot in planner.slots:
        if isinstance(slot, list):
            planner.pack.body.extend(slot)
        else:
            planner.pack.body.extend(made.get(slot, []))
    area = printable_box(planner.pack.paper, sheet_geometry())
    for sheet in planner.pack.body:
        if sheet.front.placements and not sheet.front.area:
            sheet.front.area = (area[2] - area[0]) * (area[3] - area[1])
