"""The code follows the data: one package per stage, and no module imports from a later stage
(lazy imports and type-checking imports included), nor do modules import each other in a
circle (type-checking imports included). Read from the source with ``ast``, so a new import
that breaks the order fails here."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "generator"
# the stages in the order the data flows; the shared basics come first, the CLI last
ORDER = [
    "basics",
    "svg",
    "i18n",
    "model",
    "art",
    "layout",
    "output",
    "check",
    "plan",
    "serve",
    "cli",
]
BASICS = {"errors", "paths", "options", "profile", "limits"}
STAGES = set(ORDER) - {"basics"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def stage(module: str) -> str:
    """The stage of ``generator.<...>``: its package, a shared basic, or the CLI on top."""
    parts = module.split(".")
    if len(parts) == 1:
        return "basics"
    if parts[1] in STAGES:
        return parts[1]
    if parts[1] in BASICS:
        return "basics"
    return "cli"  # __main__: above every stage


def module_level(tree: ast.Module) -> list[ast.stmt]:
    """The statements run when a module is imported, and those a type checker reads as if
    they were (``if TYPE_CHECKING:``): a type-checking import counts in a circle too."""
    nodes: list[ast.stmt] = []
    for node in tree.body:
        nodes.append(node)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            nodes.extend(node.body)
    return nodes


def imports(path: Path, top_level_only: bool = False) -> set[str]:
    """The ``generator`` modules a file imports (at module level only, if asked)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = module_level(tree) if top_level_only else list(ast.walk(tree))
    found: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "generator":
                for alias in node.names:
                    candidate = f"{node.module}.{alias.name}"
                    is_module = any(
                        (PACKAGE.parent / candidate.replace(".", "/")).with_suffix(s).exists()
                        for s in (".py", "")
                    )
                    found.add(candidate if is_module else node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "generator"}
    return found


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def test_every_module_belongs_to_a_stage_or_the_basics():
    for name in modules():
        parts = name.split(".")
        assert len(parts) == 1 or parts[1] in STAGES | BASICS | {"__main__"}, name


def test_no_module_imports_from_a_later_stage():
    wrong = []
    for name, path in modules().items():
        mine = ORDER.index(stage(name))
        for imported in imports(path):
            if ORDER.index(stage(imported)) > mine:
                wrong.append(f"{name} ({stage(name)}) imports {imported} ({stage(imported)})")
    assert not wrong, "\n".join(wrong)


def test_modules_import_each_other_in_no_circle():
    """No circle, lazy and type-checking imports included: a circle that only an import
    inside a function closes still ties the modules together."""
    graph = {name: {m for m in imports(path) if m in modules()} for name, path in modules().items()}
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            raise AssertionError("import circle: " + " -> ".join([*trail, name]))
        if name in done:
            return
        for imported in graph.get(name, ()):
            if imported != name and not name.startswith(imported + "."):
                visit(imported, [*trail, name])
        done.add(name)

    for name in graph:
        visit(name, [])


def test_each_stage_says_what_it_takes_in_and_hands_on():
    for name in STAGES:
        doc = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text()))
        assert doc and "takes" in doc and "hands on" in doc, name
