"""One exchange of a duel (seed A, B, E-3 note, E-4 notes 1 and 2).

The attacker declares, the defender declares, then the dice fall in this
order: a counter-attack first (it "est effectuée avant l'attaque"), a Zigzag
roll, then for each blow: the attack 2D6 (none at contact range), the damage
dice of a Désarmer, the defense 2D6 (only if the blow succeeded and the
defense rolls), the attacker's SEN roll after a successful Feinte, then what
the blow does (damage dice, hit location 2D6, CON roll for a stun).
"""

from __future__ import annotations

from typing import Any, cast

from ..errors import ActionNotAllowed, InvalidAction, Refusal, refusal
from ..state import Action
from .arsenal import (
    automatic_refusal,
    band_of,
    blow_modifiers,
    check_maneuver,
    check_reach,
    distance_malus,
    hold_refusal,
    shift_band,
    shot_modifiers,
    shots_of,
    weapon_of,
)
from .checks import attribute_base, roll_test
from .conditions import IN_COVER, add, is_out, is_stunned
from .defense import absorption, check_declaration, defense_modifiers
from .duels import by_id, close_exchange, duel_between, face_opponents, give_initiative, hold_on, lead_refusal
from .effects import land_blow, release
from .ranged import after_shot, land_shot, refuse, spend_ammo
from .state import Duel, DuelCombatant, Res
from .tables import CRITICAL, DEFENSES, FUMBLE, LEVELS, RANGED_SHOTS, SUCCESS
from .wounds import roll_damage

NO_DEFENSE = {
    "defense": "aucune",
    "using": None,
    "counter": None,
    "modifier": 0,
    "skill": None,
    "cover_ip": None,
    "blind_modifier": 0,
    "second_defense": None,
}


def engaged(res: Res, actor: DuelCombatant, target_id: str) -> tuple[DuelCombatant, Duel]:
    """The opponent and the duel in which ``actor`` holds the initiative and has not acted."""
    target = res.combatant(target_id, field="target")
    why = lead_refusal(res.state, actor, target)
    if why is not None:
        raise why
    return target, cast("Duel", duel_between(res.state, actor["id"], target_id))  # lead_refusal found it


# The fields of an attack or a shot that belong to an optional rule: the option, the rule's name.
OPTIONAL_FIELDS = {
    "coup_mortel_steps": ("coup_mortel_rule", refusal("the optional Coup mortel rule (C-6) is off in this combat")),
    "aim": ("hit_location", refusal("the optional hit-location rule (C-5) is off in this combat")),
}


def optional_rule_refusal(options: dict[str, Any], field: str) -> str | None:
    """Why ``field`` of an attack or a shot may not be used in this combat (its optional rule is off), or None.

    The one statement of the rule: the attack and the shot refuse with it, legal.py lists the field with it.
    """
    option, off = OPTIONAL_FIELDS[field]
    return None if options[option] else off


def _check_options(res: Res, action: Action) -> None:
    for field in OPTIONAL_FIELDS:
        why = optional_rule_refusal(res.options, field) if action[field] else None
        if why is not None:
            raise ActionNotAllowed(why, field=field)


def declare_attack(res: Res, attacker: DuelCombatant, action: Action) -> None:
    defender, duel = engaged(res, attacker, action["target"])
    _check_options(res, action)
    blows = [{"maneuver": action["maneuver"], "weapon": action["weapon"], "part": action["part"]}]
    if action["second"]:
        blows.append(dict(action["second"]))
    hold = hold_on(res.state, defender["id"])
    held_part = hold["part"] if hold and hold["holder"] == attacker["id"] else None
    for index, blow in enumerate(blows):
        field = "maneuver" if index == 0 else "second.maneuver"
        weapon = weapon_of(attacker, blow["weapon"], field="weapon" if index == 0 else "second.weapon")
        check_maneuver(attacker, blow["maneuver"], weapon, blow["part"], field)
        refuse(hold_refusal(blow["maneuver"], held_part, defender["name"], blows[0] if index == 1 else None), field)
    plan = {
        "kind": "melee",
        "attacker": attacker["id"],
        "defender": defender["id"],
        "blows": blows,
        "modifier": action["modifier"],
        "steps": action["coup_mortel_steps"],
        "aim": action["aim"],
    }
    _declared(res, duel, plan, action["defense"])


