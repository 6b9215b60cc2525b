"""Paths named in specs: relative, inside the folder they are looked up in, never '..'."""

from __future__ import annotations


def relative_problem(name: str) -> str | None:
    """Why ``name`` cannot be used as a path inside a game folder, or None if it can."""
    parts = name.replace("\\", "/").split("/")
    if not name.strip():
        return "is empty"
    if name.startswith("/") or ":" in parts[0]:
        return "is absolute or a URL; give a path relative to the folder"
    if ".." in parts:
        return "uses '..'; files must stay inside the folder"
    return None
