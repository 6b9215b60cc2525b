"""The font guard: a font file's structure read and bounded before any font library sees it.

fontTools (which converts fonts) and reportlab (which embeds them) trust what a file
declares: a WOFF2 font saying nothing of its size inflates to gigabytes, a character map
whose ranges span all of Unicode is expanded code point by code point, a glyph program
calling subroutines in a fan runs for ever. As browsers' OpenType Sanitiser does, ``guard``
reads the containers itself (the table directory, a collection's faces, WOFF's and WOFF2's
compressed tables, inflated with a cap on the bytes made) and the tables a library would
expand (the character maps here; CFF glyph programs in ``generator.model.fontcff``), and
refuses what passes the limits of ``generator.limits`` as ``FontFileError``, so the
libraries only ever see a file whose cost is bounded.
"""

from __future__ import annotations

import logging
import struct
import zlib
from collections.abc import Iterator
from typing import Any

from fontTools.ttLib.woff2 import woff2KnownTags

from generator.limits import (
    MAX_CMAP_CODES,
    MAX_CMAP_SUBTABLES,
    MAX_FACES,
    MAX_FONT_TABLES,
    MAX_INFLATED_FONT,
    MAX_NAME_BYTES,
    MAX_VARIATION_SELECTORS,
)
from generator.model.fontcff import check_cff
from generator.model.fonterrors import FontFileError

SFNT = (b"\x00\x01\x00\x00", b"true", b"OTTO")  # TrueType and CFF-outline sfnt versions
NOT_A_FONT = "is not a font file (TrueType, OpenType, WOFF, WOFF2 or a collection)"
BROTLI_MISSING = (
    "is a WOFF2 font, which needs the optional brotli package (1.2 or later): "
    "pip install 'pnp-generator[woff2]' (or convert the font to .ttf)"
)
LAST_CODE = 0x10FFFF  # the last code point of Unicode

# fontTools logs what it finds odd in a font ("Glyph 'x' has a huge advance width") through
# Python's last-resort handler, straight to the terminal: text of the file, unescaped, that is
# not the font's error at its line. A handler of its own that drops it keeps it quiet.
logging.getLogger("fontTools").addHandler(logging.NullHandler())
logging.getLogger("fontTools").propagate = False

Table = tuple[str, bytes | memoryview]  # a table's tag and its (decompressed) bytes


def guard(data: bytes) -> None:
    """``FontFileError`` unless every structure of the font in ``data`` is within bounds:
    its container, its character maps and its CFF glyph programs."""
    for tag, table in _tables(data):
        if tag == "cmap":
            _check_cmap(table)
        elif tag == "CFF ":
            check_cff(bytes(table))
        elif tag == "name":
            _check_names(table)


def sfnt_tags(data: bytes) -> set[str]:
    """The tags of the tables of a plain TrueType or OpenType font that ``guard`` passed."""
    return {tag for tag, _ in _sfnt(memoryview(data), 0, set())}


def _tables(data: bytes) -> Iterator[Table]:
    """The tables a library would expand, each once, whatever the container."""
    view = memoryview(data)
    kind = bytes(view[:4])
    if kind == b"ttcf":
        return _collection(view)
    if kind == b"wOFF":
        return _woff(view)
    if kind == b"wOF2":
        return _woff2(view)
    if kind in SFNT:
        return _sfnt(view, 0, set())
    raise FontFileError(NOT_A_FONT)


def _unpack(layout: str, data: Any, at: int) -> tuple[Any, ...]:
    """``struct.unpack_from``, a read past the end said as a file cut short."""
    try:
        return struct.unpack_from(layout, data, at)
    except struct.error:
        raise FontFileError("is cut short or damaged (a structure runs past its end)") from None


def _too_many(count: int, limit: int, what: str) -> None:
    """``FontFileError`` when a file declares more ``what`` than ``limit``."""
    if count > limit:
        raise FontFileError(
            f"declares {count:,} {what}, more than the {limit:,} a font file may hold; the file "
            "is damaged or made to exhaust memory: use another font"
        )


