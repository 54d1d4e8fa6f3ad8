"""Sistema +2d6 actions: attack and defense, death tests, first aid, tests."""

from __future__ import annotations

from typing import Any

from ..conditions import add
from ..errors import ActionNotAllowed, InvalidAction, NotYourTurn, RulesError, refusal
from .checks import Check, beats_difficulty, roll_check, wins_opposed
from .conditions import can_act, is_dead, is_dying
from .state import PendingAttack, Res, SistemaCombatant
from .tables import BURST_HITS, BURST_PENALTY, CATALOG, LOCATION_PENALTIES
from .turns import advance, turn_refusal
from .wounds import damage_expression, damage_reduction, death_test, stabilise, take_damage


def resolve(res: Res, action: dict[str, Any]) -> None:
    actor = res.combatant(action["actor"], field="actor")
    kind = action["type"]
    if kind == "defend":
        _defend(res, actor, action)
    else:
        _refuse(turn_refusal(res.state, actor, kind))
        HANDLERS[kind](res, actor, action)


# -- attack -----------------------------------------------------------------------


def _weapon(actor: SistemaCombatant, weapon_id: str) -> dict[str, Any]:
    weapon: dict[str, Any]
    for weapon in actor["sheet"]["weapons"]:
        if weapon["id"] == weapon_id:
            return weapon
    base = CATALOG["weapons"].get(weapon_id)
    if base is None:
        raise InvalidAction(
            refusal(
                "{actor} has no weapon '{weapon_id}' and the catalog has none", actor=actor["name"], weapon_id=weapon_id
            ),
            field="weapon",
        )
    return {"id": weapon_id, "attribute": "DES", "precision": 0, "lethal": True, "automatic": False, **base}


def attack_target_refusal(attacker: SistemaCombatant, target: SistemaCombatant) -> RulesError | None:
    """Why ``attacker`` may not attack ``target``, or None: the attack raises it, legal.py lists with it."""
    if target is attacker or target["id"] == attacker["id"]:
        return InvalidAction(refusal("a combatant cannot attack itself"), field="target")
    if is_dead(target):
        return ActionNotAllowed(refusal("{target} is already dead", target=target["name"]), field="target")
    return None


def burst_refusal(weapon: dict[str, Any], options: dict[str, Any]) -> RulesError | None:
    """Why ``weapon`` may not fire a burst in this combat, or None: the attack raises it, legal.py lists with it."""
    if not weapon.get("automatic"):
        return InvalidAction(
            refusal("{weapon} cannot fire bursts (not automatic)", weapon=weapon["name"]), field="burst"
        )
    if not options["automatic_fire"]:
        return ActionNotAllowed(refusal("automatic fire is off in this combat's options"), field="burst")
    return None


def stabilize_refusal(healer: SistemaCombatant, patient: SistemaCombatant) -> RulesError | None:
    """Why ``healer`` may not stabilise ``patient``, or None: the first aid raises it, legal.py lists with it."""
    if patient is healer or patient["id"] == healer["id"]:
        # "Caso outro personagem seja bem sucedido em um teste de cura": another character.
        return InvalidAction(
            refusal("{healer} cannot stabilise their own wounds; another character must", healer=healer["name"]),
            field="target",
        )
    if not is_dying(patient):
        return ActionNotAllowed(refusal("{target} is not dying", target=patient["name"]), field="target")
    return None


def _refuse(refusal: RulesError | None) -> None:
    if refusal is not None:
        raise refusal


