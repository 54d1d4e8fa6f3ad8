"""Dodge and parry (seed 5 and 6): declared before the attack roll.

The reaction's d100 is rolled first, then the attack's. A dodge gives the
attacker -40 (-60 when critical or won by more than 40), a fumbled dodge or
parry +10. A parry that meets a critical hit is read again at -20 with the
same die (its fumble, known before the attack roll, keeps its +10).
"""

from __future__ import annotations

from typing import Any, cast

from ..conditions import remove
from ..errors import ActionNotAllowed, InvalidAction, RulesError, refusal
from .checks import Check, roll_test, with_target
from .conditions import OFF_BALANCE, test_penalties
from .items import check_usable, held_item, skill_penalty
from .state import Res, SpaceOperaCombatant
from .tables import (
    DODGE_EFFECTS,
    EXTRA_DODGE_PENALTY,
    OFF_HAND_PENALTY,
    PARRY_CRITICAL_HIT_PENALTY,
    REACTION_FUMBLE_ATTACKER_BONUS,
    SKILL_BLOCK,
    SKILL_DODGE,
)

NO_REACTION = {"kind": "none", "item": None, "off_hand": False, "modifier": 0}


def skill(combatant: SpaceOperaCombatant, name: str) -> int:
    found: int = combatant["sheet"]["skills"].get(name, 0)
    return found


def after_dodge_penalty(res: Res, combatant: SpaceOperaCombatant) -> dict[str, Any]:
    dodges = combatant["round"]["dodges"]
    if not dodges:
        return {}
    times = dodges if res.options["after_dodge_penalty"] == "per_dodge" else 1
    return {"after_dodge": EXTRA_DODGE_PENALTY * times}


def check_reaction(
    res: Res, defender: SpaceOperaCombatant, reaction: dict[str, Any], attack_weapon: dict[str, Any], prefix: str = ""
) -> dict[str, Any] | None:
    """Refuse an impossible declaration; return the parrying item, if any."""
    if reaction["kind"] != "parry":
        if reaction["item"] is not None:
            raise InvalidAction(refusal("only a parry names an item"), field=f"{prefix}item")
        return None
    if reaction["item"] is None:
        raise InvalidAction(refusal("a parry names the weapon or shield that parries"), field=f"{prefix}item")
    item = held_item(defender, reaction["item"], field=f"{prefix}item")
    check_usable(defender, item, field=f"{prefix}item")
    refused = parry_refusal(item, attack_weapon, res.options, field=f"{prefix}item")
    if refused is not None:
        raise refused
    return item


def parry_refusal(
    item: dict[str, Any], attack_weapon: dict[str, Any], options: dict[str, Any], field: str = "item"
) -> RulesError | None:
    """Why ``item`` cannot parry a blow or shot of ``attack_weapon``, or None: a melee weapon or a shield
    parries, and a shot only what the option parry_ranged_with allows. check_reaction raises it; legal.py
    lists the parrying items with it."""
    if item["class"] == "natural" or item["ranged"]:
        return InvalidAction(
            refusal("{item} cannot parry: use a melee weapon or a shield", item=item["name"]), field=field
        )
    if attack_weapon["ranged"]:
        allowed = options["parry_ranged_with"]
        if allowed == "nothing":
            return ActionNotAllowed(refusal("in this combat a shot cannot be parried"), field=field)
        if allowed == "shields" and item["class"] != "shield":
            return ActionNotAllowed(refusal("in this combat only a shield parries a shot"), field=field)
    return None


def roll_reaction(
    res: Res,
    defender: SpaceOperaCombatant,
    reaction: dict[str, Any],
    item: dict[str, Any] | None,
    attack_weapon: dict[str, Any],
) -> dict[str, Any]:
    """Roll the declared dodge or parry; return what it does to the attack."""
    if reaction["kind"] == "dodge":
        return _dodge(res, defender, reaction, attack_weapon)
    if reaction["kind"] == "parry":
        return _parry(res, defender, reaction, cast("dict[str, Any]", item))  # check_reaction found it
    return {"kind": "none", "attack_modifier": 0}


def _dodge(
    res: Res, defender: SpaceOperaCombatant, reaction: dict[str, Any], attack_weapon: dict[str, Any]
) -> dict[str, Any]:
    modifiers = {
        "extra_dodges": EXTRA_DODGE_PENALTY * defender["round"]["dodges"],
        **test_penalties(defender),
        "modifier": reaction["modifier"],
    }
    base = skill(defender, SKILL_DODGE)
    check = roll_test(res, base + sum(modifiers.values()), "dodge", defender)
    remove(defender, OFF_BALANCE)
    defender["round"]["dodges"] += 1
    table = DODGE_EFFECTS[res.options["dodge_effects"] if attack_weapon["ranged"] else "seed"]
    if check.success:
        great = check.critical or check.margin > table["great_margin"]
        effect = table["great"] if great else table["success"]
    else:
        effect = REACTION_FUMBLE_ATTACKER_BONUS if check.fumble else 0
    res.emit(
        "dodge_rolled",
        defender=defender["id"],
        skill=base,
        modifiers=_shown(modifiers),
        attack_modifier=effect,
        **check.as_params(),
    )
    return {"kind": "dodge", "attack_modifier": effect, "check": check}


def parry_target(defender: SpaceOperaCombatant, item: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Shield: Bloquer. Weapon: (Bloquer + weapon skill) / 2 + weapon bonus."""
    block = skill(defender, SKILL_BLOCK)
    if item["class"] == "shield":
        return block, {}
    return (block + skill(defender, item["skill"])) // 2, {"weapon_bonus": item["bonus"]}


def _parry(res: Res, defender: SpaceOperaCombatant, reaction: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    base, modifiers = parry_target(defender, item)
    modifiers.update(
        {
            "item_steps": skill_penalty(defender, item),
            "off_hand": OFF_HAND_PENALTY if reaction["off_hand"] and item["class"] != "shield" else 0,
            **after_dodge_penalty(res, defender),
            **test_penalties(defender),
            "modifier": reaction["modifier"],
        }
    )
    check = roll_test(res, base + sum(modifiers.values()), "parry", defender)
    remove(defender, OFF_BALANCE)
    defender["wielding"] = item["id"]
    effect = REACTION_FUMBLE_ATTACKER_BONUS if check.fumble else 0
    res.emit(
        "parry_rolled",
        defender=defender["id"],
        item=item["id"],
        skill=base,
        modifiers=_shown(modifiers),
        attack_modifier=effect,
        **check.as_params(),
    )
    return {"kind": "parry", "attack_modifier": effect, "check": check, "item": item}


def parry_against(res: Res, defender: SpaceOperaCombatant, parry: dict[str, Any], attack: Check) -> Check | None:
    """The parry as it stands once the attack roll is known (None: no parry)."""
    if parry["kind"] != "parry":
        return None
    check: Check = parry["check"]
    if attack.critical:
        check = with_target(check, check.target + PARRY_CRITICAL_HIT_PENALTY, res.options["high_rolls_always_fumble"])
        res.emit(
            "parry_against_critical", defender=defender["id"], penalty=PARRY_CRITICAL_HIT_PENALTY, **check.as_params()
        )
    return check


def _shown(modifiers: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in modifiers.items() if value}
