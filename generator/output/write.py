"""Writing a pack: its PDF and manifest under temporary names beside their targets, then put
in place together (see ``atomic``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.layout.pack import Pack
from generator.model.loader import Game
from generator.output import manifest, pdf, readback
from generator.output.atomic import Staged, stage_all, sweep_stale


@dataclass(frozen=True)
class Built:
    """What a build wrote."""

    pdf: Path
    manifest: Path
    pages: int


def out_folder(out_dir: Path, game: Game, by_language: bool) -> Path:
    """Where a game's pack goes: <out>/<game>/, or <out>/<game>/<lang>/."""
    folder = out_dir / game.name
    return folder / game.language if by_language else folder


@dataclass(frozen=True)
class StagedPack:
    """A pack written under temporary names: ``commit`` puts it in place."""

    files: Staged
    built: Built

    def commit(self) -> Built:
        self.files.commit()
        return self.built


def stage_pack(
    pack: Pack,
    out_dir: Path,
    by_language: bool = False,
    progress: Callable[[int], None] | None = None,
) -> StagedPack:
    """Write the PDF and manifest of ``<out>/<game>/`` (``<lang>/`` when ``by_language``)
    under temporary names beside them, flushed to disk, ready to commit."""
    folder = out_folder(out_dir, pack.game, by_language)
    sweep_stale(folder)
    pdf_path = folder / f"{pack.game.name}.pdf"
    manifest_path = folder / "manifest.json"

    def write(temps: tuple[Path, ...]) -> None:
        pdf.write(pack, temps[0], progress)
        readback.check(pack, temps[0])  # every number it prints about itself, read back
        manifest.write(pack, temps[1], temps[0])

    staged = stage_all([pdf_path, manifest_path], write)
    return StagedPack(staged, Built(pdf_path, manifest_path, pack.page_count))


def write_pack(
    pack: Pack,
    out_dir: Path,
    by_language: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Built:
    """Write ``<out>/<game>/<game>.pdf`` and ``manifest.json`` (under ``<lang>/`` when
    ``by_language``), both in place only once both are written."""
    return stage_pack(pack, out_dir, by_language, progress).commit()
