"""Before the first declaration: surprise, then the first-round Calme test.

Seed, "Surprise": d100 under Vigilance minus the context's difficulty; the
6ème Sens level lowers the difficulty (at most to 0), being on guard lowers
it further. Seed, "Stress": in the first round everyone tests Calme with the
modifier table, with at least a 10 % chance; a failure means frenzy.
Dice order: one d100 per tested combatant for surprise (sheet order), then
one d100 per combatant for Calme (sheet order).
"""

from __future__ import annotations

from typing import Any

from ..conditions import add, has
from .checks import Test, roll_floored_test, roll_test
from .state import Res, SiliciumCombat, SiliciumCombatant
from .status import FRENZY, SURPRISED, allies, enemies, is_standing
from .tables import EXPERIENCE, OUTNUMBER_RATIO, STRESS_FLOOR, STRESS_SITUATION


def surprise_difficulty(combatant: SiliciumCombatant, options: dict[str, Any]) -> dict[str, Any] | None:
    """The difficulty and what lowers it; None when the combatant is not tested."""
    sheet = combatant["sheet"]
    base = sheet["surprise_difficulty"] if sheet["surprise_difficulty"] is not None else options["surprise_difficulty"]
    if sheet["ambusher"] or base is None:
        return None
    sixth_sense = sheet["sixth_sense"] * options["sixth_sense_step"]
    # "elle peut tout au plus être annulée": neither reduction goes below 0.
    effective = max(0, max(0, base - sixth_sense) - sheet["on_guard"])
    return {"difficulty": base, "sixth_sense": sixth_sense, "on_guard": sheet["on_guard"], "effective": effective}


def surprise_tests(res: Res) -> None:
    for combatant in res.state["combatants"]:
        difficulty = surprise_difficulty(combatant, res.options)
        if difficulty is None:
            continue
        chance = combatant["sheet"]["vigilance"] - difficulty["effective"]
        test = roll_test(res, chance, f"surprise {combatant['id']}", combatant)
        res.emit("surprise_test", combatant=combatant["id"], **difficulty, **test.as_params())
        if not test.success:
            # The first action is lost, the next one must be defensive.
            # Until its lost and defensive actions are spent (rounds.spend_surprise).
            add(res, combatant, SURPRISED, until="actions_spent", lose=1, defend=1)
            res.emit("surprised", combatant=combatant["id"])


def numbers_modifier(state: SiliciumCombat, combatant: SiliciumCombatant) -> dict[str, Any]:
    """Plus / moins nombreux, counting who is still standing."""
    friends = sum(1 for c in allies(state, combatant) if is_standing(c))
    foes = sum(1 for c in enemies(state, combatant) if is_standing(c))
    if foes and friends >= OUTNUMBER_RATIO * foes:
        return {"outnumbering": STRESS_SITUATION["outnumbering"]["modifier"]}
    if friends and foes >= OUTNUMBER_RATIO * friends:
        return {"outnumbered": STRESS_SITUATION["outnumbered"]["modifier"]}
    return {}


def stress_modifiers(state: SiliciumCombat, combatant: SiliciumCombatant) -> dict[str, Any]:
    sheet = combatant["sheet"]
    modifiers = {sheet["experience"]: EXPERIENCE[sheet["experience"]]["modifier"]}
    if has(combatant, SURPRISED):
        modifiers["surprised"] = STRESS_SITUATION["surprised"]["modifier"]
    if sheet["ambusher"] and any(has(c, SURPRISED) for c in enemies(state, combatant)):
        modifiers["successful_ambush"] = STRESS_SITUATION["successful_ambush"]["modifier"]
    modifiers.update(numbers_modifier(state, combatant))
    if sheet["calme_modifier"]:
        modifiers["gm"] = sheet["calme_modifier"]
    return modifiers


def calme_test(
    res: Res, combatant: SiliciumCombatant, modifiers: dict[str, int], purpose: str
) -> tuple[Test, dict[str, int]]:
    """A Calme test, first or retest: Calme + ``modifiers`` + the GM's ``modify``, at least 10 % (seed)."""
    return roll_floored_test(res, combatant["sheet"]["calme"], modifiers, STRESS_FLOOR, purpose, combatant)


def stress_tests(res: Res) -> None:
    for combatant in res.state["combatants"]:
        stress_test(res, combatant)


def stress_test(res: Res, combatant: SiliciumCombatant) -> None:
    """Seed: "chaque personnage doit, lors du premier tour d'un combat, réussir un test de Calme"."""
    test, modifiers = calme_test(res, combatant, stress_modifiers(res.state, combatant), f"Calme {combatant['id']}")
    res.emit(
        "stress_test",
        combatant=combatant["id"],
        calme=combatant["sheet"]["calme"],
        modifiers=modifiers,
        **test.as_params(),
    )
    if not test.success:
        add(res, combatant, FRENZY, behaviour=None)
        res.emit("frenzy", combatant=combatant["id"])
