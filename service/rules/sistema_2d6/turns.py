"""Sistema +2d6 turn structure: initiative, simultaneous groups, rounds.

Seed, "Iniciativa": everyone rolls DES + 2d6 (+ the DES bonus); actions go
from the highest to the lowest total; equal totals are simultaneous. Here a
turn is a *group* of equal totals: each member acts once, in any order, and
a member knocked out by another member of its group still gets its action
(simultaneous means neither outcome prevents the other; docs, gap G1).
"""

from __future__ import annotations

from itertools import groupby
from typing import cast

from ..conditions import LEFT, has, next_round
from ..errors import ActionNotAllowed, NotYourTurn, RulesError, refusal
from ..state import Awaiting
from .conditions import can_act, is_dead, is_dying, is_standing
from .state import Res, SistemaCombat, SistemaCombatant
from .tables import INITIATIVE_BONUS

TURN_ACTIONS = ["attack", "stabilize", "test", "pass"]
DEATH_TEST = "death_test"


def _roll_one(res: Res, combatant: SistemaCombatant) -> None:
    des = combatant["sheet"]["attributes"]["DES"]
    bonus = INITIATIVE_BONUS.get(min(des, 10), 0)
    dice = res.dice.roll_many(2, 6, f"initiative {combatant['id']}", combatant["id"])
    combatant["initiative"] = des + bonus + sum(dice)
    res.emit(
        "initiative_rolled",
        combatant=combatant["id"],
        dice=list(dice),
        des=des,
        bonus=bonus,
        total=combatant["initiative"],
    )


def roll_initiative(res: Res) -> None:
    totals = []
    for combatant in res.state["combatants"]:
        if has(combatant, LEFT):
            continue
        _roll_one(res, combatant)
        totals.append(combatant)
    ranked = sorted(totals, key=lambda c: -(c["initiative"] or 0))  # all rolled just above
    res.state["order"] = [[c["id"] for c in group] for _, group in groupby(ranked, key=lambda c: c["initiative"])]
    res.state["turn"] = 0
    res.state["acted"] = []
    _open_turn(res.state)
    res.emit("turn_order", order=res.state["order"])


def _open_turn(state: SistemaCombat) -> None:
    """Remember who could act when this group's turn began (simultaneity)."""
    combatants = _by_id(state)
    state["simultaneous"] = [i for i in state["order"][state["turn"]] if can_act(combatants[i])]


def acts_simultaneously(state: SistemaCombat, combatant_id: str) -> bool:
    """Still owed a full action although a member of its own group put it down."""
    return combatant_id in state.get("simultaneous", ()) and combatant_id not in state["acted"]


def _needs_turn(combatant: SistemaCombatant) -> bool:
    return (can_act(combatant) or is_dying(combatant)) and not has(combatant, LEFT)


def _by_id(state: SistemaCombat) -> dict[str, SistemaCombatant]:
    return {c["id"]: c for c in state["combatants"]}


def waiting_in_turn(state: SistemaCombat) -> list[SistemaCombatant]:
    """Combatants of the current group who still owe their action."""
    if not state["order"]:
        return []
    combatants = _by_id(state)
    group = state["order"][state["turn"]]
    return [
        combatants[i]
        for i in group
        if i not in state["acted"]
        and not has(combatants[i], LEFT)
        and (_needs_turn(combatants[i]) or acts_simultaneously(state, i))
    ]


def advance(res: Res, actor_id: str) -> None:
    """Mark ``actor_id`` as having acted and move to whoever acts next."""
    state = res.state
    if actor_id not in state["acted"]:
        state["acted"].append(actor_id)
    move_on(res)


def move_on(res: Res) -> None:
    """Move to the next group with someone who still owes an action (rounds as needed)."""
    state = res.state
    if not any(_needs_turn(c) for c in state["combatants"]):
        return
    while not waiting_in_turn(state):
        state["turn"] += 1
        if state["turn"] >= len(state["order"]):
            state["turn"] = 0
            state["acted"] = []
            next_round(res)
            if res.options["initiative_each_round"]:
                roll_initiative(res)
        _open_turn(state)


