"""pnp-generator: YAML component specs to print-ready PDFs, with rulebook counts checked.

One package per stage, in the order the data flows (docs/architecture.md): ``svg`` (the SVG
renderer: SVG compiled into PDF operations, fonts, shaping; it knows nothing of games) and
``i18n`` (catalogs, the engine's own words) → ``model`` (YAML to validated models, designs
and counts) → ``art`` (templates to drawings) → ``layout`` (pieces on sheets, the pack
model) → ``output`` (PDF, manifest, shop and Tabletop Simulator exports, previews), with
``check`` (the rules validator) beside them; ``plan`` runs them for each pack, ``serve`` is
the live preview and ``cli`` the command line, one module per command. A module imports only
from its own stage, an earlier one, or the shared basics at the top: ``errors`` (mistakes at
their lines), ``paths`` (the one gate for every file read), ``limits`` (every limit),
``options`` (how the user prints) and ``profile`` (the printer profile); ``__main__`` runs
the command line as ``python -m generator``.
"""

__version__ = "0.1.0"
