"""A planned pack as the page shows it: every component with its distinct pieces (each side's
picture key, true size, cut outline, count and source line) and the check's findings put
where they happen; and every sheet's pages as ``pnp build`` prints them. Plain data, ready
for JSON; the pictures themselves are drawn apart (``pictures``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from generator.art.shapes import Shape, hex_points
from generator.check.printed import PrintedText
from generator.check.rules import MISMATCH
from generator.check.verdict import Verdict
from generator.errors import SpecError, clean, display_path
from generator.layout.pack import ComponentPlan, Pack
from generator.layout.sheets import Page
from generator.model.designs import Design
from generator.model.gamefolders import SHARED_TEMPLATES
from generator.output.shop import ShopPage, shop_pages
from generator.serve.memo import Folder, MemoRenderer
from generator.serve.pictures import key_of, piece_dpi

Finding = dict[str, object]


@dataclass
class Drawn:
    """A pack seen as the page shows it: the ``view`` (JSON data), the piece pictures it
    names that are still to be drawn (key, side), and the page of the pack's PDF each sheet
    picture is rendered from (key -> page number)."""

    view: dict
    wanted: list[tuple[str, ShopPage]] = field(default_factory=list)
    pages: dict[str, int] = field(default_factory=dict)


def shown(path: Path | None, root: Path) -> str:
    """A file as the designer knows it: relative to the game folder, ``stock/…`` for a
    stock template, else as the command line shows it."""
    if path is None:
        return ""
    for base, prefix in ((root, ""), (SHARED_TEMPLATES, "stock/")):
        try:
            return prefix + clean(Path(path).resolve().relative_to(base.resolve()).as_posix())
        except ValueError:
            continue
    return display_path(Path(path))


def error_record(error: SpecError, root: Path) -> Finding:
    """A spec error for the page: its file, line and message."""
    return {"file": shown(error.path, root), "line": error.line, "message": clean(error.message)}


def describe(
    pack: Pack, verdict: Verdict, renderer: MemoRenderer, folder: Folder, serial: int
) -> Drawn:
    """The view of a planned pack (``serial``: a number no other plan of this process has),
    with every piece picture it names as wanted."""
    drawn = Drawn({})
    findings = _piece_findings(pack, verdict, renderer)
    sides = shop_pages(pack)
    components = []
    for plan in pack.components:
        pages = sides.get(plan.component.id, [])
        components.append(_component(pack, plan, pages, findings, verdict, renderer, folder, drawn))
    drawn.wanted = list(dict(drawn.wanted).items())
    drawn.view = {
        "title": clean(pack.game.spec.title),
        "language": pack.game.language,
        "paper": pack.paper_name,
        "paper_mm": list(pack.paper),
        "components": components,
        "check": _game_findings(pack, verdict, findings),
        "sheets": _sheets(pack, folder, drawn, serial),
    }
    return drawn


def _component(
    pack: Pack,
    plan: ComponentPlan,
    pages: list[ShopPage],
    findings: dict[tuple[str, str], list[Finding]],
    verdict: Verdict,
    renderer: MemoRenderer,
    folder: Folder,
    drawn: Drawn,
) -> dict:
    """One component: its counts against the rulebook and its pieces."""
    component = plan.component
    root = pack.game.root
    by_name: dict[str, list[ShopPage]] = {}
    for page in pages:
        by_name.setdefault(page.name, []).append(page)
    pieces = []
    for design in plan.designs:
        sides = []
        for page in by_name.get(design.name, []):
            key = _piece_key(pack, page, renderer, folder)
            drawn.wanted.append((key, page))
            sides.append({"side": page.side, "picture": key})
        mine = findings.pop((component.id, design.name), [])
        pieces.append(_piece(design, sides, by_name.get(design.name), mine, root))
    counts = [
        {
            "key": row.key,
            "expected": row.expected,
            "printed": row.generated,
            "ok": row.status != MISMATCH,
            "line": row.line,
        }
        for row in verdict.counts
        if row.key == component.id or row.key.startswith(component.id + "/")
    ]
    return {
        "id": component.id,
        "title": clean(component.spec.title),
        "kind": component.spec.noun,
        "file": shown(component.path, root),
        "copies": plan.count,
        "counts": counts,
        "game_file": shown(pack.game.doc.path, root),
        "findings": findings.pop((component.id, ""), []),
        "pieces": pieces,
    }


def _piece(
    design: Design,
    sides: list[dict],
    pages: list[ShopPage] | None,
    findings: list[Finding],
    root: Path,
) -> dict:
    """One distinct piece: its name, copies, source, size, outline, sides and findings."""
    path, line = design.where
    first = pages[0] if pages else None
    shape = first.piece.shape if first is not None else None
    size = {"w": first.w, "h": first.h, "bleed": first.bleed} if first else None
    return {
        "name": clean(design.name),
        "label": clean(design.label() or design.name),
        "copies": design.count,
        "file": shown(path, root),
        "line": line,
        "size": size,
        "outline": _outline(shape) if shape is not None and first and not first.sheet else "",
        "sides": sides,
        "findings": findings,
    }


def _piece_key(pack: Pack, page: ShopPage, renderer: MemoRenderer, folder: Folder) -> str:
    """The key of a side's picture: its art and the files that art draws (every picture file
    when they are not known), its size and the ink saver; a reference sheet's page, every
    file of the game."""
    settings = (pack.options.ink_saver, page.w, page.h, page.bleed, piece_dpi(page))
    flowed = _flowed(page)
    if flowed is not None:  # what the page is drawn from, not every file of the game
        look = (folder.look, folder.pictures)
        return key_of("flowed", page.component, page.side, flowed, look, pack.paper, settings)
    if page.sheet is not None or page.art is None:
        return key_of("sheet", page.component, page.side, folder.everything, pack.paper, settings)
    refs = renderer.drawn.get(page.art)
    files = folder.pictures if refs is None else folder.of(refs)
    return key_of("piece", page.art, files, settings)


def _flowed(page: ShopPage) -> str | None:
    """What a reference sheet's page is drawn from besides the game's look and pictures: its
    sheet as loaded (translated), the area, size and pages it was laid out in, its title and
    page number; None for any other page, and for a sheet with a table of another
    component's rows (those may change with no change to the sheet)."""
    sheet = page.sheet
    if sheet is None or sheet.flow is None:
        return None
    flow = sheet.flow
    spec = flow.spec.model_dump(mode="json", by_alias=True)
    if any((block.get("table") or {}).get("from") for block in _blocks(spec)):
        return None
    return repr((spec, flow.area, flow.size, flow.pages, sheet.title, page.number))


