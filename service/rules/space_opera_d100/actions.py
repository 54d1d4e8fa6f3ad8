"""Space opera d100 actions: attack, react, pass, recover; the GM's clear_condition."""

from __future__ import annotations

from ..conditions import remove
from ..errors import ActionNotAllowed, InvalidAction, NotYourTurn, refusal
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
        target, attacker = (_name(state, pending[key]) for key in ("target", "attacker"))
        raise NotYourTurn(
            refusal(
                "waiting for {target} to declare a dodge, a parry or nothing against {attacker}'s attack",
                target=target,
                attacker=attacker,
            ),
            field="actor",
        )
    if is_dead(actor):
        raise ActionNotAllowed(refusal("{actor} is dead", actor=actor["name"]), field="actor")
    current = current_actor(state)
    if current is None:
        raise NotYourTurn(refusal("it is not {actor}'s turn; waiting for the GM", actor=actor["name"]), field="actor")
    if current["id"] != actor["id"]:
        raise NotYourTurn(
            refusal("it is not {actor}'s turn; waiting for {current}", actor=actor["name"], current=current["name"]),
            field="actor",
        )


def _name(state: SpaceOperaCombat, combatant_id: str) -> str:
    found: str = next(c["name"] for c in state["combatants"] if c["id"] == combatant_id)
    return found


def _react(res: Res, defender: SpaceOperaCombatant, action: Action) -> None:
    pending = res.state.get("pending")
    if not pending:
        raise ActionNotAllowed(
            refusal("no attack is waiting for a declaration: dodges and parries are declared before the attack roll"),
            field="type",
        )
    if pending["target"] != defender["id"]:
        raise NotYourTurn(
            refusal(
                "the declared attack targets {target}, not {defender}",
                target=_name(res.state, pending["target"]),
                defender=defender["name"],
            ),
            field="actor",
        )
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
        raise InvalidAction(
            refusal(
                "{target} has no condition '{code}' ([present?present: {present}][!present?no condition at all])",
                target=target["name"],
                code=action["condition"],
                present=[c["code"] for c in target["conditions"]],
            ),
            field="condition",
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
