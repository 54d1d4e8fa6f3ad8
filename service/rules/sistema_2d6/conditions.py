"""The states Sistema +2d6 gives a combatant (seed, "Morte")."""

from ..conditions import LEFT, has
from .state import SistemaCombatant

UNCONSCIOUS, DYING, STABLE, DEAD = "unconscious", "dying", "stable", "dead"


def is_dead(combatant: SistemaCombatant) -> bool:
    return has(combatant, DEAD)


def is_dying(combatant: SistemaCombatant) -> bool:
    return has(combatant, DYING) and not is_dead(combatant)


_DOWN = frozenset({UNCONSCIOUS, DEAD, LEFT})


def can_act(combatant: SistemaCombatant) -> bool:
    # has_any() inlined: called several times per combatant in every action (prompts, turn order, sides).
    for condition in combatant["conditions"]:
        if condition["code"] in _DOWN:
            return False
    return True


is_standing = can_act  # the same test (one call fewer: both are called several times per action)
