"""Soft-proofing a CMYK print PDF, independently of the project's own rendering and colour
code: MuPDF renders the print file into its own output intent's CMYK (a colour space made
from the embedded profile, so that DeviceCMYK passes through untouched), littleCMS (through
Pillow) takes those inks to L*a*b*; the reference is the art as designed, a PDF in sRGB
rendered by MuPDF (composited in sRGB), converted to the same press the ideal way (relative
colorimetric with black-point compensation, the ink limit applied) and to L*a*b* too. The
difference is CIEDE2000, pixel by pixel."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pikepdf
import pymupdf
from PIL import Image, ImageCms

RELATIVE = ImageCms.Intent.RELATIVE_COLORIMETRIC
PIXEL_BUDGET = 3_000_000  # pixels a page is rendered at, at most (boards at less than 300 dpi)
# Colour is compared over patches 1 mm across (12 x 12 pixels at 300 dpi), the light of each
# averaged: a colour meter's aperture is 1.5 to 4 mm, and where two renderers put an edge a
# part pixel apart (PDFium snaps a rectangle's edges to whole pixels, MuPDF does not) is a
# question of geometry, not of colour
PATCH_MM = 1.0


def intent_profile(pdf: Path) -> bytes:
    """The output intent's embedded profile."""
    with pikepdf.open(pdf) as document:
        return document.Root.OutputIntents[0].DestOutputProfile.read_bytes()


def _press_space(profile: bytes) -> pymupdf.Colorspace:
    """MuPDF's colour space for the press profile (its own default CMYK would re-separate
    every colour into another profile's inks)."""
    m = pymupdf.mupdf
    return pymupdf.Colorspace(
        m.fz_new_icc_colorspace(4, 0, "press", m.fz_new_buffer_from_copied_data(profile))
    )


def _render(page: pymupdf.Page, dpi: float, space: pymupdf.Colorspace, mode: str) -> Image.Image:
    pixmap = page.get_pixmap(
        colorspace=space, matrix=pymupdf.Matrix(dpi / 72, dpi / 72), alpha=False
    )
    return Image.frombytes(mode, (pixmap.width, pixmap.height), pixmap.samples)


def lab(image: Image.Image, transform: ImageCms.ImageCmsTransform) -> np.ndarray:
    """L*, a*, b* of every pixel (Pillow keeps L* as 0-255 and a*, b* as signed bytes)."""
    raw = np.asarray(ImageCms.applyTransform(image, transform))
    ab = raw[..., 1:].view(np.int8).astype(np.float64)
    return np.stack([raw[..., 0].astype(np.float64) * 100 / 255, ab[..., 0], ab[..., 1]], -1)


def limit_ink(cmyk: Image.Image, total: float | None) -> Image.Image:
    """Each pixel's cyan, magenta and yellow scaled alike to keep the four inks within
    ``total`` (1.0 = 100 %), black kept, rounded down: how a shop's limit applies."""
    if total is None:
        return cmyk
    inks = np.asarray(cmyk).astype(np.float64)
    colour = inks[..., :3].sum(-1)
    room = np.clip(total * 255 - inks[..., 3], 0, None)
    scale = np.where(colour + inks[..., 3] > total * 255, room / np.maximum(colour, 1), 1.0)
    inks[..., :3] *= scale[..., None]
    return Image.fromarray(np.floor(inks + 1e-6).astype(np.uint8), "CMYK")


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 between two arrays of L*a*b* (Sharma, Wu and Dalal's formulation)."""
    l1, a1, b1 = np.moveaxis(lab1, -1, 0)
    l2, a2, b2 = np.moveaxis(lab2, -1, 0)
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p, h2p = np.degrees(np.arctan2(b1, a1p)) % 360, np.degrees(np.arctan2(b2, a2p)) % 360
    dh = h2p - h1p
    dh = np.where(
        c1p * c2p == 0, 0, np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    )
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh) / 2)
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    h_sum = h1p + h2p
    h_mean = np.where(
        c1p * c2p == 0,
        h_sum,
        np.where(
            np.abs(h1p - h2p) <= 180,
            h_sum / 2,
            np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2),
        ),
    )
    t = (
        1
        - 0.17 * np.cos(np.radians(h_mean - 30))
        + 0.24 * np.cos(np.radians(2 * h_mean))
        + 0.32 * np.cos(np.radians(3 * h_mean + 6))
        - 0.20 * np.cos(np.radians(4 * h_mean - 63))
    )
    theta = 30 * np.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * np.sqrt(cp_mean**7 / (cp_mean**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    r_t = -np.sin(np.radians(2 * theta)) * r_c
    return np.sqrt(
        (d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h)
    )


WHITE = np.array([0.9642, 1.0, 0.8249])  # D50


def _xyz(lab_pixels: np.ndarray) -> np.ndarray:
    """CIE XYZ (D50) of L*a*b* pixels."""
    fy = (lab_pixels[..., 0] + 16) / 116
    f = np.stack([fy + lab_pixels[..., 1] / 500, fy, fy - lab_pixels[..., 2] / 200], -1)
    return WHITE * np.where(f > 6 / 29, f**3, 3 * (6 / 29) ** 2 * (f - 4 / 29))


def _lab(xyz: np.ndarray) -> np.ndarray:
    """L*a*b* (D50) of CIE XYZ pixels."""
    t = xyz / WHITE
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1
    )


def averaged(lab_pixels: np.ndarray, n: int) -> np.ndarray:
    """The colour of each ``n`` x ``n`` block of pixels as a meter (or the eye) sees a patch
    of print: their light averaged (in XYZ), so that an edge drawn a part pixel off, or a
    letter's anti-aliased rim, counts by the light it reflects."""
    xyz = _xyz(lab_pixels)
    h, w = (xyz.shape[0] // n) * n, (xyz.shape[1] // n) * n
    return _lab(xyz[:h, :w].reshape(h // n, n, w // n, n, 3).mean(axis=(1, 3)))


def delta_e(
    print_pdf: Path, design_pdf: bytes, pages: list[int], ink: float | None, dpi: float = 300
) -> np.ndarray:
    """CIEDE2000 of every pixel of the ``pages`` (from 0) of a print file soft-proofed in its
    output intent, against the same pages of ``design_pdf`` (the art in sRGB) converted the
    ideal way; each page at ``dpi``, or less where it would pass ``PIXEL_BUDGET`` pixels."""
    profile = intent_profile(print_pdf)
    press = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    to_lab = ImageCms.buildTransform(
        press, ImageCms.createProfile("LAB", 5000), "CMYK", "LAB", RELATIVE
    )
    to_press = ImageCms.buildTransform(
        ImageCms.createProfile("sRGB"), press, "RGB", "CMYK", RELATIVE,
        ImageCms.Flags.BLACKPOINTCOMPENSATION,
    )  # fmt: skip
    space = _press_space(profile)
    out = []
    with pymupdf.open(print_pdf) as printed, pymupdf.open(stream=design_pdf) as design:
        for number in pages:
            page = printed[number]
            area = page.rect.width * page.rect.height / 72**2
            at = min(dpi, (PIXEL_BUDGET / area) ** 0.5)
            got = _render(page, at, space, "CMYK")
            rgb = _render(design[number], at, pymupdf.csRGB, "RGB")
            want = limit_ink(ImageCms.applyTransform(rgb, to_press), ink)
            n = max(1, round(PATCH_MM / 25.4 * at))
            reference, proof = averaged(lab(want, to_lab), n), averaged(lab(got, to_lab), n)
            out.append(ciede2000(reference, proof).ravel())
    return np.concatenate(out)
