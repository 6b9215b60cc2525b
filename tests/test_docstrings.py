"""The docstrings a newcomer reads first tell the truth (issue 42): ``generator/__init__.py``
names every package and top-level module of ``generator/`` and nothing else, and no docstring
names a module (``model.loader``, ``generator.plan.games``) that is not there."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import generator

PACKAGE = Path(generator.__file__).resolve().parent
NAMED = re.compile(r"``(\w+)``")
DOTTED = re.compile(r"``(?:generator\.)?([a-z_0-9]+(?:\.\w+)+)``")


def _listing() -> set[str]:
    """``ls generator/``: its packages and modules, caches and data aside."""
    found = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    return found | {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}


def test_the_package_docstring_names_what_is_in_the_package():
    named = set(NAMED.findall(generator.__doc__ or ""))
    assert named == _listing(), (
        f"named but not there: {sorted(named - _listing())}; "
        f"there but not named: {sorted(_listing() - named)}"
    )


def _resolves(reference: str) -> bool:
    """``reference`` (``model.loader``, ``i18n.plurals.Forms``) is a module of generator, or
    an attribute of one."""
    parts = ["generator", *reference.split(".")]
    for end in range(len(parts), 1, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:end]))
        except ImportError:
            continue
        for name in parts[end:]:
            if not hasattr(found, name):
                return False
            found = getattr(found, name)
        return True
    return False


def _docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return [
        doc
        for node in ast.walk(tree)
        if isinstance(node, kinds)
        if (doc := ast.get_docstring(node))
    ]


def test_no_docstring_names_a_module_that_is_gone():
    tops = _listing()
    wrong = [
        f"{path.relative_to(PACKAGE.parent)}: ``{reference}``"
        for path in sorted(PACKAGE.rglob("*.py"))
        for doc in _docstrings(path)
        for reference in DOTTED.findall(doc)
        if reference.split(".")[0] in tops and not _resolves(reference)
    ]
    assert wrong == []


def test_a_module_that_is_gone_is_found():
    assert _resolves("model.loader") and _resolves("i18n.plurals.Forms")
    assert not _resolves("spec.loader") and not _resolves("model.loader.nothing_here")
