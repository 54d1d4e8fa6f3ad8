"""The default tactic of space-opera-d100 simulations (contract: rules/tactics.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..state import Awaiting
from ..tactics import DefaultTactic, Tactic, choose_target
from .conditions import can_act
from .items import usable
from .state import SpaceOperaCombat, SpaceOperaCombatant


def _reaction(actor: SpaceOperaCombatant, style: str) -> dict[str, Any]:
    if style == "aggressive":
        return {"kind": "none"}
    if style == "defensive":
        shields = [w["id"] for w in actor["sheet"]["weapons"] if w.get("class") == "shield"]
        if shields:
            return {"kind": "parry", "item": shields[0]}
    return {"kind": "dodge"}


def candidates(
    state: SpaceOperaCombat, actor: SpaceOperaCombatant, waiting: Awaiting, tactic: Tactic
) -> Iterator[dict[str, Any]]:
    actions, me = waiting["actions"], actor["id"]
    if "react" in actions:
        yield {"type": "react", "actor": me, **_reaction(actor, tactic.style)}
        yield {"type": "react", "actor": me, "kind": "dodge"}
        yield {"type": "react", "actor": me, "kind": "none"}
    if "recover" in actions:
        for weapon, item in actor.get("items", {}).items():
            if item.get("dropped") and not item.get("destroyed"):
                yield {"type": "recover", "actor": me, "weapon": weapon}
    target = choose_target(state, actor, can_act, "pv", tactic)
    if "attack" in actions and target:
        reaction = _reaction(target, tactic.style)
        # Not a weapon the rules refuse (destroyed, dropped or jammed: items.check_usable): a refused body
        # would change nothing, only cost a try (a tenth of the attacks tried in the example fights).
        weapons = [w["id"] for w in actor["sheet"]["weapons"] if w.get("class") != "shield" and usable(actor, w)]
        for weapon in weapons + ["unarmed"]:
            yield {"type": "attack", "actor": me, "target": target["id"], "weapon": weapon, "reaction": reaction}
    if "pass" in actions:
        yield {"type": "pass", "actor": me}


TACTIC = DefaultTactic(
    "pv",
    candidates,
    "Pick up a dropped weapon first; attack the target with the first usable weapon that is not a shield "
    "(else unarmed), one attack per round, the target's reaction inline: a dodge (aggressive: none; defensive: "
    "a parry with a shield when the sheet has one).",
)
