"""English sentences for the events of this ruleset: the source of the
gettext catalogues in service/i18n/locales (French, Portuguese).
"""

from typing import Any

# The seed's PV (points de vie) are hit points, "HP" in English; CON, DEX and
# SAN keep the seed's names.
ENGLISH: dict[str, Any] = {
    "initiative_rolled": "{combatant} rolls initiative: D12 {die} + DEX {dex} = {total}.",
    "attack_declared": "{attacker} attacks {target} with {weapon}, {mode} ({attacks:# attack|# attacks} this round).",
    "awaiting_reaction": "{target} must declare a dodge, a parry or nothing against {attacker} before the roll.",
    "reaction_declared": "{defender} declares: {kind}[item? with {item}].",
    "dodge_rolled": "{defender} dodges: {roll} against {needed} ({level}); attacker modifier {attack_modifier}.",
    "parry_rolled": (
        "{defender} parries with {item}: {roll} against {needed} ({level}); attacker modifier {attack_modifier}."
    ),
    "parry_against_critical": (
        "Against a critical hit {defender}'s parry is read at {penalty}: {roll} against {needed} ({level})."
    ),
    "attack_rolled": "{attacker} attacks {target} with {weapon}: {roll} against {needed} ({level}).",
    "disarm_second_roll": "{attacker}'s second disarm roll: {roll} against {needed} ({level}).",
    "attack_hit": "{attacker} hits {target}.",
    "attack_hit.critical": "{attacker} hits {target}: a critical hit.",
    "attack_missed": "{attacker} misses {target}.",
    "attack_missed.fumble": "{attacker} misses {target}: a fumble.",
    "martial_arts_rolled": "{attacker}'s martial arts ({kind}): {roll} against {needed} ({level}).",
    "damage_rolled": "Damage {rolled}, parried {parried}, armour {armour}, {location}: {pv_loss} HP for {target}.",
    "parry_points": (
        "{defender}'s {item} stops {points:# point|# points} ({pierced} pierced): {parried} damage parried."
    ),
    "item_wear": "{combatant}'s {item} risks damage: {roll} against {chance}, unharmed.",
    "item_wear.damaged": "{combatant}'s {item} risks damage: {roll} against {chance}, damaged.",
    "item_damaged": "{combatant}'s {item} is damaged (step {steps})[vibro_lost?; its vibro edge no longer works].",
    "item_damaged.destroyed": "{combatant}'s {item} is destroyed (step {steps}).",
    "stun_blocked": "{target} parried with a shield and cannot be stunned.",
    "stun_failed": "{target} is not stunned (chance {chance} %, roll {roll}).",
    "stun_failed.no_roll": "This blow cannot stun {target}.",
    "stunned": "{target} is stunned for {minutes:# minute|# minutes} ({roll} against {chance} %).",
    "stun_damage": "Stunning blow: {target} really loses a quarter, {pv_loss} HP.",
    "paralysis_test": "{target} tests CON {con} x {factor}: {roll} against {needed} ({level}).",
    "paralysed": "{target} is paralysed for {minutes:# minute|# minutes}.",
    "contracted": "{target} resists, but the contracted muscles give -2 DEX and -10 to combat tests.",
    "parry_stopped": "{defender}'s parry stops the attack ({mode}).",
    "disarm_test": "{target} tests DEX {dex} x 2 to keep {item}: {roll} against {needed} ({level}).",
    "weapon_dropped": "{combatant} drops {item}.",
    "weapon_recovered": "{combatant} picks up {item}.",
    "weapon_jammed": "{combatant}'s {item} jams ({actions:# action|# actions} to clear it).",
    "weapon_jammed.no_actions": "{combatant}'s {item} jams for the rest of the fight.",
    "jam_worked": "{combatant} works on the jammed {item} ({left:# action|# actions} left).",
    "jam_worked.no_left": "{combatant} works on the jammed {item}.",
    "fumble_rolled": "{attacker} fumbles: {table}, {roll} {adjustment:+d} = {value}: {result}.",
    "fumble_for_gm": "{attacker} fumbles with {item}: the GM decides what happens.",
    "fumble_no_ally": "{attacker} has no ally left in the fight: the fumbled blow turns back on {attacker}.",
    "fumble_strike": "{attacker}'s fumbled blow strikes {target}: {rolled} - armour {armour} = {pv_loss} HP.",
    "action_lost": "{combatant} loses this action.",
    "damage_taken": "{target} loses {amount} HP and has {pv} left.",
    "consciousness_test": "{target} tests CON {con} x 5 to stay conscious: {roll} against {needed} ({level}).",
    "fell_unconscious": "{target} falls unconscious.",
    "fell_unconscious.unit=minutes": "{target} falls unconscious for {amount:# minute|# minutes}.",
    "fell_unconscious.unit=hours": "{target} falls unconscious for {amount:# hour|# hours}.",
    "death_table": "Death table for {target} at {pv} HP: {roll} → {result}.",
    "wound": "{target}'s wound is {severity}: -{san_loss} SAN, -{skill_loss} to one skill of the GM's choice.",
    "wound.limb_lost": (
        "{target}'s wound is {severity}: -{san_loss} SAN, -{skill_loss} "
        "to one skill of the GM's choice, and a limb or an organ is lost."
    ),
    "died": "{target} dies.",
    "condition_cleared": "The game master lifts a condition from {target}: {condition}[reason? (reason: {reason})].",
    "passed": "{actor} does something else.",
    # The GM's adjust: round.done is the only true/false value (__init__.check_value), said in a whole sentence.
    "value_adjusted.new": "The game master ends {target}'s turn for this round[reason? (reason: {reason})].",
    "value_adjusted.new.old": "The game master ends {target}'s turn for this round[reason? (reason: {reason})].",
    "value_adjusted.old": "The game master gives {target} back a turn this round[reason? (reason: {reason})].",
    # The weapon in hand, named by the sheet or the catalog: an arrow, not prepositions its name would need.
    "value_adjusted.value=wielding": (
        "The game master changes {target}'s weapon in hand: {old} → {new}[reason? (reason: {reason})]."
    ),
    "value_adjusted.no_old.value=wielding": (
        "The game master sets {target}'s weapon in hand: {new}[reason? (reason: {reason})]."
    ),
    "value_adjusted.no_new.value=wielding": (
        "The game master has {target} put away the weapon in hand ({old})[reason? (reason: {reason})]."
    ),
}

