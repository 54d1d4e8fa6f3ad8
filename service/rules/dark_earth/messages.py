"""English sentences for the events of this ruleset: the source of the
gettext catalogues in service/i18n/locales (French, Portuguese).
"""

from typing import Any

# The seed's terms stay (POT, INIT, ATT, DEF, DEG, DOM, FOR, PROT, RES, CHOC,
# AGI, DIFF); its PV (points de vie) are hit points, "HP" in English, and its
# "tour" is a round.
ENGLISH: dict[str, Any] = {
    "allocation_received": (
        "{combatant} has split their POT in secret (round {round}; "
        "[waiting?{waiting:# other|# others} still to do so][!waiting?all pools are split])."
    ),
    "allocation_revealed": (
        "{combatant} reveals: [weapon?{weapon}, ]{mode}, POT {pot}[att?: INIT {init} / ATT {att} / DEF {defense}]"
        "[target?, against {target}][evade?, evading][reload?, reloading][maneuver?, maneuver “{maneuver}”]."
    ),
    "shooting_order": "Shooters act first, by AGI: {order}.",
    "attack_lost": "{attacker} is out of the fight and does not strike {target}.",
    "attack_cancelled": "{target} is already out of the fight: {attacker}'s attack is lost.",
    # The dice it takes off are shown among the terms of the pool it weighs on (attack_rolled, shot_rolled).
    "choc_spent": "{combatant}'s CHOC ({choc}) weighs on this action, then clears.",
    "choc_spent.pain_larger": (
        "{combatant}'s CHOC ({choc}) clears with this action without weighing on it: "
        "their pain weighs more, and the two do not add up."
    ),
    # {terms}: what made a pool, when more than its base did ("ATT 5 - CHOC 2 - GM 1"); {pool}: the dice rolled.
    "evasion_rolled": (
        "{combatant} evades ({pool:# die|# dice}[terms?: {terms}]): {dice} → {successes:# success|# successes}."
    ),
    "evasion_rolled.no_dice": "{combatant} has no dice left to evade with[terms? ({terms})]: no success.",
    "evasion_reused": "{combatant}'s evasion still counts: {successes:# success|# successes}.",
    "shot_rolled.no_dice": (
        "{attacker} has no dice left to shoot at {target} with[terms? ({terms})]: no success against DIFF {difficulty}."
    ),
    "shot_rolled": (
        "{attacker} shoots at {target} ({pool:# die|# dice}[terms?: {terms}]): {dice} → "
        "{successes:# success|# successes} against DIFF {difficulty}."
    ),
    "shot_missed": "{attacker}'s shot misses {target}.",
    "shot_hit": "{attacker}'s shot hits {target}: DEG {deg}.",
    "weapon_unloaded": "{combatant}'s {weapon} is now unloaded.",
    "weapon_reloaded": "{combatant} reloads the {weapon}.",
    "attack_rolled.no_dice": (
        "{attacker} has no dice left to attack {target} with[terms? ({terms})]: "
        "[!bonus_successes?no success][bonus_successes?only the riposte bonus, {total:# success|# successes}]."
    ),
    "attack_rolled": (
        "{attacker} attacks {target} ({pool:# die|# dice}[terms?: {terms}]): {dice} → "
        "{successes:# success|# successes}[bonus_successes?, + riposte bonus {bonus_successes} = {total}]."
    ),
    "defense_rolled": (
        "{defender} defends ({pool:# die|# dice}[terms?: {terms}]): {dice} → {successes:# success|# successes}."
    ),
    "defense_rolled.no_dice": "{defender} has no dice left to defend with[terms? ({terms})]: no success.",
    "defense_reused": "{defender}'s defense still counts: {successes:# success|# successes}.",
    "attack_hit": "{attacker} hits {target}: DEG {deg}.",
    "attack_failed": "{attacker} fails against {target}[!riposte_bonus? (a tie)].",
    "attack_failed.riposte_later": (
        "{attacker} fails against {target}[riposte_bonus?: {target} will "
        "strike back this round with a riposte bonus of {riposte_bonus}]"
        "[!riposte_bonus? (a tie: no riposte bonus)]."
    ),
    "armour_rolled": "{combatant}'s partial armour[terms? ({terms})]: {dice} → {successes:# success|# successes}.",
    "resistance_rolled.no_dice": (
        "{combatant} has no dice left to resist with ([terms?{terms}][!terms?RES]): no success."
    ),
    "resistance_rolled": (
        "{combatant} resists ([terms?{terms}][!terms?RES]): {dice} → {successes:# success|# successes}."
    ),
    "blow_scored": (
        "{attacker}'s blow on {target}: DEG {deg} + DOM {weapon_damage} + FOR {strength} "
        "- PROT {protection} - RES {resistance} = {score}."
    ),
    "blow_absorbed": "{target} takes the blow without harm ({score}).",
    "bouffon_blow_scored": (
        "{attacker}'s blow on {target}: DEG {deg} + DOM {weapon_damage} + FOR {strength} - Défense {defense} = {score}."
    ),
    "bouffon_eliminated": "{target} is out of the fight.",
    "wounded": "{target} loses {amount} HP and has {pv} left (wounds {wounds}, CHOC {choc}).",
    "wound_severity": "{target} now has a {level}: the pain costs {pain:# die|# dice}.",
    "fell_into_coma": "{target} falls into a coma ({pv} HP).",
    "died": "{target} dies ({pv} HP).",
    "incapacitated_by_pain": (
        "{target} collapses in pain and is out of the fight: the wounds "
        "cost {pain:# die|# dice}, and their best POT is only {pot}."
    ),
    "choc_cleared": "With the end of the fight, {combatant}'s CHOC ({choc}) is cancelled.",
    "contact_made": "{combatant} and {target} are in contact[reason? (reason: {reason})].",
    "contact_broken": "{combatant} and {target} are no longer in contact[reason? (reason: {reason})].",
    "wound_worsened": "{target}'s untreated wound worsens by {amount}[reason? ({reason})].",
    "fumbled": "Maladresse! {combatant}'s {roll} roll shows only ones.",
    # The GM's wound level line (shared value_adjusted) as a sentence about the wound itself (issue 38).
    "value_adjusted.value=wound_level": (
        "The game master turns {target}'s {old} into a {new}[reason? (reason: {reason})]."
    ),
    "value_adjusted.no_old.value=wound_level": "The game master gives {target} a {new}[reason? (reason: {reason})].",
    "value_adjusted.no_new.value=wound_level": "The game master heals {target}'s {old}[reason? (reason: {reason})].",
    "value_adjusted.no_new.no_old.value=wound_level": (
        "The game master confirms that {target} has no serious wound[reason? (reason: {reason})]."
    ),
}

