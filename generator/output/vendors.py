"""Print-on-demand presets (``pnp export --shop VENDOR``): each deck of cards matched to one of
the vendor's card products by its trim size, then written as that vendor takes uploads: PNGs
at the product's exact pixel size, or one PDF per deck in print order. The vendors' numbers
are data, in ``vendors.yaml``, each with where it comes from."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import yaml
from PIL import Image

from generator.layout.pack import Pack
from generator.output.colour import Press
from generator.output.shop import MM_PER_IN, ShopPage, draw_pdf, pictures, save_png, shop_pages
from generator.output.staging import replacing_folder
from generator.paths import read_text

HERE = Path(__file__).resolve().parent  # the package's own data: vendors.yaml
FIT_MM = 1.5  # how far a deck's trim may be from a product's and still print as it


@dataclass(frozen=True)
class Product:
    """One card product: its name, trim (inches) and upload size (pixels, bleed included)."""

    name: str
    trim_in: tuple[float, float]
    px: tuple[int, int]

    @property
    def trim_mm(self) -> tuple[float, float]:
        return (self.trim_in[0] * MM_PER_IN, self.trim_in[1] * MM_PER_IN)


@dataclass(frozen=True)
class Vendor:
    """A print-on-demand shop: its products, resolution, bleed and safe margin, and whether
    it takes a deck as PNG images or as one PDF."""

    key: str
    title: str
    source: str
    dpi: int
    bleed_in: float
    safe_in: float
    files: str  # "images" or "pdf"
    products: tuple[Product, ...]
    max_ink: float | None = None  # total ink in percent

    def safe_px(self) -> int:
        """How far in from each edge of an upload the safe area starts, in pixels."""
        return round((self.bleed_in + self.safe_in) * self.dpi)


@lru_cache(maxsize=1)
def vendors() -> dict[str, Vendor]:
    """Every preset of ``vendors.yaml``, by its key."""
    text = read_text(HERE, HERE / "vendors.yaml", "package")
    out = {}
    for key, entry in yaml.safe_load(text).items():
        products = tuple(
            Product(name, tuple(p["trim_in"]), tuple(p["px"]))
            for name, p in entry.pop("products").items()
        )
        out[key] = Vendor(key=key, products=products, **entry)
    return out


@dataclass(frozen=True)
class Deck:
    """A component's cards as one vendor product: the pages (face, back per design) and
    whether each is turned a quarter to fit the product's orientation."""

    component: str
    product: Product
    pages: list[ShopPage]
    turned: bool


def match(vendor: Vendor, w: float, h: float) -> tuple[Product, bool] | None:
    """The product a card of ``w`` x ``h`` mm prints as (and whether it is turned to fit),
    the closest within ``FIT_MM`` on both sides; None if none is."""
    found = []
    for product in vendor.products:
        pw, ph = product.trim_mm
        for turned, (a, b) in ((False, (pw, ph)), (True, (ph, pw))):
            off = max(abs(a - w), abs(b - h))
            if off <= FIT_MM and not (turned and vendor.files == "pdf"):
                found.append((off, turned, product))
    if not found:
        return None
    _, turned, product = min(found, key=lambda f: (f[0], f[1]))
    return product, turned


def decks(pack: Pack, vendor: Vendor) -> tuple[list[Deck], list[str]]:
    """The pack's card decks the vendor prints, and a sentence for each it does not."""
    out, skipped = [], []
    for component, pages in shop_pages(pack, frozenset({"card"})).items():
        w, h = pages[0].w, pages[0].h
        found = match(vendor, w, h)
        if found is None:
            sizes = ", ".join(
                f"{p.name} {p.trim_mm[0]:.1f}×{p.trim_mm[1]:.1f}" for p in vendor.products
            )
            skipped.append(
                f"{component}: {w:g}×{h:g} mm is no {vendor.title} card "
                f"(within {FIT_MM:g} mm of: {sizes} mm)"
            )
            continue
        out.append(Deck(component, found[0], pages, found[1]))
    return out, skipped


