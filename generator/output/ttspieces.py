"""Tabletop Simulator objects for every piece that is not a card (``pnp export --tts``): a
two-sided token as a Custom Tile (its face on top, its back beneath), a one-sided token as a
Custom Token cut out along its shape, a standee as a standing Custom Token, a board as a
Custom Board, a die as a Custom Dice, a reference sheet as tiles of its pages, a roll-and-write
pad as a stack of tiles to write on; each with the pictures it shows, one at a time. A kind
whose model says why Tabletop Simulator needs none of it (a box) is left out, and listed.

What was not checked against Tabletop Simulator itself (no copy of the game was at hand):

- where a D6's faces go on its Custom Dice picture. The knowledge base sends modders to the
  template TTS installs (``Modding/Dice Templates``), which says nothing here; ``D6_CELLS``
  assumes a cross of four by three squares, opposite faces (1-6, 2-5, 3-4) opposite on it.
  Check a die in the game and change ``D6_CELLS`` if its faces land elsewhere.
- how large TTS draws a custom object at scale 1: it sizes tiles, tokens and boards from
  their pictures, so every object is saved at scale 1 with its true size in its
  description, and is scaled in the game.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw

from generator.art.shapes import Shape, hex_points
from generator.layout.pack import Pack
from generator.output.render import save_png
from generator.output.shop import MM_PER_IN, ShopPage, Step, pictures, quiet

# what README.txt and tts.json say was assumed (see the module)
ASSUMED = (
    "Assumed, not checked in Tabletop Simulator: a D6 picture is a cross of 4 x 3 faces "
    "(1 in the middle of the second row, 2 above it, 5 below, 4 left, 3 and 6 right); "
    "compare a die with TTS's own template (Modding/Dice Templates) before sharing.",
    "Every object is saved at scale 1 (TTS sizes it from its picture); its true size is "
    "in its description: scale it in the game.",
)
MAX_SIDE = 4096  # px: the longest side of a picture TTS loads everywhere
MAX_DPI = 300
TILE_TYPES = {"square": 0, "rect": 0, "hex-flat": 1, "hex-pointy": 1, "circle": 2, "rounded": 3}
THICKNESS = {"token": 0.1, "sheet": 0.02}  # in-game units (about an inch)
# The D6 picture (see the module): a cross of 4 x 3 squares, each face's (column, row).
D6_CELLS = {1: (1, 1), 2: (1, 0), 3: (2, 1), 4: (0, 1), 5: (1, 2), 6: (3, 1)}
D6_GRID = (4, 3)


@dataclass(frozen=True)
class Piece:
    """One TTS object: its kind (``Custom_Tile`` ...), name, how many the game has, its
    pictures (relative to the export folder), what it is in words, and its settings."""

    name: str
    nickname: str
    copies: int
    images: tuple[str, ...]
    what: str
    settings: dict


def dpi_for(w_mm: float, h_mm: float) -> float:
    """The resolution a picture of ``w_mm`` x ``h_mm`` is drawn at: ``MAX_DPI``, less for a
    piece whose longer side would pass ``MAX_SIDE`` pixels."""
    return min(MAX_DPI, MAX_SIDE / (max(w_mm, h_mm) / MM_PER_IN))


def _px(w_mm: float, h_mm: float, dpi: float) -> tuple[int, int]:
    return max(1, round(w_mm / MM_PER_IN * dpi)), max(1, round(h_mm / MM_PER_IN * dpi))


def _trimmed(pack: Pack, pages: list[ShopPage]) -> Iterator[tuple[ShopPage, Image.Image, float]]:
    """Each page's picture at its trim (what TTS shows of a piece is the piece, no bleed),
    with its resolution."""
    for page in pages:
        dpi = dpi_for(page.w, page.h)
        (image,) = pictures(pack, [page], (page.w, page.h), _px(page.w, page.h, dpi))
        yield page, image, dpi


def _cut_out(image: Image.Image, kind: str, corner_px: float) -> Image.Image:
    """A piece's picture transparent outside its shape (a Custom Token is cut along it)."""
    mask = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(mask)
    w, h = image.size
    if kind == "circle":
        draw.ellipse((0, 0, w - 1, h - 1), fill=255)
    elif kind.startswith("hex"):
        shape = Shape(kind, w, h)
        draw.polygon([(x, h - y) for x, y in hex_points(shape)], fill=255)
    elif kind == "rounded":
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=corner_px, fill=255)
    else:
        draw.rectangle((0, 0, w - 1, h - 1), fill=255)
    cut = image.convert("RGBA")
    cut.putalpha(mask)
    return cut


