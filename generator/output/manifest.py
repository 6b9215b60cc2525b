"""``manifest.json``: one item per printed piece and side, with its trim box on its page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from generator.layout.pack import Pack
from generator.output.atomic import file_digest


def items(pack: Pack) -> list[dict[str, Any]]:
    """Every placement of the pack, in page order, with its page and sheet of paper."""
    out: list[dict[str, Any]] = []
    for number, page, sheet in pack.pages():
        for p in page.placements if page is not None else ():
            item = {
                "component": p.piece.component,
                "kind": p.piece.noun,
                "name": p.piece.name,
                "copy": p.piece.copy,
                "page": number,
                "sheet": sheet,
                "side": p.side,
                "x_mm": round(p.x, 3),
                "y_mm": round(p.y, 3),
                "w_mm": round(p.w, 3),
                "h_mm": round(p.h, 3),
                "rotation": p.rotation,
                "bleed_mm": p.piece.bleed,
                "shape": p.piece.shape.kind,
            }
            if p.piece.butt:  # touching its neighbours: its art stops at the trim there
                item["butt"] = True
            if p.window:
                item["tile"] = p.tile
                item["board_x_mm"] = round(p.window[0], 3)
                item["board_y_mm"] = round(p.window[1], 3)
                item["board_w_mm"] = round(p.piece.w, 3)
                item["board_h_mm"] = round(p.piece.h, 3)
            out.append(item)
    return out


def write(pack: Pack, path: Path, pdf: Path) -> None:
    """Write the manifest of ``pack`` to ``path``, with the checksum of its PDF (``pdf``), so
    that a PDF and a manifest of two builds are never taken for one pack."""
    data = {
        "game": pack.game.name,
        "title": pack.game.spec.title,
        "paper": pack.paper_name,
        "inputs": pack.key,
        "pdf_sha256": file_digest(pdf),
        "language": pack.game.language,
        "paper_mm": list(pack.paper),
        "pages": pack.page_count,
        "sheets": pack.sheet_count,
        "duplex": pack.options.duplex if pack.duplex else None,
        "items": items(pack),
    }
    path.write_text(_json(data), encoding="utf-8")


def _json(data: dict) -> str:
    """The manifest as JSON, one item a line: readable, and written by the json module's C
    encoder (an indented dump is written in Python, three times slower for 1,000 items)."""
    head = json.dumps({**data, "items": []}, indent=1, ensure_ascii=False)
    rows = ",\n".join("  " + json.dumps(i, ensure_ascii=False) for i in data["items"])
    before, _, after = head.rpartition('"items": []')  # the last key: the list goes there
    return f'{before}"items": [\n{rows}\n ]{after}\n' if rows else head + "\n"
