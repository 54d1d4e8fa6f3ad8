"""The default tactic of dark-earth simulations (contract: rules/tactics.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..state import Awaiting
from ..tactics import DefaultTactic, Tactic, choose_target, first_weapon
from .health import is_standing, pain_dice
from .state import DarkEarthCombat, DarkEarthCombatant
from .weapons import BARE_HANDS, bare_hands_potential, potential, weapon_of


def _split(pot: int, style: str) -> dict[str, Any]:
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


def _past_the_pain(split: dict[str, Any], pain: int) -> dict[str, Any]:
    """Dice from DEF, then INIT, into ATT until ATT rolls one die past the pain, when the POT allows it.

    The pain takes its dice off every ATT roll, tour after tour (rules G9): a
    split whose ATT does not exceed it never rolls a die, and two such fighters
    never end their fight (docs/rules/dark-earth.md, G16).
    """
    short = pain + 1 - split["att"]
    if not pain or short <= 0 or split["init"] + split["def"] < short:
        return split
    from_def = min(short, split["def"])
    from_init = short - from_def
    return {"init": split["init"] - from_init, "att": split["att"] + short, "def": split["def"] - from_def}


def candidates(
    state: DarkEarthCombat, actor: DarkEarthCombatant, waiting: Awaiting, tactic: Tactic
) -> Iterator[dict[str, Any]]:
    me = actor["id"]
    if "allocate" not in waiting["actions"]:
        return
    target = choose_target(state, actor, is_standing, "pv", tactic)
    weapon = first_weapon(actor)
    body = {"type": "allocate", "actor": me, "weapon": weapon, "target": target["id"] if target else None}
    pot = potential(actor, weapon_of(actor, weapon)) if weapon else actor["sheet"]["attributes"]["MEL"]
    # Without a target nothing is rolled but DEF: the pain changes nothing worth moving.
    pain = pain_dice(actor, state["options"]) if target else 0
    yield {**body, "split": _past_the_pain(_split(pot, tactic.style), pain)}
    yield body  # a shooter facing nobody in contact splits nothing
    bare_hands = {**body, "weapon": BARE_HANDS}  # a shooter caught in contact fights bare-handed
    yield {**bare_hands, "split": _past_the_pain(_split(bare_hands_potential(actor), tactic.style), pain)}


TACTIC = DefaultTactic(
    "pv",
    candidates,
    "Allocate against the target with the first weapon; the POT split is INIT 1/3, DEF half the rest, "
    "ATT the remainder (aggressive: INIT 1, DEF 1; defensive: INIT 1/4, DEF half the rest, rounded up); "
    "a fighter whose pain (grave -2D, critique -5D) would leave his ATT no die moves dice from DEF, then INIT, "
    "into ATT until it rolls one, when his POT allows it.",
)
