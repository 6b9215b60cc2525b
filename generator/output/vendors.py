"""Print-on-demand presets (``pnp export --shop VENDOR``): each deck of cards, set of tokens
and board matched to one of the vendor's products by its trim size (and a token's shape),
then written as that vendor takes uploads: PNGs at the product's exact pixel size, or one PDF
per deck in print order, PDF/X as the vendor asks. The vendors' numbers are data, in
``vendors.yaml``, each with where it comes from and whether a second source confirms it.

A piece within ``FIT_MM`` of a product but not its size is scaled so that its trim covers the
product's, and the file's TrimBox is the product's: the vendor cuts at its art's edge, not
beside it. A deck no card product fits is skipped with a sentence, or with ``--fit`` scaled
(its proportions kept) to the product nearest its size, its whole trim inside the product's
and its own bleed filling the rest: the summary says by how much."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from PIL import Image

from generator.layout.pack import Pack
from generator.output import pdfx
from generator.output.colour import Press
from generator.output.flatten import SHOP_RGB
from generator.output.render import save_png
from generator.output.shop import (
    MM_PER_IN,
    ShopPage,
    Step,
    pictures,
    print_pdf,
    quiet,
    shop_pages,
)
from generator.output.staging import replacing_folder
from generator.paths import read_text

HERE = Path(__file__).resolve().parent  # the package's own data: vendors.yaml
FIT_MM = 1.5  # how far a piece's trim may be from a product's and still print as it
SAME_MM = 0.01  # a piece's trim this close to a product's is its size: printed unscaled
# the products each kind of piece may print as
PRODUCT_KINDS = {"card": ("card",), "token": ("token",), "board": ("board", "mat")}
# a token's shape as vendors sell them
TOKEN_SHAPES = {
    "circle": "circle",
    "square": "square",
    "rounded": "square",
    "hex-flat": "hex",
    "hex-pointy": "hex",
}


@dataclass(frozen=True)
class Product:
    """One product: its name, what it is (``kind``), its trim (inches) and upload size
    (pixels, bleed included); a token's ``shape``; a tuck box's card product and capacity;
    whether a second source confirms the numbers, and where they come from if not from the
    vendor's own pages."""

    name: str
    trim_in: tuple[float, float]
    px: tuple[int, int]
    kind: str = "card"
    shape: str | None = None
    holds: str | None = None
    cards: int = 0
    checked: bool = True
    source: str | None = None

    @property
    def trim_mm(self) -> tuple[float, float]:
        return (self.trim_in[0] * MM_PER_IN, self.trim_in[1] * MM_PER_IN)


@dataclass(frozen=True)
class Vendor:
    """A print-on-demand shop: its products, resolution, bleed and safe margin, whether it
    takes a deck as PNG images or as one PDF (and which PDF/X), and its ink limit."""

    key: str
    title: str
    source: str
    dpi: int
    bleed_in: float
    safe_in: float
    files: str  # "images" or "pdf"
    products: tuple[Product, ...]
    max_ink: float | None = None  # total ink in percent
    pdf: str = pdfx.X4.name  # the PDF/X a "pdf" vendor takes
    pdf_checked: bool = True
    checked: bool = True
    sources: dict[str, str] = field(default_factory=dict)

    def safe_px(self) -> int:
        """How far in from each edge of an upload the safe area starts, in pixels."""
        return round((self.bleed_in + self.safe_in) * self.dpi)

    def of_kind(self, *kinds: str) -> tuple[Product, ...]:
        """The products of these kinds."""
        return tuple(p for p in self.products if p.kind in kinds)


def _product(name: str, entry: dict[str, Any], bleed_in: float, dpi: int) -> Product:
    """A product from its YAML entry (a tuck box's trim, which no game piece is matched to,
    follows from its pixels)."""
    px = tuple(entry.pop("px"))
    trim = tuple(entry.pop("trim_in", [v / dpi - 2 * bleed_in for v in px]))
    return Product(name, trim, px, **entry)  # type: ignore[arg-type]


