"""The planner: what every kind of component shares on its way from designs to pieces on
sheets. It renders a design's sides (or takes them from what a worker made, see ``shares``),
stores their art, makes the printed copies and collects every error on the way.

The per-kind steps are in ``steps``, one module per kind; ``components`` runs a component
through its step; ``pipeline`` runs them over a game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from lxml import etree

from generator.art.richtext import Overflow
from generator.art.shapes import Shape
from generator.art.templates import TemplateRenderer, card_box, composed_svg, describe
from generator.errors import SpecError
from generator.layout.counters import Group, groups_of
from generator.layout.grids import printable_box
from generator.layout.pack import Pack
from generator.layout.pieces import Piece
from generator.layout.sheets import Sheet
from generator.model.component import ComponentBase
from generator.model.designs import Design
from generator.model.loader import Component, Game
from generator.model.sizes import sheet_geometry
from generator.svg.safexml import SAFE_PARSER

T = TypeVar("T")
S = TypeVar("S", bound=ComponentBase)
COUNTERS = "counters"  # the slot of the counter sheets in the pack's order


@dataclass(frozen=True)
class Step(Generic[S]):
    """A kind's plan step: ``plan(planner, component, spec, designs)`` puts the pieces of a
    component of ``model`` (its spec, typed) on the pack's sheets or in its shared runs."""

    model: type[S]
    plan: Callable[[Planner, Component, S, list[Design]], None]


class Sided(Protocol):
    """A spec whose designs are drawn by a face template and, if it has one, a back
    template, both with its bleed (a deck, tokens, token pages)."""

    @property
    def face(self) -> str: ...

    @property
    def back(self) -> str | None: ...

    @property
    def bleed(self) -> float: ...


@dataclass(eq=False)
class CardRun:
    """The cards of every deck of one size and bleed, laid out as one run of sheets where the
    first of those decks stands in the pack."""

    size: tuple[float, float, float, bool]  # trim w, h, bleed, and whether the cards butt
    pieces: list[Piece]


@dataclass(frozen=True)
class Made:
    """One design's art as a worker made it: its keys (or the error it gave) and the text
    that did not fit while it was drawn."""

    result: object
    error: SpecError | None
    overflows: tuple[Overflow, ...]


