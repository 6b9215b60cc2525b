"""Jinja2 templates to SVG text, in a sandbox with autoescaping and strict undefined variables.

Templates receive the card's fields and its geometry; every word they print comes from those
fields. Errors name the template and line, and the spec entry being drawn.
"""

from __future__ import annotations

import json
import os
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import jinja2.meta
from lxml import etree
from markupsafe import Markup

from generator.art import inks, richtext, sandbox
from generator.art.clock import Stopped
from generator.art.richtext import Overflow
from generator.art.sandbox import Budget, LimitedEnvironment
from generator.art.shapes import Shape
from generator.errors import SpecError, display_path
from generator.model.designs import Design
from generator.model.game import merged_style, style_base
from generator.model.gamefolders import did_you_mean
from generator.model.loader import Game
from generator.paths import PathRefused, check, read_text, relative_problem
from generator.svg.fonts import text_width, wrap
from generator.svg.safexml import SAFE_PARSER

MAX_FIT = 10_000  # mm or pt: fit() measures nothing larger (a NaN or 1e20 never loops)
MANY_TIMES = 3  # text this many times its box's height is said as a ratio, not in mm


@dataclass(frozen=True)
class Subject:
    """What a template is drawing, for a text that does not fit: the component, the piece
    and where the piece is given (file and line)."""

    component: str
    piece: str
    path: Path
    line: int | None


def describe(design: Design) -> str:
    """'card 'cocoa' of components/x/cards.yaml:14', for error messages."""
    path, line = design.where
    return f"{design.component.spec.noun} '{design.name}' of {display_path(path)}:{line}"


def card_box(w: float, h: float, bleed: float, shape: str = "rect") -> dict[str, Any]:
    """Geometry a template draws in: trim at (0,0)-(w,h), art out to -bleed."""
    full_w, full_h = w + 2 * bleed, h + 2 * bleed
    attrs = (
        f'width="{full_w:g}mm" height="{full_h:g}mm" '
        f'viewBox="{-bleed:g} {-bleed:g} {full_w:g} {full_h:g}"'
    )
    return {
        "w": w,
        "h": h,
        "bleed": bleed,
        "full_w": full_w,
        "full_h": full_h,
        "shape": shape,
        "cx": w / 2,
        "cy": h / 2,
        "svg_attrs": Markup(attrs),
    }


class AssetError(ValueError):
    """An asset named in a spec is missing or lies outside the game folder."""

    def __init__(self, name: str, message: str):
        self.name = name
        super().__init__(message)


def resolve_asset(root: Path, name: str) -> str:
    """``name`` as a path relative to the game folder, if it exists and stays inside it."""
    name = str(name)
    problem = relative_problem(name)
    if problem:
        raise AssetError(name, f"asset '{name}' {problem}")
    kind = "svg" if name.lower().endswith(".svg") else "image"
    try:
        target = check(root, root / name, kind)
    except PathRefused as exc:
        where = ""
        if str(exc) == "not found":
            where = f" in {display_path(root)}/{did_you_mean(root, name)}"
        raise AssetError(name, f"asset '{name}' {exc}{where}") from None
    return target.relative_to(root.resolve()).as_posix()


class ContainedLoader(jinja2.BaseLoader):
    """A loader that reads templates (and what they include or import) through the gate
    alone: a regular file inside one of its folders, no larger than a template may be; a
    link out of them, a pipe or a device is refused before it is opened."""

    def __init__(self, searchpath: list[Path]):
        self.searchpath = searchpath

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        """The text of ``template`` from the first folder that has it, and its file name."""
        parts = jinja2.loaders.split_template_path(template)
        for folder in self.searchpath:
            candidate = Path(folder, *parts)
            if not (candidate.exists() or candidate.is_symlink()):
                continue
            try:
                text = read_text(folder, candidate, "template")
            except PathRefused as exc:
                raise jinja2.TemplateNotFound(f"{template} ({exc})") from None
            except UnicodeDecodeError as exc:
                problem = f"not UTF-8 text ({exc.reason}); save it as UTF-8"
                raise jinja2.TemplateNotFound(f"{template} ({problem})") from None
            filename = os.path.normpath(candidate)
            return text, filename, _unchanged(filename)
        raise jinja2.TemplateNotFound(template)


def _unchanged(filename: str) -> Callable[[], bool]:
    """Whether a template file is as it was when this was asked (Jinja's ``uptodate``)."""
    stamp = _stamp(filename)
    return lambda: _stamp(filename) == stamp


def _stamp(filename: str) -> int | None:
    """When a template file last changed (None when it is gone)."""
    try:
        return os.stat(filename).st_mtime_ns
    except OSError:
        return None


