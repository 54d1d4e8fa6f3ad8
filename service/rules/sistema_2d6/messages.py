"""English sentences for the events of this ruleset: the source of the
gettext catalogues in service/i18n/locales (French, Portuguese).
"""

from typing import Any

# The seed's PV (pontos de vida) are hit points: "HP" in English.
ENGLISH: dict[str, Any] = {
    "initiative_rolled": "{combatant} rolls initiative: DES {des} + bonus {bonus} + {dice} = {total}.",
    "attack_rolled": "{attacker} attacks {target} with {weapon}: {dice} → {total}.",
    "awaiting_defense": "{target} must defend against {attacker}.",
    "defense_rolled": "{defender} defends: {dice} → {total}.",
    "passive_defense": "{target} cannot defend: the difficulty is {difficulty}.",
    "attack_hit": "{attacker} hits {target}.",
    "attack_hit.critical": "{attacker} hits {target}: a critical hit.",
    "attack_missed": "{attacker} misses {target}.",
    "attack_missed.fumble": "{attacker} misses {target}: a critical failure.",
    "burst_hits": "The burst hits {target} {hits:once|# times}.",
    "damage_rolled": "Damage {expression}: {rolled}, damage reduction {rd} → {dealt:# point|# points} to {target}.",
    "damage_rolled.doubled": (
        "Damage {expression}: {rolled}, doubled, damage reduction {rd} → {dealt:# point|# points} to {target}."
    ),
    "damage_taken": "{target} loses {amount} HP and has {pv} left.",
    "knocked_out": "{target} falls unconscious.",
    "dying": "{target} falls unconscious and is dying ({pv} HP).",
    "died": "{target} dies.",
    "death_test": "Death test for {actor}: {dice} → {total}.",
    "death_test.outcome=success": (
        "Death test for {actor}: {dice} → {total}, {actor} holds on ({failures:# failure|# failures} so far)."
    ),
    "death_test.outcome=failure": (
        "Death test for {actor}: {dice} → {total}, a failure ({failures:# failure|# failures} of 3)."
    ),
    # The stabilised event follows and says it: this sentence gives the 12 alone.
    "death_test.outcome=stabilised": "Death test for {actor}: {dice} → {total}, a 12 on the dice.",
    "stabilised": "{target} is stabilised.",
    "healing_test": "{healer} tends {target}: {dice} → {total} against {difficulty}, a failure.",
    "healing_test.success": "{healer} tends {target}: {dice} → {total} against {difficulty}, a success.",
    "test_rolled": "{actor} makes a test: {dice} → {total} against {difficulty}, a failure.",
    "test_rolled.success": "{actor} makes a test: {dice} → {total} against {difficulty}, a success.",
    "localized_hit": "{target} is hit in the {location}: {tag}.",
    "localized_hit.no_tag": "{target} is hit in the {location}.",
    "passed": "{actor} does something else.",
}

MESSAGES = {"en": ENGLISH}

# Words for the ids events carry.
LABELS: dict[str, Any] = {
    # The catalog's weapons (tables.CATALOG["weapons"]), for those a sheet does not name:
    # alone (a menu), and as the attack sentence says them ("attacks Bruno with a shotgun").
    "weapon": {
        "soco": "punch",
        "chute": "kick",
        "tiro": "gunshot",
        "escopeta": "shotgun",
        "serra_eletrica": "chainsaw",
        "dinamite": "dynamite",
        "bazuca": "bazooka",
    },
    "weapon_in_sentence": {
        "soco": "a punch",
        "chute": "a kick",
        "tiro": "a gun",
        "escopeta": "a shotgun",
        "serra_eletrica": "a chainsaw",
        "dinamite": "dynamite",
        "bazuca": "a bazooka",
    },
    "location": {
        "eye": "eye",
        "ear": "ear",
        "finger": "finger",
        "head": "head",
        "neck": "neck",
        "ankle": "ankle",
        "shoulder": "shoulder",
        "leg": "leg",
        "arm": "arm",
    },
    "condition": {
        "unconscious": "unconscious",
        "dying": "dying",
        "stable": "stabilised",
        "dead": "dead",
        "localized": "suffering from a localized hit",
    },
    "value": {
        "pv": "HP",
        "pv_max": "maximum HP",
        "death_failures": "failed death tests",
        "initiative": "initiative",
    },
}
