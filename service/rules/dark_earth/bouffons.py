"""The optional « Bouffons » rule (dk-gone:regles_optionnelles): mooks settled in a few rolls.

The source defines a bouffon by three numbers: its DIFFiculté (1D child or
old man ... 4D professional fighter), "à la fois son adresse, son habileté au
combat, et sa résistance"; its bonus aux dommages (+Dom: its FOR and weapon);
its Défense (0 to 3 points "retranchés des dégâts"). The page's resolution of
a fight against bouffons was not recovered, so the rest is [HOUSE]
(docs/rules/dark-earth.md, contested rulings):

- a bouffon allocates only a target (or none): its DIFF dice are its ATT and
  its DEF pools, and its INIT count (option ``bouffon_initiative``);
- its blow is a blow of a weapon of DOM +Dom with no FOR: the hero's PROT and
  RES roll apply as usual;
- a blow on it scores DEG + DOM + FOR - Défense (no PROT, no RES roll: its
  resistance is in its DIFF); any positive score takes it out of the fight.
"""

from __future__ import annotations

from typing import Any

from ..conditions import add
from ..errors import InvalidAction, refusal
from ..state import Action
from .state import Allocation, DarkEarthCombatant, Res

ELIMINATED = "eliminated"
BOUFFON_WEAPON = "bouffon"
REFUSED_FIELDS = ("weapon", "split", "shot")  # a bouffon only names its target
REFUSED_FLAGS = ("evade", "reload")  # ... and neither evades nor reloads


def is_bouffon(combatant: DarkEarthCombatant) -> bool:
    return combatant["sheet"].get("bouffon") is not None


def check_enabled(options: dict[str, Any], combatant: DarkEarthCombatant, field: str) -> None:
    if is_bouffon(combatant) and not options["bouffons"]:
        raise InvalidAction(
            refusal("bouffons are an optional rule: turn on the combat option bouffons first"), field=field
        )


def weapon(combatant: DarkEarthCombatant) -> dict[str, Any]:
    """Its blows: DOM = +Dom; the FOR is in it (the sheet's FOR is 0)."""
    return {
        "id": BOUFFON_WEAPON,
        "name": combatant["name"],
        "kind": "melee",
        "skill": None,
        "damage": combatant["sheet"]["bouffon"]["damage"],
        "mechanical": False,
    }


def allocation(res: Res, actor: DarkEarthCombatant, action: Action, target: DarkEarthCombatant | None) -> Allocation:
    """No split to choose: the DIFF is its INIT (or 0), its ATT and its DEF."""
    for field in REFUSED_FIELDS:
        if action[field] is not None:
            raise InvalidAction(
                refusal(
                    "{actor} is a bouffon: it names only its target (no {field})", actor=actor["name"], field=field
                ),
                field=field,
            )
    for field in REFUSED_FLAGS:
        if action[field]:
            raise InvalidAction(
                refusal("{actor} is a bouffon: it neither evades nor reloads", actor=actor["name"]), field=field
            )
    diff = actor["sheet"]["bouffon"]["diff"]
    init = diff if res.options["bouffon_initiative"] == "diff" else 0
    return {
        "combatant": actor["id"],
        "weapon": BOUFFON_WEAPON,
        "mode": "melee" if target else "none",
        "target": target["id"] if target else None,
        "pot": diff,
        "split": {"init": init, "att": diff, "def": diff},
        "evade": False,
        "reload": False,
        "shot": None,
        "dice_modifier": action["dice_modifier"],
        "maneuver": action["maneuver"],
    }


def strike(
    res: Res,
    attacker: DarkEarthCombatant,
    target: DarkEarthCombatant,
    blow_weapon: dict[str, Any],
    deg: int,
    strength: int,
) -> None:
    """A blow on a bouffon: DEG + DOM + FOR - Défense; positive, it is out of the fight."""
    defense = target["sheet"]["bouffon"]["defense"]
    score = deg + blow_weapon["damage"] + strength - defense
    res.emit(
        "bouffon_blow_scored",
        attacker=attacker["id"],
        target=target["id"],
        deg=deg,
        weapon_damage=blow_weapon["damage"],
        strength=strength,
        defense=defense,
        score=score,
    )
    if score <= 0:
        res.emit("blow_absorbed", target=target["id"], score=score)
        return
    add(res, target, ELIMINATED)
    res.emit("bouffon_eliminated", target=target["id"])
