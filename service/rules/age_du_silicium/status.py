"""What a combatant's conditions allow (seed: surprise, frenzy; source: wounds)."""

from __future__ import annotations

from typing import Any

from ..conditions import LEFT, find, has
from .state import SiliciumCombat, SiliciumCombatant

SURPRISED, FRENZY, CORNERED, PRONE = "surprised", "frenzy", "cornered", "prone"
IMMOBILISED, DISARMED, OUT_OF_ACTION, DEAD = "immobilised", "disarmed", "out_of_action", "dead"


def condition(combatant: SiliciumCombatant, code: str) -> dict[str, Any] | None:
    return find(combatant, code)


_DOWN = frozenset({OUT_OF_ACTION, DEAD, LEFT})


def is_standing(combatant: SiliciumCombatant) -> bool:
    # has_any() inlined: called several times per combatant in every action (prompts, turn order, sides).
    for condition in combatant["conditions"]:
        if condition["code"] in _DOWN:
            return False
    return True


def frenzy(combatant: SiliciumCombatant) -> str | None:
    """'berserker', 'flight', 'undecided' or None."""
    found = find(combatant, FRENZY)
    if found is None:
        return None
    return found.get("behaviour") or "undecided"


def may_attack(combatant: SiliciumCombatant) -> bool:
    """Not held down, and not fleeing unless cornered (declarations.check_kind)."""
    return not has(combatant, IMMOBILISED) and (frenzy(combatant) != "flight" or has(combatant, CORNERED))


def enemies(state: SiliciumCombat, combatant: SiliciumCombatant) -> list[SiliciumCombatant]:
    return [c for c in state["combatants"] if c["side"] != combatant["side"]]


def allies(state: SiliciumCombat, combatant: SiliciumCombatant) -> list[SiliciumCombatant]:
    """The combatant's side, the combatant included."""
    return [c for c in state["combatants"] if c["side"] == combatant["side"]]


def standing_sides(state: SiliciumCombat) -> set[str]:
    return {c["side"] for c in state["combatants"] if is_standing(c)}


def by_id(state: SiliciumCombat) -> dict[str, SiliciumCombatant]:
    return {c["id"]: c for c in state["combatants"]}
