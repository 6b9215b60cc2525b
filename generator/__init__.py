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
the command line as ``python -m generator``. Before any of them is imported, the libraries
named in DEFERRED are put in the module table as stand-ins that import them at first use.
"""

import importlib.util
import sys
import threading
import types

__version__ = "0.1.0"


DEFERRED = ("uharfbuzz",)  # libraries imported at their first use, not with their importer


class _Deferred(types.ModuleType):
    """A stand-in for a module, in ``sys.modules`` under its name: an ``import`` of it is
    free, and its first attribute it lacks imports the real module (which then takes its
    place there) and copies that module's names in, so a reference kept by an importer
    reads the real names from then on."""

    _lock = threading.Lock()

    def __getattr__(self, name: str) -> object:
        with self._lock:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
                try:
                    self.__dict__.update(importlib.import_module(self.__name__).__dict__)
                except BaseException:
                    sys.modules[self.__name__] = self  # the next use tries again
                    raise
        return getattr(sys.modules[self.__name__], name)


def _defer(name: str) -> None:
    """``name`` imported at its first use. For uharfbuzz (a fiftieth of a second of CPU):
    reportlab's font module imports it for a shaping of its own that pnp never turns on, and
    pnp's own shaper (``svg.shaping``) uses it for scripts that need it only. Put in place
    here, before any module of the engine imports reportlab."""
    if name not in sys.modules and importlib.util.find_spec(name) is not None:
        sys.modules[name] = _Deferred(name)


for _name in DEFERRED:
    _defer(_name)
