"""The SVG renderer: takes SVG (a template's output, a designer's picture) and hands on a
``Drawer``, the SVG compiled once into PDF operations that draw it on any reportlab canvas,
with the warnings of what it does not draw. It knows nothing of games: fonts, colours
(``pdf.Colours``: a print shop's CMYK) and the pictures' cache are given to it.

The public face, what other packages import (each from the module named):

- ``compiler``: ``compile_svg`` (SVG to a ``Drawer``), ``Drawer``, ``SvgError``, and
  ``pdf_number`` (numbers as a content stream writes them);
- ``pdf``: ``Drawer``, ``Colours`` and ``RGB`` (the colours a drawing is written in), and
  the operation codes of ``Drawer.ops`` (``SAVE`` ... ``PAINT``, listed there), for a reader
  of a drawing such as the legibility check;
- ``images``: ``Pictures``, the cache of compiled SVG pictures a build shares;
- ``safexml``: ``SAFE_PARSER`` and ``TEXT_PARSER``, the only parsers for SVG from strangers;
- ``fonts``: registering the stock and a game's fonts (``register_fonts``,
  ``register_game_fonts``, ``REGULAR``, ``BOLD``, ``VARIANTS``, ``FILES``, ``FONT_DIR``) and
  measuring text (``text_width``, ``wrap``);
- ``canvas``: what is done to a reportlab canvas beyond its public API (the only module that
  touches reportlab's private attributes);
- ``raster``: raster images in the PDF (``Raster``, ``load``, ``draw_image``, ``ImageProblem``);
- ``imageguard``: the one door to Pillow for a user's picture (``verify``, ``image_size``,
  ``ImageProblem``): kinds, pixels, frames and EXIF bounded, whatever Pillow raises in words;
- ``shaping``: the guard of HarfBuzz and python-bidi (``Shaper``, ``levels``): one text
  bounded, shaped in time linear in its length.

The rest is the compiler's own business: ``compiler.Compiler`` walks the tree and hands each
element to its handler in ``shapes``, ``structure``, ``textdraw`` or ``images``, which reach it
through the ``compiling.Compiling`` protocol and use ``painting``, ``clips``, ``gradients``,
``patterns``, ``textruns``, ``properties``, ``builder``, ``css``, ``path`` and ``values``.
It is tested in tests/test_svg_*.py against resvg and the svg-suite.
"""
