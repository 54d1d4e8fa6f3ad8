"""Space opera d100 actions: attack, react, pass, recover; the GM's clear_condition."""

from __future__ import annotations

from ..conditions import remove
from ..errors import ActionNotAllowed, InvalidAction, NotYourTurn
from ..ruleset import GM
from ..state import Action
from . import attack
from .conditions import is_dead
from .items import find_weapon, recover
from .reactions import check_reaction
from .state import Res, SpaceOperaCombat, SpaceOperaCombatant
from .turns import current_actor, end_turn, settle, spend_attack


def resolve(res: Res, action: Action) -> None:
    kind = action["type"]
    if kind == "clear_condition":
        _clear_condition(res, action)
    elif kind == "react":
        _react(res, res.combatant(action["actor"], field="actor"), action)
    else:
        actor = res.combatant(action["actor"], field="actor")
        _check_turn(res.state, actor)
        HANDLERS[kind](res, actor, action)
    settle(res)


def _check_turn(state: SpaceOperaCombat, actor: SpaceOperaCombatant) -> None:
    pending = state.get("pending")
    if pending:
        raise NotYourTurn(
            f"waiting for {pending['target']} to declare a dodge, a "
            f"parry or nothing against {pending['attacker']}'s attack",
            field="actor",
        )
    if is_dead(actor):
        raise ActionNotAllowed(f"{actor['id']} is dead", field="actor")
    current = current_actor(state)
    if current is None or current["id"] != actor["id"]:
        who = current["id"] if current else "the GM"
        raise NotYourTurn(f"it is not {actor['id']}'s turn; waiting for {who}", field="actor")


def _react(res: Res, defender: SpaceOperaCombatant, action: Action) -> None:
    pending = res.state.get("pending")
    if not pending:
        raise ActionNotAllowed(
            "no attack is waiting for a declaration: dodges and parries are declared before the attack roll",
            field="type",
        )
    if pending["target"] != defender["id"]:
        raise NotYourTurn(f"the declared attack targets {pending['target']}, not {defender['id']}", field="actor")
    attacker = res.combatant(pending["attacker"])
    weapon = find_weapon(attacker, pending["weapon"], field="weapon")
    item = check_reaction(res, defender, action, weapon)
    del res.state["pending"]
    res.emit("reaction_declared", defender=defender["id"], kind=action["kind"], item=action["item"])
    attack.resolve(res, pending, action, item)


def _pass(res: Res, actor: SpaceOperaCombatant, action: Action) -> None:
    res.emit("passed", actor=actor["id"], description=action["description"])
    end_turn(actor)


def _recover(res: Res, actor: SpaceOperaCombatant, action: Action) -> None:
    recover(res, actor, find_weapon(actor, action["weapon"], field="weapon"))
    spend_attack(res, actor)


def _clear_condition(res: Res, action: Action) -> None:
    target = res.combatant(action["target"], field="target")
    if not remove(target, action["condition"]):
        present = ", ".join(c["code"] for c in target["conditions"]) or "none"
        raise InvalidAction(
            f"{target['id']} has no condition {action['condition']!r} (present: {present})", field="condition"
        )
    res.emit(
        "condition_cleared",
        target=target["id"],
        condition=action["condition"],
        by=GM,
        author=GM,
        reason=action["reason"],
    )


HANDLERS = {"attack": attack.declare, "pass": _pass, "recover": _recover}
