"""The states Sistema +2d6 gives a combatant (seed, "Morte")."""

from ..conditions import LEFT, has, has_any
from .state import SistemaCombatant

UNCONSCIOUS, DYING, STABLE, DEAD = "unconscious", "dying", "stable", "dead"


def is_dead(combatant: SistemaCombatant) -> bool:
    return has(combatant, DEAD)


def is_dying(combatant: SistemaCombatant) -> bool:
    return has(combatant, DYING) and not is_dead(combatant)


_DOWN = frozenset({UNCONSCIOUS, DEAD, LEFT})


def can_act(combatant: SistemaCombatant) -> bool:
    return not has_any(combatant, _DOWN)


def is_standing(combatant: SistemaCombatant) -> bool:
    return can_act(combatant)