def declare_shot(res: Res, shooter: DuelCombatant, action: Action, weapon: dict[str, Any], duel: Duel) -> None:
    _check_options(res, action)
    refuse(automatic_refusal(weapon, action["shot"]))
    shots = shots_of(action["shot"])
    spend_ammo(res, shooter, weapon, shots)
    plan = {
        "kind": "ranged",
        "attacker": shooter["id"],
        "defender": duel_other(duel, shooter),
        "shot": action["shot"],
        "weapon": weapon["id"],
        "distance": action["distance"],
        "band": band_of(action["distance"]),
        "blows": [{"shot": action["shot"]}] * shots,
        "modifier": action["modifier"],
        "steps": action["coup_mortel_steps"],
        "aim": action["aim"],
        "cover": action["cover"],
        "fragments": action["fragments"],
    }
    _declared(res, duel, plan, action["defense"])


def duel_other(duel: Duel, combatant: DuelCombatant) -> str:
    return duel["b"] if duel["a"] == combatant["id"] else duel["a"]


def _forced_no_defense(res: Res, duel: Duel, attacker: DuelCombatant, defender: DuelCombatant) -> str | None:
    if attacker["id"] not in defender["facing"]:
        return "not_faced"
    if is_stunned(defender):
        return "stunned"
    if duel["threat"]:
        return "threatened"
    return None


def _no_defense_refusal(defender: DuelCombatant, forced: str) -> Refusal:
    """Why ``defender`` may not declare a defense (``forced``: _forced_no_defense's reason)."""
    if forced == "not_faced":
        return refusal("{defender} gets no defense roll here: not facing the attacker", defender=defender["name"])
    if forced == "stunned":
        return refusal("{defender} gets no defense roll here: stunned", defender=defender["name"])
    return refusal("{defender} gets no defense roll here: under a threat", defender=defender["name"])


def _declared(res: Res, duel: Duel, plan: dict[str, Any], inline: dict[str, Any] | None) -> None:
    attacker, defender = by_id(res.state, plan["attacker"]), by_id(res.state, plan["defender"])
    plan["under_threat"] = bool(duel["threat"] and duel["threat"]["ranged"] and plan["kind"] == "ranged")
    forced = _forced_no_defense(res, duel, attacker, defender)
    if forced:
        if inline is not None and inline["defense"] != "aucune":
            raise InvalidAction(_no_defense_refusal(defender, forced), field="defense")
        res.emit("no_defense", defender=defender["id"], reason=forced)
        resolve(res, plan, dict(NO_DEFENSE), keeps=forced == "not_faced")
    elif inline is not None:
        check_declaration(res.state, plan, inline, defender, attacker, prefix="defense.")
        resolve(res, plan, inline)
    else:
        res.state["pending"] = plan
        res.emit("awaiting_defense", attacker=attacker["id"], defender=defender["id"])


def defend(res: Res, defender: DuelCombatant, action: Action) -> None:
    plan = cast("dict[str, Any]", res.state["pending"])  # the exchange this defense answers (legality checked it)
    attacker = by_id(res.state, plan["attacker"])
    check_declaration(res.state, plan, action, defender, attacker)
    if action["face"] is not None:
        if attacker["id"] not in action["face"]:
            raise InvalidAction(
                refusal(
                    "{defender} defends against {attacker}, who must be among the opponents faced",
                    defender=defender["name"],
                    attacker=attacker["name"],
                ),
                field="face",
            )
        face_opponents(res, defender, action["face"], "face")
    res.state["pending"] = None
    resolve(res, plan, action)


# -- resolution -----------------------------------------------------------------------------


