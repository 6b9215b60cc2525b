"""The spec stage: takes a game folder's YAML (with line numbers) and hands on validated typed
models (a ``Game`` of ``Component``s), their designs and counts, or every mistake at its line."""

from __future__ import annotations

import sys
import types


def _no_pydantic_plugins() -> None:
    """pydantic looks for plugins (``importlib.metadata``'s entry points) as it makes its first
    validator, and importing that costs every command ~12 ms; pnp's specs use no plugin. The
    plugin loader is stood in for by one that finds none, the answer pydantic's own loader
    gives under ``PYDANTIC_DISABLE_PLUGINS=__all__`` (tests/test_cli.py holds both)."""
    if "pydantic.plugin._loader" not in sys.modules:
        loader = types.ModuleType("pydantic.plugin._loader")
        loader.get_plugins = lambda: ()  # type: ignore[attr-defined]
        sys.modules["pydantic.plugin._loader"] = loader


_no_pydantic_plugins()