MESSAGES = {"en": ENGLISH}


# Words for the ids events carry (translated in service/i18n/locales).
_WOUND_LEVELS = {"grave": "serious wound", "critique": "critical wound"}
LABELS: dict[str, Any] = {
    "weapon": {"mains_nues": "bare hands"},
    "level": _WOUND_LEVELS,
    "old": _WOUND_LEVELS,
    "new": _WOUND_LEVELS,
    "mode": {"melee": "melee", "shot": "shooting", "contact_shot": "point-blank shot", "none": "no attack"},
    "condition": {
        "coma": "in a coma",
        "dead": "dead",
        "eliminated": "out of the fight",
        "incapacitated": "overcome by pain",
        "grave_wound": "seriously wounded",
        "critical_wound": "critically wounded",
    },
    # The terms of a pool (pools.roll_pool): the seed's abbreviations stay.
    "terms": {
        "ATT": "ATT",
        "POT": "POT",
        "DEF": "DEF",
        "AGI": "AGI",
        "RES": "RES",
        "PROT": "PROT",
        "CHOC": "CHOC",
        "pain": "pain",
        "armour": "armour",
        "riposte": "riposte bonus",
        "modifier": "modifier",
        "GM": "GM",
    },
    "value": {
        "pv": "HP",
        "pv_max": "maximum HP",
        "wound_level": "wound level",
        "choc": "CHOC",
        "wounds": "wounds",
        "loaded": "loaded weapons",
    },
}