def _attack(res: Res, attacker: SistemaCombatant, action: dict[str, Any]) -> None:
    target = res.combatant(action["target"], field="target")
    _refuse(attack_target_refusal(attacker, target))
    weapon = _weapon(attacker, action["weapon"])
    if action["burst"]:
        _refuse(burst_refusal(weapon, res.options))
    if action["difficulty"] is not None and action["defense"] is not None:
        raise InvalidAction(
            refusal("give either a difficulty (passive defense) or a defense roll, not both"), field="defense"
        )
    if action["condition"] and not action["location"]:
        raise InvalidAction(refusal("a condition needs a location (localized damage)"), field="condition")
    location_penalty = aimed_area_penalty(action["location"], action["location_penalty"])
    if not can_act(target):
        # "Se o alvo não puder se esquivar, o Mestre determina a dificuldade": no active defense,
        # whatever the body says.
        if action["defense"] is not None:
            raise ActionNotAllowed(
                refusal(
                    "{target} is unconscious and cannot defend: give the difficulty (CD) instead", target=target["name"]
                ),
                field="defense",
            )
        if action["difficulty"] is None:
            raise InvalidAction(
                refusal("{target} cannot defend: give the difficulty (CD) of the attack", target=target["name"]),
                field="difficulty",
            )

    extra = {
        "precision": weapon["precision"],  # -5..+5 by the sheet's schema
        "location": location_penalty,
        "burst": BURST_PENALTY if action["burst"] else 0,
        "modifier": action["modifier"],
    }
    check = roll_check(res, attacker, weapon["attribute"], weapon["skill"], extra, "attack")
    pending: PendingAttack = {
        "attacker": attacker["id"],
        "target": target["id"],
        "weapon": weapon,
        "check": {"dice": list(check.dice), "total": check.total, "breakdown": check.breakdown},
        "location": action["location"],
        "condition": action["condition"],
        "burst": action["burst"],
        "lethal": weapon["lethal"] if action["lethal"] is None else action["lethal"],
    }
    res.emit(
        "attack_rolled",
        attacker=attacker["id"],
        target=target["id"],
        weapon=weapon["id"],
        **check.as_params(),
    )
    if action["difficulty"] is not None:
        hit = beats_difficulty(check, action["difficulty"], res.options["critical_rolls"])
        res.emit("passive_defense", target=target["id"], difficulty=action["difficulty"])
        _conclude(res, pending, check, hit)
    elif action["defense"] is not None:
        _conclude_opposed(res, pending, check, target, action["defense"])
    else:
        res.state["pending"] = pending
        res.emit("awaiting_defense", target=target["id"], attacker=attacker["id"])


def _defend(res: Res, defender: SistemaCombatant, action: dict[str, Any]) -> None:
    pending = res.state.get("pending")
    if not pending:
        raise ActionNotAllowed(refusal("no attack is waiting for a defense"), field="type")
    if pending["target"] != defender["id"]:
        raise NotYourTurn(
            refusal(
                "the pending attack targets {target}, not {defender}",
                target=res.combatant(pending["target"])["name"],
                defender=defender["name"],
            ),
            field="actor",
        )
    if not can_act(defender) and action["difficulty"] is None:
        raise ActionNotAllowed(
            refusal("{defender} is unconscious and cannot defend: give the difficulty (CD)", defender=defender["name"]),
            field="difficulty",
        )
    del res.state["pending"]
    check = Check(tuple(pending["check"]["dice"]), pending["check"]["total"], pending["check"]["breakdown"])
    if action["difficulty"] is not None:
        res.emit("passive_defense", target=defender["id"], difficulty=action["difficulty"])
        _conclude(res, pending, check, beats_difficulty(check, action["difficulty"], res.options["critical_rolls"]))
        return
    _conclude_opposed(res, pending, check, defender, action)


def _conclude_opposed(
    res: Res, pending: PendingAttack, attack: Check, defender: SistemaCombatant, defense: dict[str, Any]
) -> None:
    skill = defense.get("skill") or defender["sheet"].get("defense_skill")
    parry = roll_check(res, defender, defense["attribute"], skill, {"modifier": defense["modifier"]}, "defense")
    res.emit("defense_rolled", defender=defender["id"], **parry.as_params())
    hit = wins_opposed(attack, parry, res.options["critical_rolls"], res.options["opposed_tie"] == "attacker")
    _conclude(res, pending, attack, hit)


def _conclude(res: Res, pending: PendingAttack, attack: Check, hit: bool) -> None:
    attacker = res.combatant(pending["attacker"])
    target = res.combatant(pending["target"])
    critical = hit and res.options["critical_rolls"] and attack.level == 2
    if not hit:
        fumble = res.options["critical_rolls"] and attack.level == 0
        res.emit("attack_missed", attacker=attacker["id"], target=target["id"], fumble=fumble)
    else:
        res.emit("attack_hit", attacker=attacker["id"], target=target["id"], critical=critical)
        _deal_damage(res, attacker, target, pending, critical)
    advance(res, attacker["id"])


