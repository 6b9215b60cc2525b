"""The error of a file that cannot be used as a font, shared by the font guard and the
conversion (a module of its own, so that neither imports the other for it)."""

from __future__ import annotations


class FontFileError(ValueError):
    """A file that cannot be used as a font (what is wrong, in the user's terms)."""
