"""The default tactic of dark-earth simulations (contract: rules/tactics.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..state import Awaiting
from ..tactics import DefaultTactic, Tactic, choose_target, first_weapon
from .allocation import BARE_HANDS, bare_hands_potential, potential, weapon_of
from .health import is_standing
from .state import DarkEarthCombat, DarkEarthCombatant


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
    yield {**body, "split": _split(pot, tactic.style)}
    yield body  # a shooter facing nobody in contact splits nothing
    bare_hands = {**body, "weapon": BARE_HANDS}  # a shooter caught in contact fights bare-handed
    yield {**bare_hands, "split": _split(bare_hands_potential(actor), tactic.style)}


TACTIC = DefaultTactic(
    "pv",
    candidates,
    "Allocate against the target with the first weapon; the POT split is INIT 1/3, DEF half the rest, "
    "ATT the remainder (aggressive: INIT 1, DEF 1; defensive: INIT 1/4, DEF half the rest, rounded up).",
)