def _deal_damage(
    res: Res, attacker: SistemaCombatant, target: SistemaCombatant, pending: PendingAttack, critical: bool
) -> None:
    weapon = pending["weapon"]
    hits = 1
    if pending["burst"]:
        hits = max(1, res.dice.roll_expression(BURST_HITS, "burst hits", attacker["id"]).total)
        res.emit("burst_hits", target=target["id"], hits=hits)
    expression = damage_expression(weapon, attacker, res.options["for_damage"])
    rd = damage_reduction(target, weapon["damage_type"])
    for _ in range(hits):
        rolled = max(0, res.dice.roll_expression(expression, "damage", attacker["id"]).total)
        if critical:
            rolled *= 2
        dealt = max(0, rolled - rd)
        res.emit(
            "damage_rolled",
            target=target["id"],
            expression=str(expression),
            rolled=rolled,
            doubled=critical,
            rd=rd,
            damage_type=weapon["damage_type"],
            dealt=dealt,
        )
        take_damage(res, target, dealt, pending["lethal"])
    if pending["location"]:
        # Several localized hits may stack (a leg and an arm).
        add(
            res,
            target,
            "localized",
            source=attacker["id"],
            stacks=True,
            location=pending["location"],
            tag=pending["condition"],
        )
        res.emit("localized_hit", target=target["id"], location=pending["location"], tag=pending["condition"])


def aimed_area_penalty(location: str | None, decided: int | None) -> int:
    """ "O atacante declara qual área ... e o mestre define a penalidade": the GM's penalty, else the seed's
    suggestion for that area; an area the seed does not suggest needs the GM's."""
    if location is None:
        if decided is not None:
            raise InvalidAction(
                refusal("a location penalty needs a location (localized damage)"), field="location_penalty"
            )
        return 0
    if decided is not None:
        return decided
    if location not in LOCATION_PENALTIES:
        raise InvalidAction(
            refusal(
                "'{area}' is not one of the rules' suggested areas ({areas}): "
                "the game master sets its penalty (location_penalty)",
                area=location,
                areas=list(LOCATION_PENALTIES),
            ),
            field="location_penalty",
        )
    return LOCATION_PENALTIES[location]


# -- other actions ----------------------------------------------------------------


def _death_test(res: Res, actor: SistemaCombatant, action: dict[str, Any]) -> None:
    death_test(res, actor)
    advance(res, actor["id"])


def _stabilize(res: Res, healer: SistemaCombatant, action: dict[str, Any]) -> None:
    patient = res.combatant(action["target"], field="target")
    _refuse(stabilize_refusal(healer, patient))
    check = roll_check(res, healer, action["attribute"], action["skill"], {"modifier": action["modifier"]}, "healing")
    success = beats_difficulty(check, action["difficulty"], res.options["critical_rolls"])
    res.emit(
        "healing_test",
        healer=healer["id"],
        target=patient["id"],
        difficulty=action["difficulty"],
        success=success,
        **check.as_params(),
    )
    if success:
        stabilise(res, patient, by=healer["id"])
    advance(res, healer["id"])


def _skill_test(res: Res, actor: SistemaCombatant, action: dict[str, Any]) -> None:
    check = roll_check(res, actor, action["attribute"], action["skill"], {"modifier": action["modifier"]}, "test")
    success = beats_difficulty(check, action["difficulty"], res.options["critical_rolls"])
    res.emit(
        "test_rolled",
        actor=actor["id"],
        difficulty=action["difficulty"],
        success=success,
        description=action["description"],
        **check.as_params(),
    )
    advance(res, actor["id"])


def _pass(res: Res, actor: SistemaCombatant, action: dict[str, Any]) -> None:
    res.emit("passed", actor=actor["id"], description=action["description"])
    advance(res, actor["id"])


HANDLERS = {
    "attack": _attack,
    "death_test": _death_test,
    "stabilize": _stabilize,
    "test": _skill_test,
    "pass": _pass,
}