@lru_cache(maxsize=1)
def vendors() -> dict[str, Vendor]:
    """Every preset of ``vendors.yaml``, by its key."""
    text = read_text(HERE, HERE / "vendors.yaml", "package")
    out = {}
    for key, entry in yaml.safe_load(text).items():
        products = tuple(
            _product(name, dict(p), entry["bleed_in"], entry["dpi"])
            for name, p in entry.pop("products").items()
        )
        out[key] = Vendor(key=key, products=products, **entry)
    return out


@dataclass(frozen=True)
class Batch:
    """A component's pieces as one vendor product: the pages (face, back per design),
    whether each is turned a quarter to fit the product's orientation, and how much it is
    scaled (``--fit``)."""

    component: str
    product: Product
    pages: list[ShopPage]
    turned: bool
    scale: float = 1.0


def match(
    vendor: Vendor, w: float, h: float, kind: str = "card", shape: str | None = None
) -> tuple[Product, bool] | None:
    """The product a piece of ``w`` x ``h`` mm prints as (and whether it is turned to fit),
    the closest within ``FIT_MM`` on both sides among the vendor's products for its ``kind``
    (a token's of its ``shape``); None if none is."""
    found = []
    for product in vendor.of_kind(*PRODUCT_KINDS.get(kind, ())):
        if shape is not None and product.shape != shape:
            continue
        pw, ph = product.trim_mm
        for turned, (a, b) in ((False, (pw, ph)), (True, (ph, pw))):
            off = max(abs(a - w), abs(b - h))
            if off <= FIT_MM and not (turned and vendor.files == "pdf"):
                found.append((off, turned, PRODUCT_KINDS[kind].index(product.kind), product))
    if not found:
        return None
    _, turned, _, product = min(found, key=lambda f: (f[2], f[0], f[1]))
    return product, turned


def nearest(vendor: Vendor, w: float, h: float) -> tuple[Product, bool, float]:
    """The card product a deck of ``w`` x ``h`` mm fits with the least scaling, whether it
    is turned, and the scale: the deck's whole trim inside the product's."""
    found = []
    for product in vendor.of_kind("card"):
        pw, ph = product.trim_mm
        for turned, (a, b) in ((False, (pw, ph)), (True, (ph, pw))):
            if turned and vendor.files == "pdf":
                continue
            scale = min(a / w, b / h)
            found.append((abs(scale - 1), turned, scale, product))
    _, turned, scale, product = min(found, key=lambda f: (f[0], f[1]))
    return product, turned, scale


def _kind_of(page: ShopPage) -> tuple[str, str | None]:
    """What vendors sell a piece as, and a token's shape."""
    shape = TOKEN_SHAPES.get(page.piece.shape.kind) if page.noun == "token" else None
    return page.noun, shape


def batches(pack: Pack, vendor: Vendor, fit: bool = False) -> tuple[list[Batch], list[str]]:
    """The pack's decks, tokens and boards the vendor prints, and a sentence for each it
    does not (``fit``: a deck no product fits is scaled to the nearest one instead)."""
    out, skipped = [], []
    kinds = frozenset(PRODUCT_KINDS)
    for component, pages in shop_pages(pack, kinds).items():
        kind, shape = _kind_of(pages[0])
        products = vendor.of_kind(*PRODUCT_KINDS[kind])
        if (vendor.files == "pdf" and kind != "card") or not products:
            continue  # the vendor sells nothing of the kind
        w, h = pages[0].w, pages[0].h
        found = match(vendor, w, h, kind, shape)
        if found is not None:
            out.append(_batch(component, pages, *found, scale=_filling(found[0], found[1], w, h)))
        elif fit and kind == "card":
            product, turned, scale = nearest(vendor, w, h)
            out.append(_batch(component, pages, product, turned, scale=scale))
        else:
            sizes = ", ".join(
                f"{p.name} {p.trim_mm[0]:.1f}×{p.trim_mm[1]:.1f}"
                for p in products
                if shape is None or p.shape == shape
            )
            hint = " (--fit scales it to the nearest)" if kind == "card" else ""
            skipped.append(
                f"{component}: {w:g}×{h:g} mm is no {vendor.title} {kind}{hint} "
                f"(within {FIT_MM:g} mm of: {sizes or 'none of its shape'} mm)"
            )
    return out, skipped


