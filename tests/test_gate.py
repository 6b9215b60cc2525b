"""The one gate every file a game names is read through (``paths.read_bytes``): inside its
folder, a regular file, no larger than its kind may be, refused before a byte is read."""

from __future__ import annotations

import ast
import importlib
import io
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import jinja2
import pytest
from PIL import Image

import generator
from generator.art.templates import ContainedLoader
from generator.errors import ErrorList, SpecError
from generator.limits import FILE_BYTES
from generator.model.fontfiles import FontFileError, coverage
from generator.model.gamefolders import real_folders
from generator.model.loader import load_game
from generator.paths import PathRefused, TooLarge, check, chunks, read_bytes, read_text
from generator.plan import cache
from generator.profile import load_profile
from generator.svg import raster
from generator.svg.fonts import FONT_DIR, read_font


def test_a_file_inside_is_read(tmp_path: Path):
    (tmp_path / "a.yaml").write_text("title: Ä\n", encoding="utf-8")
    assert read_text(tmp_path, tmp_path / "a.yaml", "spec") == "title: Ä\n"


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda root, p: None, "not found"),
        (lambda root, p: p.mkdir(), "not a regular file"),
        (lambda root, p: os.mkfifo(p), "not a regular file"),
        (lambda root, p: p.symlink_to("/etc/hostname"), "outside its folder"),
        (lambda root, p: p.symlink_to(p), "loop of links"),
    ],
    ids=["missing", "folder", "fifo", "link out", "link to itself"],
)
def test_what_is_not_a_file_inside_is_refused(tmp_path: Path, make, said: str):
    path = tmp_path / "x.yaml"
    make(tmp_path, path)
    with pytest.raises(PathRefused, match=said):
        read_bytes(tmp_path, path, "spec")


def test_a_file_past_its_kind_is_refused_before_it_is_read(tmp_path: Path):
    """A sparse file of 3 GB (a few bytes on disk) is refused by its size, not read."""
    path = tmp_path / "big.csv"
    with open(path, "wb") as handle:
        handle.truncate(3_000_000_000)
    with pytest.raises(PathRefused, match=f"may be {FILE_BYTES['data']:,} at most"):
        read_bytes(tmp_path, path, "data")


def test_an_unreadable_file_is_refused(tmp_path: Path):
    path = tmp_path / "a.yaml"
    path.write_text("x: 1\n")
    path.chmod(0)
    if os.access(path, os.R_OK):  # root reads anything: give it a file it cannot open
        path.chmod(0o644)
        path.unlink()
        path.mkdir()
    with pytest.raises(PathRefused):
        read_bytes(tmp_path, path, "spec")


# -- nothing reads a file but through the gate ------------------------------------------------

PACKAGE = Path(__file__).resolve().parent.parent / "generator"

# each place that may open a file itself, and why: (module, function, or None for all of it)
ALLOWED = {
    ("paths.py", None): "the gate itself",
    ("output/atomic.py", None): "the writer: the temporary files it writes, its lock file, and "
    "the digest of the PDF it wrote",
    ("i18n/catalogs.py", "write_catalog"): "writes a catalog into the temporary file that "
    "output.atomic.replacing hands it",
    ("cli/__init__.py", "cli"): "pnp --quiet sends its output to os.devnull (a write)",
    ("output/render.py", "write_png"): "writes a PNG strip by strip into the folder that "
    "output.staging hands it",
    ("model/spreadsheets.py", "_inflated"): "inflates a member of a zip held in memory (its "
    "bytes came through the gate), with a cap",
    ("cli/new.py", "_copy_example"): "copies a bundled example out of the package (the engine's "
    "own files, never a stranger's) into the new game's folder",
}
GATE_FUNCTIONS = {"read_bytes", "read_text"}  # what generator.paths offers under these names
IN_MEMORY = {"BytesIO", "stream"}  # io.BytesIO(...) and FontFile.stream(): bytes read already
# the argument that names what is read, for readers that may read a path or a file in memory
SOURCE_ARGUMENT = {
    "TTFont": 1,
    "TTFontFile": 0,
    "OpenTypeFont": 0,  # fontTools' TTFont, as generator/model/fontforms.py calls it
    "TTCollection": 0,
    "load_workbook": 0,
    "read_po": 0,
    "ZipFile": 0,
    "getOpenProfile": 0,
    "open": 0,  # Image.open
}
NEVER = {
    ("tomllib", "load"): "tomllib.load reads a file: read it through the gate, then loads()",
    ("etree", "parse"): "etree.parse reads a file: read it through the gate, then fromstring()",
    ("os", "open"): "os.open: only the gate opens files",
    ("os", "fdopen"): "os.fdopen: only the gate opens files",
    ("io", "open"): "io.open: only the gate opens files",
    ("shutil", "copy"): "shutil reads files: read them through the gate",
    ("shutil", "copy2"): "shutil reads files: read them through the gate",
    ("shutil", "copyfile"): "shutil reads files: read them through the gate",
    ("shutil", "copytree"): "shutil reads files: read them through the gate",
}


