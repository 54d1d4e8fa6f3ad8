"""English sentences for the events of this ruleset: the source of the
gettext catalogues in service/i18n/locales (French, Portuguese).
"""

ENGLISH = {
    "surprise_test": "{combatant} tests Vigilance against surprise: difficulty {difficulty}, reduced to {effective} "
    "(6th sense {sixth_sense}, on guard {on_guard}); {roll} against {chance}: success {success}.",
    "surprised": "{combatant} is surprised: the first action is lost and the next must be defensive.",
    "stress_test": "{combatant} tests Calme ({calme}): {roll} against {chance}: success {success}.",
    "frenzy": "{combatant} loses control and falls into a frenzy.",
    "frenzy_chosen": "{combatant} chooses the frenzy of {behaviour}.",
    "frenzy_ended": "{combatant} calms down ({reason}).",
    "calme_retest": "{actor} talks {target} down: Calme {roll} against {chance}: success {success}.",
    "declaration_order": "Declarations, from the lowest Initiative: {order}.",
    "declared": "{actor} declares {kinds} (ranks {ranks}).",
    "action_lost": "{combatant} loses action {number} to the surprise.",
    "resolution_order": "Resolution, from the highest Initiative: {order} (ranks {ranks}).",
    "action_held": "{actor} holds the action (rank {rank}): it becomes a reaction.",
    "defending": "{actor} stands on the defensive (rank {rank}).",
    "reaction_lapsed": "{actor}'s unused reaction ({kind}) is lost at the end of the round.",
    "aimed": "{actor} aims ({aim} action(s) of aiming).",
    "fled": "{actor} flees.",
    "other_action": "{actor} does something else.",
    "action_forgone": "{actor} gives up the declared action ({kind}).",
    "held_action_given_up": "{actor} gives up the held action.",
    "action_skipped": "{actor} is out of action: action {number} does not happen.",
    "attack": "{attacker} attacks {target} with {weapon_name}: {skill} {base}, chance {chance} % ({shots} shot(s)).",
    "attack_roll": "{attacker} rolls {roll} against {chance}: success {success} (critical {critical}, fumble {fumble}).",
    "attack_hit": "{attacker} hits {target} (critical: {critical}).",
    "attack_missed": "{attacker} misses {target} (fumble: {fumble}).",
    "awaiting_reaction": "{target} may spend a reaction against {attacker}'s hit.",
    "no_reaction": "{defender} does not react.",
    "reaction_roll": "{defender} tries to {reaction}: {roll} against {chance}: success {success}.",
    "hit_avoided": "{defender} avoids {attacker}'s hit ({reaction}).",
    "immobilised": "{attacker} immobilises {target}.",
    "disarmed": "{attacker} disarms {target}.",
    "break_free": "{actor} tries to break {target}'s hold: {roll} against {chance}; freed: {success}.",
    "hit_location": "{target} is hit in the {location}.",
    "wound_reroll": "A 6 on the wound die: {attacker} rolls to hit again, {roll} against {chance}: success {success}.",
    "wound_rolled": "Wounds on {target} ({location}): damage {damage} + burst {burst} - (Endurance {endurance} + "
    "armour {armour} {damage_type}) + {dice} (doubled {doubled}, halved {halved}) = {wounds}.",
    "wounded": "{target} loses {amount} Blessure points ({left} left).",
    "critical_wound": "Critical wound: {target} loses {amount} points, {excess} more than remained (Endurance {endurance}).",
    "out_of_action": "{target} is out of action.",
    "died": "{target} dies.",
    "adjusted": "The GM adjusts {combatant}: added {added}, removed {removed}, Blessures {blessures}.",
}

MESSAGES = {"en": ENGLISH}


# Words for the ids events carry (translated in service/i18n/locales).
LABELS = {
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
    "behaviour": {
        "berserker": "berserker",
        "flight": "flight",
    },
}