MESSAGES = {"en": ENGLISH}


# Words for the ids events carry (translated in service/i18n/locales).
_CONDITIONS = {
    "dead": "dead",
    "unconscious": "unconscious",
    "knocked_out": "knocked out",
    "paralysed": "paralysed",
    "contracted": "contracted muscles",
    "off_balance": "off balance",
    "loses_next_action": "loses the next action",
    "wound": "wounded",
}
_KINDS = {"living": "living being", "droid": "droid"}
LABELS = {
    "condition": _CONDITIONS,
    # The catalog's weapons (tables.WEAPONS), for those a sheet does not name.
    "weapon": {
        "unarmed": "bare hands",
        "couteau": "knife",
        "vibro_couteau": "vibro-knife",
        "epee": "sword",
        "hache": "axe",
        "vibro_hache": "vibro-axe",
        "epee_2_mains": "two-handed sword",
        "matraque": "baton",
        "matraque_paralysante": "stun baton",
        "baton_force": "force staff",
        "bouclier": "shield",
        "blaster_poing": "blaster pistol",
        "fusil_blaster": "blaster rifle",
        "fusil_perforant": "piercing rifle",
    },
    "kind": {"dodge": "dodge", "parry": "parry", "none": "no reaction", "unarmed": "unarmed", "armed": "armed"},
    "table": {"melee_house": "melee fumble table", "jam": "jam table"},
    "value": {
        "pv": "HP",
        "pv_max": "maximum HP",
        "san": "SAN",
        "kind": "kind",
        "items": "state of the weapons",
        "wielding": "weapon in hand",
        "round": "this round's state",
        "round.initiative": "initiative this round",
        "round.attacks": "number of attacks declared this round",
        "round.attacks_left": "attacks left this round",
        "round.dodges": "dodges this round",
        "round.damage": "HP lost this round",
        "round.done": "turn over this round",
    },
    # A GM's adjust of the kind (living or droid) says it in words.
    "old": _KINDS,
    "new": _KINDS,
    "level": {
        "critical": "critical success",
        "success": "success",
        "failure": "failure",
        "fumble": "fumble",
    },
    "mode": {
        "kill": "to kill",
        "stun": "to stun",
        "paralyse": "to paralyse",
        "disarm": "to disarm",
    },
    "location": {
        "body": "body",
        "head": "head",
        "chest": "chest",
        "abdomen": "abdomen",
        "left_arm": "left arm",
        "right_arm": "right arm",
        "left_leg": "left leg",
        "right_leg": "right leg",
        "shield_arm": "shield arm",
    },
    "severity": {
        "very_light": "very light",
        "light": "light",
        "serious": "serious",
        "very_serious": "very serious",
        "dead": "dead",
    },
    "result": {
        "very_light": "very light",
        "light": "light",
        "serious": "serious",
        "very_serious": "very serious",
        "dead": "dead",
        "off_balance": "off balance",
        "loses_next_action": "loses the next action",
        "drops_weapon": "drops the weapon",
        "weapon_damaged": "weapon damaged",
        "hits_ally": "hits an ally",
        "hits_self": "hits himself",
        "no_jam": "no jam",
        "jam_1": "jammed for one action",
        "jam_2": "jammed for two actions",
        "jam_fight": "jammed for the fight",
        "weapon_damaged_jam": "damaged and jammed",
        "weapon_explodes": "the weapon explodes",
    },
}
