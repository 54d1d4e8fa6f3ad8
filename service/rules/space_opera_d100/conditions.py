"""The states a combatant can be in, and the timed ones' durations.

Durations are rolled and recorded in the seed's units (minutes, hours) as the
condition's ``lasts``. The seed gives no round length, so a timed state lasts
the rest of the fight unless the ``round_seconds`` option converts it to
rounds (the shared ``ends``, expired by ``conditions.next_round``) or the GM
lifts it (``clear_condition``, or the shared ``condition`` action).
"""

from __future__ import annotations

import math
from typing import Any

from ..conditions import LEFT, add, find, has
from .state import Res, SpaceOperaCombatant
from .tables import CONTRACTED_DEX_LOSS, CONTRACTED_TEST_PENALTY, OFF_BALANCE_PENALTY, SECONDS_PER

DEAD = "dead"
UNCONSCIOUS = "unconscious"
KNOCKED_OUT = "knocked_out"
PARALYSED = "paralysed"
CONTRACTED = "contracted"
OFF_BALANCE = "off_balance"
LOSES_NEXT_ACTION = "loses_next_action"
WOUND = "wound"
HELPLESS = (DEAD, UNCONSCIOUS, KNOCKED_OUT, PARALYSED)
_CANNOT_ACT = frozenset({*HELPLESS, LEFT})


def is_dead(combatant: SpaceOperaCombatant) -> bool:
    return has(combatant, DEAD)


def can_act(combatant: SpaceOperaCombatant) -> bool:
    # has_any() inlined: called several times per combatant in every action (prompts, turn order, sides).
    for condition in combatant["conditions"]:
        if condition["code"] in _CANNOT_ACT:
            return False
    return True


def is_droid(combatant: SpaceOperaCombatant) -> bool:
    return combatant["kind"] == "droid"


def dex(combatant: SpaceOperaCombatant) -> int:
    base = combatant["sheet"]["attributes"]["DEX"]
    found: int = base - CONTRACTED_DEX_LOSS if has(combatant, CONTRACTED) else base
    return found


def test_penalties(combatant: SpaceOperaCombatant) -> dict[str, Any]:
    """Standing penalties on shooting, attack, dodge and parry tests."""
    penalties = {}
    if has(combatant, CONTRACTED):
        penalties["contracted"] = CONTRACTED_TEST_PENALTY
    if has(combatant, OFF_BALANCE):
        penalties["off_balance"] = OFF_BALANCE_PENALTY
    return penalties


def roll_duration(res: Res, dice: str, unit: str, purpose: str, roller: SpaceOperaCombatant) -> dict[str, Any]:
    """The duration of a state ``roller`` is put in: ``roller`` rolls it."""
    value = res.dice.roll_expression(dice, purpose, roller["id"]).total
    duration = {"dice": dice, "value": value, "unit": unit}
    round_seconds = res.options["round_seconds"]
    if round_seconds:
        duration["rounds"] = math.ceil(value * SECONDS_PER[unit] / round_seconds)
    return duration


def add_timed(
    res: Res, combatant: SpaceOperaCombatant, code: str, dice: str, unit: str, purpose: str, **details: Any
) -> dict[str, Any]:
    """Roll the state's duration and put the state on (the longer one is kept)."""
    duration = roll_duration(res, dice, unit, purpose, combatant)
    rounds = duration.get("rounds")
    current = find(combatant, code)
    if current is not None and "lasts" not in current:
        # Put on by the GM (condition action): for his rounds, or until removed. The longer one is kept.
        ends = (current.get("ends") or {}).get("round")
        if ends is not None and (not rounds or res.state["round"] + rounds > ends):
            current["lasts"] = duration
            current["ends"] = {"round": res.state["round"] + rounds} if rounds else None
        return duration
    if current is not None:
        if _seconds(current["lasts"]) < _seconds(duration):
            current["lasts"] = duration
            current["ends"] = {"round": res.state["round"] + rounds} if rounds else None
        found: dict[str, Any] = current["lasts"]
        return found
    add(res, combatant, code, rounds=rounds, lasts=duration, **details)
    return duration


def _seconds(duration: dict[str, Any]) -> int:
    found: int = duration["value"] * SECONDS_PER[duration["unit"]]
    return found
