"""English sentences for the events of this ruleset: the source of the
gettext catalogues in service/i18n/locales (French, Portuguese).
"""

from typing import Any

from . import tables

_ROLL_EN = "{dice} = {total} against {target}: {level}"

# The seed's PV (points de vie) are hit points, "HP" in English; its terms
# FOR, DEX, CON, SEN, IP (protection) and Dd (damage dice) stay.
ENGLISH: dict[str, Any] = {
    "initiative_rolled": "{combatant} rolls initiative: " + _ROLL_EN + ".",
    "interruption_rolled": "{combatant} rolls to interrupt: " + _ROLL_EN + ".",
    "initiative_tied": "{attacker} and {defender} tie for the initiative and roll again.",
    "surprise": "{attacker} takes {defender} by surprise and attacks first.",
    "surprise_ignored": "The surprise option names {combatant}, who is not in this fight.",
    "duel_started": "{attacker} and {defender} fight; {attacker} holds the initiative.",
    "cannot_face": "{combatant} already faces as many opponents as DEX allows and cannot defend against {target}.",
    "faces": "{combatant} now faces {opponents}[malus? (malus {malus})].",
    "awaiting_defense": "{defender} must declare a defense against {attacker}.",
    "no_defense": "{defender} gets no defense roll ({reason}).",
    "exchange": "{attacker} attacks {defender}, who chooses {defense}.",
    "attack_rolled": "{attacker} tries {maneuver} with {weapon}: " + _ROLL_EN + ".",
    "shot_rolled": "{attacker} fires ({shot}, {weapon}, {band}): " + _ROLL_EN + ".",
    "automatic_hit": "{attacker} fires {weapon} at contact range: an automatic hit.",
    "out_of_range": "{attacker} cannot reach {defender} at this range ({band}).",
    "attack_missed": "{attacker} misses {defender}.",
    "defense_rolled": "{defender} tries {defense}: " + _ROLL_EN + ".",
    "blow_avoided": "{defender} avoids the blow ({defense}).",
    "blow_blocked": "{defender} blocks and absorbs {absorbed:# point|# points}.",
    "critical_downgraded": (
        "{defender}'s martial-arts dodge turns the critical blow into a simple one (without the +{dd})."
    ),
    "blow_impossible": "{attacker} cannot carry out {maneuver} on {defender}.",
    "feint_check": "{attacker} rolls SEN against the feint: " + _ROLL_EN + ".",
    "counter_rolled": "{attacker} counter-attacks {defender} ({maneuver}): {level}.",
    "counter_failed": "{attacker}'s counter-attack fails.",
    "damage_rolled": "{attacker} rolls {expression} for damage: {rolls}; {parts} = {total:# point|# points}.",
    "wounded": (
        "{target} takes {effective:# point|# points} of damage ({damage} - {absorbed} absorbed - IP {ip}): {level}, "
        "loses {loss} HP and has {pv} left; malus {malus_now}."
    ),
    "hit_location": "Hit location for {target}: {roll}[shift?, shifted by {shift},] = {location}.",
    "out_of_fight": "{target} is out of the fight ({pv} HP).",
    "died": "{target} dies ({pv} HP).",
    "stun_check": "{combatant} rolls CON against the stun: " + _ROLL_EN + ".",
    "stunned": "{target} is stunned until the end of round {until}.",
    "falls": "{target} falls to the ground.",
    "stands_up": "{combatant} gets up.",
    "initiative_passes": "{attacker} takes the initiative from {defender} ({reason}).",
    "hold_taken": "{attacker} holds {defender} by the {part}.",
    "hold_released": "{defender} is free of {attacker}'s hold.",
    "locked": "{attacker} locks {defender}, who cannot act while held.",
    "weapon_dropped": "{target} drops {weapon}.",
    "weapon_taken": "{attacker} takes {target}'s weapon ({weapon}).",
    "nothing_to_disarm": "{target} holds no weapon to lose.",
    "break_free_rolled": "{actor} tries to break free ({method}): " + _ROLL_EN + ".",
    "threat_rolled": "{attacker} threatens {defender} with {weapon}: " + _ROLL_EN + ".",
    "threat_established": "{attacker} holds {defender} at weapon point.",
    "threat_broken": "{attacker} gets out of {defender}'s threat.",
    "threat_shot": "{attacker} fires at the threatened {defender}: only a critical failure misses, so the shot hits.",
    "weapon_jammed": "{attacker}'s {weapon} jams (Dd {dd}).",
    "reloaded": "{actor} reloads {weapon}.",
    "shot_blocked_by_cover": "{defender}'s cover stops {attacker}'s shot.",
    "zigzag_band": "{defender} zigzags: the shot is made as at range {band}.",
    "leaves_cover": "{combatant} leaves cover.",
    "suppression_fire": "{attacker} lays down suppression fire ({weapon}) on {zone}: " + _ROLL_EN + ".",
    "zone_suppressed": "{target} is pinned by {attacker}'s fire ({level}, {bursts:# burst|# bursts}).",
    "ricochet": "A ricochet from {attacker}'s fire hits {target}.",
    "zone_test": "{combatant} acts under fire: " + _ROLL_EN + "[safe?; under cover][!safe?; exposed].",
    "passed": "{actor} does something else.",
    "pv_set": "The game master sets {target}'s HP to {pv}[reason? (reason: {reason})].",
}

