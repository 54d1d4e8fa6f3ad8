"""Turn structure (seed 1 and 4): D12 + DEX every round, highest first.

A combatant's turn is one attack, or the N attacks declared on the first one
(seed 4). Every attack lowers the score by 3 and the next actor is always
the highest score still owed an action, so an opponent may answer between
two attacks. Equal scores: the higher DEX, then the first listed (gap G1).
"""

from __future__ import annotations

from typing import cast

from ..conditions import has, next_round, remove
from ..state import Awaiting
from .conditions import LOSES_NEXT_ACTION, can_act, dex
from .state import Res, RoundState, SpaceOperaCombat, SpaceOperaCombatant
from .tables import INITIATIVE_DIE, INITIATIVE_LOSS_PER_ATTACK

TURN_ACTIONS = ["attack", "pass", "recover"]
GM_WHEN_STUCK = ["end_combat", "clear_condition"]
MAX_SKIPS = 1000


def fresh_round() -> RoundState:
    return {"initiative": None, "attacks": None, "attacks_left": None, "done": False, "dodges": 0, "damage": 0}


def roll_initiative(res: Res) -> None:
    for combatant in res.state["combatants"]:
        combatant["round"] = fresh_round()
        if can_act(combatant):
            roll_one(res, combatant)
    res.emit("turn_order", order=[[c["id"]] for c in _ranked(res.state)])


def roll_one(res: Res, combatant: SpaceOperaCombatant) -> None:
    """D12 + DEX; a newcomer rolls on entering and takes his place in this round's order."""
    combatant["round"] = fresh_round()
    die = res.dice.roll(INITIATIVE_DIE, f"initiative {combatant['id']}", combatant["id"])
    total = die + dex(combatant)
    combatant["round"]["initiative"] = total
    res.emit("initiative_rolled", combatant=combatant["id"], die=die, dex=dex(combatant), total=total)


def _sort_key(pair: tuple[int, SpaceOperaCombatant]) -> tuple[int, int, int]:
    index, combatant = pair
    return (-(combatant["round"]["initiative"] or 0), -dex(combatant), index)  # _ranked keeps those who rolled: an int


def _owed(state: SpaceOperaCombat) -> list[tuple[int, SpaceOperaCombatant]]:
    """(index, combatant) of those still owed an action this round, in the listed order."""
    owed = []
    for i, c in enumerate(state["combatants"]):
        turn = c["round"]
        if turn["initiative"] is not None and not turn["done"] and can_act(c):
            owed.append((i, c))
    return owed


def _ranked(state: SpaceOperaCombat) -> list[SpaceOperaCombatant]:
    return [c for _, c in sorted(_owed(state), key=_sort_key)]


def current_actor(state: SpaceOperaCombat) -> SpaceOperaCombatant | None:
    """The first of :func:`_ranked` (its least key: keys end with the index, so no two are equal), without the sort."""
    owed = _owed(state)
    if len(owed) > 1:
        return min(owed, key=_sort_key)[1]
    return owed[0][1] if owed else None


def spend_attack(res: Res, combatant: SpaceOperaCombatant) -> None:
    """One attack of the turn is used: -3 initiative, and the turn ends with the last."""
    turn = combatant["round"]
    left = turn["attacks_left"] = (turn["attacks_left"] or 1) - 1
    turn["initiative"] = cast(int, turn["initiative"]) - INITIATIVE_LOSS_PER_ATTACK  # rolled at the round's start
    if left <= 0:
        turn["done"] = True


def end_turn(combatant: SpaceOperaCombatant) -> None:
    combatant["round"]["done"] = True


def settle(res: Res) -> None:
    """Move on to whoever acts next: skip lost actions, start new rounds."""
    for _ in range(MAX_SKIPS):
        if res.state["status"] != "active" or res.state.get("pending"):
            return
        actor = current_actor(res.state)
        if actor is None:
            if not any(can_act(c) for c in res.state["combatants"]):
                return
            _new_round(res)
            continue
        if not has(actor, LOSES_NEXT_ACTION):
            return
        remove(actor, LOSES_NEXT_ACTION)
        res.emit("action_lost", combatant=actor["id"])
        if actor["round"]["attacks_left"]:
            spend_attack(res, actor)
        else:
            end_turn(actor)


def _new_round(res: Res) -> None:
    next_round(res)  # the timed states whose rounds are up end here
    roll_initiative(res)


def awaiting(state: SpaceOperaCombat) -> list[Awaiting]:
    pending = state.get("pending")
    if pending:
        return [{"actor": pending["target"], "actions": ["react"], "reason": "declare_reaction"}]
    actor = current_actor(state)
    if actor is None:
        return [{"actor": "gm", "actions": list(GM_WHEN_STUCK), "reason": "nobody_can_act"}]
    reason = "next_attack" if actor["round"]["attacks_left"] else "turn"
    return [{"actor": actor["id"], "actions": list(TURN_ACTIONS), "reason": reason}]


def standing_sides(state: SpaceOperaCombat) -> set[str]:
    return {c["side"] for c in state["combatants"] if can_act(c)}
