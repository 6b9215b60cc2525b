"""One game's art made on every core: a forked worker plans the game as the build does but
makes only every n-th design's art, and hands back what it made, for the build to take."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.art.layers import TemplateFaces
from generator.art.store import Art, ArtStore
from generator.errors import SpecError, SpecFailure
from generator.layout.pack import Pack
from generator.model.designs import designs
from generator.model.loader import Game
from generator.model.sizes import paper_sizes
from generator.options import PrintOptions
from generator.plan import parallel
from generator.plan.components import plan_component
from generator.plan.planner import Made, Planner
from generator.svg.compiler import Drawer

SHARED_DESIGNS = 48  # designs a game needs before its art is made on several cores (PNP_JOBS)
# ... unless PNP_JOBS asks for cores: a worker plans the whole game again and sends its art
# back, ~25% more CPU in all, so it is forked only where it saves seconds of waiting
SHARED_DESIGNS_UNASKED = 2000


@dataclass
class Share:
    """What a worker made of its share of a game's designs: the made art of each, by its
    place in the planner's order, the art itself (key, record, drawing, whether it reads
    files) and what its templates' faces share."""

    memo: dict[int, Made]
    arts: list[tuple[str, Art, Drawer, bool]]
    templates: dict[Path, TemplateFaces]


def made_on_all_cores(game: Game, paper_name: str, options: PrintOptions) -> list[Share]:
    """The art of a game with many designs, made in forked workers, each taking every n-th
    design (nothing when there is one core, or too little to be worth a fork's CPU)."""
    workers = parallel.cores()
    if workers < 2 or not parallel.can_fork():
        return []
    count = sum(len(designs(c, game.spec.colours)) for c in game.components)
    if count < (SHARED_DESIGNS if parallel.cores_asked() else SHARED_DESIGNS_UNASKED):
        return []
    shares = [(index, workers) for index in range(workers)]
    return parallel.map_forked(
        lambda share: _share(game, paper_name, options, share), shares, here=True
    )


def _share(game: Game, paper_name: str, options: PrintOptions, share: tuple[int, int]) -> Share:
    """Plan the game as ``plan_pack`` does, making only this worker's share of the art."""
    art = ArtStore(game.root, options.ink_saver, record=True)
    pack = Pack(game, paper_name, paper_sizes()[paper_name], art, options=options)
    planner = Planner(game, pack, share=share)
    for component in game.components:
        plan_component(planner, component)
    kept = {n: made for n, made in planner.memo.items() if made.error or art.portable(made.result)}
    return Share(kept, art.recorded(), art.layers.templates)


def take(pack: Pack, shares: list[Share]) -> dict[int, Made]:
    """Adopt the art the workers made into ``pack``; each design's made art, by its place.
    ``SpecFailure`` when the art together passes the build's budget (each worker counted
    its share alone)."""
    memo: dict[int, Made] = {}
    for share in shares:
        memo.update(share.memo)
        for art in share.arts:
            try:
                pack.art.adopt(*art)
            except SpecError as exc:
                raise SpecFailure([exc]) from None
        pack.art.layers.merge(share.templates)
    return memo
