"""One verdict on a game, the rule that build, check, watch and preview share: what fails
the check (a count the rulebook disagrees with, text that does not fit, a deck off its
recipe, pieces too large for where they stand, a pack that would print wrong, too small or
too faint to read, an incomplete translation, and with ``strict`` every warning as well: a
rulebook count no spec covers yet, a warning of loading (a column no template reads, a font,
a picture), of drawing, a line too thin, a board seam through a place, colours alike) and
whether the game passes."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.art.richtext import Overflow
from generator.check.colours import CloseColours, close_colours
from generator.check.fit import Misfit, check_fit
from generator.check.printing import PrintReport
from generator.check.rules import NOT_YET, CountRow, check_counts, check_recipes, mismatches
from generator.model.loader import Game


@dataclass(frozen=True)
class Verdict:
    """What the check found in one game and whether it passes."""

    game: Game
    counts: list[CountRow]
    overflows: list[Overflow]
    recipes: list[str]
    printing: PrintReport | None
    untranslated: int = 0  # strings a translation lacks or breaks (see check --lang)
    strict: bool = False
    pending: list[CountRow] = field(default_factory=list)  # rulebook counts not specified yet
    fit: list[Misfit] = field(default_factory=list)  # pieces too large for where they stand
    colours: list[CloseColours] = field(default_factory=list)  # warnings: colours alike
    drawing: int = 0  # warnings of drawing the pack (a picture not drawn ...)

    @property
    def broken(self) -> bool:
        """Whether what the pack prints fails: counts, fit, recipes, printing."""
        printing = self.printing.failures if self.printing else ()
        found = (mismatches(self.counts), self.overflows, self.recipes, printing, self.fit)
        return any(found)

    @property
    def warnings(self) -> int:
        """How many warnings were found: what ``--strict`` fails on besides pending counts."""
        report = self.printing
        printing = (
            len(report.thin) + len(report.seams) + len(report.backs) + len(report.near_cut)
            if report
            else 0
        )
        return len(self.game.warnings) + len(self.colours) + printing + self.drawing

    @property
    def passed(self) -> bool:
        """Whether the game passes the check."""
        doubtful = self.pending or self.warnings  # what --strict fails on
        return not (self.broken or self.untranslated or (self.strict and doubtful))


def judge(
    game: Game,
    overflows: list[Overflow],
    printing: PrintReport | None,
    untranslated: int = 0,
    strict: bool = False,
    drawing: int = 0,
) -> Verdict:
    """The verdict on ``game`` as planned (its overflows and how its pack prints, and the
    number of warnings of drawing it)."""
    counts = check_counts(game)
    pending = [r for r in counts if r.status == NOT_YET]
    recipes = check_recipes(game)
    fit, colours = check_fit(game), close_colours(game)
    return Verdict(
        game,
        counts,
        overflows,
        recipes,
        printing,
        untranslated,
        strict,
        pending,
        fit,
        colours,
        drawing,
    )


def translation_problems(game: Game) -> int:
    """The strings a game's translation lacks or breaks (its own and the engine's): missing,
    fuzzy, or not keeping what their source must keep."""
    report = game.report
    if report is None:
        return 0
    engine = game.words
    return report.problems + len(engine.missing()) + len(engine.problems)
