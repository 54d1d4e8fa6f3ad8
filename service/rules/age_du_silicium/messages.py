"""English sentences for the events of this ruleset: the source of the
gettext catalogues in service/i18n/locales (French, Portuguese).
"""

from typing import Any

# The seed's "points de Blessure" are wound points in English; Calme,
# Vigilance and Endurance keep the seed's names.
_CHANCE = "{roll} against {chance}"
ENGLISH: dict[str, Any] = {
    "surprise_test": (
        "{combatant} tests Vigilance against surprise: difficulty {difficulty}, reduced to {effective} "
        "(6th sense {sixth_sense}, on guard {on_guard}); " + _CHANCE + ", a failure."
    ),
    "surprise_test.success": (
        "{combatant} tests Vigilance against surprise: difficulty {difficulty}, reduced to {effective} "
        "(6th sense {sixth_sense}, on guard {on_guard}); " + _CHANCE + ", a success."
    ),
    "surprised": "{combatant} is surprised: the first action is lost and the next must be defensive.",
    "stress_test": "{combatant} tests Calme ({calme}): " + _CHANCE + ", a failure.",
    "stress_test.success": "{combatant} tests Calme ({calme}): " + _CHANCE + ", a success.",
    "frenzy": "{combatant} loses control and falls into a frenzy.",
    "frenzy_chosen": "{combatant} chooses the frenzy of {behaviour}.",
    "frenzy_ended": "{combatant} calms down.",
    "frenzy_ended.reason=no_enemies": "{combatant} calms down: no enemy is left.",
    "frenzy_ended.reason=calmed": "{combatant} is talked down and calms down.",
    "calme_retest": "{actor} talks {target} down: Calme " + _CHANCE + ", a failure.",
    "calme_retest.success": "{actor} talks {target} down: Calme " + _CHANCE + ", a success.",
    "declaration_order": "Declarations, from the lowest Initiative: {order}.",
    "initiative_next_round": (
        "{combatant}'s new Initiative counts from the next round: this round's declarations have begun."
    ),
    "declared": "{actor} declares {kinds} ({ranks:rank #|ranks #}).",
    "declared.no_kinds": "{actor} declares no action.",
    "action_lost": "{combatant} loses action {number} to the surprise.",
    "resolution_order": "Resolution, from the highest Initiative: {order} ({ranks:rank #|ranks #}).",
    "action_held": "{actor} holds the action (rank {rank}): it becomes a reaction.",
    "defending": "{actor} stands on the defensive (rank {rank}).",
    "reaction_lapsed": "{actor}'s unused reaction ({kind}) is lost at the end of the round.",
    "aimed": "{actor} aims ({aim:# action|# actions} of aiming).",
    "fled": "{actor} flees.",
    "other_action": "{actor} does something else.",
    "action_forgone": "{actor} gives up the declared action ({kind}[description?: {description}]).",
    "held_action_given_up": "{actor} gives up the held action.",
    "action_skipped": "{actor} is out of action: action {number} does not happen.",
    "attack": (
        "{attacker} attacks {target} with {weapon}: {skill} {base}, chance {chance} % "
        "({shots:a single attack|# shots})."
    ),
    "attack.weapon=unarmed": (
        "{attacker} attacks {target} bare-handed: {skill} {base}, chance {chance} % ({shots:a single attack|# shots})."
    ),
    "attack_roll": "{attacker} rolls " + _CHANCE + ": a failure.",
    "attack_roll.success": "{attacker} rolls " + _CHANCE + ": a success.",
    "attack_roll.critical.success": "{attacker} rolls " + _CHANCE + ": a critical success.",
    "attack_roll.fumble": "{attacker} rolls " + _CHANCE + ": a fumble.",
    "attack_hit": "{attacker} hits {target}.",
    "attack_hit.critical": "{attacker} hits {target}: a critical hit.",
    "attack_missed": "{attacker} misses {target}.",
    "attack_missed.fumble": "{attacker} misses {target}: a fumble.",
    "awaiting_reaction": "{target} may spend a reaction against {attacker}'s hit.",
    "no_reaction": "{defender} does not react.",
    "reaction_roll": "{defender} tries a {reaction}: " + _CHANCE + ", a failure.",
    "reaction_roll.success": "{defender} tries a {reaction}: " + _CHANCE + ", a success.",
    "hit_avoided": "{defender} avoids {attacker}'s hit ({reaction}).",
    "immobilised": "{attacker} immobilises {target}.",
    "disarmed": "{attacker} disarms {target}.",
    "break_free": "{actor} tries to break [target?{target}'s ][!target?the ]hold: " + _CHANCE + ", still held.",
    "break_free.success": "{actor} tries to break [target?{target}'s ][!target?the ]hold: " + _CHANCE + ", free.",
    "hit_location": "{target} is hit in the {location}.",
    "wound_reroll": "A 6 on the wound die: {attacker} rolls to hit again, " + _CHANCE + ", a failure.",
    "wound_reroll.success": "A 6 on the wound die: {attacker} rolls to hit again, " + _CHANCE + ", a success.",
    "wound_rolled": (
        "Wounds on {target} ({location}): damage {damage}[burst? + burst {burst}] - (Endurance {endurance} + "
        "armour {armour} {damage_type}) + {dice}[doubled?, doubled][halved?, halved] = {wounds}."
    ),
    "wounded": "{target} loses {amount:# wound point|# wound points} ({left} left).",
    "critical_wound": (
        "Critical wound: {target} loses {amount:# point|# points}, {excess} more than remained (Endurance {endurance})."
    ),
    "out_of_action": "{target} is out of action.",
    "died": "{target} dies.",
    "adjusted": (
        "The game master adjusts {combatant}[added?: now {added}][removed?; no longer {removed}]; "
        "{blessures:# wound point|# wound points} left[reason? (reason: {reason})]."
    ),
}

