"""The states Duel 2D6 gives a combatant: prone, stunned, out of the fight, dead..."""

from typing import Any

from ..conditions import LEFT, add, find, has, remove
from .state import DuelCombatant

PRONE, STUNNED, UNCONSCIOUS, DEAD = "prone", "stunned", "unconscious", "dead"
SUPPRESSED, FIRING_FROM_COVER = "suppressed", "firing_from_cover"
IN_COVER = "in_cover"  # took the Couvert defense: no action nor movement for the rest of the round


def condition(combatant: DuelCombatant, code: str) -> dict[str, Any] | None:
    return find(combatant, code)


def is_prone(combatant: DuelCombatant) -> bool:
    return has(combatant, PRONE)


def is_stunned(combatant: DuelCombatant) -> bool:
    return has(combatant, STUNNED)


_OUT = frozenset({UNCONSCIOUS, DEAD, LEFT})


def is_out(combatant: DuelCombatant) -> bool:
    # has_any() inlined: called several times per combatant in every action (prompts, turn order, sides).
    for condition in combatant["conditions"]:
        if condition["code"] in _OUT:
            return True
    return False


def is_in_cover(combatant: DuelCombatant) -> bool:
    return has(combatant, IN_COVER)


def is_dead(combatant: DuelCombatant) -> bool:
    return has(combatant, DEAD)


__all__ = ["add", "remove", "has", "condition", "is_prone", "is_stunned", "is_in_cover", "is_out", "is_dead"]
