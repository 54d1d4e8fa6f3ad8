"""What a combatant's conditions allow (seed: surprise, frenzy; source: wounds)."""

from __future__ import annotations

from ..conditions import LEFT, has

SURPRISED, FRENZY, CORNERED, PRONE = "surprised", "frenzy", "cornered", "prone"
IMMOBILISED, DISARMED, OUT_OF_ACTION, DEAD = "immobilised", "disarmed", "out_of_action", "dead"


def condition(combatant: dict, code: str) -> dict | None:
    return next((c for c in combatant["conditions"] if c["code"] == code), None)


def is_standing(combatant: dict) -> bool:
    return not has(combatant, OUT_OF_ACTION) and not has(combatant, DEAD) and not has(combatant, LEFT)


def frenzy(combatant: dict) -> str | None:
    """'berserker', 'flight', 'undecided' or None."""
    found = condition(combatant, FRENZY)
    if found is None:
        return None
    return found.get("behaviour") or "undecided"


def may_attack(combatant: dict) -> bool:
    """Not held down, and not fleeing unless cornered (declarations.check_kind)."""
    return not has(combatant, IMMOBILISED) and (frenzy(combatant) != "flight" or has(combatant, CORNERED))


def enemies(state: dict, combatant: dict) -> list[dict]:
    return [c for c in state["combatants"] if c["side"] != combatant["side"]]


def allies(state: dict, combatant: dict) -> list[dict]:
    """The combatant's side, the combatant included."""
    return [c for c in state["combatants"] if c["side"] == combatant["side"]]


def standing_sides(state: dict) -> set[str]:
    return {c["side"] for c in state["combatants"] if is_standing(c)}


def by_id(state: dict) -> dict[str, dict]:
    return {c["id"]: c for c in state["combatants"]}