_PLAIN = frozenset({int, float, str, bool, Markup})  # a box's values whose repr says all of them


class TemplateRenderer:
    """Renders a game's templates; one sandboxed environment per game."""

    def __init__(self, game: Game, ink_saver: bool = False):
        self.game = game
        self.env = LimitedEnvironment(
            loader=ContainedLoader(game.template_dirs()),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            auto_reload=False,  # one build's renderer: templates do not change under it
        )
        self.env.globals["wrap"] = wrap
        self.env.globals["ink_saver"] = ink_saver
        self.env.globals["fit"] = self._fit
        self.env.globals["textbox"] = self._textbox
        self.env.globals["text_fits"] = self._text_fits
        self.env.globals["readable"] = inks.readable
        self.env.globals["tint"] = inks.tint
        self.overflows: list[Overflow] = []
        self._drawing: Subject | None = None
        self._callers: dict[str, jinja2.Template] = {}
        self._shared: dict[str, str] = {}  # a render that draws no piece's fields, by its key
        self._shareable_templates: dict[str, bool] = {}
        self._style_bases: dict[str, dict[str, Any]] = {}  # by component: its pieces' start
        self.env.globals["asset"] = lambda name: resolve_asset(game.root, name)

    def render_design(
        self,
        design: Design,
        template: str,
        box: dict[str, Any],
        side: str = "face",
        extra: dict[str, Any] | None = None,
    ) -> str:
        """The SVG text of one side of a design, drawn by ``template`` in ``box``."""
        spec = design.component.spec
        own = _own_look(design, side)
        shared = self._shared_key(design, template, box, side, extra, own)
        if shared is not None and shared in self._shared:
            return self._shared[shared]
        fields = design.fields()
        context = {
            "piece": fields,
            spec.noun: fields,
            "component": {"id": design.component.id, "title": spec.title},
            "deck": {"id": design.component.id, "title": spec.title},
            "game": {"title": self.game.spec.title, "players": self.game.spec.players},
            "style": self._style(design, own),
            "box": box,
            "side": side,
            **(extra or {}),
        }
        subject = Subject(design.component.id, design.name, *design.where)
        svg = self.render(template, context, describe(design), design.locate, subject)
        if shared is not None:
            self._shared[shared] = svg
        return svg

    def _shared_key(
        self,
        design: Design,
        template: str,
        box: dict[str, Any],
        side: str,
        extra: dict[str, Any] | None,
        own: dict[str, Any],
    ) -> str | None:
        """What a render of ``template`` depends on when the template draws nothing of the
        piece itself (a common back): its SVG is then the same for every piece with this
        key, rendered once per build. None for a template that reads the piece, records
        overflows against it, or draws other templates."""
        if not self._shareable(template):
            return None
        if not own and not extra and all(type(v) in _PLAIN for v in box.values()):
            # the style is then the component's own: the key needs no dump of it
            return repr((template, design.component.id, side, sorted(box.items())))
        spec = design.component.spec
        style = self._style(design, own)
        try:
            return json.dumps(
                [template, design.component.id, spec.title, box, side, extra, style],
                sort_keys=True,
                default=_refuse,
            )
        except (TypeError, ValueError):  # a value the key cannot say all of: render it
            return None

    def _style(self, design: Design, own: dict[str, Any]) -> dict[str, Any]:
        """The style ``design`` is drawn in: its component's, made once a build (two model
        dumps a piece before), with the piece's ``own`` values."""
        component = design.component
        base = self._style_bases.get(component.id)
        if base is None:
            base = style_base(self.game.spec.style, component.spec.style)
            self._style_bases[component.id] = base
        return merged_style(self.game.spec.style, component.spec.style, own, base)

    def _shareable(self, template: str) -> bool:
        """Whether ``template`` reads no piece's fields, calls no function that records an
        overflow at the piece, and includes, imports or extends nothing (read once)."""
        found = self._shareable_templates.get(template)
        if found is None:
            found = self._shareable_templates[template] = _reads_no_piece(self.env, template)
        return found

    def _fit(
        self,
        text: Any,
        width: float,
        height: float,
        size: float,
        min_size: float,
        weight: str = "normal",
        leading: float = 1.25,
        box: str = "text",
        family: str = "sans-serif",
    ) -> dict[str, Any]:
        """Lines of ``text`` in a ``width`` x ``height`` box at the largest size from ``size``
        down to ``min_size`` that fits, in font ``family``; what still does not fit is
        recorded as an overflow."""
        numbers = {"width": width, "height": height, "size": size, "min_size": min_size}
        for name, value in numbers.items():
            if not isinstance(value, int | float) or not 0 <= value <= MAX_FIT:
                raise ValueError(f"fit(): {name} must be a number from 0 to {MAX_FIT:g}")
        if not 0 < min_size <= size:
            raise ValueError("fit(): min_size must be above 0 and at most size")
        step = max((size - min_size) / 20, 0.01)
        current = size
        while True:
            lines = wrap(text, width, current, weight, family)
            needed = len(lines) * current * leading
            widest = max(text_width(line, current, weight, "normal", family) for line in lines)
            fits = needed <= height + 1e-6 and widest <= width + 1e-6
            if fits or current - step < min_size - 1e-9:
                break
            current -= step
        if not fits:
            self._overflow(box, width, height, needed, widest, current, str(text))
        return {"lines": lines, "size": current, "leading": current * leading}

    def _overflow(
        self,
        box: str,
        width: float,
        height: float,
        needed: float,
        widest: float,
        size: float,
        text: str = "",
    ) -> None:
        """Record text that does not fit its box even at its smallest size."""
        subject = self._drawing
        if subject is None:  # a macro drawn for no piece (an icon): nothing to report it at
            return
        short = [f"{needed - height:.1f} mm of height"] if needed > height + 1e-6 else []
        if height > 0 and needed > MANY_TIMES * height:  # a figure nobody can picture
            short = [f"{needed / height:.0f} times the box's height"]
        short += [f"{widest - width:.1f} mm of width"] if widest > width + 1e-6 else []
        self.overflows.append(
            Overflow(
                subject.component,
                subject.piece,
                f"'{box}' ({width:g} x {height:g} mm)",
                f"{' and '.join(short)} at {size / richtext.PT:.1f} pt ({size:.2f} mm) text",
                subject.line,
                subject.path,
                text,
            )
        )

    def _textbox(
        self,
        text: Any,
        x: float,
        y: float,
        w: float,
        h: float,
        size: float = 3.5,
        min_size: float = richtext.MIN_TEXT,
        family: str = "sans-serif",
        weight: str = "normal",
        colour: str = "#222222",
        align: str = "start",
        valign: str = "top",
        leading: float = 1.2,
        icon: Callable[[str], str] | None = None,
        box: str = "text",
    ) -> Markup:
        """SVG of ``text`` (with **bold**, *italic* and :icon: markup) wrapped into the box
        at x, y of w x h mm, at the largest size from ``size`` down to ``min_size`` (6 pt by
        default) that fits; what does not fit even then is recorded as an overflow."""
        numbers = {"x": abs(x), "y": abs(y), "w": w, "h": h, "size": size, "min_size": min_size}
        for name, value in numbers.items():
            if not isinstance(value, int | float) or not 0 <= value <= MAX_FIT:
                raise ValueError(f"textbox(): {name} must be a number from 0 to {MAX_FIT:g}")
        if not 0 < min_size <= size or not 0.5 <= leading <= 5:
            raise ValueError("textbox(): min_size must be above 0 and at most size")
        if align not in ("start", "middle", "end") or valign not in ("top", "middle", "bottom"):
            raise ValueError("textbox(): align is start|middle|end, valign top|middle|bottom")
        look = richtext.Look(family, weight, colour, leading)
        laid = richtext.fitted(str(text), w, h, size, min_size, look, bool(icon))
        if not laid.fits:
            self._overflow(box, w, h, laid.height, laid.widest, laid.size, str(text))
        return richtext.svg(laid, (x, y, w, h), look, align, valign, icon)

    @staticmethod
    def _text_fits(
        text: Any,
        w: float,
        h: float,
        size: float = richtext.MIN_TEXT,
        family: str = "sans-serif",
        weight: str = "normal",
        leading: float = 1.2,
    ) -> bool:
        """Whether ``text`` fits a ``w`` x ``h`` mm box at ``size`` (6 pt by default) as
        ``textbox`` lays it out, so that a template can choose the face it fits in; it
        records nothing."""
        for name, value in {"w": w, "h": h, "size": size}.items():
            if not isinstance(value, int | float) or not 0 < value <= MAX_FIT:
                raise ValueError(f"text_fits(): {name} must be a number above 0 to {MAX_FIT:g}")
        if not 0.5 <= leading <= 5:
            raise ValueError("text_fits(): leading must be from 0.5 to 5")
        look = richtext.Look(family, weight, "#000000", leading)
        return richtext.layout(richtext.paragraphs(str(text), True), w, h, size, look).fits

    def macro(
        self, template: str, name: str, argument: Any, locate: Callable[[Any], tuple[Path, int]]
    ) -> str:
        """The output of macro ``name`` of ``template`` called with ``argument``."""
        caller = self._callers.get(name)
        if caller is None:  # compiled once per macro: Jinja's compiler is slow
            source = "{% from template import " + name + " as m %}{{ m(argument) }}"
            caller = self._callers[name] = self.env.from_string(source)
        where = f"macro {name}({argument!r}) of {template}"
        try:
            return sandbox.render(caller, {"template": template, "argument": argument})
        except AssetError as exc:
            raise SpecError(*locate(exc.name), str(exc)) from None
        except Stopped as exc:
            path = _template_position(exc, template, self.game)[0]
            raise SpecError(path, None, str(exc)) from None
        except (Budget, OverflowError, RecursionError, MemoryError) as exc:
            path, line = _template_position(exc, template, self.game)
            raise SpecError(path, line, f"the template asks too much: {exc} ({where})") from None
        except jinja2.TemplateError as exc:
            path, line = _template_position(exc, template, self.game)
            raise SpecError(path, line, f"{exc.message or type(exc).__name__} ({where})") from None
        except Exception as exc:  # a template's own arithmetic, a runaway loop...
            path, line = _template_position(exc, template, self.game)
            raise SpecError(path, line, f"{designer_terms(exc)} ({where})") from None

    def made(self, kind: str, inputs: object, make: Callable[[], str]) -> str:
        """The SVG ``make()`` draws from ``inputs`` (JSON data: a board's spec) and the
        game's templates; a preview's renderer keeps it for the next plan."""
        return make()

    def render(
        self,
        name: str,
        context: dict[str, Any],
        where: str,
        locate: Callable[[Any], tuple[Path, int]],
        subject: Subject | None = None,
    ) -> str:
        """Render template ``name`` drawing ``subject`` (text that does not fit is reported
        at it); any template error becomes a ``SpecError``.

        Template mistakes point at the template's line; a bad asset points at the spec line
        that named it (``locate`` finds it from the value)."""
        self._drawing = subject
        try:
            return sandbox.render(self.env.get_template(name), context)
        except AssetError as exc:
            raise SpecError(*locate(exc.name), f"{exc} (drawn by template {name})") from None
        except Stopped as exc:  # one line for all the renders not made
            raise SpecError(_template_position(exc, name, self.game)[0], None, str(exc)) from None
        except (Budget, OverflowError, RecursionError, MemoryError) as exc:
            path, line = _template_position(exc, name, self.game)
            raise SpecError(
                path,
                line,
                f"the template asks too much ({type(exc).__name__}: {exc}; while drawing {where})",
            ) from None
        except jinja2.TemplateSyntaxError as exc:
            path = Path(exc.filename) if exc.filename else Path(name)
            raise SpecError(path, exc.lineno, f"template syntax error: {exc.message}") from None
        except jinja2.TemplateNotFound as exc:
            raise SpecError(Path(name), None, f"template not found: {exc.name}") from None
        except jinja2.TemplateError as exc:
            path, line = _template_position(exc, name, self.game)
            message = designer_terms(exc)
            raise SpecError(path, line, f"{message} (while drawing {where})") from None
        except Exception as exc:  # a template's own arithmetic (1e309, division by zero...)
            path, line = _template_position(exc, name, self.game)
            raise SpecError(path, line, f"{designer_terms(exc)} (while drawing {where})") from None
        finally:
            self._drawing = None


