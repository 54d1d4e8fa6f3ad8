"""What a simulated fighter does: one documented tactic per ruleset.

A tactic never decides an outcome: it only picks the next action *body* for
the combatant the engine waits for, exactly as a client would post it. Each
ruleset's tactic lists candidate bodies in order of preference; the fight
tries them through the engine and keeps the first one the rules accept (a
refusal changes nothing), so a tactic needs no copy of the rules' legality.

Options, shared by every ruleset (docs/simulations.md):
- ``target``: ``first`` (the first standing enemy, in sheet order) or
  ``weakest`` (the standing enemy with the fewest health points left);
- ``style``: ``balanced``, ``aggressive`` or ``defensive``; what it changes
  is ruleset-specific and listed with each tactic below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..rules.age_du_silicium.status import is_standing as adds_standing
from ..rules.dark_earth.allocation import BARE_HANDS, bare_hands_potential, potential, weapon_of
from ..rules.dark_earth.health import is_standing as dark_earth_standing
from ..rules.duel_2d6.conditions import is_out as duel_is_out
from ..rules.sistema_2d6.conditions import is_standing as sistema_standing
from ..rules.space_opera_d100.conditions import can_act as space_opera_can_act

TARGETS = ("first", "weakest")
STYLES = ("balanced", "aggressive", "defensive")


@dataclass(frozen=True)
class Tactic:
    target: str = "first"
    style: str = "balanced"


Candidates = Callable[[dict, dict, dict, Tactic], Iterator[dict]]


@dataclass(frozen=True)
class RulesetTactics:
    standing: Callable[[dict], bool]
    health: str  # the combatant's key for the health points left
    candidates: Candidates
    description: str


def _first_weapon(combatant: dict, default: str | None = None) -> str | None:
    weapons = combatant["sheet"].get("weapons") or []
    return weapons[0]["id"] if weapons else default


def choose_target(state: dict, actor: dict, tactics: RulesetTactics, tactic: Tactic) -> dict | None:
    enemies = [c for c in state["combatants"] if c["side"] != actor["side"] and tactics.standing(c)]
    if not enemies:
        return None
    if tactic.target == "weakest":
        return min(enemies, key=lambda c: c[tactics.health])
    return enemies[0]


# -- sistema-2d6 -----------------------------------------------------------------------
def _sistema(state: dict, actor: dict, waiting: dict, tactic: Tactic) -> Iterator[dict]:
    actions, me = waiting["actions"], actor["id"]
    if "death_test" in actions:
        yield {"type": "death_test", "actor": me}
    if "defend" in actions:
        yield {"type": "defend", "actor": me}
    target = choose_target(state, actor, SISTEMA, tactic)
    if "attack" in actions and target:
        yield {"type": "attack", "actor": me, "target": target["id"], "weapon": _first_weapon(actor, "soco"), "defense": {}}
    if "pass" in actions:
        yield {"type": "pass", "actor": me}


# -- duel-2d6 --------------------------------------------------------------------------
_DUEL_DEFENSE = {"balanced": "esquiver", "defensive": "bloquer", "aggressive": "esquiver"}


def _duel(state: dict, actor: dict, waiting: dict, tactic: Tactic) -> Iterator[dict]:
    actions, me = waiting["actions"], actor["id"]
    defense = _DUEL_DEFENSE[tactic.style]
    if "defend" in actions:
        yield {"type": "defend", "actor": me, "defense": defense}
        yield {"type": "defend", "actor": me, "defense": "esquiver"}
        yield {"type": "defend", "actor": me, "defense": "aucune"}
    target = choose_target(state, actor, DUEL, tactic)
    if "attack" in actions and target:
        body = {"type": "attack", "actor": me, "target": target["id"], "weapon": _first_weapon(actor, "poing")}
        yield {**body, "defense": {"defense": defense}}  # the defender's choice, inline
        yield body
        if target["id"] not in actor.get("facing", ()) and "join" in actions:
            yield {"type": "join", "actor": me, "target": target["id"]}
    for other in ("pass", "break_free", "reload"):
        if other in actions:
            yield {"type": other, "actor": me}


# -- dark-earth ------------------------------------------------------------------------
def _split(pot: int, style: str) -> dict:
    if style == "aggressive":
        init = min(1, pot)
        defence = min(1, pot - init)
    elif style == "defensive":
        init = pot // 4
        defence = (pot - init + 1) // 2
    else:
        init = pot // 3
        defence = (pot - init) // 2
    return {"init": init, "att": pot - init - defence, "def": defence}


def _dark_earth(state: dict, actor: dict, waiting: dict, tactic: Tactic) -> Iterator[dict]:
    me = actor["id"]
    if "allocate" not in waiting["actions"]:
        return
    target = choose_target(state, actor, DARK_EARTH, tactic)
    weapon = _first_weapon(actor)
    body = {"type": "allocate", "actor": me, "weapon": weapon, "target": target["id"] if target else None}
    pot = potential(actor, weapon_of(actor, weapon)) if weapon else actor["sheet"]["attributes"]["MEL"]
    yield {**body, "split": _split(pot, tactic.style)}
    yield body  # a shooter facing nobody in contact splits nothing
    bare_hands = {**body, "weapon": BARE_HANDS}  # a shooter caught in contact fights bare-handed
    yield {**bare_hands, "split": _split(bare_hands_potential(actor), tactic.style)}


# -- space-opera-d100 --------------------------------------------------------------------
def _space_opera_reaction(actor: dict, style: str) -> dict:
    if style == "aggressive":
        return {"kind": "none"}
    if style == "defensive":
        shields = [w["id"] for w in actor["sheet"]["weapons"] if w.get("class") == "shield"]
        if shields:
            return {"kind": "parry", "item": shields[0]}
    return {"kind": "dodge"}


def _space_opera(state: dict, actor: dict, waiting: dict, tactic: Tactic) -> Iterator[dict]:
    actions, me = waiting["actions"], actor["id"]
    if "react" in actions:
        yield {"type": "react", "actor": me, **_space_opera_reaction(actor, tactic.style)}
        yield {"type": "react", "actor": me, "kind": "dodge"}
        yield {"type": "react", "actor": me, "kind": "none"}
    if "recover" in actions:
        for weapon, item in actor.get("items", {}).items():
            if item.get("dropped") and not item.get("destroyed"):
                yield {"type": "recover", "actor": me, "weapon": weapon}
    target = choose_target(state, actor, SPACE_OPERA, tactic)
    if "attack" in actions and target:
        reaction = _space_opera_reaction(target, tactic.style)
        weapons = [w["id"] for w in actor["sheet"]["weapons"] if w.get("class") != "shield"]
        for weapon in weapons + ["unarmed"]:
            yield {"type": "attack", "actor": me, "target": target["id"], "weapon": weapon, "reaction": reaction}
    if "pass" in actions:
        yield {"type": "pass", "actor": me}


# -- age-du-silicium ---------------------------------------------------------------------
def _age_du_silicium(state: dict, actor: dict, waiting: dict, tactic: Tactic) -> Iterator[dict]:
    actions, me = waiting["actions"], actor["id"]
    target = choose_target(state, actor, AGE_DU_SILICIUM, tactic)
    if "choose_frenzy" in actions:
        yield {"type": "choose_frenzy", "actor": me, "behaviour": "berserker"}
    if "declare" in actions:
        kind = "defend" if tactic.style == "defensive" and not target else "attack"
        yield {"type": "declare", "actor": me, "actions": [{"kind": kind, "target": target["id"]}] if target else []}
        yield {"type": "declare", "actor": me, "actions": []}
    if "attack" in actions and target:
        yield {"type": "attack", "actor": me, "target": target["id"], "range": "short"}
    if "react" in actions:
        yield {"type": "react", "actor": me}
    for other in ("forgo", "hold"):
        if other in actions:
            yield {"type": other, "actor": me}


SISTEMA = RulesetTactics(
    sistema_standing,
    "pv",
    _sistema,
    "Attack the target with the first weapon (else the fist), the defender rolling its sheet's defense skill "
    "inline; a dying fighter takes its death test; style has no effect.",
)
DUEL = RulesetTactics(
    lambda c: not duel_is_out(c),
    "pv",
    _duel,
    "Attack the target with the first weapon (else the fist, coup simple), the defender declaring inline a dodge "
    "(esquiver; defensive: a block, bloquer, where the sheet allows it); join the target's duel first if needed.",
)
DARK_EARTH = RulesetTactics(
    dark_earth_standing,
    "pv",
    _dark_earth,
    "Allocate against the target with the first weapon; the POT split is INIT 1/3, DEF half the rest, "
    "ATT the remainder (aggressive: INIT 1, DEF 1; defensive: INIT 1/4, DEF half the rest, rounded up).",
)
SPACE_OPERA = RulesetTactics(
    space_opera_can_act,
    "pv",
    _space_opera,
    "Pick up a dropped weapon first; attack the target with the first usable weapon that is not a shield "
    "(else unarmed), one attack per round, the target's reaction inline: a dodge (aggressive: none; defensive: "
    "a parry with a shield when the sheet has one).",
)
AGE_DU_SILICIUM = RulesetTactics(
    adds_standing,
    "blessures",
    _age_du_silicium,
    "Declare one attack on the target each round and resolve it at short range; a frenzied fighter "
    "chooses berserker; style has no effect.",
)

RULESET_TACTICS: dict[str, RulesetTactics] = {
    "sistema-2d6": SISTEMA,
    "duel-2d6": DUEL,
    "dark-earth": DARK_EARTH,
    "space-opera-d100": SPACE_OPERA,
    "age-du-silicium": AGE_DU_SILICIUM,
}