def export(pack: Pack, vendor: Vendor, folder: Path) -> tuple[list[Path], int, list[str]]:
    """Write the vendor's files for every deck it prints into ``folder`` (replacing it), with
    ``<vendor>.json`` listing them in upload order; return the files, how many decks they
    hold and a sentence for each deck skipped."""
    found, skipped = decks(pack, vendor)
    with replacing_folder(folder) as tmp:
        written, listing = [], []
        for deck in found:
            write = _pdf_deck if vendor.files == "pdf" else _image_deck
            files, entry = write(pack, vendor, deck, tmp)
            written += files
            listing.append(entry)
        document = {
            "game": pack.game.name,
            "vendor": vendor.title,
            "source": vendor.source,
            "dpi": vendor.dpi,
            "decks": listing,
            "skipped": skipped,
        }
        path = tmp / f"{vendor.key}.json"
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
        written.append(path)
    return [folder / p.relative_to(tmp) for p in written], len(found), skipped


def _page_mm(vendor: Vendor, deck: Deck) -> tuple[float, float]:
    """The upload's size in mm in the deck's own orientation: the product's pixels at its dpi."""
    w, h = (px * MM_PER_IN / vendor.dpi for px in deck.product.px)
    return (h, w) if deck.turned else (w, h)


def _entry(vendor: Vendor, deck: Deck) -> dict:
    """What ``<vendor>.json`` says of a deck before its files."""
    pw, ph = deck.product.px
    safe = vendor.safe_px()
    return {
        "component": deck.component,
        "product": deck.product.name,
        "trim_in": list(deck.product.trim_in),
        "px": [pw, ph],
        "safe_px": [safe, safe, pw - safe, ph - safe],
        "turned": deck.turned,
        "cards": sum(p.copies for p in deck.pages if p.side == "face"),
    }


def _image_deck(pack: Pack, vendor: Vendor, deck: Deck, folder: Path) -> tuple[list[Path], dict]:
    """PNGs of a deck at the product's pixel size, named in upload order: ``NN-name.png`` per
    distinct face as the spec lists them, and ``back.png`` (``NN-name-back.png`` for each
    card where the backs differ)."""
    w, h = deck.product.px
    images = pictures(pack, deck.pages, _page_mm(vendor, deck), (h, w) if deck.turned else (w, h))
    one_back = len({p.art for p in deck.pages if p.side == "back"}) == 1
    written: list[Path] = []
    faces: list[dict] = []
    for page, image in zip(deck.pages, images, strict=True):
        if page.side == "face":
            name = f"{len(faces) + 1:02d}-{page.name}.png"
            faces.append({"name": page.name, "copies": page.copies})
        elif one_back and (folder / deck.component / "back.png").exists():
            faces[-1]["back"] = f"{deck.component}/back.png"
            continue
        else:
            name = "back.png" if one_back else f"{len(faces):02d}-{page.name}-back.png"
        path = folder / deck.component / name
        upright = image.transpose(Image.Transpose.ROTATE_90) if deck.turned else image
        written.append(save_png(upright, path, vendor.dpi))
        faces[-1][page.side] = path.relative_to(folder).as_posix()
    return written, {**_entry(vendor, deck), "faces": faces}


def _pdf_deck(pack: Pack, vendor: Vendor, deck: Deck, folder: Path) -> tuple[list[Path], dict]:
    """One PDF of a deck in print order, each card's back (blank where it has none) then its
    face, every copy; PDF/X in CMYK within the vendor's ink limit."""
    faces = [p for p in deck.pages if p.side == "face"]
    backs = {p.name: p for p in deck.pages if p.side == "back"}
    order: list[ShopPage] = []
    for face in faces:
        back = backs.get(face.name) or replace(face, side="back", art=None, sheet=None)
        order += [back, face] * face.copies
    path = folder / f"{deck.component}.pdf"
    limit = None if vendor.max_ink is None else vendor.max_ink / 100
    draw_pdf(pack, order, str(path), Press(limit), page_mm=_page_mm(vendor, deck))
    pages = [{"name": p.name, "side": p.side} for p in order]
    return [path], {**_entry(vendor, deck), "file": path.name, "pages": pages}
