"""The states Sistema +2d6 gives a combatant (seed, "Morte")."""

from ..conditions import LEFT, has
from .state import SistemaCombatant

UNCONSCIOUS, DYING, STABLE, DEAD = "unconscious", "dying", "stable", "dead"


def is_dead(combatant: SistemaCombatant) -> bool:
    return has(combatant, DEAD)


def is_dying(combatant: SistemaCombatant) -> bool:
    return has(combatant, DYING) and not is_dead(combatant)


def can_act(combatant: SistemaCombatant) -> bool:
    return not has(combatant, UNCONSCIOUS) and not is_dead(combatant) and not has(combatant, LEFT)


def is_standing(combatant: SistemaCombatant) -> bool:
    return can_act(combatant)
