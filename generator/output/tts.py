"""Tabletop Simulator (``pnp export --tts``): per deck of cards, face sheets as TTS's Custom
Deck reads them (a grid of at most 10 x 7, every distinct face once), the back image, and a
saved object that lays the whole deck, every copy, on the table; every other piece as the
object TTS has for it (``ttspieces``); and one saved Bag with all of them, every copy, that
``README.txt`` lists object by object.

TTS cuts a sheet into NumWidth x NumHeight equal cells and numbers cards ``100 * deck + cell``;
the last cell of the grid is the "hidden" image TTS shows for a card in another player's
hand, so a sheet holds at most 69 faces and its last cell gets the back; a sheet's grid is the
one of the fewest cells that holds them (none left blank where one fits exactly). A sheet
stays within 4096 px a side: larger textures fail to load on many players' graphics cards."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from generator.layout.pack import Pack
from generator.output import ttspieces
from generator.output.render import save_png
from generator.output.shop import MM_PER_IN, ShopPage, Step, pictures, quiet, shop_pages
from generator.output.staging import replacing_folder
from generator.output.ttspieces import TRANSFORM

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
    """The faces cut into sheets of at most 69, each on the grid of at most 10 x 7 that
    holds them and the hidden image with the fewest cells (the widest of those): TTS takes
    the grid's last cell for the hidden image, so no cell is left over where a grid fits
    exactly."""
    out = []
    for start in range(0, len(faces), PER_SHEET):
        part = faces[start : start + PER_SHEET]
        out.append(Sheet(part, *grid_for(len(part) + 1)))  # and the hidden-card image
    return out


def grid_for(cells: int) -> tuple[int, int]:
    """The columns and rows (at most 10 x 7) of the fewest cells, at least ``cells``, the
    widest grid of those."""
    grids = [(c, r) for c in range(1, COLUMNS + 1) for r in range(1, ROWS + 1) if c * r >= cells]
    return min(grids, key=lambda g: (g[0] * g[1], -g[0]))


def card_px(w_mm: float, h_mm: float) -> tuple[int, int]:
    """A card's cell in pixels: as sharp as a 10 x 7 sheet within ``MAX_SIDE`` allows, at most
    ``MAX_DPI``, the card's proportions kept."""
    scale = min(MAX_SIDE / COLUMNS / w_mm, MAX_SIDE / ROWS / h_mm, MAX_DPI / MM_PER_IN)
    return math.floor(w_mm * scale), math.floor(h_mm * scale)


def export(pack: Pack, folder: Path, step: Step = quiet) -> list[Path]:
    """Write the whole game for TTS into ``folder`` (replacing it): every deck (face sheets,
    backs, a saved object), every other piece (``ttspieces``), one saved Bag holding them
    all with ``README.txt`` naming each object, and ``tts.json`` listing them."""
    with replacing_folder(folder) as tmp:
        written, listing, states = [], [], []
        components = shop_pages(pack)
        decks = [(c, pages) for c, pages in components.items() if pages[0].noun == "card"]
        for number, (component, pages) in enumerate(decks, 1):
            files, entry, deck = _deck(pack, component, pages, number, tmp, folder, step)
            written += files
            listing.append(entry)
            states.append(deck)
        others = {c: pages for c, pages in components.items() if pages[0].noun != "card"}
        pieces = ttspieces.pieces(pack, others, tmp, step)
        written += sorted({tmp / image for piece in pieces for image in piece.images})
        states += [ttspieces.state(piece, folder) for piece in pieces]
        written += _bag(pack, tmp, states, listing, pieces)
        path = tmp / "tts.json"
        document = {
            "game": pack.game.name,
            "bag": _bag_name(pack),
            "decks": listing,
            "pieces": [_listed(piece) for piece in pieces],
            "left_out": ttspieces.left_out(pack),
            "assumed": ttspieces.ASSUMED,
        }
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
        written.append(path)
    return [folder / p.relative_to(tmp) for p in written]


def work(pack: Pack) -> int:
    """How many pieces the TTS export draws (what its ``step`` hears of): every face, and
    every page of a reference sheet."""
    return sum(1 for pages in shop_pages(pack).values() for p in pages if p.side != "back")


def _bag_name(pack: Pack) -> str:
    return f"{pack.game.name}-bag.json"


def _listed(piece: ttspieces.Piece) -> dict:
    """A piece as ``tts.json`` lists it."""
    return {
        "object": piece.name,
        "name": piece.nickname,
        "copies": piece.copies,
        "images": list(piece.images),
        "what": piece.what,
    }


def _bag(
    pack: Pack, tmp: Path, states: list[dict], decks: list[dict], pieces: list[ttspieces.Piece]
) -> list[Path]:
    """The saved Bag holding every object of the game (each piece as often as the game has
    it), and ``README.txt``: a line per object in the bag."""
    contained = []
    for state, copies in zip(states, [1] * len(decks) + [p.copies for p in pieces], strict=True):
        contained += [state] * copies
    bag = {
        "Name": "Bag",
        "Nickname": pack.game.spec.title,
        "Description": "every piece of the game, from pnp export --tts",
        "Transform": TRANSFORM,
        "Bag": {"Order": 0},
        "ContainedObjects": contained,
    }
    saved = tmp / _bag_name(pack)
    saved.write_text(
        json.dumps({"SaveName": pack.game.spec.title, "ObjectStates": [bag]}, indent=1) + "\n",
        "utf-8",
    )
    lines = [
        f"{pack.game.spec.title}: {_bag_name(pack)} is a Tabletop Simulator saved object, a bag",
        "with every piece of the game: copy it (with this folder) into TTS's Saved Objects.",
        "Objects in the bag:",
    ]
    lines += [
        f"- DeckCustom '{d['component']}': {d['cards']} cards on {len(d['sheets'])} sheet(s)"
        f" ({', '.join(s['file'] for s in d['sheets'])}; back: {d['sheets'][0]['back']})"
        for d in decks
    ]
    lines += [
        f"- {p.name} '{p.nickname}' x{p.copies}: {p.what}; {', '.join(p.images)}" for p in pieces
    ]
    lines += [
        f"Left out: {item['kind']} '{item['component']}': {item['why']}"
        for item in ttspieces.left_out(pack)
    ]
    lines += ["", *ttspieces.ASSUMED]
    readme = tmp / "README.txt"
    readme.write_text("\n".join(lines) + "\n", "utf-8")
    return [saved, readme]


