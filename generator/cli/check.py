"""``pnp check``: compare what the specs generate with the rulebook counts, game by game."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import click

from generator.art.richtext import Overflow
from generator.check.contrast import hex_colour, needed
from generator.check.printed import PrintedText
from generator.check.printing import PrintReport
from generator.check.rules import MISMATCH, CountRow, mismatches
from generator.check.verdict import Verdict, judge, translation_problems
from generator.cli.common import (
    EXIT_FAILED_CHECK,
    components_option,
    games_argument,
    in_game_folder,
    lang_option,
    load_games,
    make_options,
    number_of,
    paper_option,
    plan_on_all_cores,
    print_options,
    silenced,
)
from generator.errors import clean, display_path
from generator.i18n.catalogs import where as file_line
from generator.model.loader import Game
from generator.plan.games import Planned
from generator.svg import scripts


def print_table(game: Game, rows: list[CountRow]) -> None:
    """The check table for one game: component, expected, generated, status."""
    click.echo(f"\n{clean(game.spec.title)} ({clean(game.name)})")
    width = max([len(r.key) for r in rows] + [9])
    click.echo(f"  {'component':<{width}}  {'expected':>8}  {'generated':>9}  status")
    for r in rows:
        expected = "–" if r.expected is None else str(r.expected)
        made = "–" if r.generated is None else str(r.generated)
        status = click.style(r.status, fg="red", bold=True) if r.status == MISMATCH else r.status
        click.echo(f"  {r.key:<{width}}  {expected:>8}  {made:>9}  {status}")


def explain_mismatches(game: Game, rows: list[CountRow]) -> None:
    """One error line per mismatch, pointing at the ``expect:`` entry."""
    for r in mismatches(rows):
        click.echo(
            f"{display_path(game.doc.path)}:{r.line}: {r.key}: the rulebook count is "
            f"{r.expected} but the specs generate {r.generated}"
            + (f"; {r.note}" if r.note else ""),
            err=True,
        )


@click.command("check")
@games_argument
@components_option
@click.option(
    "--strict",
    is_flag=True,
    help="Also fail on every warning (columns, fonts, pictures, thin lines, seams, colours "
    "alike) and on rulebook counts not yet specified.",
)
@lang_option
@paper_option
@print_options
@click.option("--json", "as_json", is_flag=True, help="The findings as JSON on stdout.")
@in_game_folder
def command(
    games: tuple[str, ...],
    components_dir: Path,
    strict: bool,
    language: str | None,
    paper: str | None,
    as_json: bool,
    **printing: Any,
) -> int:
    """Check component counts against the rulebook (every game by default), and with --lang
    the translations: strings missing, empty, fuzzy or with broken placeholders, and strings
    no spec uses any more.

    Templates are rendered and the pack laid out too (in that language, on that paper, the
    way it is printed), so a template mistake, text that no longer fits its box, or a sheet
    whose backs would miss their fronts is found here, not at build time."""
    found = []
    with silenced(as_json):
        paper, options = make_options(paper, **printing)
        loaded = load_games(components_dir, games, language, defer=True)
        results = plan_on_all_cores(loaded, paper, options)
        for game, planned in zip(loaded.games, results, strict=True):
            untranslated = translation_problems(game) if language is not None else 0
            verdict = judge(
                game,
                planned.overflows,
                planned.printing,
                untranslated,
                strict,
                len(planned.warnings),
            )
            explain(verdict, language is not None)
            found.append(as_record(verdict, planned))
    failed = not all(record["passed"] for record in found)
    if as_json:
        click.echo(json.dumps({"passed": not failed, "games": found}, indent=2, ensure_ascii=False))
    return EXIT_FAILED_CHECK if failed else 0


def explain(verdict: Verdict, translation: bool) -> None:
    """What the check found in one game: its table, its ``translation`` if asked, how it
    prints and what fails."""
    game = verdict.game
    print_table(game, verdict.counts)
    if translation:
        explain_translation(game)
    if verdict.printing is not None:
        describe_printing(verdict.printing)
        explain_thin_lines(verdict.printing)
        explain_seams(verdict.printing)
        for differ in verdict.printing.backs:
            at = f"{display_path(differ.path)}:{differ.line}"
            click.echo(f"{at}: {clean(differ.message())}", err=True)
        explain_near_cut(verdict.printing)
    explain_failures(verdict)
    if game.spec.recipes and not verdict.recipes:
        click.echo(f"  recipes ok: {', '.join(game.spec.recipes)}")
    if verdict.pending:
        click.echo(
            f"  {len(verdict.pending)} rulebook count(s) not yet specified by any component."
        )
        for r in verdict.pending:  # a misspelt id looks like one still to come: say which exist
            click.echo(f"  {display_path(game.doc.path)}:{r.line}: {r.key}: {r.note}")
    if verdict.strict and verdict.warnings:
        click.echo(
            f"{clean(game.name)}: {verdict.warnings} warning(s) above fail the check (--strict)",
            err=True,
        )


def as_record(verdict: Verdict, planned: Planned) -> dict:
    """What the check found for one game, for --json."""
    game, rows, passed = verdict.game, verdict.counts, verdict.passed
    report, printing = game.report, planned.printing
    components = {c.id: c for c in game.components}
    return {
        "game": game.name,
        "title": game.spec.title,
        "language": game.language,
        "passed": passed,
        "counts": [
            {"key": r.key, "expected": r.expected, "generated": r.generated, "status": r.status}
            for r in rows
        ],
        "overflows": [
            {
                "file": display_path(o.path or components.get(o.component, game.doc).path),
                "line": o.line,
                "component": o.component,
                "piece": o.piece,
                "box": o.box,
                "missing": o.missing,
            }
            for o in planned.overflows
        ],
        "recipes": list(verdict.recipes),
        "fit": [
            {"file": display_path(m.path), "line": m.line, "message": m.message}
            for m in verdict.fit
        ],
        "colour_warnings": [
            {"file": display_path(c.path), "line": c.line, "message": c.message}
            for c in verdict.colours
        ],
        "warnings": [
            {"file": display_path(path), "line": line, "message": message}
            for path, line, message in [*game.warnings, *planned.warnings]
        ],
        "printing": None if printing is None else _printing_record(printing),
        "translation": None if report is None else _translation_record(game, report),
    }


def _printing_record(printing: PrintReport) -> dict:
    """What the printer simulation found, for --json."""
    return {
        "sheets": printing.sheets,
        "pages": printing.pages,
        "sides": printing.sides,
        "problems": list(printing.problems),
        "floor_pt": printing.floor,
        "small_text": [_text_json(t) for t in printing.small],
        "thin_lines": [
            {
                "file": display_path(t.path),
                "line": t.line,
                "component": t.component,
                "piece": t.piece,
                "width": t.written,
                "pt": round(t.pt, 3),
            }
            for t in printing.thin
        ],
        **_warnings_record(printing),
        "low_contrast": [
            _text_json(c)
            | {
                "ratio": round(c.ratio, 2),
                "needed": needed(c.size),
                "colour": hex_colour(c.colour),
                "behind": hex_colour(c.behind),
            }
            for c in printing.contrast
        ],
    }


def _warnings_record(printing: PrintReport) -> dict:
    """The printer simulation's warnings (text near a shop's cut, seams, differing backs)."""
    return {
        "near_cut": [
            {
                "file": display_path(n.path),
                "component": n.component,
                "piece": n.piece,
                "side": n.side,
                "mm": round(n.distance, 2),
                "edge": n.edge,
                "message": n.message(),
            }
            for n in printing.near_cut
        ],
        "seams": [
            {
                "file": display_path(c.path),
                "line": c.line,
                "board": c.board,
                "places": [place for place, _ in c.cuts],
                "message": c.message(),
            }
            for c in printing.seams
        ],
        "backs_differ": [
            {
                "file": display_path(b.path),
                "line": b.line,
                "component": b.component,
                "looks": b.looks,
                "cards": list(b.cards),
            }
            for b in printing.backs
        ],
    }


def _translation_record(game: Game, report: Any) -> dict:
    """What the translation check found, for --json."""
    return {
        "language": report.language,
        "missing": [at for at, _ in report.missing],
        "fuzzy": [at for at, _ in report.fuzzy],
        "broken": [{"at": at, "problem": problem} for at, _, problem in report.broken],
        "undeclared": [
            {"at": at, "field": name, "text": text} for at, name, text in report.undeclared
        ],
        "engine": game.words.missing(),
        "engine_problems": [
            {
                "at": f"{game.words.catalog}:{p.line}" if p.line else game.words.catalog,
                "problem": p.message,
            }
            for p in game.words.problems
        ],
        "obsolete": report.obsolete,
    }


def _text_json(finding: PrintedText) -> dict[str, Any]:
    """Where a printed text's finding is and what it prints, as the JSON report gives it."""
    return {
        "file": display_path(finding.path),
        "line": finding.line,
        "component": finding.component,
        "piece": finding.piece,
        "side": finding.side,
        "text": finding.text,
        "pt": round(finding.size, 2),
    }


