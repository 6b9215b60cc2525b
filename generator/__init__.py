"""pnp-generator: YAML component specs to print-ready PDFs, with rulebook counts checked.

The package follows the data: spec (``yamlsource``, ``spec``, ``loader``) → pieces (``pieces``)
→ SVG (``render``, ``svgart``) → sheets (``impose``) → PDF (``pdf``, ``inventory``, ``manifest``),
with the rules validator (``rules``) beside it. ``commands`` holds one module per CLI command.
"""

__version__ = "0.1.0"
