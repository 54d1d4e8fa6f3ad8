"""English sentences for the events of this ruleset: the source of the
gettext catalogues in service/i18n/locales (French, Portuguese).
"""

ENGLISH = {
    "initiative_rolled": "{combatant} rolls initiative: DES {des} + bonus {bonus} + {dice} = {total}.",
    "attack_rolled": "{attacker} attacks {target} with {weapon_name}: {dice} → {total}.",
    "awaiting_defense": "{target} must defend against {attacker}.",
    "defense_rolled": "{defender} defends: {dice} → {total}.",
    "passive_defense": "{target} cannot defend: the difficulty is {difficulty}.",
    "attack_hit": "{attacker} hits {target} (critical: {critical}).",
    "attack_missed": "{attacker} misses {target} (critical failure: {fumble}).",
    "burst_hits": "The burst hits {target} {hits} times.",
    "damage_rolled": "Damage {expression}: {rolled} (doubled: {doubled}), RD {rd} → {dealt} to {target}.",
    "damage_taken": "{target} loses {amount} PV and has {pv} left.",
    "knocked_out": "{target} falls unconscious.",
    "dying": "{target} falls unconscious and is dying ({pv} PV).",
    "died": "{target} dies.",
    "death_test": "{actor}'s death test: {dice} → {total}: {outcome} ({failures} failures).",
    "stabilised": "{target} is stabilised.",
    "healing_test": "{healer} tends {target}: {dice} → {total} against {difficulty} (success: {success}).",
    "test_rolled": "{actor} tests: {dice} → {total} against {difficulty} (success: {success}).",
    "localized_hit": "{target} is hit in the {location} ({tag}).",
    "passed": "{actor} does something else.",
}

MESSAGES = {"en": ENGLISH}
