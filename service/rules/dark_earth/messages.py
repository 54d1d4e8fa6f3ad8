"""Sentences for Dark Earth events, in English and French."""

from ..events import COMMON_MESSAGES

_OWN = {
    "en": {
        "combat_ended": "The fight ends.",
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
        "wounded": "{target} is wounded: {amount} PV lost, {pv} PV left (wounds {wounds}, CHOC {choc}).",
        "wound_severity": "{target}'s wound is {level}: {pain} dice fewer from the pain.",
        "fell_into_coma": "{target} falls into a coma ({pv} PV).",
        "died": "{target} dies ({pv} PV).",
        "choc_cleared": "The fight is over: {combatant}'s CHOC ({choc}) is cancelled.",
        "contact_made": "{combatant} and {target} are in contact.",
        "contact_broken": "{combatant} and {target} are no longer in contact.",
        "wound_worsened": "{target}'s untreated wound worsens by {amount} ({reason}).",
        "fumbled": "Maladresse! {combatant}'s {roll} roll shows only ones.",
    },
    "fr": {
        "combat_ended": "Le combat prend fin.",
        "allocation_received": "{combatant} a réparti en secret (tour {round} ; encore {waiting} à répartir).",
        "allocation_revealed": (
            "{combatant} révèle : arme {weapon} ({mode}), POT {pot}, INIT {init} / ATT {att} / DEF {defense}, "
            "cible {target}, esquive : {evade}, recharge : {reload}, manœuvre : {maneuver}."
        ),
        "shooting_order": "Les tireurs agissent d'abord, par AGI : {order}.",
        "attack_lost": "{attacker} est hors de combat et ne frappe pas {target}.",
        "attack_cancelled": "{target} est déjà hors de combat : l'attaque de {attacker} est perdue.",
        "choc_spent": "Le CHOC de {combatant} ({choc}) pèse sur cette action : {malus} dés de moins (CHOC ou douleur, le plus fort).",
        "evasion_rolled": "{combatant} esquive (AGI + Esquive, {pool} dés) : {dice} → {successes} réussites.",
        "evasion_reused": "L'esquive de {combatant} compte toujours : {successes} réussites.",
        "shot_rolled": "{attacker} tire sur {target} ({pool} dés) : {dice} → {successes} réussites contre une DIFF de {difficulty}.",
        "shot_missed": "Le tir de {attacker} ne touche pas {target}.",
        "shot_hit": "Le tir de {attacker} touche {target} : DEG {deg}.",
        "weapon_unloaded": "L'arme {weapon} de {combatant} est déchargée.",
        "weapon_reloaded": "{combatant} recharge son arme {weapon}.",
        "attack_rolled": "{attacker} attaque {target} ({pool} dés, bonus de riposte {riposte_bonus}) : {dice} → {total} réussites.",
        "defense_rolled": "{defender} se défend ({pool} dés) : {dice} → {successes} réussites.",
        "defense_reused": "La défense de {defender} compte toujours : {successes} réussites.",
        "attack_hit": "{attacker} touche {target} : DEG {deg}.",
        "attack_failed": "{attacker} échoue contre {target} de {riposte_bonus} : c'est le bonus de riposte si {target} frappe {attacker} plus tard dans ce tour.",
        "armour_rolled": "Armure partielle de {combatant} : {dice} → {successes} réussites.",
        "resistance_rolled": "{combatant} encaisse (RES) : {dice} → {successes} réussites.",
        "blow_scored": (
            "Coup de {attacker} sur {target} : DEG {deg} + DOM {weapon_damage} + FOR {strength} "
            "- PROT {protection} - RES {resistance} = {score}."
        ),
        "blow_absorbed": "{target} encaisse le coup sans conséquence ({score}).",
        "wounded": "{target} est blessé : {amount} PV perdus, il en reste {pv} (blessures {wounds}, CHOC {choc}).",
        "wound_severity": "La blessure de {target} est {level} : {pain} dés de moins à cause de la douleur.",
        "fell_into_coma": "{target} tombe dans le coma ({pv} PV).",
        "died": "{target} meurt ({pv} PV).",
        "choc_cleared": "Le combat est fini : le CHOC de {combatant} ({choc}) est annulé.",
        "contact_made": "{combatant} et {target} sont au contact.",
        "contact_broken": "{combatant} et {target} ne sont plus au contact.",
        "wound_worsened": "La blessure non soignée de {target} s'aggrave de {amount} ({reason}).",
        "fumbled": "Maladresse ! Le jet de {roll} de {combatant} ne montre que des 1.",
    },
}

MESSAGES = {lang: {**COMMON_MESSAGES[lang], **own} for lang, own in _OWN.items()}
