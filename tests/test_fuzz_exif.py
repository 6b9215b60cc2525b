"""Fuzzing the EXIF block of photos (JPEG, PNG, TIFF), the metadata a phone or a stranger
writes: tags retyped, counts and offsets changed, sub-IFDs pointing anywhere. Every example
goes through the picture guard as a build does (its header and size, ``verify``, the load at
a size that makes it decode and turn) and ends as a picture or as ``ImageProblem``: never
another exception (an internal error) or a hang.

The suite runs ``PNP_FUZZ_EXAMPLES`` (default 10) derandomized examples of each kind; set it
for a long run, e.g. ``PNP_FUZZ_EXAMPLES=3000 pytest tests/test_fuzz_exif.py``."""

from __future__ import annotations

import io
import os
from datetime import timedelta

import pytest
from fuzzing import call_within
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from PIL import Image

from generator.svg import raster
from generator.svg.imageguard import ImageProblem, verify

pytestmark = pytest.mark.acceptance

EXAMPLES = int(os.environ.get("PNP_FUZZ_EXAMPLES", "10"))
LONG_RUN = "PNP_FUZZ_EXAMPLES" in os.environ
HANG_SECONDS = 20
fuzz = settings(
    max_examples=EXAMPLES,
    deadline=timedelta(seconds=30),
    database=None,
    derandomize=not LONG_RUN,
    phases=list(Phase) if LONG_RUN else [Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


def _photo(kind: str) -> bytes:
    """A 40 x 30 picture of ``kind`` with an EXIF block: an orientation that turns it, a
    camera's name, a date in the EXIF sub-IFD and a GPS sub-IFD."""
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x010F] = "Camera"
    exif[0x0132] = "2024:01:01 10:00:00"
    exif[0x8769] = {0x9003: "2024:01:01 10:00:00", 0x920A: 4.5}
    exif[0x8825] = {0x0001: "N", 0x0002: (51.0, 30.0, 0.0)}
    out = io.BytesIO()
    mode = "RGBA" if kind == "PNG" else "RGB"
    Image.new(mode, (40, 30), "#c04020").save(out, kind, exif=exif.tobytes())
    return out.getvalue()


PHOTOS = {kind: _photo(kind) for kind in ("JPEG", "PNG", "TIFF")}
# the bytes EXIF code reads: types, counts and offsets are small numbers or 0xff
BYTES = st.one_of(
    st.sampled_from([0, 1, 2, 3, 4, 5, 7, 9, 10, 12, 0x7F, 0x80, 0xFF]), st.integers(0, 255)
)


def _exif_start(raw: bytes) -> int:
    """Where the EXIF block's TIFF header starts in ``raw`` (the whole file for a TIFF)."""
    for marker in (b"Exif\0\0", b"eXIf"):
        at = raw.find(marker)
        if at >= 0:
            return at + (6 if marker == b"Exif\0\0" else 4)
    return 0


def _damaged(raw: bytes, changes: list[tuple[int, int]]) -> bytes:
    start = _exif_start(raw)
    out = bytearray(raw)
    for offset, value in changes:
        at = start + offset
        if at < len(out):
            out[at] = value
    return bytes(out)


def _read(raw: bytes) -> object:
    """What a build does with a picture: its size, its data to the end, and the picture
    decoded and turned upright at a size that needs it downsampled."""
    try:
        verify(raw)
        size = raster.image_size(raw)
        picture = raster.load.__wrapped__(raw, (16, 16))
    except ImageProblem as exc:
        return str(exc)
    assert min(size) > 0 and picture.width > 0 and picture.height > 0, (size, picture)
    return picture.width, picture.height


@pytest.mark.parametrize("kind", list(PHOTOS))
@fuzz
@given(changes=st.lists(st.tuples(st.integers(0, 160), BYTES), min_size=1, max_size=8))
def test_a_damaged_exif_block_is_a_picture_or_the_files_error(kind: str, changes):
    raw = _damaged(PHOTOS[kind], changes)
    call_within(HANG_SECONDS, _read, raw)


def test_the_undamaged_photos_print_turned():
    """The seeds themselves: read, a JPEG and a PNG turned upright by their orientation (6: a
    quarter turn; Pillow writes a TIFF's EXIF without it)."""
    for kind, raw in PHOTOS.items():
        assert raster.image_size(raw) == ((40, 30) if kind == "TIFF" else (30, 40)), kind
        assert _read(raw) == ((22, 16) if kind == "TIFF" else (16, 22)), kind