def resolve(res: Res, plan: dict[str, Any], decl: dict[str, Any], *, keeps: bool = False) -> None:
    state = res.state
    attacker, defender = by_id(state, plan["attacker"]), by_id(state, plan["defender"])
    duel = cast("Duel", duel_between(state, attacker["id"], defender["id"]))  # the exchange's own duel
    duel["threat"] = None
    res.emit(
        "exchange", attacker=attacker["id"], defender=defender["id"], defense=decl["defense"], blows=len(plan["blows"])
    )
    if decl["defense"] == "plongeon":
        defender["last_dive_round"] = state["round"]
    if decl["defense"] == "couvert" and add(res, defender, IN_COVER, rounds=1):  # until the next round begins
        res.emit("takes_cover", combatant=defender["id"])
    reasons: list[str] = []
    if decl["defense"] == "contre_attaque":
        if counter_attack(res, defender, attacker, decl["counter"], plan.get("distance")):
            finish(res, duel, defender, ["counter_attack"], keeps=False)
            return
        decl = dict(NO_DEFENSE)
        keeps = keeps or res.options["failed_counter_keeps_initiative"]
    if plan["kind"] == "ranged":
        reasons = _resolve_shots(res, plan, decl, attacker, defender)
    else:
        for index, _blow in enumerate(plan["blows"]):
            blow_decl = decl if index == 0 else {**decl, "defense": decl["second_defense"] or "aucune"}
            reasons += _melee_blow(res, plan, index, blow_decl, attacker, defender)
    finish(res, duel, defender, reasons, keeps)


def finish(res: Res, duel: Duel, defender: DuelCombatant, reasons: list[str], keeps: bool) -> None:
    if reasons and not keeps and not is_out(defender) and not is_stunned(defender):
        give_initiative(res, duel, defender["id"], reasons[0])
    close_exchange(res, duel)


def _melee_blow(
    res: Res, plan: dict[str, Any], index: int, decl: dict[str, Any], attacker: DuelCombatant, defender: DuelCombatant
) -> list[str]:
    blow = plan["blows"][index]
    hold = hold_on(res.state, defender["id"])
    held_part = hold["part"] if hold and hold["holder"] == attacker["id"] else None
    # The hold a blow needs is checked again as it lands: the first blow's Prise may have failed.
    if is_out(attacker) or is_out(defender) or hold_refusal(blow["maneuver"], held_part, defender["name"]):
        res.emit("blow_impossible", attacker=attacker["id"], defender=defender["id"], maneuver=blow["maneuver"])
        return []
    mods = blow_modifiers(
        attacker, defender, plan["blows"], index, gm=plan["modifier"], steps=plan["steps"], counter=False
    )
    test = roll_test(res, mods, "attack", attacker)
    res.emit(
        "attack_rolled",
        attacker=attacker["id"],
        defender=defender["id"],
        maneuver=blow["maneuver"],
        weapon=blow["weapon"],
        **test.params(),
    )
    if not test.success:
        res.emit("attack_missed", attacker=attacker["id"], defender=defender["id"])
        return ["attack_failed"]
    malus = 0
    if blow["maneuver"] == "desarmer" and decl["defense"] == "jet_for":
        # "Jet FOR avec malus dmg": the blow's damage is rolled to set the malus.
        malus = roll_damage(res, attacker, weapon_of(attacker, blow["weapon"]), bonus={"Dd": test.dd})
    reasons, landed = defend_against(res, attacker, defender, decl, test.level, test.dd, extra={"damage": -malus})
    if landed is not None:
        land_blow(
            res,
            attacker,
            defender,
            blow,
            dd=landed["dd"],
            critical=test.level == CRITICAL,
            absorbed=landed["absorbed"],
            steps=plan["steps"],
            aim=plan["aim"],
        )
    return reasons