def _name(node: ast.expr) -> str:
    """The last name of a called thing: ``open``, ``read_text`` (of ``path.read_text``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _owner(node: ast.expr) -> str:
    """What an attribute is taken from, when it is a plain name: ``Image`` of ``Image.open``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id
    return ""


def _in_memory(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) in IN_MEMORY


def _gate_names(tree: ast.Module) -> set[str]:
    """The names a module imported from ``generator.paths`` (its gate functions)."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "generator.paths"
        for alias in node.names
    }


def reads_outside_the_gate(source: str) -> list[tuple[int, str | None, str]]:
    """Every call in ``source`` that reads a file by itself: (line, enclosing function,
    what is wrong)."""
    tree = ast.parse(source)
    gate = _gate_names(tree)
    found: list[tuple[int, str | None, str]] = []

    def visit(node: ast.AST, function: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        problem = _problem(node, gate) if isinstance(node, ast.Call) else None
        if isinstance(node, ast.Name | ast.Attribute) and _name(node) == "FileSystemLoader":
            problem = "Jinja's FileSystemLoader reads templates by path: use ContainedLoader"
        if _imports_resources(node):
            problem = "importlib.resources reads the package's files: read them through the gate"
        if problem:
            found.append((getattr(node, "lineno", 0), function, problem))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, None)
    return found


def _imports_resources(node: ast.AST) -> bool:
    """``import importlib.resources`` or ``from importlib import resources``."""
    if isinstance(node, ast.Import):
        return any(alias.name.startswith("importlib.resources") for alias in node.names)
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        names = {alias.name for alias in node.names}
        return module.startswith("importlib.resources") or (
            module == "importlib" and "resources" in names
        )
    return False


def _problem(call: ast.Call, gate: set[str]) -> str | None:
    """What is wrong with one call, if it reads a file by itself."""
    name, owner = _name(call.func), _owner(call.func)
    if (owner, name) in NEVER:
        return NEVER[owner, name]
    if name in GATE_FUNCTIONS:
        through_gate = owner == "paths" or (isinstance(call.func, ast.Name) and name in gate)
        return None if through_gate else f"{name}() of a path: use paths.{name}(root, path, kind)"
    if name == "open" and owner != "Image":
        return "open(): read through paths.read_bytes / read_text"
    if name == "open" and not any(k.arg == "formats" for k in call.keywords):
        return "Image.open without formats=: every kind Pillow has would be decoded"
    if name in SOURCE_ARGUMENT and (name != "open" or owner == "Image"):
        index = SOURCE_ARGUMENT[name]
        given = call.args[index] if len(call.args) > index else None
        if given is None or not _in_memory(given):
            return f"{name} on a path: read the bytes through the gate, then io.BytesIO"
    return None


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _allowed(module: str, function: str | None) -> bool:
    return (module, None) in ALLOWED or (module, function) in ALLOWED


def test_no_file_is_read_but_through_the_gate():
    """Walk every module of the engine: a call that opens or reads a file by itself (open,
    Path.read_bytes/read_text, Image.open without formats= or on a path, TTFont or
    TTFontFile on a path, load_workbook, FileSystemLoader, tomllib.load, read_po on a path,
    importlib.resources) is allowed only where ``ALLOWED`` says why."""
    found = []
    for path in _modules():
        module = path.relative_to(PACKAGE).as_posix()
        for line, function, problem in reads_outside_the_gate(path.read_text(encoding="utf-8")):
            if not _allowed(module, function):
                found.append(f"generator/{module}:{line} ({function}): {problem}")
    assert not found, "\n".join(found)


def test_every_exception_allowed_is_still_needed():
    """An entry of ``ALLOWED`` that allows nothing any more goes, so the list stays short."""
    used = set()
    for path in _modules():
        module = path.relative_to(PACKAGE).as_posix()
        for _, function, _ in reads_outside_the_gate(path.read_text(encoding="utf-8")):
            used.add((module, None) if (module, None) in ALLOWED else (module, function))
    assert set(ALLOWED) <= used, set(ALLOWED) - used


@pytest.mark.parametrize(
    "call",
    [
        "open(p)",
        "p.read_bytes()",
        "p.read_text(encoding='utf-8')",
        "Image.open(io.BytesIO(raw))",
        "Image.open(p, formats=['PNG'])",
        "TTFont('x', str(p))",
        "TTFontFile(p)",
        "openpyxl.load_workbook(p, read_only=True)",
        "jinja2.FileSystemLoader(['t'])",
        "tomllib.load(handle)",
        "pofile.read_po(handle)",
        "resources.files('generator').joinpath('x').read_text()",
        "None\n    from importlib import resources",
        "zipfile.ZipFile(p)",
        "shutil.copytree(a, b)",
        "os.open(p, os.O_RDONLY)",
    ],
)
def test_the_walk_finds_each_kind_of_read(call: str):
    """The walk is not vacuous: each way of reading a file by itself is found."""
    assert reads_outside_the_gate(f"def f():\n    return {call}\n"), call


@pytest.mark.parametrize(
    "call",
    [
        "paths.read_bytes(root, p, 'image')",
        "Image.open(io.BytesIO(raw), formats=FORMATS)",
        "TTFont('x', font.stream())",
        "TTFontFile(font.stream())",
        "openpyxl.load_workbook(io.BytesIO(data))",
        "pofile.read_po(io.BytesIO(raw))",
        "tomllib.loads(text)",
    ],
)
def test_the_walk_lets_reads_through_the_gate_pass(call: str):
    source = f"from generator.paths import read_bytes\ndef f():\n    return {call}\n"
    assert not reads_outside_the_gate(source), call


# -- what each reader makes of the gate ---------------------------------------------------------

GAME = "title: G\nplayers: 2\n"
DECK = "kind: deck\ntitle: Cards\nsize: poker\nface: face.svg.j2\ncards:\n  - {name: a}\n"


def _game(tmp_path: Path, game: str = GAME) -> Path:
    root = tmp_path / "g"
    (root / "templates").mkdir(parents=True)
    (root / "game.yaml").write_text(game, encoding="utf-8")
    (root / "deck.yaml").write_text(DECK, encoding="utf-8")
    (root / "templates" / "face.svg.j2").write_text("<svg/>", encoding="utf-8")
    return root


def test_check_and_chunks_refuse_as_the_gate_does_and_stop_at_their_limit(tmp_path: Path):
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(PathRefused, match="not a regular file"):
        check(tmp_path, tmp_path / "pipe", "template")
    (tmp_path / "a.bin").write_bytes(b"x" * 10)
    assert b"".join(chunks(tmp_path, tmp_path / "a.bin", 10, size=3)) == b"x" * 10
    with pytest.raises(TooLarge) as refused:
        list(chunks(tmp_path, tmp_path / "a.bin", 9))
    assert (refused.value.size, refused.value.limit) == (10, 9)


def test_a_font_refused_at_loading_is_not_on_the_game(tmp_path: Path):
    """The loader reads each font once; one it refuses is not among ``Game.fonts``, the fonts
    the art stage registers, so no error mode opens it again."""
    fonts = "fonts:\n  - {family: A, file: a.ttf}\n  - {family: B, file: b.ttf}\n"
    fonts += "  - {family: C, file: c.ttf}\n"
    root = _game(tmp_path, GAME + fonts)
    (root / "a.ttf").write_bytes((FONT_DIR / "DejaVuSansMono.ttf").read_bytes())
    (root / "b.ttf").write_bytes(os.urandom(3000))
    os.mkfifo(root / "c.ttf")
    errors = ErrorList()
    game = load_game(root, errors, partial=True)
    assert game is not None and set(game.fonts) == {0}
    said = "\n".join(map(str, errors.errors))
    assert "game.yaml:5: font 'b.ttf' is not a font file" in said, said
    assert "game.yaml:6: font 'c.ttf' is not a regular file" in said, said


def test_a_font_past_its_size_is_refused_before_it_is_read(tmp_path: Path):
    with open(tmp_path / "big.ttf", "wb") as handle:
        handle.truncate(FILE_BYTES["font"] + 1)
    with pytest.raises(TooLarge):
        read_font(tmp_path, tmp_path / "big.ttf")


def test_a_damaged_font_is_a_font_error(tmp_path: Path):
    data = bytearray((FONT_DIR / "DejaVuSansMono.ttf").read_bytes())
    (tmp_path / "cut.ttf").write_bytes(data[:2000])
    with pytest.raises(FontFileError):
        coverage(read_font(tmp_path, tmp_path / "cut.ttf"))


def test_templates_and_includes_are_read_through_the_gate(tmp_path: Path, monkeypatch):
    root = _game(tmp_path)
    (root / "templates" / "part.svg").symlink_to(tmp_path / "elsewhere.svg")
    (tmp_path / "elsewhere.svg").write_text("<g/>", encoding="utf-8")
    loader = ContainedLoader([root / "templates"])
    environment = jinja2.Environment(loader=loader)
    with pytest.raises(jinja2.TemplateNotFound, match="leads outside its folder"):
        environment.get_template("part.svg")
    monkeypatch.setitem(FILE_BYTES, "template", 3)
    with pytest.raises(jinja2.TemplateNotFound, match="may be 3 at most"):
        environment.get_template("face.svg.j2")


def _picture(kind: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 3), "red").save(out, kind)
    return out.getvalue()


@pytest.mark.parametrize("kind", raster.FORMATS)
def test_the_kinds_the_readme_lists_are_opened(kind: str):
    with raster.open_image(_picture(kind)) as image:
        assert image.size == (4, 3)


@pytest.mark.parametrize("kind", ["EPS", "ICO", "BMP", "PPM"])
def test_no_other_kind_is_opened(kind: str):
    """EPS would run Ghostscript; ICO decodes the picture inside before its size is known.
    Pillow identifies none of them, and the user is told what to export."""
    with pytest.raises(raster.ImageProblem, match="BMP picture, which pnp does not|none of PNG"):
        raster.open_image(_picture(kind))
    with pytest.raises(raster.ImageProblem, match="export it as PNG or JPEG"):
        raster.load(_picture(kind))


@pytest.fixture
def deep_tree() -> Iterator[Callable[[Path, int], Path]]:
    """Makes ``top`` and ``depth`` folders nested in it, one level at a time (pathlib's own
    ``mkdir(parents=True)`` recurses), and returns the deepest; afterwards it takes each tree
    down from the bottom, since shutil.rmtree (pytest's clean-up of old runs) recurses."""
    made: list[Path] = []

    def make(top: Path, depth: int) -> Path:
        top.mkdir()
        for _ in range(depth):
            top = top / "d"
            top.mkdir()
        made.append(top)
        return top

    yield make
    for deepest in made:
        for folder in [deepest, *deepest.parents]:
            if folder.name != "d":
                break
            for entry in folder.iterdir():
                entry.unlink()
            folder.rmdir()


def test_a_watch_lists_the_real_folders_and_no_link_out(tmp_path: Path, deep_tree):
    """A link to / inside a game is not followed (the recursive watch of the operating system
    would walk the whole file system); a tree 1,200 folders deep is no recursion."""
    root = _game(tmp_path)
    (root / "root").symlink_to("/")
    (root / "output").mkdir()
    deep_tree(root / "art", 1200)
    found = real_folders([root])
    assert root.resolve() in found and (root / "templates").resolve() in found
    assert not any(p.is_relative_to(root / "root") or p == root / "output" for p in found)
    assert len(found) == 2 + 1201


def test_the_build_cache_hashes_past_its_total_by_size_and_time(tmp_path: Path, monkeypatch):
    """Once a tree has had ``MAX_HASHED_TOTAL`` bytes hashed, its other files count by their
    size and time: a change of content that keeps both is not seen there, and is seen in a
    file hashed before."""
    monkeypatch.setattr(cache, "MAX_HASHED_TOTAL", 10)
    root = _game(tmp_path)
    for name in ("a.bin", "b.bin"):
        (root / name).write_bytes(b"12345678")
    key = cache.pack_key(root, {})

    def rewrite(path: Path, data: bytes) -> None:
        stamp = path.stat()
        path.write_bytes(data)
        os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))

    rewrite(root / "b.bin", b"87654321")
    assert cache.pack_key(root, {}) == key
    rewrite(root / "a.bin", b"87654321")
    assert cache.pack_key(root, {}) != key