def _blocks(spec: dict) -> list[dict]:
    """The blocks of a sheet's sections, as dumped."""
    return [b for section in spec.get("sections") or [] for b in section.get("blocks") or []]


def _outline(shape: Shape) -> str:
    """The cut line as a closed SVG path in mm, the trim box's top-left corner at (0, 0), y
    down; none for a piece cut along lines of its own (a die net, a standee: its art shows
    them)."""
    h = shape.h
    if shape.cuts:
        return ""
    if shape.kind == "circle":
        r = shape.w / 2
        return (
            f"M0 {r:.2f}a{r:.2f} {r:.2f} 0 1 0 {2 * r:.2f} 0a{r:.2f} {r:.2f} 0 1 0 {-2 * r:.2f} 0Z"
        )
    if shape.kind.startswith("hex"):
        points = [f"{x:.2f} {h - y:.2f}" for x, y in hex_points(shape)]
        return "M" + "L".join(points) + "Z"
    w, r = shape.w, min(shape.corner, shape.w / 2, shape.h / 2)
    if not r:
        return f"M0 0H{w:.2f}V{h:.2f}H0Z"
    return (
        f"M{r:.2f} 0H{w - r:.2f}A{r:.2f} {r:.2f} 0 0 1 {w:.2f} {r:.2f}V{h - r:.2f}"
        f"A{r:.2f} {r:.2f} 0 0 1 {w - r:.2f} {h:.2f}H{r:.2f}A{r:.2f} {r:.2f} 0 0 1 0 {h - r:.2f}"
        f"V{r:.2f}A{r:.2f} {r:.2f} 0 0 1 {r:.2f} 0Z"
    )


def _piece_findings(
    pack: Pack, verdict: Verdict, renderer: MemoRenderer
) -> dict[tuple[str, str], list[Finding]]:
    """The check's findings by the piece they are on ((component, name); a component's own
    under its id and ''): text that does not fit (with its box where ``textbox()`` drew it
    in the piece's own frame: not on a die's or standee's panels) and text under the game's
    floor."""
    root = pack.game.root
    specs = {plan.component.id: plan.component for plan in pack.components}
    names = {(plan.component.id, d.name) for plan in pack.components for d in plan.designs}
    found: dict[tuple[str, str], list[Finding]] = {}

    def put(component: str, piece: str, finding: Finding) -> None:
        where = (component, piece) if (component, piece) in names else (component, "")
        found.setdefault(where, []).append(finding)

    places = {id(o): renderer.places.get(i) for i, o in enumerate(renderer.overflows)}
    panelled = {p.component.id for p in pack.components if p.shape and p.shape.panels}
    for o in verdict.overflows:
        side, rect = places.get(id(o)) or ("face", None)
        if o.component in panelled:  # a die's or standee's panel: its box is the panel's
            rect = None
        path = o.path or (specs[o.component].path if o.component in specs else None)
        message = f"text does not fit: box {o.box}: {o.missing} missing"
        record: dict[str, object] = {"kind": "overflow", "side": side, "box": rect}
        record["message"] = clean(message)
        record |= {"file": shown(path, root), "line": o.line}
        put(o.component, o.piece, record)
    printing = verdict.printing
    for small in printing.small if printing else ():
        assert printing is not None  # only its own small texts are listed
        record = _text_record("small", small, small.message(printing.floor), root)
        put(small.component, small.piece, record)
    for misfit in verdict.fit:
        record = {"kind": "fit", "side": "face", "message": clean(misfit.message)}
        record |= {"file": shown(misfit.path, root), "line": misfit.line}
        put(misfit.component, "", record)
    _put_notices(pack, put, found, root)
    for faint in printing.contrast if printing else ():
        assert printing is not None
        record = _text_record("contrast", faint, faint.message(printing.ink_saver), root)
        for piece in (faint.piece, *faint.others):
            put(faint.component, piece, record)
    return found


