"""One game's build, stage by stage: designs → SVG art → sheets → numbered pages, ready for
``output.write`` to write as PDF and manifest.

``plan_pack`` does everything but writing, so errors surface before a file is touched. Decks
get sheets of their own; all tokens, dice and standees of a game share counter sheets; token
pages are whole pages of their own (the steps of each kind are in ``steps``).
"""

from __future__ import annotations

from generator.art.store import ArtStore
from generator.art.templates import TemplateRenderer
from generator.errors import SpecFailure, said_once
from generator.layout.pack import Pack
from generator.model.loader import Game
from generator.model.sizes import paper_sizes
from generator.options import DEFAULT_OPTIONS, PrintOptions
from generator.output import inventory
from generator.plan import components, shares
from generator.plan.numbering import number
from generator.plan.planner import Planner
from generator.svg.fonts import register_game_fonts


def plan_pack(
    game: Game,
    paper_name: str,
    options: PrintOptions = DEFAULT_OPTIONS,
    renderer: TemplateRenderer | None = None,
) -> Pack:
    """Render every design and impose every piece; raise ``SpecFailure`` listing all errors.

    A game with many designs has their art made on every core first (see ``shares``); the
    plan below then takes each design's art from there, so it only imposes and numbers.
    Given a ``renderer`` (``pnp serve``'s, which remembers what it drew), every design is
    rendered by it, in this process."""
    paper = paper_sizes()[paper_name]
    fonts = game.spec.fonts  # those refused at loading are not in game.fonts: never opened
    register_game_fonts(
        [(fonts[i].family, fonts[i].weight, fonts[i].style, font) for i, font in game.fonts.items()]
    )
    made = shares.made_on_all_cores(game, paper_name, options) if renderer is None else []
    pack = Pack(game, paper_name, paper, ArtStore(game.root, options.ink_saver), options=options)
    planner = Planner(game, pack, memo=shares.take(pack, made), renderer=renderer)
    for component in game.components:
        components.plan_component(planner, component)
    components.finish(planner)
    pack.overflows.extend(planner.renderer.overflows)
    if planner.errors:
        raise SpecFailure(said_once(list(dict.fromkeys(planner.errors))))
    pack.art.split_layers()
    number(pack)
    pack.overflows.extend(inventory.split_words(pack))
    return pack
