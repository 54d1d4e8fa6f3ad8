"""Reactions: a held or declared-defensive action spent against a hit.

House (rules-notes 4.3): d100 <= Esquive (dodge) or the parrying weapon's
skill (parry); success cancels the hit. Bullets and beams cannot be parried.
Dice order of ``react``: the reaction's d100, then the wound's dice if the
hit lands, then the attack's remaining shots.
"""

from __future__ import annotations

from typing import Any

from ..errors import ActionNotAllowed, NotYourTurn, refusal
from ..state import Action
from .attacks import land, shoot
from .checks import roll_test
from .rounds import defences
from .state import PendingAttack, Res, SiliciumCombatant
from .status import raise_refusal
from .weapons import skill, usable_weapon, weapon_named

DODGE_SKILL = "Esquive"


def parry_refusal(pending: PendingAttack) -> ActionNotAllowed | None:
    """Why the hit ``pending`` may not be parried, or None (house: bullets and beams cannot be):
    react refuses with it, legal.py lists the parry with it."""
    if pending["mode"] != "melee":
        return ActionNotAllowed(refusal("only melee attacks can be parried; dodge instead"), field="reaction")
    return None


def parrying_weapon_refusal(weapon: dict[str, Any]) -> ActionNotAllowed | None:
    """Why ``weapon`` may not parry, or None (a melee weapon, bare hands included): the default parrying
    weapon, react's refusal and legal.py's parrying weapons all come from it."""
    if weapon["kind"] != "melee":
        return ActionNotAllowed(refusal("{weapon} cannot parry", weapon=weapon_named(weapon)), field="weapon")
    return None


def _parry_weapon(defender: SiliciumCombatant, weapon_id: str | None) -> dict[str, Any]:
    if weapon_id is None:
        parrying = [w for w in defender["sheet"]["weapons"] if parrying_weapon_refusal(w) is None]
        weapon_id = parrying[0]["id"] if parrying else "unarmed"
    weapon = usable_weapon(defender, weapon_id)
    raise_refusal(parrying_weapon_refusal(weapon))
    return weapon


def react(res: Res, defender: SiliciumCombatant, action: Action) -> None:
    pending = res.state.get("pending")
    if not pending:
        raise ActionNotAllowed(refusal("no hit is waiting for a reaction"), field="type")
    if pending["target"] != defender["id"]:
        raise NotYourTurn(
            refusal("the hit waiting for a reaction is on {target}", target=res.combatant(pending["target"])["name"]),
            field="actor",
        )
    target = defender
    choice = action["reaction"]
    if choice == "none":
        del res.state["pending"]
        res.emit("no_reaction", defender=defender["id"])
        land(res, pending, target)
        shoot(res, pending)
        return
    usable = defences(res.state, defender)
    if not usable:
        raise ActionNotAllowed(
            refusal("{actor} is a berserker and does not defend", actor=defender["name"]), field="reaction"
        )
    if choice == "parry":
        raise_refusal(parry_refusal(pending))
        weapon = _parry_weapon(defender, action["weapon"])
        chance = skill(defender, weapon["skill"]) + action["modifier"]
    else:
        chance = skill(defender, DODGE_SKILL) + action["modifier"]
    # A declared defence is spent before a held action, which may still attack.
    usable[0]["used"] = True
    del res.state["pending"]
    test = roll_test(res, chance, choice, defender)
    res.emit("reaction_roll", defender=defender["id"], reaction=choice, **test.as_params())
    if test.success:
        res.emit("hit_avoided", defender=defender["id"], attacker=pending["attacker"], reaction=choice)
    else:
        land(res, pending, target)
    shoot(res, pending)