def enter(res: Res, newcomer: SistemaCombatant) -> None:
    """A newcomer rolls initiative and takes its place in the order (seed, "Iniciativa").

    A total equal to a group's joins that group (simultaneous); a place already
    passed this round is taken from the next round on.
    """
    _roll_one(res, newcomer)
    state = res.state
    combatants = _by_id(state)
    # Every combatant in the order has rolled its initiative (an int now).
    totals = [cast(int, combatants[group[0]]["initiative"]) for group in state["order"]]
    mine = cast(int, newcomer["initiative"])
    if mine in totals:
        state["order"][totals.index(mine)].append(newcomer["id"])
    else:
        place = sum(1 for total in totals if total > mine)
        state["order"].insert(place, [newcomer["id"]])
        if place <= state["turn"]:
            state["turn"] += 1
    res.emit("turn_order", order=state["order"])


def turn_refusal(state: SistemaCombat, actor: SistemaCombatant, kind: str) -> RulesError | None:
    """Why ``actor`` may not send ``kind`` (a turn action or ``death_test``) now, or None: the one rule of
    who may act. actions.resolve raises it; awaiting lists with it."""
    simultaneous = acts_simultaneously(state, actor["id"])
    if not simultaneous and not can_act(actor) and not is_dying(actor):
        # Dead, or unconscious and not dying (stable, knocked out): no turn at all, so say why.
        if is_dead(actor):
            return ActionNotAllowed(refusal("{actor} is dead and cannot act", actor=actor["name"]), field="actor")
        return ActionNotAllowed(refusal("{actor} is unconscious and cannot act", actor=actor["name"]), field="actor")
    pending = state.get("pending")
    if pending:
        combatants = _by_id(state)
        return NotYourTurn(
            refusal(
                "waiting for {target}'s defense against {attacker}'s attack",
                target=combatants[pending["target"]]["name"],
                attacker=combatants[pending["attacker"]]["name"],
            ),
            field="actor",
        )
    waiting = waiting_in_turn(state)
    if all(c["id"] != actor["id"] for c in waiting):
        return NotYourTurn(
            refusal(
                "it is not {actor}'s turn; waiting for: [waiting?{waiting}][!waiting?nobody]",
                actor=actor["name"],
                waiting=[c["name"] for c in waiting],
            ),
            field="actor",
        )
    if kind == DEATH_TEST and not is_dying(actor):
        return ActionNotAllowed(refusal("{actor} is not dying", actor=actor["name"]), field="type")
    if simultaneous:
        if kind == DEATH_TEST:
            return ActionNotAllowed(
                refusal(
                    "{actor} went down during their own initiative group and still takes this turn's action; "
                    "its death tests begin next round",
                    actor=actor["name"],
                ),
                field="type",
            )
        return None
    if is_dying(actor) and kind != DEATH_TEST:
        return ActionNotAllowed(
            refusal("{actor} is dying and can only make a death test", actor=actor["name"]), field="type"
        )
    return None


def awaiting(state: SistemaCombat) -> list[Awaiting]:
    pending = state.get("pending")
    if pending:
        target = next(c for c in state["combatants"] if c["id"] == pending["target"])
        # A defender who fell unconscious meanwhile cannot defend: the GM gives the difficulty
        # ("o Mestre determina a dificuldade"), sending `defend` for him with the GM's token.
        reason = "defense" if can_act(target) else "difficulty"
        return [{"actor": pending["target"], "actions": ["defend"], "reason": reason}]
    waiting: list[Awaiting] = []
    combatants = _by_id(state)
    for combatant_id in (i for group in state["order"] for i in group):
        actions = [
            kind for kind in (*TURN_ACTIONS, DEATH_TEST) if turn_refusal(state, combatants[combatant_id], kind) is None
        ]
        if actions:
            reason = "death_test" if actions == [DEATH_TEST] else "turn"
            waiting.append({"actor": combatant_id, "actions": actions, "reason": reason})
    return waiting


def standing_sides(state: SistemaCombat) -> set[str]:
    return {c["side"] for c in state["combatants"] if is_standing(c)}
