"""Every catalog pnp ships, re-saved by a translator's tool, builds the same pack: each engine
catalog (generator/i18n/locale/) and each bundled one (components/*/locale,
docs/examples/*/locale) goes through GNU msgcat and msgmerge, Babel's writer and polib (which
wrap lines their own ways, the long Plural-Forms header included, and drop or keep header
fields), and is then checked and built: the pack's pages have the same text and the same
content streams as the pack built from the catalog as shipped.

The catalogs are found by globbing, their games and languages read from the files, so a game
whose strings change keeps being tested as it is."""

from __future__ import annotations

import hashlib
import io
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import polib
import pytest
import yaml
from babel.messages.pofile import read_po, write_po
from conftest import BUNDLED, REPO
from pypdf import PdfReader
from test_engine_words import init
from test_i18n import GAME, write_small_game

from generator.i18n import catalogs

Tool = Callable[[Path, Path], None]


def _msgcat(source: Path, target: Path) -> None:
    subprocess.run(["msgcat", str(source), "-o", str(target)], check=True, capture_output=True)


def _msgmerge(source: Path, target: Path) -> None:
    """msgmerge with the catalog as its own template: every entry kept, rewritten."""
    command = ["msgmerge", "--quiet", str(source), str(source), "-o", str(target)]
    subprocess.run(command, check=True, capture_output=True)


def _babel(source: Path, target: Path) -> None:
    """Babel's reader and writer with their defaults (76 columns, its own header fields)."""
    with open(source, "rb") as handle:
        catalog = read_po(handle)
    out = io.BytesIO()
    write_po(out, catalog)
    target.write_bytes(out.getvalue())


def _polib(source: Path, target: Path) -> None:
    polib.pofile(str(source)).save(str(target))


TOOLS: dict[str, Tool] = {
    "msgcat": _msgcat,
    "msgmerge": _msgmerge,
    "babel": _babel,
    "polib": _polib,
}


def pack_digest(pdf: Path) -> list[tuple[str, str]]:
    """Each page's text and a hash of its content streams."""
    reader = PdfReader(str(pdf))
    out = []
    for page in reader.pages:
        contents = page.get_contents()
        data = contents.get_data() if contents is not None else b""
        out.append((page.extract_text() or "", hashlib.sha256(data).hexdigest()))
    return out


def check_and_build(pnp, components: Path, game: str, language: str, out: Path):
    """``check --lang`` (its exit status and findings) and the pack's digest."""
    check = pnp("check", game, "--components", components, "--lang", language)
    build = pnp(
        "build", game, "--components", components, "--out", out, "--lang", language, "--force"
    )
    assert build.exit_code == 0, build.output
    said = sorted(re.sub(r"\S*/", "", line) for line in check.stderr.splitlines())
    return check.exit_code, said, pack_digest(out / game / language / f"{game}.pdf")


ENGINE = sorted(catalogs.ENGINE_LOCALE.glob("*.po"))
GAMES = sorted(
    path
    for folder in (BUNDLED, REPO / "docs" / "examples")
    for path in folder.glob("*/locale/*.po")
)


def _language(path: Path) -> str:
    return catalogs.engine_language(path) or path.stem


def _same_pack(pnp, tmp_path: Path, components: Path, game: str, path: Path, tool: str) -> None:
    """The pack built with the catalog at ``path`` re-saved by ``tool`` is the pack built
    with it as it is, and check says the same of both."""
    language = _language(path)
    before = check_and_build(pnp, components, game, language, tmp_path / "before")
    saved = tmp_path / "saved.po"
    TOOLS[tool](path, saved)
    assert saved.read_bytes() != b"", tool
    shutil.copyfile(saved, path)
    after = check_and_build(pnp, components, game, language, tmp_path / "after")
    assert after[:2] == before[:2], (tool, path.name, before[:2], after[:2])
    assert after[2] == before[2], (tool, path.name)


@pytest.mark.acceptance
@pytest.mark.parametrize("tool", list(TOOLS))
@pytest.mark.parametrize("shipped", ENGINE, ids=[p.stem for p in ENGINE])
def test_an_engine_catalog_resaved_by_a_tool_prints_the_same(pnp, tmp_path, shipped, tool):
    """An engine catalog, as a game's own locale/engine-<lang>.po (whose entries win), saved
    by each tool: the small game's pack in that language is the same."""
    language = shipped.stem
    game = write_small_game(tmp_path / "g")
    words = ("Little game", "Cards", "Trade freely with everyone.", "Bread", "Tokens")
    init(pnp, game, language, {**{w: w for w in words}, "Page [{n}]": "Page [{n}]"})
    own = catalogs.engine_file(game, language)
    shutil.copyfile(shipped, own)
    _same_pack(pnp, tmp_path, game.parent, GAME, own, tool)


@pytest.mark.acceptance
@pytest.mark.parametrize("tool", list(TOOLS))
@pytest.mark.parametrize("bundled", GAMES, ids=[f"{p.parents[1].name}-{p.stem}" for p in GAMES])
def test_a_bundled_catalog_resaved_by_a_tool_prints_the_same(pnp, tmp_path, bundled, tool):
    root = tmp_path / "components" / bundled.parents[1].name
    shutil.copytree(bundled.parents[1], root)
    declared = yaml.safe_load((root / "game.yaml").read_text(encoding="utf-8"))["languages"]
    assert _language(bundled) in declared, (bundled, declared)
    copied = root / "locale" / bundled.name
    _same_pack(pnp, tmp_path, root.parent, root.name, copied, tool)


@pytest.mark.parametrize("tool", ["msgcat", "polib"])
def test_a_polish_catalog_wrapped_by_a_tool_is_read_whole(pnp, tmp_path, tool):
    """The fast tier's share: the engine's Polish catalog, whose Plural-Forms a tool wraps
    over two lines, saved by msgcat and polib, still builds the same Polish pack."""
    shipped = catalogs.ENGINE_LOCALE / "pl.po"
    saved = tmp_path / "saved.po"
    TOOLS[tool](shipped, saved)
    wrapped = re.search(
        r'^"Plural-Forms: .*(?<!\\n)"$', saved.read_text(encoding="utf-8"), re.MULTILINE
    )
    assert wrapped or tool != "msgcat", saved.read_text(encoding="utf-8")[:900]
    test_an_engine_catalog_resaved_by_a_tool_prints_the_same(pnp, tmp_path, shipped, tool)