def _sfnt(view: memoryview, at: int, seen: set[tuple[bytes, int, int]]) -> Iterator[Table]:
    """The tables of the sfnt (TrueType or OpenType) font whose directory starts at ``at``,
    each inside the file; those in ``seen`` (shared by another face) left out."""
    version, count = _unpack(">4sH", view, at)
    if version not in SFNT:
        raise FontFileError(NOT_A_FONT)
    _too_many(count, MAX_FONT_TABLES, "tables")
    entries = [_unpack(">4sIII", view, at + 12 + 16 * i) for i in range(count)]
    for tag, _, offset, length in entries:
        if offset + length > len(view):
            raise FontFileError(
                f"has a table '{_tag(tag)}' that runs past the end of the file (it is cut "
                "short or damaged)"
            )
        if (tag, offset, length) not in seen:
            seen.add((tag, offset, length))
            yield _tag(tag), view[offset : offset + length]


def _tag(raw: bytes) -> str:
    """A table's tag as text (a damaged one printable all the same)."""
    return raw.decode("latin-1").encode("ascii", "backslashreplace").decode()


def _collection(view: memoryview) -> Iterator[Table]:
    """The tables of every face of a collection (.ttc, .otc), the faces bounded in number."""
    (count,) = _unpack(">I", view, 8)
    _too_many(count, MAX_FACES, "fonts in the collection")
    seen: set[tuple[bytes, int, int]] = set()
    for index in range(count):
        (offset,) = _unpack(">I", view, 12 + 4 * index)
        yield from _sfnt(view, offset, seen)


def _woff(view: memoryview) -> Iterator[Table]:
    """The tables of a WOFF font, each inflated with a cap of the size it declares (and
    the metadata block too: fontTools inflates it on opening)."""
    header = _unpack(">4s4sIHHIHHIIIII", view, 0)
    count, total, meta = header[3], header[5], header[8:11]
    _too_many(count, MAX_FONT_TABLES, "tables")
    entries = [_unpack(">4sIIII", view, 44 + 20 * i) for i in range(count)]
    _inflating(total, sum(e[3] for e in entries) + meta[2])
    if meta[1]:
        _inflated(_within(view, meta[0], meta[1], "metadata"), meta[2], "its metadata")
    for tag, offset, packed, size, _ in entries:
        raw = _within(view, offset, packed, f"table '{_tag(tag)}'")
        if packed == size:
            yield _tag(tag), raw
        else:
            yield _tag(tag), _inflated(raw, size, f"its table '{_tag(tag)}'")


def _within(view: memoryview, offset: int, length: int, what: str) -> memoryview:
    """The ``length`` bytes at ``offset``, which must be inside the file."""
    if offset + length > len(view):
        raise FontFileError(f"has its {what} past the end of the file (cut short or damaged)")
    return view[offset : offset + length]


def _inflating(*sizes: int) -> None:
    """``FontFileError`` when a compressed font declares it inflates past the limit."""
    largest = max(sizes)
    if largest > MAX_INFLATED_FONT:
        raise FontFileError(
            f"says it decompresses to {largest:,} bytes, more than the {MAX_INFLATED_FONT:,} "
            "a font may; the file is damaged or a decompression bomb: use another font"
        )


