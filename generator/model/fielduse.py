"""The fields a component's templates use, from their code (``templateuse``) and their
declared ``fields`` blocks (``templatefields``), and where the two disagree: a column the code
reads that the block forgets (at the block's line), a field the block declares that the code
never reads and the engine does not either (at its line in the block), and a field the code
reads that no piece has while a column of a close name prints nowhere (at the template's
line: a misspelling such as ``card.get('flavour')`` for a column ``flavor``)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from generator.model.templatefields import (
    Field,
    FieldsError,
    declared_fields,
    declared_icons,
    template_file,
)
from generator.model.templateuse import STYLE_ICONS, Reads, template_reads

Notice = tuple[Path, int | None, str]


@dataclass
class Use:
    """What the templates of one component use: field → kind (declared, or ``code`` for a
    field only the code reads), the reads of each template, its declared block, and whether
    what they read is known at all."""

    fields: dict[str, str] = field(default_factory=dict)
    reads: dict[str, Reads] = field(default_factory=dict)
    blocks: dict[str, dict[str, Field]] = field(default_factory=dict)
    known: bool = True


def template_use(root: Path, templates: list[str], nouns: set[str]) -> Use:
    """What the templates ``templates`` read of a piece called by one of ``nouns``."""
    use = Use()
    for name in templates:
        try:
            block = declared_fields(root, name)
        except FieldsError as exc:
            exc.template = name
            raise
        reads = template_reads(root, name, nouns)
        if block is not None:
            use.blocks[name] = block
            use.fields.update({n: f.kind for n, f in block.items()})
        if reads is not None:
            use.reads[name] = reads
            for read in reads.fields:
                use.fields.setdefault(read, "code")
        if block is None and (reads is None or reads.whole):
            use.known = False
    return use


def disagreements(root: Path, use: Use, columns: dict[str, int], engine: set[str]) -> list[Notice]:
    """A notice for each way a template's fields block disagrees with its code, and each
    field the code reads that is probably a misspelt column."""
    notices: list[Notice] = []
    read_anywhere = {n for r in use.reads.values() for n in r.fields}
    for name, block in use.blocks.items():
        reads = use.reads.get(name)
        path = template_file(root, name)
        if reads is None or path is None:
            continue
        declared = {n.split(".")[0] for n in block}
        forgotten = [n for n in reads.fields if n in columns and n not in declared]
        if forgotten:
            line = min(f.line for f in block.values()) - 1 if block else 1
            listed = ", ".join(f"'{n}' (line {reads.fields[n][1]})" for n in forgotten)
            notices.append(
                (
                    path,
                    line,
                    f"{name} reads {listed} but its fields block does not declare "
                    f"{'them' if len(forgotten) > 1 else 'it'}; add "
                    "'name: kind  what it is for' to the block (text, code, number, file, "
                    "icons or colour)",
                )
            )
        if reads.whole:
            continue
        for f in block.values():
            first = f.name.split(".")[0]
            if first not in reads.fields and first not in engine:
                notices.append(
                    (
                        path,
                        f.line,
                        f"{name} declares field '{first}' but its code never reads it; remove "
                        "it from the fields block, or draw it",
                    )
                )
    notices += _misspelt(use, columns, read_anywhere, engine)
    return list(dict.fromkeys(notices))


def _misspelt(use: Use, columns: dict[str, int], read: set[str], engine: set[str]) -> list[Notice]:
    """A notice for each field the code reads that no piece has, where a column of a close
    name is read by nothing."""
    unread = sorted(c for c in columns if c not in read and c not in engine)
    notices: list[Notice] = []
    for reads in use.reads.values():
        for name, (path, line) in reads.fields.items():
            if name in columns or name in engine:
                continue
            close = difflib.get_close_matches(name, unread, n=1, cutoff=0.75)
            if close:
                notices.append(
                    (
                        path,
                        line,
                        f"the template reads field '{name}', which no piece has (did you mean "
                        f"column '{close[0]}'?); rename the column or the field",
                    )
                )
    return notices


def icon_names(root: Path, use: Use, style_icons: str | None) -> tuple[str, frozenset[str]] | None:
    """(the icon template, the icons it draws) that the icon names of the pieces are drawn by:
    the one whose macro ``icon`` the templates call (the game's ``style.icons`` for a stock
    template); None when that is not known here: none, more than one, or one that does not
    list its names."""
    sets = {s for r in use.reads.values() for s in r.icon_sets}
    named = {style_icons if s == STYLE_ICONS else s for s in sets}
    if len(named) != 1 or None in named:
        return None
    only = next(iter(n for n in named if n is not None))
    names = declared_icons(root, only)
    return None if names is None else (only, names)
