"""Dark Earth health: PV, wound counter, CHOC, pain, coma and death.

Sources: the seed ("Toute blessure doit être retirée du total de point de
vie", "le CHOC") and dk-gone:sante (rules-notes 2.5): 0 PV is a coma, PV <=
-RES death; a grave wound costs 2 dice, a critique one 5, and pain and CHOC
do not add up (the larger applies). Option ``pain_beyond_pot: "out"``: a
pain at least the fighter's best POT takes him out of the fight (G16).
"""

from __future__ import annotations

from typing import Any

from ..conditions import LEFT, add, has, remove
from ..health import health_adjusted
from .bouffons import ELIMINATED, is_bouffon
from .state import DarkEarthCombatant, Res
from .tables import PAIN_DICE, WOUND_LEVELS
from .weapons import bare_hands_potential, potential

COMA, DEAD = "coma", "dead"
INCAPACITATED = "incapacitated"  # option pain_beyond_pot "out"
WOUND_CONDITIONS = {"grave": "grave_wound", "critique": "critical_wound"}


_DOWN = frozenset({COMA, DEAD, LEFT, ELIMINATED, INCAPACITATED})


def is_standing(combatant: DarkEarthCombatant) -> bool:
    # has_any() inlined: called several times per combatant in every action (prompts, turn order, sides).
    for condition in combatant["conditions"]:
        if condition["code"] in _DOWN:
            return False
    return True


def pain_dice(combatant: DarkEarthCombatant, options: dict[str, Any]) -> int:
    level = combatant["wound_level"]
    return PAIN_DICE[level] if level and options["pain_malus"] else 0


def attack_malus(combatant: DarkEarthCombatant, options: dict[str, Any]) -> int:
    """Dice off the next ATT or TIR roll: CHOC or pain, whichever is larger."""
    return max(combatant["choc"], pain_dice(combatant, options))


def severity(amount: int, resistance: int, options: dict[str, Any]) -> str | None:
    """[HOUSE] rules-notes 2.5: one hit of RES or more is grave, 2 x RES critique."""
    if amount >= options["critical_wound_res_multiple"] * resistance:
        return "critique"
    if amount >= options["grave_wound_res_multiple"] * resistance:
        return "grave"
    return None


def lose_pv(res: Res, target: DarkEarthCombatant, amount: int, *, choc: bool) -> None:
    """Add ``amount`` to the wound counter and take it off the PV."""
    target["wounds"] += amount
    target["pv"] -= amount
    if choc:
        target["choc"] += amount
    res.emit(
        "wounded", target=target["id"], amount=amount, pv=target["pv"], wounds=target["wounds"], choc=target["choc"]
    )
    check_thresholds(res, target)


def take_wound(res: Res, target: DarkEarthCombatant, amount: int) -> None:
    """A blow's positive score: PV loss, CHOC, and the wound's severity."""
    lose_pv(res, target, amount, choc=True)
    level = severity(amount, target["sheet"]["attributes"]["RES"], res.options)
    if level and _worse(level, target["wound_level"]):
        if target["wound_level"]:
            remove(target, WOUND_CONDITIONS[target["wound_level"]])
        target["wound_level"] = level
        add(res, target, WOUND_CONDITIONS[level], pain_dice=PAIN_DICE[level])
        res.emit("wound_severity", target=target["id"], level=level, pain=pain_dice(target, res.options))
        check_pain(res, target)


def best_potential(combatant: DarkEarthCombatant) -> int:
    """The largest POT the fighter could split or roll: any of his weapons, or his bare hands."""
    return max([bare_hands_potential(combatant), *(potential(combatant, w) for w in combatant["sheet"]["weapons"])])


def check_pain(res: Res, target: DarkEarthCombatant) -> None:
    """Option pain_beyond_pot "out" (G16): a pain at least his best POT leaves no ATT die: out of the fight."""
    if res.options.get("pain_beyond_pot", "fights_on") != "out" or is_bouffon(target) or not is_standing(target):
        return
    pain = pain_dice(target, res.options)
    best = best_potential(target)
    if pain and pain >= best and add(res, target, INCAPACITATED):
        res.emit("incapacitated_by_pain", target=target["id"], pain=pain, pot=best)


def _worse(level: str, current: str | None) -> bool:
    return current is None or WOUND_LEVELS.index(level) > WOUND_LEVELS.index(current)


def check_thresholds(res: Res, target: DarkEarthCombatant) -> None:
    if has(target, DEAD):
        return
    resistance = target["sheet"]["attributes"]["RES"]
    if res.options["death_threshold"] == "minus_res" and target["pv"] <= -resistance:
        remove(target, COMA)
        add(res, target, DEAD)
        res.emit("died", target=target["id"], pv=target["pv"])
    elif target["pv"] <= 0 and add(res, target, COMA):
        res.emit("fell_into_coma", target=target["id"], pv=target["pv"])


def pv_adjusted(res: Res, target: DarkEarthCombatant, before: int) -> None:
    """The GM moved PV: down, coma or death as after a blow; up above 0, out of the coma."""
    health_adjusted(res, target, "pv", before, dead=DEAD, down=COMA, fall=check_thresholds)


def clear_choc(res: Res) -> None:
    """Seed: "A la fin du combat, tous les malus de CHOC encore actifs sont annulés"."""
    for combatant in res.state["combatants"]:
        if combatant["choc"]:
            res.emit("choc_cleared", combatant=combatant["id"], choc=combatant["choc"])
            combatant["choc"] = 0
