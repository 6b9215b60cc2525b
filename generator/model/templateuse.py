"""What a template really reads of its piece, from its own Jinja syntax tree: every field it
reads (``card.x``, ``card['x']``, ``card.get('x')``, the same of ``piece``), the line of its
first read, and the icon templates it imports (a constant name, or the game's ``style.icons``).

The declared ``fields`` block of a template says what a field is for (text to translate, a
colour ...); this says whether the template reads it at all, so that a column the code reads
but the block forgets is not called unprinted, and a block that disagrees with the code is
said (see ``fielduse``). A template that hands its piece on whole (to a macro, a filter, a
variable of its own) reads what is not known here: ``whole`` is then true. Templates it
includes, or imports with their context, are read with it."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2
from jinja2 import nodes

from generator.model.templatefields import template_file
from generator.paths import PathRefused, read_text

STYLE_ICONS = "style.icons"  # an icon template chosen by the game's style, not named here
_DEPTH = 8  # included templates followed at most this deep
_PARSER = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)
PARSED_TEMPLATES = 256  # syntax trees kept (by their text) between reviews


@dataclass
class Reads:
    """What a template reads of its piece: field → (file, line of its first read), whether it
    hands the piece on whole, and the icon templates it imports."""

    fields: dict[str, tuple[Path, int]] = field(default_factory=dict)
    whole: bool = False
    icon_sets: set[str] = field(default_factory=set)  # templates whose macro icon() it calls
    aliases: dict[str, str] = field(default_factory=dict)  # import ... as alias → template


def _const_name(node: nodes.Node | None) -> str | None:
    """The string a node is when it is a constant string, else None."""
    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        return node.value
    return None


def _template_name(node: nodes.Node) -> str | None:
    """The template an import or include names: a constant, STYLE_ICONS for ``style.icons``."""
    style = isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name)
    if style and node.attr == "icons" and node.node.name == "style":  # type: ignore[attr-defined]
        return STYLE_ICONS
    return _const_name(node)


def _read_of(name: nodes.Name, parent: nodes.Node | None, grand: nodes.Node | None) -> str | None:
    """The field a use of the piece variable reads, '' for a use that reads none (a test such as
    ``card is defined``), None for a use that hands the piece on whole."""
    if isinstance(parent, nodes.Getattr) and parent.node is name:
        if parent.attr == "get" and isinstance(grand, nodes.Call) and grand.node is parent:
            return _const_name(grand.args[0] if grand.args else None)
        return parent.attr
    if isinstance(parent, nodes.Getitem) and parent.node is name:
        return _const_name(parent.arg)
    if isinstance(parent, nodes.Test) and parent.node is name:
        return ""
    return None


def _imported(node: nodes.Import | nodes.FromImport, name: str, reads: Reads) -> None:
    """Note an import of template ``name``: its alias, or its macro ``icon`` imported."""
    if isinstance(node, nodes.Import):
        reads.aliases[node.target] = name
        return
    for imported in node.names:
        if (imported[0] if isinstance(imported, tuple) else imported) == "icon":
            reads.icon_sets.add(name)


def _walk(
    node: nodes.Node, chain: tuple[nodes.Node, ...], nouns: set[str], path: Path, reads: Reads
) -> list[str]:
    """Record what ``node`` and its children read into ``reads``; the templates they include
    with their context (to be read too)."""
    followed: list[str] = []
    if isinstance(node, nodes.Name) and node.name in nouns and node.ctx == "load":
        parent, grand = (chain[-1] if chain else None), (chain[-2] if len(chain) > 1 else None)
        found = _read_of(node, parent, grand)
        if found is None:
            reads.whole = True
        elif found:
            reads.fields.setdefault(found, (path, node.lineno))
    if isinstance(node, (nodes.Import, nodes.FromImport)):
        name = _template_name(node.template)
        if name is not None:
            _imported(node, name, reads)
            if node.with_context and name != STYLE_ICONS:
                followed.append(name)
    if isinstance(node, nodes.Call) and isinstance(node.node, nodes.Getattr):
        called = node.node
        alias = called.node.name if isinstance(called.node, nodes.Name) else None
        if called.attr == "icon" and alias in reads.aliases:
            reads.icon_sets.add(reads.aliases[alias])
    if isinstance(node, nodes.Include):
        name = _template_name(node.template)
        if name is not None and name != STYLE_ICONS:
            followed.append(name)
    for child in node.iter_child_nodes():
        followed += _walk(child, (*chain, node), nouns, path, reads)
    return followed


@lru_cache(maxsize=PARSED_TEMPLATES)
def _parsed(source: str) -> nodes.Template:
    """A template's syntax tree, parsed once per text: the preview reviews every template
    again on each save, and most saves change no template."""
    return _PARSER.parse(source)


def template_reads(root: Path, name: str, nouns: set[str]) -> Reads | None:
    """What template ``name`` of the game in ``root`` reads of a piece called by one of
    ``nouns`` (``card``, ``piece`` ...); None when it cannot be read or parsed here (the art
    stage says why)."""
    reads = Reads()
    waiting, seen = [name], set[str]()
    while waiting and len(seen) < _DEPTH:
        current = waiting.pop()
        if current in seen:
            continue
        seen.add(current)
        path = template_file(root, current)
        if path is None:
            return None if current == name else reads
        try:
            tree = _parsed(read_text(path.parent, path, "template"))
        except (PathRefused, UnicodeDecodeError, jinja2.TemplateSyntaxError):
            return None
        waiting += _walk(tree, (), nouns, path, reads)
    return reads