def _panel(image: Image.Image, page: ShopPage, box: tuple[float, ...]) -> Image.Image:
    """The part of a piece's picture that one of its panels (x, y, w, h in mm from its
    lower-left corner) covers."""
    x, y, w, h = box
    px = image.height / page.h  # pixels a mm
    return image.crop(
        (round(x * px), round((page.h - y - h) * px), round((x + w) * px), round((page.h - y) * px))
    )


def _size(page: ShopPage) -> str:
    return f"{page.w:g} × {page.h:g} mm"


def _token(stand_up: bool) -> dict:
    """A Custom Token's settings: cut out of its picture, lying down or standing up."""
    return {
        "CustomToken": {
            "Thickness": THICKNESS["token"],
            "MergeDistancePixels": 15.0,
            "StandUp": stand_up,
            "Stackable": not stand_up,
        }
    }


def _tile(kind: str, thickness: float, stackable: bool, stretch: bool) -> dict:
    """A Custom Tile's settings: its shape (``TILE_TYPES``), thickness and stretching."""
    return {
        "CustomTile": {
            "Type": TILE_TYPES.get(kind, 0),
            "Thickness": thickness,
            "Stackable": stackable,
            "Stretch": stretch,
        }
    }


def tokens(
    pack: Pack, component: str, pages: list[ShopPage], folder: Path, step: Step
) -> Iterator[Piece]:
    """A token component's designs: Custom Tiles (two-sided) or Custom Tokens (cut out)."""
    backs = {p.name: p for p in pages if p.side == "back"}
    for page, image, dpi in _trimmed(pack, [p for p in pages if p.side == "face"]):
        kind = page.piece.shape.kind
        face = f"pieces/{component}/{page.name}-face.png"
        back_page = backs.get(page.name)
        if back_page is None:
            corner = page.piece.shape.corner / MM_PER_IN * dpi
            save_png(_cut_out(image, kind, corner), folder / face, dpi)
            what = f"token, {_size(page)}"
            yield Piece("Custom_Token", page.name, page.copies, (face,), what, _token(False))
        else:
            save_png(image, folder / face, dpi)
            back = f"pieces/{component}/{page.name}-back.png"
            ((_, back_image, _),) = _trimmed(pack, [back_page])
            save_png(back_image, folder / back, dpi)
            settings = _tile(kind, THICKNESS["token"], True, page.w == page.h)
            what = f"tile, {_size(page)}"
            yield Piece("Custom_Tile", page.name, page.copies, (face, back), what, settings)
        step(f"{component} {page.name}")


def boards(
    pack: Pack, component: str, pages: list[ShopPage], folder: Path, step: Step
) -> Iterator[Piece]:
    """A board component's designs: Custom Boards of their faces."""
    for page, image, dpi in _trimmed(pack, [p for p in pages if p.side == "face"]):
        face = f"pieces/{component}/{page.name}.png"
        save_png(image, folder / face, dpi)
        yield Piece("Custom_Board", page.name, page.copies, (face,), f"board, {_size(page)}", {})
        step(f"{component} {page.name}")


def standees(
    pack: Pack, component: str, pages: list[ShopPage], folder: Path, step: Step
) -> Iterator[Piece]:
    """A standee component's designs: standing Custom Tokens of their front panels."""
    for page in pages:
        x, y, w, h, _ = page.piece.shape.panels[0]
        dpi = dpi_for(page.w, page.h)
        (strip,) = pictures(pack, [page], (page.w, page.h), _px(page.w, page.h, dpi))
        front = _panel(strip, page, (x, y, w, h))
        name = f"pieces/{component}/{page.name}.png"
        save_png(front, folder / name, dpi)
        what = f"standee, {w:g} × {h:g} mm"
        yield Piece("Custom_Token", page.name, page.copies, (name,), what, _token(True))
        step(f"{component} {page.name}")