def explain_failures(verdict: Verdict) -> None:
    """Report what fails the rules check (counts, text that does not fit, recipes, sheets
    that would print wrong), one error line each."""
    explain_mismatches(verdict.game, verdict.counts)
    explain_overflows(verdict.game, verdict.overflows)
    for problem in verdict.recipes:
        click.echo(clean(problem), err=True)
    for misfit in verdict.fit:
        click.echo(f"{display_path(misfit.path)}:{misfit.line}: {clean(misfit.message)}", err=True)
    for alike in verdict.colours:
        where = f"{display_path(alike.path)}:{alike.line}"
        click.echo(f"{where}: warning: {clean(alike.message)}", err=True)
    if verdict.printing is not None:
        explain_printing(verdict.game, verdict.printing)


def explain_printing(game: Game, printing: PrintReport) -> None:
    """What would come out of the printer wrong or too small to read, one error line each."""
    for problem in printing.problems:
        click.echo(f"{clean(game.name)}: prints wrong: {clean(problem)}", err=True)
    for small in printing.small:
        click.echo(
            f"{file_line(small.path, small.line)}: {clean(small.message(printing.floor))}", err=True
        )
    for faint in printing.contrast:
        click.echo(
            f"{file_line(faint.path, faint.line)}: {clean(faint.message(printing.ink_saver))}",
            err=True,
        )