def _inflated(raw: memoryview, size: int, what: str) -> bytes:
    """zlib data inflated to at most ``size`` bytes, which it must be exactly."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(raw, size)
    except zlib.error:
        raise FontFileError(f"has {what} damaged (it cannot be decompressed)") from None
    if len(out) != size or not inflater.eof:
        raise FontFileError(
            f"has {what} decompressing to another size than the {size:,} bytes it declares "
            "(damaged, or a decompression bomb): use another font"
        )
    return out


def _woff2(view: memoryview) -> Iterator[Table]:
    """The tables of a WOFF2 font: its directory read, the sizes it declares bounded, its
    brotli stream inflated with a cap on the bytes made, before fontTools inflates it."""
    header = _unpack(">4s4sIHHIIHHIIIII", view, 0)
    flavor, count, total, packed, meta = header[1], header[3], header[5], header[6], header[9:12]
    _too_many(count, MAX_FONT_TABLES, "tables")
    if flavor == b"ttcf":
        raise FontFileError(
            "is a WOFF2 collection, which cannot be read; use one font of it as .ttf or .otf"
        )
    entries, at = _woff2_directory(view, count)
    stream = sum(length for _, _, length in entries)
    _inflating(total, stream, meta[2], *(size for _, size, _ in entries))
    data = _unbrotli(_within(view, at, packed, "compressed tables"), stream, "its tables")
    if meta[1]:
        _unbrotli(_within(view, meta[0], meta[1], "metadata"), meta[2], "its metadata")
    start = 0
    for tag, _, length in entries:
        if tag in ("cmap", "CFF ", "name"):
            yield tag, data[start : start + length]
        start += length


def _woff2_directory(view: memoryview, count: int) -> tuple[list[tuple[str, int, int]], int]:
    """WOFF2's table directory: (tag, declared size, bytes in the stream) each, and where
    the compressed stream starts."""
    at, entries = 48, []
    for _ in range(count):
        (flags,) = _unpack(">B", view, at)
        at += 1
        if flags & 0x3F == 0x3F:
            tag = _tag(bytes(_unpack(">4s", view, at)[0]))
            at += 4
        else:
            tag = woff2KnownTags[flags & 0x3F]
        size, at = _base128(view, at)
        version = flags >> 6
        length = size
        if (version != 3) if tag in ("glyf", "loca") else (version != 0):
            length, at = _base128(view, at)
        entries.append((tag, size, length))
    return entries, at


def _base128(view: memoryview, at: int) -> tuple[int, int]:
    """A WOFF2 UIntBase128 at ``at``: its value and where the next field starts."""
    value = 0
    for i in range(5):
        (byte,) = _unpack(">B", view, at + i)
        if (i == 0 and byte == 0x80) or value & 0xFE000000:
            break
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, at + i + 1
    raise FontFileError("is damaged (a WOFF2 size is wrongly encoded)")


def _unbrotli(raw: memoryview, size: int, what: str) -> bytes:
    """brotli data inflated to at most ``size`` bytes (a byte past it refused), which it must
    be exactly."""
    try:
        import brotli  # noqa: PLC0415 - an optional extra, needed by WOFF2 fonts only
    except ImportError:
        raise FontFileError(BROTLI_MISSING) from None
    inflater = brotli.Decompressor()
    try:
        out = inflater.process(bytes(raw), output_buffer_limit=size + 1)
    except TypeError:  # brotli before 1.2 cannot cap what it makes
        raise FontFileError(BROTLI_MISSING) from None
    except brotli.error:
        raise FontFileError(f"has {what} damaged (it cannot be decompressed)") from None
    if len(out) != size or not inflater.is_finished():
        raise FontFileError(
            f"has {what} decompressing to another size than the {size:,} bytes it declares "
            "(damaged, or a decompression bomb): use another font"
        )
    return out


def _check_cmap(table: bytes | memoryview) -> None:
    """``FontFileError`` when the character maps are too many, or one maps more code points
    than a font may (its ranges summed, as reportlab and fontTools expand them one by one),
    or a range passes U+10FFFF."""
    _, count = _unpack(">HH", table, 0)
    _too_many(count, MAX_CMAP_SUBTABLES, "character maps (cmap subtables)")
    offsets = {_unpack(">HHI", table, 4 + 8 * i)[2] for i in range(count)}
    for offset in sorted(offsets):
        (form,) = _unpack(">H", table, offset)
        codes = _SPANS[form](table, offset) if form in _SPANS else 0
        if codes > MAX_CMAP_CODES:
            raise FontFileError(
                f"has a character map (cmap format {form}) mapping {codes:,} code points or "
                f"more, past the {MAX_CMAP_CODES:,} a font may map (Unicode has about "
                "155,000 characters); the file is damaged or made to exhaust memory: use "
                "another font"
            )


def _groups(table: bytes | memoryview, at: int, count: int) -> int:
    """The code points of ``count`` (start, end, glyph) groups at ``at`` (formats 8, 12 and
    13), summed no further than past the limit; a range past U+10FFFF refused."""
    if at + 12 * count > len(table):
        raise FontFileError("is cut short or damaged (a character map runs past its end)")
    codes = 0
    for start, end, _ in struct.iter_unpack(">III", table[at : at + 12 * count]):
        if end > LAST_CODE:
            raise FontFileError(
                f"has a character map range ending at 0x{end:X}, past U+10FFFF, the last "
                "code point of Unicode (the file is damaged): use another font"
            )
        codes += max(0, end - start + 1)
        if codes > MAX_CMAP_CODES:
            break
    return codes


def _span_12(table: bytes | memoryview, offset: int) -> int:
    """Formats 12 and 13: groups of 32-bit code point ranges."""
    (count,) = _unpack(">I", table, offset + 12)
    return _groups(table, offset + 16, count)


def _span_8(table: bytes | memoryview, offset: int) -> int:
    """Format 8: mixed 16 and 32-bit codes, groups after a 8,192-byte bitmap."""
    (count,) = _unpack(">I", table, offset + 12 + 8192)
    return _groups(table, offset + 16 + 8192, count)


def _span_4(table: bytes | memoryview, offset: int) -> int:
    """Format 4: segments of 16-bit codes (reportlab walks each, overlapping or not)."""
    (doubled,) = _unpack(">H", table, offset + 6)
    segments = doubled // 2
    ends = _unpack(f">{segments}H", table, offset + 14)
    starts = _unpack(f">{segments}H", table, offset + 16 + 2 * segments)
    return sum(max(0, end - start + 1) for start, end in zip(starts, ends, strict=True))


def _span_2(table: bytes | memoryview, offset: int) -> int:
    """Format 2: 256 high bytes, each naming a sub-header (read by its index, as reportlab
    does, and by its byte offset, as fontTools does) whose entries it maps."""
    keys = _unpack(">256H", table, offset + 6)
    headers = offset + 6 + 512
    codes = 0
    for key in keys:
        for index in {key, key // 8}:
            if key and headers + 8 * index + 4 <= len(table):
                codes += _unpack(">H", table, headers + 8 * index + 2)[0]
    return codes


def _span_10(table: bytes | memoryview, offset: int) -> int:
    """Format 10: one range of 32-bit codes, each with its glyph."""
    (count,) = _unpack(">I", table, offset + 16)
    if offset + 20 + 2 * count > len(table):
        raise FontFileError("is cut short or damaged (a character map runs past its end)")
    return int(count)


def _span_6(table: bytes | memoryview, offset: int) -> int:
    """Format 6: one range of 16-bit codes."""
    return int(_unpack(">H", table, offset + 8)[0])


def _span_14(table: bytes | memoryview, offset: int) -> int:
    """Format 14: variation sequences, each selector's default ranges and other mappings
    (fontTools expands them all, for every selector: 8 KB made 78 million entries), summed
    no further than past the limit (every range and mapping is one sequence at least)."""
    (records,) = _unpack(">I", table, offset + 6)
    _too_many(records, MAX_VARIATION_SELECTORS, "variation selectors (cmap format 14)")
    codes = 0
    for index in range(records):
        default, other = _unpack(">II", table, offset + 10 + 11 * index + 3)
        for at, size in ((default, 4), (other, 5)):
            if not at:
                continue
            (count,) = _unpack(">I", table, offset + at)
            start, end = offset + at + 4, offset + at + 4 + size * count
            if end > len(table):
                raise FontFileError("is cut short or damaged (a character map runs past its end)")
            if codes + count > MAX_CMAP_CODES:
                return codes + count
            ranges = struct.iter_unpack(">3xB", table[start:end]) if size == 4 else ()
            codes += count + sum(extra for (extra,) in ranges)
    return codes


_SPANS = {
    **{2: _span_2, 4: _span_4, 6: _span_6, 8: _span_8, 10: _span_10},
    **{12: _span_12, 13: _span_12, 14: _span_14},
}


def _check_names(table: bytes | memoryview) -> None:
    """``FontFileError`` when the name table's records, each a slice of its strings that
    fontTools copies, add up past ``MAX_NAME_BYTES`` (5,400 records of one 64 KB string make
    354 MB, in each face of a collection)."""
    _, count, _ = _unpack(">HHH", table, 0)
    records = _unpack(f">{6 * count}H", table, 6)
    total = sum(records[4::6])
    if total > MAX_NAME_BYTES:
        raise FontFileError(
            f"has names (its name table) adding up to {total:,} bytes, more than the "
            f"{MAX_NAME_BYTES:,} a font file may hold; the file is damaged or made to exhaust "
            "memory: use another font"
        )
