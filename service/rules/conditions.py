"""Conditions on a combatant: a list of ``{"code": ..., **details}``.

One representation for every ruleset, so clients show states the same way.
"""


def has(combatant: dict, code: str) -> bool:
    return any(c["code"] == code for c in combatant["conditions"])


def add(combatant: dict, code: str, **details) -> bool:
    """Add the condition unless present; True when it was added."""
    if has(combatant, code):
        return False
    combatant["conditions"].append({"code": code, **details})
    return True


def remove(combatant: dict, code: str) -> bool:
    before = len(combatant["conditions"])
    combatant["conditions"] = [c for c in combatant["conditions"] if c["code"] != code]
    return len(combatant["conditions"]) != before