def _own_look(design: Design, side: str) -> dict[str, Any]:
    """A piece's own style keys for ``side``: none on a back of a deck whose backs are alike
    (a card's own look is its face's: its back stays like every other)."""
    if side == "back" and getattr(design.component.spec, "backs", "differ") == "alike":
        return {}
    return design.entry.fields() if design.entry else {}


NO_ATTRIBUTE = re.compile(r"'dict object' has no attribute '([^']*)'")
ADDING = re.compile(r"can only concatenate str|unsupported operand type\(s\) for [-+*/]")


def designer_terms(exc: Exception) -> str:
    """A template's error as a designer can act on it, not in Python's words: a field no
    row has, a number and a text added, a division by zero; else Python's own message."""
    message = exc.message if isinstance(exc, jinja2.TemplateError) else str(exc)
    message = message or type(exc).__name__
    missing = NO_ATTRIBUTE.search(message)
    if missing:
        return (
            f"the template reads a field '{missing[1]}' that this piece does not have (no "
            f"column or key of that name); add it, or write .get('{missing[1]}', '')"
        )
    if isinstance(exc, TypeError) and ADDING.search(message):
        return (
            "the template does arithmetic with a text (an empty cell is a text, not 0): "
            f"write (value or 0)|float, or ~ to join texts ({message})"
        )
    if isinstance(exc, ZeroDivisionError):
        return "the template divides by zero (a cell that is 0 or empty?); check the divisor"
    if isinstance(exc, jinja2.TemplateError):
        return message
    return f"the template failed: {type(exc).__name__}: {message}"