def dice(
    pack: Pack, component: str, pages: list[ShopPage], folder: Path, step: Step
) -> Iterator[Piece]:
    """A dice component's dice: Custom Dice (D6), their six faces cut from the net and laid
    out as ``D6_CELLS`` assumes."""
    for page in pages:
        panels = page.piece.shape.panels
        edge = panels[0][2]
        dpi = dpi_for(edge * D6_GRID[0], edge * D6_GRID[1])
        (net,) = pictures(pack, [page], (page.w, page.h), _px(page.w, page.h, dpi))
        cell = max(1, round(edge / MM_PER_IN * dpi))
        picture = Image.new("RGB", (cell * D6_GRID[0], cell * D6_GRID[1]), "white")
        for number, panel in enumerate(panels, start=1):
            face = _panel(net, page, panel[:4])
            column, row = D6_CELLS[number]
            picture.paste(face.resize((cell, cell)), (column * cell, row * cell))
        name = f"pieces/{component}/{page.name}-d6.png"
        save_png(picture, folder / name, dpi)
        dice = {"CustomDice": {"Type": 1}}
        yield Piece("Custom_Dice", page.name, page.copies, (name,), f"D6, {edge:g} mm", dice)
        step(f"{component} {page.name}")


def sheets(
    pack: Pack, component: str, pages: list[ShopPage], folder: Path, step: Step
) -> Iterator[Piece]:
    """A reference sheet: a Custom Tile per sheet of paper, its pages on top and beneath."""
    drawn = list(_trimmed(pack, pages))
    for start in range(0, len(drawn), 2):
        images = []
        for page, image, dpi in drawn[start : start + 2]:
            name = f"pieces/{component}/{page.side}.png"
            save_png(image, folder / name, dpi)
            images.append(name)
            step(f"{component} {page.side}")
        first = drawn[start][0]
        nickname = f"{first.name} ({math.ceil((start + 1) / 2)})" if len(drawn) > 2 else first.name
        settings = _tile("square", THICKNESS["sheet"], False, False)
        what = f"sheet, {_size(first)}"
        yield Piece("Custom_Tile", nickname, first.copies, tuple(images), what, settings)


def pads(
    pack: Pack, component: str, pages: list[ShopPage], folder: Path, step: Step
) -> Iterator[Piece]:
    """A roll-and-write pad: a stack of Custom Tiles of its sheet (its back beneath, if it
    has one), to write on with TTS's pen."""
    images = []
    drawn = list(_trimmed(pack, pages))
    for page, image, dpi in drawn:
        name = f"pieces/{component}/{page.name}-{page.side}.png"
        save_png(image, folder / name, dpi)
        images.append(name)
        step(f"{component} {page.side}")
    first = drawn[0][0]
    settings = _tile("square", THICKNESS["sheet"], True, False)
    what = f"pad sheet, {_size(first)}"
    yield Piece("Custom_Tile", first.name, first.copies, tuple(images), what, settings)


MAKERS = {
    "token": tokens,
    "board": boards,
    "standee": standees,
    "die": dice,
    "sheet": sheets,
    "pad": pads,
}


def left_out(pack: Pack) -> list[dict[str, str]]:
    """The components of a kind Tabletop Simulator does not get, each with why (as its
    model says)."""
    return [
        {"component": plan.component.id, "kind": spec.kind, "why": spec.tts_note}
        for plan in pack.components
        if (spec := plan.component.spec).tts_note
    ]


def pieces(
    pack: Pack, components: dict[str, list[ShopPage]], folder: Path, step: Step = quiet
) -> list[Piece]:
    """Every piece that is not a card, as TTS objects, its pictures written into ``folder``."""
    out: list[Piece] = []
    for component, pages in components.items():
        make = MAKERS.get(pages[0].noun)
        if make is not None:
            out += make(pack, component, pages, folder, step)
    return out


def state(piece: Piece, folder: Path) -> dict:
    """A piece's TTS object state: its pictures as file addresses (replace them with web
    addresses to share the game), its true size in its description."""
    urls = [(folder / image).resolve().as_uri() for image in piece.images]
    custom: dict = {"ImageURL": urls[0], "ImageSecondaryURL": urls[1] if len(urls) > 1 else ""}
    custom |= {"ImageScalar": 1.0, "WidthScale": 0.0, **piece.settings}
    return {
        "Name": piece.name,
        "Nickname": piece.nickname,
        "Description": piece.what,
        "Transform": TRANSFORM,
        "Locked": piece.name == "Custom_Board",
        "CustomImage": custom,
    }


TRANSFORM = {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 0}
TRANSFORM |= {"scaleX": 1, "scaleY": 1, "scaleZ": 1}