def explain_thin_lines(printing: PrintReport) -> None:
    """A warning per template line that draws a line too thin for a print shop."""
    for stroke in printing.thin:
        click.echo(f"{file_line(stroke.path, stroke.line)}: {clean(stroke.message())}", err=True)


def explain_near_cut(printing: PrintReport) -> None:
    """A warning per component side whose text comes inside a print shop's safe zone."""
    for near in printing.near_cut:
        click.echo(f"{display_path(near.path)}: {clean(near.message())}", err=True)


def explain_seams(printing: PrintReport) -> None:
    """A warning per tiled board whose seams run through its places."""
    for cut in printing.seams:
        click.echo(f"{display_path(cut.path)}:{cut.line}: {clean(cut.message())}", err=True)


def describe_printing(printing: PrintReport) -> None:
    """The pack as one print job: its sheets and how they print."""
    floor = f"{printing.floor:g} pt"
    if printing.floor < 6:
        floor += " (lowered from 6 pt by game.yaml)"
    fine = (
        "every back behind its own front, no mark on a piece it is not part of, nothing in "
        f"the margin, no text under {floor}, every text in contrast with its ground"
    )
    click.echo(
        f"  printing: {number_of(printing.sheets, 'sheet')} of paper "
        f"({number_of(printing.pages, 'page')}), "
        f"{printing.sides}" + ("" if printing.failures else f": {fine}")
    )


