"""Many fights from one combat template, played by the rules core (docs/simulations.md)."""

from .runner import MAX_FIGHTS, simulate
from .tactics import STYLES, TARGETS, Tactic

__all__ = ["MAX_FIGHTS", "STYLES", "TARGETS", "Tactic", "simulate"]