def _cut(product: Product, turned: bool) -> tuple[float, float]:
    """Where the vendor cuts a product, in mm, in the piece's own orientation."""
    pw, ph = product.trim_mm
    return (ph, pw) if turned else (pw, ph)


def _filling(product: Product, turned: bool, w: float, h: float) -> float:
    """How much a piece of ``w`` x ``h`` mm that prints as ``product`` is scaled so that its
    trim covers the product's (an 18 mm counter on a 19.05 mm chit would be cut outside its
    art): 1 where the two are the same size."""
    cw, ch = _cut(product, turned)
    if max(abs(cw - w), abs(ch - h)) < SAME_MM:
        return 1.0
    return max(cw / w, ch / h)


def _batch(
    component: str, pages: list[ShopPage], product: Product, turned: bool, scale: float
) -> Batch:
    """A batch whose pages are cut where the product is (their TrimBox), the art scaled."""
    cut = _cut(product, turned)
    scaled = [replace(p, scale=scale, cut=cut) for p in pages]
    return Batch(component, product, scaled, turned, scale)


def fitted(batch: Batch) -> str:
    """How a batch was scaled (to its product's cut, or by ``--fit``), in words (empty when
    it was not)."""
    if batch.scale == 1.0:
        return ""
    page = batch.pages[0]
    pw, ph = batch.product.trim_mm
    cw, ch = _cut(batch.product, batch.turned)
    covers = page.w * batch.scale >= cw - SAME_MM and page.h * batch.scale >= ch - SAME_MM
    rest = "its art reaching the cut" if covers else "its own bleed filling the rest"
    return (
        f"{batch.component}: {page.w:g}×{page.h:g} mm scaled by {batch.scale:.3f} to "
        f"{batch.product.name} ({pw:.1f}×{ph:.1f} mm), {rest}"
    )


def work(pack: Pack, vendor: Vendor, fit: bool = False) -> int:
    """How many pages the export draws (what its ``step`` hears of)."""
    found, _ = batches(pack, vendor, fit)
    if vendor.files == "pdf":
        return sum(2 * p.copies for b in found for p in b.pages if p.side == "face")
    faces = sum(1 for b in found for p in b.pages if p.side == "face")
    backs = [{p.art for p in b.pages if p.side == "back"} for b in found]
    return faces + sum(1 if len(arts) == 1 else len(arts) for arts in backs)


def export(
    pack: Pack, vendor: Vendor, folder: Path, fit: bool = False, step: Step = quiet
) -> tuple[list[Path], list[Batch], list[str]]:
    """Write the vendor's files for everything it prints into ``folder`` (replacing it),
    with ``<vendor>.json`` listing them in upload order; return the files, the batches and
    a sentence for each component skipped."""
    found, skipped = batches(pack, vendor, fit)
    with replacing_folder(folder) as tmp:
        written, listing = [], []
        for batch in found:
            write = _pdf_deck if vendor.files == "pdf" else _image_batch
            files, entry = write(pack, vendor, batch, tmp, step)
            written += files
            listing.append(entry)
        document = {
            "game": pack.game.name,
            "vendor": vendor.title,
            "source": vendor.source,
            "checked": vendor.checked,
            "dpi": vendor.dpi,
            "pdf": vendor.pdf if vendor.files == "pdf" else None,
            "components": listing,
            "skipped": skipped,
        }
        path = tmp / f"{vendor.key}.json"
        path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
        written.append(path)
    return [folder / p.relative_to(tmp) for p in written], found, skipped


def _page_mm(vendor: Vendor, batch: Batch) -> tuple[float, float]:
    """The upload's size in mm in the piece's own orientation: the product's pixels at its
    dpi."""
    w, h = (px * MM_PER_IN / vendor.dpi for px in batch.product.px)
    return (h, w) if batch.turned else (w, h)