def explain_translation(game: Game, quiet: bool = False) -> None:
    """The translation report of a game in one language, each problem at its line (the
    spec's for a string not translated, the catalog's for one that is fuzzy or broken);
    ``quiet``: the problems only."""
    report = game.report
    if report is None:
        return
    language = report.language
    label = f"{clean(game.name)} [{language}]"
    for at, text in report.missing:
        click.echo(f"{at}: not translated into {language}: {text!r}", err=True)
    for at, text in report.fuzzy:
        click.echo(f"{at}: fuzzy translation in {language}: {text!r}", err=True)
    for at, text, problem in report.broken:
        click.echo(f"{at}: the {language} translation of {text!r}: {problem}", err=True)
    for at, name, text in report.undeclared:
        click.echo(
            f"{at}: field '{name}' ({text!r}) is declared by no template of its component, so "
            f"it is not known whether it prints: declare it in the template's fields block "
            f"(text to translate it into {language}, code to keep it as it is)",
            err=True,
        )
    for other in report.unread:
        read = display_path(report.catalog) if report.catalog else f"{language}.po"
        click.echo(
            f"{display_path(other)}: warning: not read: {read} is the {language} catalog; "
            "merge what it has into that one (msgcat) or remove it",
            err=True,
        )
    engine = explain_engine_words(game)
    if quiet:
        return
    for text in report.obsolete:
        click.echo(f"  {label}: catalog string no spec uses any more: {text!r}")
    problems = report.problems + engine
    if problems:
        click.echo(
            f"  {label}: {problems} string(s) not translated; they print in the source language"
        )
    else:
        named = report.catalog is not None and report.catalog.name != f"{language}.po"
        source = f" (from {display_path(report.catalog)})" if named and report.catalog else ""
        click.echo(f"  {label}: translation complete{source}")


def explain_engine_words(game: Game) -> int:
    """What the engine's words in the game's language lack, at the game's own catalog of
    them (``locale/engine-<lang>.po``): the number of strings lacking."""
    engine, language = game.words, game.language
    for problem in engine.problems:
        at = engine.catalog + (f":{problem.line}" if problem.line else "")
        click.echo(f"{at}: engine words in {language}: {clean(problem.message)}", err=True)
    missing = engine.missing()
    if missing and not engine.own:
        click.echo(
            f"{engine.catalog}: the engine's own words (contents page, page labels, printing "
            f"notes) have no {language} translation: run 'pnp i18n engine {language}' in the "
            f"game folder and translate its {len(missing)} strings",
            err=True,
        )
    elif missing:
        for key in missing:
            line = engine.lines.get(key)
            at = engine.catalog + (f":{line}" if line else "")
            click.echo(f"{at}: engine string '{key}' is not translated into {language}", err=True)
    return len(missing) + len(engine.problems)


def _translation_place(text: str, texts: dict[str, str]) -> str | None:
    """The catalog place of the translation a text that does not fit is (or holds: a
    template may add markup around it); None for a text that is no translation."""
    if text in texts:
        return texts[text]
    held = [t for t in texts if len(t) > 3 and _holds(text, t)]
    return texts[max(held, key=len)] if held else None


def _holds(text: str, translation: str) -> bool:
    """Whether ``text`` holds ``translation``, its ``{n}`` (a form of a string that takes a
    number, such as a page title) standing for the number printed there."""
    if "{n}" not in translation:
        return translation in text
    pattern = re.escape(translation).replace(re.escape("{n}"), r"\S+?")
    return re.search(pattern, text) is not None


def explain_overflows(game: Game, overflows: list[Overflow]) -> None:
    """One error line per text that does not fit its box, even at its smallest size; a
    translated text at its catalog line, with the language named."""
    report = game.report
    places = report.places if report is not None else {}
    texts = report.texts if report is not None else {}
    for o in overflows:
        component = next((c for c in game.components if c.id == o.component), None)
        path = o.path or (component.path if component else game.doc.path)
        where = display_path(path) + (f":{o.line}" if o.line else "")
        fix = o.fix or "shorten the text or make the box larger"
        place = _translation_place(o.text, texts) if o.text else places.get(where)
        if place:
            where = place
            fix = f"shorten the {game.language} translation or make the box larger"
        click.echo(
            f"{where}: text does not fit: {o.piece}, box {clean(o.box)}: "
            f"{o.missing} missing; {fix}{_break_hint(o.text)}",
            err=True,
        )


def _break_hint(text: str) -> str:
    """What to add to an overflow of Thai text written without a zero-width space: lines
    break only at spaces and zero-width spaces, which Thai writes few of."""
    if "\u200b" in text or not any(scripts.script_of(c) is scripts.THAI for c in text):
        return ""
    return (
        " (Thai breaks into lines only at spaces and zero-width spaces: put a zero-width "
        "space, U+200B, between words where a line may break)"
    )
