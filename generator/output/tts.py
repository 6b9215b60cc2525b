"""Tabletop Simulator decks (``pnp export --tts``): per deck of cards, face sheets as TTS's
Custom Deck reads them (a grid of at most 10 x 7, every distinct face once), the back image,
and a saved object that lays the whole deck, every copy, on the table.

TTS cuts a sheet into NumWidth x NumHeight equal cells and numbers cards ``100 * deck + cell``;
the last cell of a full 10 x 7 sheet is the "hidden" image TTS shows for a card in another
player's hand, so a sheet holds 69 faces and that cell gets the back. A sheet stays within
4096 px a side: larger textures fail to load on many players' graphics cards."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from generator.layout.pack import Pack
from generator.output.shop import MM_PER_IN, ShopPage, pictures, save_png, shop_pages
from generator.output.staging import replacing_folder

COLUMNS, ROWS = 10, 7  # the largest grid TTS's Custom Deck takes
PER_SHEET = COLUMNS * ROWS - 1  # the last cell is the hidden-card image
MAX_SIDE = 4096  # px, a sheet's width and height
MAX_DPI = 300


@dataclass(frozen=True)
class Sheet:
    """One face sheet: its faces in cell order and its grid."""

    faces: list[ShopPage]
    columns: int
    rows: int


def sheets_of(faces: list[ShopPage]) -> list[Sheet]:
    """The faces cut into sheets of at most 69, each on the smallest grid of at most 10 x 7
    that holds them (a full sheet keeps its last cell for the hidden image)."""
    out = []
    for start in range(0, len(faces), PER_SHEET):
        part = faces[start : start + PER_SHEET]
        cells = len(part) + 1  # and the hidden-card image
        columns = min(COLUMNS, cells)
        out.append(Sheet(part, columns, math.ceil(cells / columns)))
    return out


def card_px(w_mm: float, h_mm: float) -> tuple[int, int]:
    """A card's cell in pixels: as sharp as a 10 x 7 sheet within ``MAX_SIDE`` allows, at most
    ``MAX_DPI``, the card's proportions kept."""
    scale = min(MAX_SIDE / COLUMNS / w_mm, MAX_SIDE / ROWS / h_mm, MAX_DPI / MM_PER_IN)
    return math.floor(w_mm * scale), math.floor(h_mm * scale)


def export(pack: Pack, folder: Path) -> list[Path]:
    """Write every card deck of the pack for TTS into ``folder`` (replacing it): face sheets,
    backs, one saved object per deck, and ``tts.json`` listing them."""
    with replacing_folder(folder) as tmp:
        written, listing = [], []
        for number, (component, pages) in enumerate(
            shop_pages(pack, frozenset({"card"})).items(), 1
        ):
            files, entry = _deck(pack, component, pages, number, tmp, folder)
            written += files
            listing.append(entry)
        path = tmp / "tts.json"
        document = {"game": pack.game.name, "decks": listing}
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
        written.append(path)
    return [folder / p.relative_to(tmp) for p in written]


def _deck(
    pack: Pack, component: str, pages: list[ShopPage], number: int, tmp: Path, folder: Path
) -> tuple[list[Path], dict]:
    """One deck's sheets, back(s) and saved object, and its entry in ``tts.json``: one back
    image where the cards share a back, else a back sheet beside each face sheet (TTS's
    UniqueBack), cell for cell."""
    size = card_px(pages[0].w, pages[0].h)
    dpi = size[0] / pages[0].w * MM_PER_IN
    faces = [p for p in pages if p.side == "face"]
    backs = {p.name: p for p in pages if p.side == "back"}
    unique = len({p.art for p in backs.values()}) > 1
    drawn = faces + list(backs.values())
    images = pictures(pack, drawn, (pages[0].w, pages[0].h), size)  # at the trim: TTS shows all
    drawn_as = dict(zip((id(p) for p in drawn), images, strict=True))
    blank = Image.new("RGB", size, "white")

    def back_of(face: ShopPage | None) -> Image.Image:
        page = backs.get(face.name) if face else next(iter(backs.values()), None)
        return drawn_as[id(page)] if page else blank

    written, sheets, custom, cards = [], [], {}, []
    if not unique:
        written.append(save_png(back_of(None), tmp / f"{component}-back.png", dpi))
    for index, sheet in enumerate(sheets_of(faces), start=1):
        key = number * 100 + index  # TTS's deck key: cards are 100 * key + cell
        cells = [*sheet.faces, None]  # the last cell: the hidden-card image, the back
        face_file, back_file = f"{component}-faces-{index}.png", f"{component}-back.png"
        written.append(
            save_png(
                _grid(sheet, [drawn_as[id(f)] if f else back_of(None) for f in cells], size),
                tmp / face_file,
                dpi,
            )
        )
        if unique:
            back_file = f"{component}-backs-{index}.png"
            written.append(
                save_png(_grid(sheet, [back_of(f) for f in cells], size), tmp / back_file, dpi)
            )
        cards += [
            (100 * key + cell, f.name)
            for cell, f in enumerate(sheet.faces)
            for _ in range(f.copies)
        ]
        sheets.append(
            {
                "file": face_file,
                "back": back_file,
                "px": [size[0] * sheet.columns, size[1] * sheet.rows],
                "grid": [sheet.columns, sheet.rows],
                "faces": [{"name": f.name, "copies": f.copies} for f in sheet.faces],
            }
        )
        custom[str(key)] = {
            "FaceURL": (folder / face_file).resolve().as_uri(),
            "BackURL": (folder / back_file).resolve().as_uri(),
            "NumWidth": sheet.columns,
            "NumHeight": sheet.rows,
            "BackIsHidden": True,
            "UniqueBack": unique,
            "Type": 0,
        }
    saved = tmp / f"{component}.json"
    saved.write_text(json.dumps(_saved_object(component, custom, cards), indent=1) + "\n", "utf-8")
    written.append(saved)
    entry = {
        "component": component,
        "card_px": list(size),
        "cards": len(cards),
        "unique_backs": unique,
        "sheets": sheets,
        "saved_object": saved.name,
    }
    return written, entry


def _grid(sheet: Sheet, pictures: list[Image.Image], size: tuple[int, int]) -> Image.Image:
    """The pictures in the sheet's cells, row by row (white where a cell is empty)."""
    image = Image.new("RGB", (size[0] * sheet.columns, size[1] * sheet.rows), "white")
    for cell, picture in enumerate(pictures):
        image.paste(picture, ((cell % sheet.columns) * size[0], (cell // sheet.columns) * size[1]))
    return image


def _saved_object(component: str, custom: dict, cards: list[tuple[int, str]]) -> dict:
    """A TTS saved object: the deck (every copy, in the order of the spec) face down, or the
    card itself where a deck has one."""
    transform = {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180}
    transform |= {"scaleX": 1, "scaleY": 1, "scaleZ": 1}
    contained = [
        {
            "Name": "Card",
            "Nickname": name,
            "CardID": card_id,
            "CustomDeck": {str(card_id // 100): custom[str(card_id // 100)]},
            "Transform": transform,
        }
        for card_id, name in cards
    ]
    if len(contained) == 1:  # one card is a card, not a deck
        return {"SaveName": component, "ObjectStates": contained}
    deck = {
        "Name": "DeckCustom",
        "Nickname": component,
        "Transform": transform,
        "DeckIDs": [card_id for card_id, _ in cards],
        "CustomDeck": custom,
        "ContainedObjects": contained,
    }
    return {"SaveName": component, "ObjectStates": [deck]}
