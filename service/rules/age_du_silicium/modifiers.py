"""The to-hit chance: skill + the source's modifier tables (combats-5, -6).

Every modifier is named in the breakdown the ``attack`` event carries, so a
table can check the arithmetic.
"""

from __future__ import annotations

from typing import Any

from ..errors import ActionNotAllowed, InvalidAction, refusal
from ..state import Action
from .state import SiliciumCombatant
from .status import raise_refusal
from .tables import (
    AIM_CHOICES,
    BURST,
    MANEUVER_SKILL_LEVEL,
    MANEUVERS,
    RANGE_BANDS,
    RECOIL_PER_EXTRA_SHOT,
    RELATIVE_SPEED,
    SECONDARY_TARGET,
    SHOOTER_PACE,
    SITUATION,
    TARGET_PACE,
    VISIBILITY,
    WEAPON_AIDS,
    WEAPON_KINDS,
)
from .weapons import weapon_named


def mode(weapon: dict[str, Any]) -> str:
    """'melee' or 'ranged': which modifier table applies."""
    return WEAPON_KINDS[weapon["kind"]]


def attack_modifiers(attacker: SiliciumCombatant, weapon: dict[str, Any], action: Action) -> dict[str, Any]:
    kind = mode(weapon)
    modifiers = {"visibility": VISIBILITY[action["visibility"]][attacker["sheet"]["vision"]]}
    for key in action["situation"]:
        if SITUATION[key]["mode"] != kind:
            raise InvalidAction(_only_for(key, SITUATION[key]["mode"]), field="situation")
        modifiers[key] = SITUATION[key]["modifier"]
    modifiers.update(_melee(attacker, weapon, action) if kind == "melee" else _ranged(weapon, action))
    modifiers["gm"] = action["modifier"]
    return {key: value for key, value in modifiers.items() if value}


# The words refusals name the attack's choices with, said again in the reader's language (errors.refusal).
CHOICE_WORDS = {
    "target_immobile": refusal("Immobile target"),
    "target_prone": refusal("Target on the ground"),
    "target_fast": refusal("Fast target"),
    "longer_weapon": refusal("Longer weapon"),
    "dominant_position": refusal("Dominant position"),
    "unarmed_vs_blade": refusal("Bare hands against a blade"),
    "after_projection": refusal("Immobilisation after a successful Projection"),
    "shooter_in_melee": refusal("Shooter in close combat"),
    "blind_fire": refusal("Blind fire"),
    "driving_not_interfaced": refusal("Non-interfaced shooter who is driving"),
    "burst": refusal("Burst fire"),
    "extra_shots": refusal("Extra shots"),
    "aim": refusal("Aiming"),
    "cover": refusal("Target under cover"),
    "secondary_targets": refusal("Secondary targets"),
    "in_vehicle": refusal("Shooting from a vehicle"),
    "maneuver": refusal("Special maneuvers"),
    "restricted_space": refusal("Restricted space"),
}
MODE_WORDS = {"melee": refusal("melee"), "ranged": refusal("ranged")}
# The source's names of the maneuvers.
MANEUVER_WORDS = {
    "immobilisation": refusal("Immobilisation"),
    "projection": refusal("Projection"),
    "disarm": refusal("Désarmement"),
}


def _only_for(choice: str, kind: str) -> str:
    """A choice of the attack (a circumstance or a field) that the other kind of attack does not take."""
    return refusal("{choice}: for {mode} attacks only", choice=CHOICE_WORDS[choice], mode=MODE_WORDS[kind])


def _melee(attacker: SiliciumCombatant, weapon: dict[str, Any], action: Action) -> dict[str, Any]:
    for field in ("burst", "extra_shots", "aim", "cover", "secondary_targets", "in_vehicle"):
        if action[field]:
            raise InvalidAction(_only_for(field, "ranged"), field=field)
    maneuver = action["maneuver"]
    if "after_projection" in action["situation"] and maneuver != "immobilisation":
        raise InvalidAction(
            refusal("the bonus after a successful Projection helps an Immobilisation only"), field="situation"
        )
    if maneuver is not None:
        raise_refusal(maneuver_refusal(attacker, weapon, maneuver))
    return {
        "restricted_space": action["restricted_space"],
        "maneuver": MANEUVERS[maneuver]["modifier"] if maneuver else 0,
    }


def maneuver_refusal(attacker: SiliciumCombatant, weapon: dict[str, Any], maneuver: str) -> ActionNotAllowed | None:
    """Why ``attacker`` may not try ``maneuver`` with ``weapon``, or None (source: special maneuvers need level 1
    in the weapon's skill): the attack refuses with it, legal.py lists the maneuvers with it."""
    level = attacker["sheet"]["skill_levels"].get(weapon["skill"], 0)
    if level < MANEUVER_SKILL_LEVEL:
        return ActionNotAllowed(
            refusal(
                "{maneuver} needs level {needed} in {skill} ({actor} has {level})",
                maneuver=MANEUVER_WORDS[maneuver],
                needed=MANEUVER_SKILL_LEVEL,
                skill=weapon["skill"],
                actor=attacker["name"],
                level=level,
            ),
            field="maneuver",
        )
    return None


def _ranged(weapon: dict[str, Any], action: Action) -> dict[str, Any]:
    if action["maneuver"] is not None:
        raise InvalidAction(_only_for("maneuver", "melee"), field="maneuver")
    if action["restricted_space"]:
        raise InvalidAction(_only_for("restricted_space", "melee"), field="restricted_space")
    if action["burst"] and not weapon["burst"]:
        raise InvalidAction(refusal("{weapon} cannot fire bursts", weapon=weapon_named(weapon)), field="burst")
    if action["relative_speed"] != "within_50" and not action["in_vehicle"]:
        raise InvalidAction(
            refusal("the relative speed counts for a shooter in a vehicle only"), field="relative_speed"
        )
    modifiers = {
        "target_pace": TARGET_PACE[action["target_pace"]]["modifier"],
        "range": RANGE_BANDS[action["range"]]["modifier"],
        "shooter_pace": SHOOTER_PACE[action["shooter_pace"]]["vehicle" if action["in_vehicle"] else "on_foot"],
        "relative_speed": RELATIVE_SPEED[action["relative_speed"]]["modifier"],
        "cover": -action["cover"],
        "secondary_targets": SECONDARY_TARGET * action["secondary_targets"],
        "aim": AIM_CHOICES["accuracy"]["modifier"] * action["aim"].count("accuracy"),
        "burst": BURST["to_hit"] if action["burst"] else 0,
        "recoil": RECOIL_PER_EXTRA_SHOT * action["extra_shots"],
    }
    modifiers.update({aid: entry["modifier"] for aid, entry in WEAPON_AIDS.items() if weapon[aid]})
    return modifiers
