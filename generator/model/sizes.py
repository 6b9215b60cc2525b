"""Named paper and card sizes and the sheet geometry, read from ``sizes.yaml`` beside it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from generator.paths import read_text

HERE = Path(__file__).resolve().parent  # the package's own data: sizes.yaml


@dataclass(frozen=True)
class SheetGeometry:
    """Margins and crop-mark sizes that every layout respects (mm)."""

    margin: float
    footer: float
    mark_gap: float
    mark_length: float
    mark_min_length: float
    piece_gap: float
    line_room: float


@cache
def _data() -> dict:
    return yaml.safe_load(read_text(HERE, HERE / "sizes.yaml", "package"))


def paper_sizes() -> dict[str, tuple[float, float]]:
    """Paper name → (width, height) in mm, portrait."""
    return {k: (float(w), float(h)) for k, (w, h) in _data()["paper"].items()}


def card_sizes() -> dict[str, tuple[float, float]]:
    """Card size name → (width, height) in mm."""
    return {k: (float(w), float(h)) for k, (w, h) in _data()["cards"].items()}


def sheet_geometry() -> SheetGeometry:
    """The margins and crop-mark sizes."""
    return SheetGeometry(**{k: float(v) for k, v in _data()["sheet"].items()})