MESSAGES = {"en": ENGLISH}


# Words for the ids events carry (translated in service/i18n/locales).
_CONDITIONS = {
    "surprised": "surprised",
    "frenzy": "in a frenzy",
    "cornered": "cornered",
    "prone": "on the ground",
    "immobilised": "immobilised",
    "disarmed": "disarmed",
    "out_of_action": "out of action",
    "dead": "dead",
}
LABELS: dict[str, Any] = {
    # Bare hands, the catalog's one weapon (its attack has a sentence of its own: "bare-handed").
    "weapon": {"unarmed": "bare hands"},
    "location": {
        "head": "head",
        "torso": "torso",
        "right_arm": "right arm",
        "left_arm": "left arm",
        "right_leg": "right leg",
        "left_leg": "left leg",
    },
    "damage_type": {
        "energy": "energy",
        "ballistic": "ballistic",
        "impact": "impact",
    },
    "kinds": {
        "attack": "an attack",
        "aim": "aiming",
        "hold": "a held action",
        "defend": "a defense",
        "flee": "flight",
        "reason": "reasoning with an ally",
        "break_free": "breaking free",
        "other": "something else",
    },
    "kind": {
        "attack": "attack",
        "aim": "aiming",
        "hold": "held action",
        "held": "held action",
        "defend": "defense",
        "flee": "flight",
        "reason": "reasoning",
        "break_free": "breaking free",
        "other": "another action",
    },
    "reaction": {"dodge": "dodge", "parry": "parry"},
    "added": _CONDITIONS,
    "removed": _CONDITIONS,
    "condition": _CONDITIONS,
    "value": {
        "blessures": "wound points",
        "blessures_max": "maximum wound points",
        "initiative": "Initiative",
        "aim": "aiming",
        "retested_round": "round of the last Calme retest",
    },
    "behaviour": {
        "berserker": "the berserker",
        "flight": "flight",
    },
}