def test_the_build_cache_walks_a_deep_tree_without_recursion(tmp_path: Path, deep_tree):
    deep = deep_tree(tmp_path / "g", 1200)
    (deep / "x.txt").write_text("x", encoding="utf-8")
    assert cache.pack_key(tmp_path / "g", {})


@pytest.mark.parametrize("make", [os.mkfifo, lambda p: p.symlink_to("/dev/zero")])
def test_a_profile_that_is_no_file_is_an_error(tmp_path: Path, monkeypatch, make):
    config = tmp_path / "config.toml"
    make(config)
    monkeypatch.setenv("PNP_CONFIG", str(config))
    with pytest.raises(SpecError, match="config.toml"):
        load_profile(("a4",))


CLOCK_LIMITS = ("RENDER_SECONDS", "BUILD_SECONDS", "PIECE_SECONDS", "BUILD_OUTPUT", "PIECE_OUTPUT")


def _limit_constants() -> list[tuple[str, object]]:
    """Every ``MAX_*`` constant of the package (and the template clock's), as (name, value):
    what docs/safety.md must list (a name two modules use, with each value)."""
    found: list[tuple[str, object]] = []
    package = Path(generator.__file__).parent
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [
            target.id
            for node in tree.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
            and (target.id.startswith("MAX_") or target.id in CLOCK_LIMITS)
        ]
        if names:
            module = importlib.import_module(
                ".".join(path.relative_to(package.parent).with_suffix("").parts)
            )
            found += [(name, getattr(module, name)) for name in names]
    return found


def _shown(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,g}"


def test_docs_safety_lists_every_limit_with_its_value() -> None:
    """docs/safety.md (README's "Safety and limits" points to it) names every limit constant
    and every file kind of limits.py, each with the value the code has."""
    text = (Path(generator.__file__).parent.parent / "docs" / "safety.md").read_text("utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    missing = []
    for name, value in _limit_constants():
        if not any(f"`{name}`" in row and f"| {_shown(value)}" in row for row in rows):
            missing.append(f"{name} = {_shown(value)}")
    for kind, size in FILE_BYTES.items():
        if not any(f"| `{kind}` | {size:,} bytes |" in row for row in rows):
            missing.append(f"FILE_BYTES[{kind!r}] = {size:,}")
    assert not missing, f"docs/safety.md lacks (or shows another value of): {missing}"