OVERFLOWS = frozenset({"fit", "textbox"})  # globals that record an overflow at the piece
OTHER_TEMPLATES = (jinja2.nodes.Include, jinja2.nodes.Import, jinja2.nodes.FromImport)


def _reads_no_piece(env: jinja2.Environment, template: str) -> bool:
    """Whether ``template``'s source names no piece (``piece``, a kind's noun: any name
    a piece's fields go by), no ``fit`` or ``textbox``, and no other template."""
    try:
        assert env.loader is not None
        source = env.loader.get_source(env, template)[0]
    except Exception:  # noqa: BLE001 - not found, unreadable: the render reports it
        return False
    found = _SOURCES_READ.get(source)
    if found is None:
        if len(_SOURCES_READ) >= SOURCES_KEPT:
            _SOURCES_READ.clear()
        found = _SOURCES_READ[source] = _source_reads_no_piece(env, source)
    return found


SOURCES_KEPT = 256  # templates whose reading is kept in one process
# by the template's text: read once per process (pnp serve plans with a new environment
# after each save, and every renderer's environment parses alike)
_SOURCES_READ: dict[str, bool] = {}


def _source_reads_no_piece(env: jinja2.Environment, source: str) -> bool:
    """``_reads_no_piece`` of a template's text."""
    try:
        tree = env.parse(source)
    except jinja2.TemplateSyntaxError:  # the render reports it
        return False
    if any(tree.find_all((jinja2.nodes.Extends, *OTHER_TEMPLATES))):
        return False
    loaded = {node.name for node in tree.find_all(jinja2.nodes.Name) if node.ctx == "load"}
    # (the environment's globals are not among the undeclared names)
    return jinja2.meta.find_undeclared_variables(tree) <= SHARED_NAMES and not loaded & OVERFLOWS


