"""The shared ruleset kit (melee_testing/ruleset_kit.py) on each of Melee's own rulesets."""

from melee_testing.ruleset_kit import RulesetKit
from service.rules.registry import RULESETS

# Own event codes no rule emits, and why (the kit fails when one starts being emitted).
NEVER_EMITTED = {
    "dark-earth": {
        "evasion_reused": "no code in service/rules/dark_earth emits it: an evasion is rolled once per shot"
    },
}

for _ruleset_id in sorted(RULESETS):
    _name = f"Test{RULESETS[_ruleset_id].schema_prefix}"
    globals()[_name] = type(
        _name, (RulesetKit,), {"ruleset_id": _ruleset_id, "never_emitted": NEVER_EMITTED.get(_ruleset_id, {})}
    )
