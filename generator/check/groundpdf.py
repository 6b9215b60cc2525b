"""The PDF the contrast check reads plain grounds from: each ground (a piece's art without its
text) on a page of its own, read once in memory by pdfium. A ground drawn with paths, colours,
transforms and opacity alone (a deck's frames and shapes) is already content-stream text, so it
is written here directly: reportlab's document model cost three times as much for the same
pixels (tests/test_seeing.py compares them). A ground with anything that needs resources of
its own (an image, a gradient, a group, a mask) is left to reportlab (``plain`` says which)."""

from __future__ import annotations

from collections.abc import Sequence

from generator.svg.pdf import FILL_ALPHA, RESTORE, SAVE, STROKE_ALPHA, TRANSFORM, Drawer, Ops
from generator.svg.rlfast import fp_str

_PLAIN_CODES = frozenset({SAVE, RESTORE, TRANSFORM, FILL_ALPHA, STROKE_ALPHA})
Alphas = dict[tuple[str, float], str]  # (ExtGState key, alpha) -> its resource name


def plain(drawings: Sequence[Drawer]) -> bool:
    """Whether drawings need no resources: their literals name none (a name is how a content
    stream refers to one) and are ASCII, and their operations are saves, restores,
    transforms and alphas."""
    return all(_plain(drawing.ops) for drawing in drawings)


def _plain(ops: Ops) -> bool:
    """Whether one drawing's operations need no resources (``plain``)."""
    for op in ops:
        if op.__class__ is str:
            if "/" in op or not op.isascii():
                return False
        elif op[0] not in _PLAIN_CODES:
            return False
    return True


def page_size(drawings: Sequence[Drawer]) -> tuple[float, float]:
    """The size in points of the page ``document`` gives these drawings, as its MediaBox
    writes it (what pdfium renders, to the digit)."""
    width, height = fp_str(drawings[0].width, drawings[0].height).split()
    return float(width), float(height)


def document(grounds: Sequence[Sequence[Drawer]]) -> bytes:
    """A PDF of plain grounds, one a page (each the size of its first drawing, the drawings
    one above the other, as ``Drawer.draw`` draws them on a canvas)."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(len(grounds)))
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(grounds)} >>".encode())
    for index, drawings in enumerate(grounds):
        alphas: Alphas = {}
        stream = "\n".join(_content(drawing.ops, alphas) for drawing in drawings).encode("ascii")
        states = " ".join(
            f"/{name} << /{key} {fp_str(value)} >>" for (key, value), name in alphas.items()
        )
        box = fp_str(0, 0, drawings[0].width, drawings[0].height)
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [{box}] "
            f"/Resources << /ExtGState << {states} >> >> /Contents {4 + 2 * index} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    return _file(objects)


def _content(ops: Ops, alphas: Alphas) -> str:
    """One drawing's operations as a content stream, inside a save and restore."""
    out = ["q"]
    for op in ops:
        if op.__class__ is str:
            out.append(op)
            continue
        code = op[0]
        if code == SAVE:
            out.append("q")
        elif code == RESTORE:
            out.append("Q")
        elif code == TRANSFORM:
            out.append(f"{fp_str(*op[1])} cm")
        else:
            key = ("ca" if code == FILL_ALPHA else "CA", float(op[1]))
            out.append(f"/{alphas.setdefault(key, f'A{len(alphas)}')} gs")
    out.append("Q")
    return "\n".join(out)


def _file(objects: list[bytes]) -> bytes:
    """The objects numbered from 1, with their cross-reference table and trailer."""
    parts, offsets, at = [b"%PDF-1.4\n"], [], 9
    for number, body in enumerate(objects, 1):
        data = b"%d 0 obj\n%s\nendobj\n" % (number, body)
        offsets.append(at)
        parts.append(data)
        at += len(data)
    table = "".join(f"{offset:010d} 00000 n \n" for offset in offsets)
    parts.append(
        f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n{table}"
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{at}\n%%EOF\n".encode()
    )
    return b"".join(parts)
