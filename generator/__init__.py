"""pnp-generator: YAML component specs to print-ready PDFs, with rulebook counts checked.

One package per stage, in the order the data flows: ``i18n`` (catalogs) → ``spec`` (YAML to
validated models and designs) → ``art`` (templates to drawings) → ``layout`` (pieces on sheets,
the pack model) → ``output`` (PDF, manifest, exports), with ``check`` (the rules validator)
beside them; ``build`` runs them for one pack, ``commands`` holds one module per CLI command.
A module imports only from its own stage, an earlier one, or the shared basics at the top
(``errors``, ``paths``, ``options``).
"""

__version__ = "0.1.0"