class Planner:
    """Turns components into art, pieces and sections of one pack, collecting every error."""

    def __init__(
        self,
        game: Game,
        pack: Pack,
        memo: dict[int, Made] | None = None,
        share: tuple[int, int] | None = None,
        renderer: TemplateRenderer | None = None,
    ):
        self.game = game
        self.pack = pack
        self.renderer = renderer or TemplateRenderer(game, pack.options.ink_saver)
        self.errors: list[SpecError] = []
        self.counters: list[Group] = []  # every counter component, packed together at the end
        self.slots: list[list[Sheet] | CardRun | str] = []  # the pack's body, in spec order
        self.total = 0
        self.memo: dict[int, Made] = memo if memo is not None else {}
        self.share = share  # (index, workers) in a worker making its share of the art
        self.made = 0  # designs whose art was asked for so far: the memo's key
        self._template_paths: dict[str, Path] = {}

    def make(self, make: Callable[[], T], skipped: T) -> T:
        """A design's art, ``make()``: made here, taken from what a worker made, or, in a
        worker, ``skipped`` when it is another worker's share. Every process plans the same
        game in the same order, so the n-th design is the same design in each."""
        n = self.made
        self.made += 1
        if self.share is not None:
            index, workers = self.share
            if n % workers != index:
                return skipped
        elif n in self.memo:
            made = self.memo[n]
            if made.error is not None:
                raise made.error
            self.renderer.overflows.extend(made.overflows)
            return made.result  # type: ignore[return-value]
        before = len(self.renderer.overflows)
        try:
            result = make()
        except SpecError as exc:
            if self.share is not None:
                self.memo[n] = Made(None, exc, ())
            raise
        if self.share is not None:
            self.memo[n] = Made(result, None, tuple(self.renderer.overflows[before:]))
        return result

    def cards(self, pieces: list[Piece]) -> None:
        """Cards to lay out with every card of their size and bleed."""
        if not pieces:
            return
        first = pieces[0]
        size = (first.w, first.h, first.bleed, first.butt)
        run = next((s for s in self.slots if isinstance(s, CardRun) and s.size == size), None)
        if run is None:
            self.slots.append(CardRun(size, list(pieces)))
        else:
            run.pieces.extend(pieces)

    def counter_pieces(self, pieces: list[Piece]) -> None:
        """Pieces cut like counters, packed with every other counter of the game."""
        if not pieces:
            return
        if COUNTERS not in self.slots:
            self.slots.append(COUNTERS)
        self.counters += groups_of(pieces, sheet_geometry())

    def titles(self, ids: list[str]) -> str:
        """The titles of the components ``ids``, for a page's label."""
        by_id = {plan.component.id: plan.component.spec.title for plan in self.pack.components}
        return " · ".join(by_id[i] for i in ids)

    def error(self, component: Component, loc: tuple, message: str) -> None:
        """A mistake at ``loc`` of the component's spec."""
        self.errors.append(SpecError(component.path, component.doc.line_of(loc), message))

    def pieces(
        self, design: Design, shape: Shape, bleed: float, face: str, back: str | None
    ) -> list[Piece]:
        """The printed copies of a design, its sides' art already stored."""
        self.pack.components[-1].shape = shape
        spec = design.component.spec
        return [
            Piece.of(spec, design.component.id, design.name, copy, shape, bleed, face, back)
            for copy in range(1, design.count + 1)
        ]

    def sides(self, design: Design, spec: Sided, shape: Shape) -> tuple[str, str | None]:
        """The art keys of a design's face and back (None without a back template), drawn
        by its spec's templates."""
        box = card_box(shape.w, shape.h, spec.bleed, shape.kind)
        back_template = spec.back

        def make() -> tuple[str, str | None]:
            face = self.art(design, spec.face, box, "face")
            back = self.art(design, back_template, box, "back") if back_template else None
            return face, back

        skipped: tuple[str, str | None] = ("", None)  # another worker's share
        return self.make(make, skipped)

    def art(self, design: Design, template: str, box: dict, side: str, extra=None) -> str:
        """Render one side of a design with ``template`` and store its art."""
        svg = self.renderer.render_design(design, template, box, side, extra)
        return self.store(template, svg, f"{side} of {describe(design)}")

    def template_path(self, template: str) -> Path:
        """The file of ``template`` (the game's own before the shared one), looked up once
        per build: every design drawn by it asks."""
        found = self._template_paths.get(template)
        if found is None:
            found = self._template_paths[template] = next(
                (d / template for d in self.game.template_dirs() if (d / template).is_file()),
                Path(template),
            )
        return found

    def store(self, template: str, svg: str, where: str) -> str:
        """Store SVG rendered by ``template``; the key of its art."""
        return self.pack.art.add(svg, self.template_path(template), where)

    def store_composed(
        self, design: Design, templates: list[str], shape: Shape, arts: list[str]
    ) -> str:
        """Store the panels ``arts`` (rendered by ``templates``) composed into one piece; a
        panel that is not well-formed SVG is an error at its template."""
        try:
            svg = composed_svg(shape, arts)
        except etree.XMLSyntaxError:
            for template, art in zip(templates, arts, strict=True):
                try:
                    etree.fromstring(art.encode(), SAFE_PARSER)
                except etree.XMLSyntaxError as exc:
                    raise SpecError(
                        self.template_path(template),
                        None,
                        f"the SVG this template renders is not well-formed: {exc.msg} "
                        f"(line {exc.lineno} of its output, {describe(design)})",
                    ) from None
            raise
        return self.store(templates[0], svg, describe(design))

    def each(self, component_designs: list[Design], make) -> list[Piece]:
        """Pieces of every design, collecting errors design by design."""
        pieces: list[Piece] = []
        for design in component_designs:
            try:
                pieces.extend(make(design))
            except SpecError as exc:
                self.errors.append(exc)
        return pieces

    def check_fits(self, component: Component, shape: Shape, bleed: float) -> None:
        """A piece larger than the printable area is this component's error, not the sheet's."""
        left, bottom, right, top = printable_box(self.pack.paper, sheet_geometry())
        if shape.w + 2 * bleed > right - left or shape.h + 2 * bleed > top - bottom:
            raise SpecError(
                component.path,
                component.doc.line_of(("size",)),
                f"a {shape.label(self.pack.words)} piece ({shape.w:.1f} x {shape.h:.1f} mm with "
                f"{bleed:g} mm bleed) is larger than the printable area of "
                f"{self.pack.paper_name} ({right - left:g} x {top - bottom:g} mm); "
                "choose a smaller size",
            )