def _deck(
    pack: Pack,
    component: str,
    pages: list[ShopPage],
    number: int,
    tmp: Path,
    folder: Path,
    step: Step,
) -> tuple[list[Path], dict, dict]:
    """One deck's sheets, back(s) and saved object, its entry in ``tts.json`` and its object
    state: one back image where the cards share a back, else a back sheet beside each face
    sheet (TTS's UniqueBack), cell for cell. Each card is drawn as its cell is filled."""
    size = card_px(pages[0].w, pages[0].h)
    dpi = size[0] / pages[0].w * MM_PER_IN
    trim = (pages[0].w, pages[0].h)  # at the trim: TTS shows all of the picture
    faces = [p for p in pages if p.side == "face"]
    backs = {p.name: p for p in pages if p.side == "back"}
    unique = len({p.art for p in backs.values()}) > 1
    one_back = next(iter(backs.values()), None)
    back = Image.new("RGB", size, "white")
    if one_back is not None:
        (back,) = pictures(pack, [one_back], trim, size)
    written, sheets, custom, cards = [], [], {}, []
    if not unique:
        written.append(save_png(back, tmp / f"{component}-back.png", dpi))
    for index, sheet in enumerate(sheets_of(faces), start=1):
        key = number * 100 + index  # TTS's deck key: cards are 100 * key + cell
        face_file, back_file = f"{component}-faces-{index}.png", f"{component}-back.png"
        drawn = pictures(pack, sheet.faces, trim, size)
        grid = _grid(sheet, _told(drawn, lambda: step(component)), back, size)
        written.append(save_png(grid, tmp / face_file, dpi))
        if unique:
            back_file = f"{component}-backs-{index}.png"
            behind = [backs.get(f.name) for f in sheet.faces]
            drawn_backs = _backs(pack, behind, trim, size)
            written.append(save_png(_grid(sheet, drawn_backs, back, size), tmp / back_file, dpi))
        cards += [
            (100 * key + cell, f.name)
            for cell, f in enumerate(sheet.faces)
            for _ in range(f.copies)
        ]
        sheets.append(_sheet_entry(sheet, face_file, back_file, size))
        custom[str(key)] = _custom_deck(folder, face_file, back_file, sheet, unique)
    saved_object = _saved_object(component, custom, cards)
    saved = tmp / f"{component}.json"
    saved.write_text(json.dumps(saved_object, indent=1) + "\n", "utf-8")
    written.append(saved)
    entry = {
        "component": component,
        "card_px": list(size),
        "cards": len(cards),
        "unique_backs": unique,
        "sheets": sheets,
        "saved_object": saved.name,
    }
    return written, entry, saved_object["ObjectStates"][0]


def _sheet_entry(sheet: Sheet, face_file: str, back_file: str, size: tuple[int, int]) -> dict:
    """A sheet of a deck as ``tts.json`` lists it: its files, pixels, grid and faces."""
    return {
        "file": face_file,
        "back": back_file,
        "px": [size[0] * sheet.columns, size[1] * sheet.rows],
        "grid": [sheet.columns, sheet.rows],
        "faces": [{"name": f.name, "copies": f.copies} for f in sheet.faces],
    }


def _custom_deck(folder: Path, face_file: str, back_file: str, sheet: Sheet, unique: bool) -> dict:
    """A sheet as TTS's CustomDeck entry: where its faces and back(s) are, and its grid."""
    return {
        "FaceURL": (folder / face_file).resolve().as_uri(),
        "BackURL": (folder / back_file).resolve().as_uri(),
        "NumWidth": sheet.columns,
        "NumHeight": sheet.rows,
        "BackIsHidden": True,
        "UniqueBack": unique,
        "Type": 0,
    }


def _told(drawn: Iterator[Image.Image], done: Callable[[], None]) -> Iterator[Image.Image]:
    """A sheet's pictures as they are drawn, ``done`` told of each."""
    for image in drawn:
        yield image
        done()


def _backs(
    pack: Pack, pages: list[ShopPage | None], trim: tuple[float, float], size: tuple[int, int]
) -> Iterator[Image.Image]:
    """Each card's back as it is drawn (white for a card without one)."""
    drawn = pictures(pack, [p for p in pages if p is not None], trim, size)
    for page in pages:
        yield next(drawn) if page is not None else Image.new("RGB", size, "white")


def _grid(
    sheet: Sheet, pictures: Iterable[Image.Image], hidden: Image.Image, size: tuple[int, int]
) -> Image.Image:
    """The pictures in the sheet's cells, row by row, pasted as they come, and ``hidden`` in
    its last cell (white where a cell is left over)."""
    image = Image.new("RGB", (size[0] * sheet.columns, size[1] * sheet.rows), "white")
    last = sheet.columns * sheet.rows - 1
    for cell, picture in itertools.chain(enumerate(pictures), [(last, hidden)]):
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
