"""Translations: takes the specs' strings and gettext catalogs (a game's and the engine's own),
hands on translated spec data, reports of what is missing, and the engine's printed words."""
