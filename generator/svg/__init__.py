"""The SVG renderer: takes SVG (a template's output, a designer's picture) and hands on a
``Drawer``, the SVG compiled once into PDF operations that draw it on any reportlab canvas,
with the warnings of what it does not draw. It knows nothing of games: fonts, colours
(``pdf.Colours``: a print shop's CMYK) and the pictures' cache are given to it.

The public face: ``compile_svg`` (``compiler``), ``Drawer`` and ``Colours`` (``pdf``),
``SvgError``, ``SAFE_PARSER`` (``safexml``), the font registry (``fonts``) and the cache of SVG
pictures (``images.Pictures``); the rest is its own business, tested in tests/test_svg_*.py
against resvg and the svg-suite.
"""
