"""The states Sistema +2d6 gives a combatant (seed, "Morte")."""

from ..conditions import LEFT, has

UNCONSCIOUS, DYING, STABLE, DEAD = "unconscious", "dying", "stable", "dead"


def is_dead(combatant: dict) -> bool:
    return has(combatant, DEAD)


def is_dying(combatant: dict) -> bool:
    return has(combatant, DYING) and not is_dead(combatant)


def can_act(combatant: dict) -> bool:
    return not has(combatant, UNCONSCIOUS) and not is_dead(combatant) and not has(combatant, LEFT)


def is_standing(combatant: dict) -> bool:
    return can_act(combatant)