def _text_record(kind: str, finding: PrintedText, message: str, root: Path) -> Finding:
    """A printed text's finding as the preview lists it: on the face for a front (or a
    sheet's heading), at its file and line."""
    side = "face" if finding.side in ("front", "heading") else finding.side
    record: Finding = {"kind": kind, "side": side, "message": clean(message)}
    return record | {"file": shown(finding.path, root), "line": finding.line}


def _put_notices(
    pack: Pack,
    put: Callable[[str, str, Finding], None],
    found: dict[tuple[str, str], list[Finding]],
    root: Path,
) -> None:
    """What loading found doubtful (an icon its template does not have, a column nothing
    reads) on the piece whose row or entry it names; the others go to the component whose
    file it names, the rest to the game's other findings."""
    rows: dict[tuple[Path, int | None], tuple[str, str]] = {
        d.where: (p.component.id, d.name) for p in pack.components for d in p.designs
    }
    files = {p.component.path: p.component.id for p in pack.components}
    for path, line, message in pack.game.warnings:
        record: Finding = {"kind": "warning", "side": "face", "message": clean(message)}
        record |= {"file": shown(path, root), "line": line}
        if (path, line) in rows:
            put(*rows[(path, line)], record)
        else:
            found.setdefault((files.get(path, ""), ""), []).append(record)


def _game_findings(
    pack: Pack, verdict: Verdict, left: dict[tuple[str, str], list[Finding]]
) -> dict:
    """What the check finds in the game as a whole: whether it passes, how it prints, deck
    recipes, what the art does not draw, the translation, and any finding on no piece."""
    root = pack.game.root
    printing = verdict.printing
    report = pack.game.report
    translation = None
    if report is not None:
        broken = [(at, f"{text}: {what}") for at, text, what in report.broken]
        lacking = [*report.missing, *report.fuzzy, *broken]
        translation = {
            "language": report.language,
            "missing": [{"where": clean(w), "text": clean(t)} for w, t in lacking],
        }
    return {
        "passed": verdict.passed,
        "printing": {
            "sheets": printing.sheets,
            "pages": printing.pages,
            "sides": printing.sides,
            "problems": [clean(p) for p in printing.problems],
            "floor": printing.floor,
        }
        if printing
        else None,
        "recipes": [clean(r) for r in verdict.recipes],
        "warnings": [
            {"file": shown(path, root), "line": line, "message": clean(message)}
            for path, line, message in [
                *pack.art.warnings,
                *((c.path, c.line, c.message) for c in verdict.colours),
            ]
        ],
        "pending": [row.key for row in verdict.pending],
        "translation": translation,
        "other": [finding for found in left.values() for finding in found],
    }


def _sheets(pack: Pack, folder: Folder, drawn: Drawn, serial: int) -> list[dict]:
    """Every sheet of paper as it prints: its front and (double-sided) back page, each with
    its page number and the key of its picture (None: a blank page)."""
    sheets: list[dict] = []
    total = pack.page_count
    for number, page, index in pack.pages():
        if len(sheets) < index:
            sheets.append({"sheet": index, "pages": []})
        entry: dict = {"number": number, "picture": None, "title": ""}
        if page is not None:
            key = _page_key(pack, page, number, total, folder, serial)
            drawn.pages[key] = number
            entry |= {"picture": key, "title": clean(page.title), "side": page.side}
        sheets[-1]["pages"].append(entry)
    return sheets


def _page_key(pack: Pack, page: Page, number: int, total: int, folder: Folder, serial: int) -> str:
    """The key of a page's picture: what lies on it (its pieces, their art and places, its
    marks and labels), the pack's settings and the picture files; a page whose content is
    not all in its description (an inventory, a reference sheet's text) is new every time."""
    described = repr(page)
    if page.inventory is not None or page.flow is not None or " at 0x" in described:
        return key_of("page", number, serial)
    game = pack.game
    settings = (pack.paper, pack.options, game.language, game.spec.title, total)
    return key_of("page", number, described, settings, folder.pictures)
