"""The states Duel 2D6 gives a combatant: prone, stunned, out of the fight, dead..."""

from ..conditions import LEFT, add, has, remove

PRONE, STUNNED, UNCONSCIOUS, DEAD = "prone", "stunned", "unconscious", "dead"
SUPPRESSED, FIRING_FROM_COVER = "suppressed", "firing_from_cover"


def condition(combatant: dict, code: str) -> dict | None:
    return next((c for c in combatant["conditions"] if c["code"] == code), None)


def is_prone(combatant: dict) -> bool:
    return has(combatant, PRONE)


def is_stunned(combatant: dict) -> bool:
    return has(combatant, STUNNED)


def is_out(combatant: dict) -> bool:
    return has(combatant, UNCONSCIOUS) or has(combatant, DEAD) or has(combatant, LEFT)


def is_dead(combatant: dict) -> bool:
    return has(combatant, DEAD)


__all__ = ["add", "remove", "has", "condition", "is_prone", "is_stunned", "is_out", "is_dead"]