# what a template that draws no piece may name: the component, the game, the style, the box
SHARED_NAMES = frozenset(
    {"component", "deck", "game", "style", "box", "side", "range", "wrap", "ink_saver"}
    | {"readable", "tint", "asset", "text_fits", "loop", "true", "false", "none"}
)


def _refuse(value: object) -> object:
    """For a shared render's key: a value JSON cannot say all of (the render is not shared)."""
    raise TypeError(type(value).__name__)


def _template_position(exc: Exception, name: str, game: Game) -> tuple[Path, int | None]:
    """The template file and line where a render error happened, from Jinja's traceback."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        # template files only: not Python, not the string the engine calls a macro from
        if frame.filename and not frame.filename.endswith(".py") and frame.filename[0] != "<":
            return Path(frame.filename), frame.lineno
    for directory in game.template_dirs():
        if (directory / name).is_file():
            return directory / name, None
    return Path(name), None


def composed_svg(shape: Shape, arts: list[str]) -> str:
    """The art of a piece made of panels (a die net, a standee): each panel's rendered SVG
    moved into its slot (turned if the panel is), and the glue tabs shaded.

    Panel SVGs are drawn in their own mm units with the panel at (0, 0); the composed frame is
    mm with y down (SVG), while shapes measure y up, hence the flips."""
    svg_ns = "http://www.w3.org/2000/svg"
    root = etree.Element(
        f"{{{svg_ns}}}svg",
        nsmap={None: svg_ns},
        width=f"{shape.w:g}mm",
        height=f"{shape.h:g}mm",
        viewBox=f"0 0 {shape.w:g} {shape.h:g}",
    )
    for polygon in shape.tabs:
        points = " ".join(f"{x:.3f},{shape.h - y:.3f}" for x, y in polygon)
        etree.SubElement(root, f"{{{svg_ns}}}polygon", points=points, fill="#e6e6e6")
    for (x, y, w, h, turn), art in zip(shape.panels, arts, strict=True):
        top = shape.h - y - h
        move = f"translate({x:.3f} {top:.3f})"
        if turn == 180:
            move = f"translate({x + w:.3f} {top + h:.3f}) rotate(180)"
        group = etree.SubElement(root, f"{{{svg_ns}}}g", transform=move)
        for child in etree.fromstring(art.encode(), SAFE_PARSER):
            group.append(child)
    return etree.tostring(root, encoding="unicode")
