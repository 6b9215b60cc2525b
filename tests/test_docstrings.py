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


MAX_MODULE_LINES = 600  # the house rule (docs/contributing.md): a module a reader can hold
MAX_FUNCTION_LINES = 60  # and a function that fits on a screen, decorators and docstring in


def _too_long(source: str) -> list[tuple[str, int]]:
    """The functions (and methods) of ``source`` longer than ``MAX_FUNCTION_LINES``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = (node.end_lineno or node.lineno) - first + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.name, length))
    return found


def test_no_module_or_function_is_over_the_house_size():
    """No module of the package over 600 lines, no function over 60 (issue 42)."""
    long_modules, long_functions = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(PACKAGE.parent)
        if source.count("\n") > MAX_MODULE_LINES:
            long_modules.append(f"{where}: {source.count(chr(10))} lines")
        long_functions += [f"{where}: {name}() {n} lines" for name, n in _too_long(source)]
    assert not long_modules, long_modules
    assert not long_functions, long_functions


def test_the_size_rule_finds_a_long_function():
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    assert _too_long(f"@decorated\ndef long():\n{body}\n") == [("long", 62)]
    assert _too_long("def short():\n    return 1\n") == []