MESSAGES = {"en": ENGLISH}


def _names(table: dict[str, Any]) -> dict[str, str]:
    return {key: row["name"] for key, row in table.items()}


# Words for the ids events carry. Maneuvers, defenses, shots, weapons and
# distance bands keep the seed's French names: they are the game's terms.
_WOUNDS = {"aucune": "no wound", "egratignure": "scratch", "legere": "light wound", "grave": "serious wound"}
LABELS: dict[str, Any] = {
    "level": {
        "maladresse": "critical failure (Maladresse)",
        "echec_simple": "simple failure",
        "reussite_simple": "simple success",
        "reussite_critique": "critical success",
        **_WOUNDS,
    },
    "maneuver": {**_names(tables.MELEE_ATTACKS), "menacer": tables.THREATEN["name"]},
    "defense": _names(tables.DEFENSES),
    "shot": _names(tables.RANGED_SHOTS),
    "weapon": _names(tables.WEAPONS),
    "band": dict(tables.BAND_NAMES),
    "location": {
        "tete": "head",
        "poitrine": "chest",
        "abdomen": "abdomen",
        "bras_g": "left arm",
        "bras_d": "right arm",
        "jambe_g": "left leg",
        "jambe_d": "right leg",
    },
    "part": {"tete": "head", "corps": "body", "membre": "limb"},
    "method": {"degagement": "Dégagement", "jet_for": "a FOR roll"},
    "parts": {"dice": "dice", "FOR": "FOR", "Dd": "Dd"},
    "reason": {
        "attack_failed": "the attack failed",
        "better_defense": "a better defense",
        "counter_failed": "the counter-attack failed",
        "counter_attack": "a counter-attack",
        "feint": "a feint",
        "steady_or_aimed_shot": "a steady or aimed shot",
        "pass": "a pass",
        "fell": "a fall",
        "stunned": "stunned",
        "prone": "on the ground",
        "unconscious": "unconscious",
        "dead": "dead",
        "game_master": "the game master's decision",
        "not_faced": "not facing the attacker",
        "threatened": "under a threat",
    },
    "condition": {"prone": "on the ground", "stunned": "stunned", "unconscious": "unconscious", "dead": "dead"},
    "value": {
        "pv": "HP",
        "pv_max": "maximum HP",
        "malus": "malus",
        "wound": "wound",
        "facing": "opponents faced",
        "last_dive_round": "round of the last dive",
        "ammo": "ammunition",
        "jammed": "jammed weapons",
        "dropped": "lost weapons",
    },
    "old": _WOUNDS,
    "new": _WOUNDS,
}