def tuck_box(vendor: Vendor, product: Product, cards: int) -> Product | None:
    """The smallest tuck box the vendor sells that holds ``cards`` of ``product``."""
    boxes = [
        box
        for box in vendor.of_kind("tuck-box")
        if box.holds == product.name and box.cards >= cards
    ]
    return min(boxes, key=lambda box: box.cards, default=None)


def _entry(vendor: Vendor, batch: Batch) -> dict:
    """What ``<vendor>.json`` says of a batch before its files."""
    pw, ph = batch.product.px
    safe = vendor.safe_px()
    pieces = sum(p.copies for p in batch.pages if p.side == "face")
    entry = {
        "component": batch.component,
        "kind": batch.product.kind,
        "product": batch.product.name,
        "checked": batch.product.checked,
        "trim_in": list(batch.product.trim_in),
        "px": [pw, ph],
        "safe_px": [safe, safe, pw - safe, ph - safe],
        "turned": batch.turned,
        "scale": batch.scale,
        "pieces": pieces,
    }
    if batch.product.kind == "card":
        box = tuck_box(vendor, batch.product, pieces)
        entry["tuck_box"] = None if box is None else {"product": box.name, "px": list(box.px)}
    return entry


def _image_batch(
    pack: Pack, vendor: Vendor, batch: Batch, folder: Path, step: Step
) -> tuple[list[Path], dict]:
    """PNGs of a batch at the product's pixel size, one at a time, named in upload order:
    ``NN-name.png`` per distinct face as the spec lists them, and ``back.png``
    (``NN-name-back.png`` for each piece where the backs differ)."""
    w, h = batch.product.px
    size = (h, w) if batch.turned else (w, h)
    one_back = len({p.art for p in batch.pages if p.side == "back"}) == 1
    drawn = list(batch.pages)
    if one_back:  # the one back once, after the first face that has it
        first = next(p for p in drawn if p.side == "back")
        drawn = [p for p in drawn if p.side == "face" or p is first]
    images = pictures(pack, drawn, _page_mm(vendor, batch), size, SHOP_RGB)
    written: list[Path] = []
    faces: list[dict] = []
    for page, image in zip(drawn, images, strict=True):
        if page.side == "face":
            name = f"{len(faces) + 1:02d}-{page.name}.png"
            faces.append({"name": page.name, "copies": page.copies})
        else:
            name = "back.png" if one_back else f"{len(faces):02d}-{page.name}-back.png"
        path = folder / batch.component / name
        upright = image.transpose(Image.Transpose.ROTATE_90) if batch.turned else image
        written.append(save_png(upright, path, vendor.dpi))
        faces[-1][page.side] = path.relative_to(folder).as_posix()
        step(f"{batch.component} {page.name} {page.side}")
    if one_back:
        for face in faces:
            face["back"] = f"{batch.component}/back.png"
    return written, {**_entry(vendor, batch), "faces": faces}


def _pdf_deck(
    pack: Pack, vendor: Vendor, batch: Batch, folder: Path, step: Step
) -> tuple[list[Path], dict]:
    """One PDF of a deck in print order, each card's back (blank where it has none) then its
    face, every copy; PDF/X as the vendor takes it, in CMYK within its ink limit."""
    faces = [p for p in batch.pages if p.side == "face"]
    backs = {p.name: p for p in batch.pages if p.side == "back"}
    order: list[ShopPage] = []
    for face in faces:
        back = backs.get(face.name) or replace(face, side="back", art=None, sheet=None)
        order += [back, face] * face.copies
    path = folder / f"{batch.component}.pdf"
    limit = None if vendor.max_ink is None else vendor.max_ink / 100
    standard = pdfx.STANDARDS[vendor.pdf]
    page_mm = _page_mm(vendor, batch)
    print_pdf(pack, order, str(path), Press(limit), standard, page_mm=page_mm, step=step)
    pages = [{"name": p.name, "side": p.side} for p in order]
    return [path], {**_entry(vendor, batch), "file": path.name, "pages": pages}