def defend_against(
    res: Res,
    attacker: DuelCombatant,
    defender: DuelCombatant,
    decl: dict[str, Any],
    level: int,
    dd: int,
    extra: dict[str, Any] | None = None,
) -> tuple[list[str], dict[str, int] | None]:
    """Roll the declared defense against a blow that succeeded at ``level``.

    Returns the initiative reasons and, unless the blow is avoided, what lands: {dd, absorbed}.
    """
    defense = decl["defense"]
    spec = DEFENSES[defense]
    if spec["kind"] in ("none", "cover", "zigzag", "counter"):
        return [], {"dd": dd, "absorbed": 0}
    test = roll_test(res, {**defense_modifiers(defender, defense, decl), **(extra or {})}, "defense", defender)
    res.emit("defense_rolled", defender=defender["id"], defense=defense, **test.params())
    reasons = ["better_defense"] if test.success and test.level > level else []
    landed: dict[str, int] = {"dd": dd, "absorbed": 0}
    if not test.success:
        return reasons, landed
    kind = spec["kind"]
    if kind == "dodge" and test.level >= level or kind == "resist":
        if spec.get("frees"):
            hold = hold_on(res.state, defender["id"])
            if hold:
                release(res, hold["holder"], defender["id"])
        res.emit("blow_avoided", defender=defender["id"], defense=defense)
        return reasons, None
    if kind == "dodge" and spec.get("downgrades_critical") and level == CRITICAL:
        if res.options["ma_dodge"] == "avoid":
            res.emit("blow_avoided", defender=defender["id"], defense=defense)
            return reasons, None
        res.emit("critical_downgraded", defender=defender["id"], dd=dd)
        landed["dd"] = 0
    elif kind == "block":
        parts = absorption(defender, defense, decl["using"], test.dd)
        landed["absorbed"] = max(0, sum(parts.values()))
        res.emit("blow_blocked", defender=defender["id"], parts=parts, absorbed=landed["absorbed"])
    elif kind == "feint":
        sen = roll_test(res, {**attribute_base(attacker, "SEN"), "wound": attacker["malus"]}, "feint SEN", attacker)
        res.emit("feint_check", attacker=attacker["id"], **sen.params())
        if not sen.success:
            reasons.append("feint")
    return reasons, landed


def counter_attack(
    res: Res, counterer: DuelCombatant, target: DuelCombatant, counter: dict[str, Any], distance: int | None
) -> bool:
    """A counter-attack: a normal attack at -3, and no defense against it if it succeeds."""
    weapon = weapon_of(counterer, counter["weapon"], field="counter.weapon")
    plan = {
        "kind": "ranged",
        "shot": "tir_simple",
        "modifier": counter["modifier"],
        "steps": 0,
        "aim": None,
        "distance": counter["distance"] if counter["distance"] is not None else distance,
        "fragments": False,
    }
    if weapon["kind"] in ("firearm", "bow", "thrown"):
        band = band_of(plan["distance"])
        check_reach(weapon, band, field="counter.distance")
        spend_ammo(res, counterer, weapon, 1)
        if distance_malus(weapon, band) == "auto":
            res.emit(
                "counter_rolled",
                attacker=counterer["id"],
                defender=target["id"],
                maneuver="tir_simple",
                level=LEVELS[SUCCESS],
                automatic=True,
            )
            land_shot(res, counterer, target, weapon, plan, band, dd=0)
            return True
        test = roll_test(res, shot_modifiers(counterer, weapon, plan, band, counter=True), "counter-attack", counterer)
        maneuver = "tir_simple"
    else:
        blow = {"maneuver": counter["maneuver"], "weapon": counter["weapon"], "part": counter["part"]}
        test = roll_test(
            res,
            blow_modifiers(counterer, target, [blow], 0, gm=counter["modifier"], steps=0, counter=True),
            "counter-attack",
            counterer,
        )
        maneuver = counter["maneuver"]
    res.emit("counter_rolled", attacker=counterer["id"], defender=target["id"], maneuver=maneuver, **test.params())
    if weapon["kind"] in ("firearm", "bow", "thrown"):
        after_shot(res, counterer, weapon, test)
    if not test.success:
        res.emit("counter_failed", attacker=counterer["id"], defender=target["id"])
        return False
    if maneuver == "tir_simple":
        land_shot(res, counterer, target, weapon, plan, band_of(plan["distance"]), dd=test.dd)
    else:
        land_blow(
            res, counterer, target, blow, dd=test.dd, critical=test.level == CRITICAL, absorbed=0, steps=0, aim=None
        )
    return True


