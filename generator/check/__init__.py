"""The rules validator: takes a loaded game (and its plan) and hands on a report of what
disagrees with the rulebook: counts, deck recipes, text that does not fit."""
