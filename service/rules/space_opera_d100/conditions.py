"""The states a combatant can be in, and the timed ones' durations.

Durations are rolled and recorded in the seed's units (minutes, hours). The
seed gives no round length, so a timed state lasts the rest of the fight
unless the ``round_seconds`` option converts it to rounds or the GM lifts it
(``clear_condition``).
"""

from __future__ import annotations

import math

from ..conditions import add, has
from ..ruleset import Resolution
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


def is_dead(combatant: dict) -> bool:
    return has(combatant, DEAD)


def can_act(combatant: dict) -> bool:
    return not any(has(combatant, code) for code in HELPLESS)


def is_droid(combatant: dict) -> bool:
    return combatant["kind"] == "droid"


def dex(combatant: dict) -> int:
    base = combatant["sheet"]["attributes"]["DEX"]
    return base - CONTRACTED_DEX_LOSS if has(combatant, CONTRACTED) else base


def test_penalties(combatant: dict) -> dict:
    """Standing penalties on shooting, attack, dodge and parry tests."""
    penalties = {}
    if has(combatant, CONTRACTED):
        penalties["contracted"] = CONTRACTED_TEST_PENALTY
    if has(combatant, OFF_BALANCE):
        penalties["off_balance"] = OFF_BALANCE_PENALTY
    return penalties


def roll_duration(res: Resolution, dice: str, unit: str, purpose: str) -> dict:
    value = res.dice.roll_expression(dice, purpose).total
    duration = {"dice": dice, "value": value, "unit": unit}
    round_seconds = res.options["round_seconds"]
    if round_seconds:
        rounds = math.ceil(value * SECONDS_PER[unit] / round_seconds)
        duration["rounds"] = rounds
        duration["ends_round"] = res.state["round"] + rounds
    return duration


def add_timed(res: Resolution, combatant: dict, code: str, dice: str, unit: str, purpose: str, **details) -> dict:
    """Roll the state's duration and put the state on (the longer one is kept)."""
    duration = roll_duration(res, dice, unit, purpose)
    current = next((c for c in combatant["conditions"] if c["code"] == code), None)
    if current is not None:
        if _seconds(current["duration"]) < _seconds(duration):
            current["duration"] = duration
        return current["duration"]
    add(combatant, code, duration=duration, **details)
    return duration


def _seconds(duration: dict) -> int:
    return duration["value"] * SECONDS_PER[duration["unit"]]


def expire(res: Resolution) -> None:
    """At a new round, lift the timed states whose time is up."""
    for combatant in res.state["combatants"]:
        if has(combatant, DEAD):
            continue
        kept = []
        for condition in combatant["conditions"]:
            ends = condition.get("duration", {}).get("ends_round")
            if ends is not None and ends <= res.state["round"]:
                res.emit("condition_ended", combatant=combatant["id"], condition=condition["code"])
            else:
                kept.append(condition)
        combatant["conditions"] = kept