def _resolve_shots(
    res: Res, plan: dict[str, Any], decl: dict[str, Any], shooter: DuelCombatant, defender: DuelCombatant
) -> list[str]:
    weapon = weapon_of(shooter, plan["weapon"])
    spec = RANGED_SHOTS[plan["shot"]]
    band = shift_band(plan["band"], -1) if spec.get("band_shift") else plan["band"]
    defense = decl["defense"]
    cover_ip = 0
    extra = {}
    if defense == "couvert":
        if decl["cover_ip"] is None:
            res.emit("shot_blocked_by_cover", attacker=shooter["id"], defender=defender["id"])
            return []
        cover_ip, extra = decl["cover_ip"], {"blind": decl["blind_modifier"]}
    if defense == "zigzag":
        test = roll_test(res, defense_modifiers(defender, defense, decl), "defense", defender)
        res.emit("defense_rolled", defender=defender["id"], defense=defense, **test.params())
        if test.success:
            band = shift_band(band, 1)
            res.emit("zigzag_band", defender=defender["id"], band=band)
    firing_cover = next((c for c in defender["conditions"] if c["code"] == "firing_from_cover"), None)
    if firing_cover:
        extra["target_in_cover"] = -firing_cover["penalty"]
    reasons: list[str] = []
    for index, _ in enumerate(plan["blows"]):
        if is_out(defender):
            break
        if index and weapon["id"] in shooter["jammed"]:
            # "S'enraye si Maladresse...": a weapon jammed by the first shot of a Double tir fires no second.
            res.emit("shot_not_fired", attacker=shooter["id"], weapon=weapon["id"])
            break
        reasons += _one_shot(res, plan, decl, shooter, defender, weapon, band, extra, cover_ip)
    if spec.get("loses_initiative") and "critical_shot" not in reasons:
        reasons.append("steady_or_aimed_shot")
    return [r for r in reasons if r != "critical_shot"]


def _one_shot(
    res: Res,
    plan: dict[str, Any],
    decl: dict[str, Any],
    shooter: DuelCombatant,
    defender: DuelCombatant,
    weapon: dict[str, Any],
    band: str,
    extra: dict[str, Any],
    cover_ip: int,
) -> list[str]:
    malus = distance_malus(weapon, band)
    if malus is None:
        res.emit("out_of_range", attacker=shooter["id"], defender=defender["id"], band=band)
        return ["attack_failed"]
    if malus == "auto":
        level, dd = SUCCESS, 0
        res.emit("automatic_hit", attacker=shooter["id"], defender=defender["id"], weapon=weapon["id"])
    else:
        test = roll_test(res, {**shot_modifiers(shooter, weapon, plan, band), **extra}, "attack", shooter)
        res.emit(
            "shot_rolled",
            attacker=shooter["id"],
            defender=defender["id"],
            shot=plan["shot"],
            weapon=weapon["id"],
            band=band,
            **test.params(),
        )
        after_shot(res, shooter, weapon, test)
        level, dd = test.level, test.dd
        if plan["under_threat"] and level != FUMBLE and not test.success:
            # "seul un échec critique est raté, un échec normal étant considéré comme une réussite simple"
            level, dd = SUCCESS, 0
            res.emit("threat_shot", attacker=shooter["id"], defender=defender["id"])
        elif not test.success:
            res.emit("attack_missed", attacker=shooter["id"], defender=defender["id"])
            return ["attack_failed"]
    reasons, landed = defend_against(res, shooter, defender, decl, level, dd)
    if landed is not None:
        land_shot(res, shooter, defender, weapon, plan, plan["band"], dd=landed["dd"], cover_ip=cover_ip)
    found: list[str] = reasons + (["critical_shot"] if level == CRITICAL else [])
    return found
