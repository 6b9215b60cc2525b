"""What a card of the card workload prints, and a process's CPU seconds: shared by the pnp
workload (workload.py) and the floor (floor_cards.py), which must import nothing of the
engine: a floor that imported pnp's loader paid half a second of pnp's imports, which made
pnp's whole-process ratio look a third better than it is."""

from __future__ import annotations

import colorsys
import resource


def colour(n: int) -> str:
    """A distinct colour per card."""
    r, g, b = colorsys.hls_to_rgb((n * 37 % 360) / 360, 0.45, 0.55)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def card_fields(n: int, cards: int) -> dict:
    """What card ``n`` prints: shared by the pnp game and the floor script."""
    return {
        "number": n,
        "title": f"Card {n}",
        "colour": colour(n),
        "line1": f"Card number {n} of {cards}",
        "line2": f"Distinct flavour text for card {n}",
    }


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process and of every child it has waited for,
    workers included: what a build costs the machine, whatever the other sessions do."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
