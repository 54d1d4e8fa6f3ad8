"""English sentences for the events of this ruleset: the source of the
gettext catalogues in service/i18n/locales (French, Portuguese).
"""

ENGLISH = {
    "allocation_received": "{combatant} has allocated in secret (tour {round}; {waiting} still to allocate).",
    "allocation_revealed": (
        "{combatant} reveals: weapon {weapon} ({mode}), POT {pot}, INIT {init} / ATT {att} / DEF {defense}, "
        "target {target}, evades: {evade}, reloads: {reload}, maneuver: {maneuver}."
    ),
    "shooting_order": "Shooters act first, by AGI: {order}.",
    "attack_lost": "{attacker} is out of the fight and does not strike {target}.",
    "attack_cancelled": "{target} is already out of the fight: {attacker}'s attack is lost.",
    "choc_spent": "{combatant}'s CHOC ({choc}) weighs on this action: {malus} dice fewer (CHOC or pain, the larger).",
    "evasion_rolled": "{combatant} evades (AGI + Esquive, {pool} dice): {dice} → {successes} successes.",
    "evasion_reused": "{combatant}'s evasion still counts: {successes} successes.",
    "shot_rolled": (
        "{attacker} shoots at {target} ({pool} dice): {dice} → {successes} successes against DIFF {difficulty}."
    ),
    "shot_missed": "{attacker}'s shot misses {target}.",
    "shot_hit": "{attacker}'s shot hits {target}: DEG {deg}.",
    "weapon_unloaded": "{combatant}'s {weapon} is now unloaded.",
    "weapon_reloaded": "{combatant} reloads the {weapon}.",
    "attack_rolled": (
        "{attacker} attacks {target} ({pool} dice, riposte bonus {riposte_bonus}): {dice} → {total} successes."
    ),
    "defense_rolled": "{defender} defends ({pool} dice): {dice} → {successes} successes.",
    "defense_reused": "{defender}'s defense still counts: {successes} successes.",
    "attack_hit": "{attacker} hits {target}: DEG {deg}.",
    "attack_failed": "{attacker} fails against {target} by {riposte_bonus}: the riposte bonus if {target} strikes {attacker} later this tour.",
    "armour_rolled": "{combatant}'s partial armour: {dice} → {successes} successes.",
    "resistance_rolled": "{combatant} resists (RES): {dice} → {successes} successes.",
    "blow_scored": (
        "Blow of {attacker} on {target}: DEG {deg} + DOM {weapon_damage} + FOR {strength} "
        "- PROT {protection} - RES {resistance} = {score}."
    ),
    "blow_absorbed": "{target} takes the blow without harm ({score}).",
    "bouffon_blow_scored": (
        "Blow of {attacker} on {target}: DEG {deg} + DOM {weapon_damage} + FOR {strength} - Défense {defense} = {score}."
    ),
    "bouffon_eliminated": "{target} is out of the fight.",
    "wounded": "{target} is wounded: {amount} PV lost, {pv} PV left (wounds {wounds}, CHOC {choc}).",
    "wound_severity": "{target}'s wound is {level}: {pain} dice fewer from the pain.",
    "fell_into_coma": "{target} falls into a coma ({pv} PV).",
    "died": "{target} dies ({pv} PV).",
    "choc_cleared": "The fight is over: {combatant}'s CHOC ({choc}) is cancelled.",
    "contact_made": "{combatant} and {target} are in contact.",
    "contact_broken": "{combatant} and {target} are no longer in contact.",
    "wound_worsened": "{target}'s untreated wound worsens by {amount} ({reason}).",
    "fumbled": "Maladresse! {combatant}'s {roll} roll shows only ones.",
}

MESSAGES = {"en": ENGLISH}


# Words for the ids events carry (translated in service/i18n/locales).
LABELS = {
    "level": {
        "grave": "serious wound",
        "critique": "critical wound",
    },
}
