"""One game's build, stage by stage: designs → SVG art → sheets → PDF and manifest.

``plan_pack`` does everything but writing (so errors surface before a file is touched);
``write_pack`` writes the PDF and manifest atomically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator import inventory, manifest, pdf
from generator.atomic import replacing_all, sweep_stale
from generator.errors import SpecError, SpecFailure, display_path
from generator.impose import Sheet, impose_cards
from generator.loader import Component, Game
from generator.pieces import CardDesign, Piece, designs
from generator.render import TemplateRenderer
from generator.sizes import paper_sizes, sheet_geometry
from generator.svgart import ArtStore


@dataclass
class ComponentPlan:
    """A component's designs and the sheets its pieces were imposed on."""

    component: Component
    designs: list[CardDesign]
    sheets: list[Sheet]
    first_page: int = 0

    @property
    def count(self) -> int:
        return sum(d.count for d in self.designs)

    @property
    def last_page(self) -> int:
        return self.first_page + len(self.sheets) - 1


@dataclass
class Pack:
    """Everything a print pack holds, laid out and numbered, ready to write."""

    game: Game
    paper_name: str
    paper: tuple[float, float]
    art: ArtStore
    components: list[ComponentPlan] = field(default_factory=list)
    inventory_pages: int = 1

    @property
    def page_count(self) -> int:
        return self.inventory_pages + sum(len(c.sheets) for c in self.components)


def plan_pack(game: Game, paper_name: str) -> Pack:
    """Render every design and impose every piece; raise ``SpecFailure`` listing all errors."""
    paper = paper_sizes()[paper_name]
    pack = Pack(game, paper_name, paper, ArtStore(game.root))
    renderer = TemplateRenderer(game)
    errors: list[SpecError] = []
    for component in game.components:
        try:
            pack.components.append(_plan_component(component, pack, renderer, errors))
        except ValueError as exc:
            line = component.doc.line_of(("size",))
            errors.append(SpecError(component.path, line, f"{exc}; choose a smaller size"))
    if errors:
        raise SpecFailure(list(dict.fromkeys(errors)))
    pack.inventory_pages = inventory.page_count(pack)
    page = pack.inventory_pages + 1
    for plan in pack.components:
        plan.first_page = page
        page += len(plan.sheets)
    return pack


def _plan_component(
    component: Component, pack: Pack, renderer: TemplateRenderer, errors: list[SpecError]
) -> ComponentPlan:
    spec = component.spec
    pieces: list[Piece] = []
    deck_designs = designs(component)
    for design in deck_designs:
        try:
            face = _art(pack, renderer, design, "face")
            back = _art(pack, renderer, design, "back") if spec.back else None
        except SpecError as exc:
            errors.append(exc)
            continue
        for copy in range(1, design.count + 1):
            pieces.append(
                Piece(
                    component.id,
                    "card",
                    design.name,
                    copy,
                    spec.size.w,
                    spec.size.h,
                    spec.bleed,
                    face,
                    back,
                )
            )
    sheets = impose_cards(component.id, pieces, pack.paper, sheet_geometry()) if pieces else []
    return ComponentPlan(component, deck_designs, sheets)


def _art(pack: Pack, renderer: TemplateRenderer, design: CardDesign, side: str) -> str:
    svg = renderer.render_card(design, side)
    name = design.component.spec.face if side == "face" else design.component.spec.back
    source = next((d / name for d in pack.game.template_dirs() if (d / name).is_file()), Path(name))
    where = f"{side} of card '{design.name}', {display_path(design.component.path)}:{design.line}"
    return pack.art.add(svg, source, where)


@dataclass(frozen=True)
class Built:
    """What a build wrote."""

    pdf: Path
    manifest: Path
    pages: int


def write_pack(pack: Pack, out_dir: Path) -> Built:
    """Write ``<out>/<game>/<game>.pdf`` and ``manifest.json``, each atomically."""
    folder = out_dir / pack.game.name
    sweep_stale(folder)
    pdf_path = folder / f"{pack.game.name}.pdf"
    manifest_path = folder / "manifest.json"
    with replacing_all([pdf_path, manifest_path]) as (tmp_pdf, tmp_manifest):
        pdf.write(pack, tmp_pdf)
        manifest.write(pack, tmp_manifest)
    return Built(pdf_path, manifest_path, pack.page_count)
