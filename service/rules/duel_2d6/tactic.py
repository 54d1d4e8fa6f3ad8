"""The default tactic of duel-2d6 simulations (contract: rules/tactics.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..state import Awaiting
from ..tactics import DefaultTactic, Tactic, choose_target, first_weapon
from .conditions import is_out
from .state import DuelCombat, DuelCombatant

_DEFENSE = {"balanced": "esquiver", "defensive": "bloquer", "aggressive": "esquiver"}


def _standing(combatant: DuelCombatant) -> bool:
    return not is_out(combatant)


def candidates(state: DuelCombat, actor: DuelCombatant, waiting: Awaiting, tactic: Tactic) -> Iterator[dict[str, Any]]:
    actions, me = waiting["actions"], actor["id"]
    defense = _DEFENSE[tactic.style]
    if "defend" in actions:
        yield {"type": "defend", "actor": me, "defense": defense}
        yield {"type": "defend", "actor": me, "defense": "esquiver"}
        yield {"type": "defend", "actor": me, "defense": "aucune"}
    target = choose_target(state, actor, _standing, "pv", tactic)
    if "attack" in actions and target:
        body = {"type": "attack", "actor": me, "target": target["id"], "weapon": first_weapon(actor, "poing")}
        yield {**body, "defense": {"defense": defense}}  # the defender's choice, inline
        yield body
        if target["id"] not in actor.get("facing", ()) and "join" in actions:
            yield {"type": "join", "actor": me, "target": target["id"]}
    for other in ("pass", "break_free", "reload"):
        if other in actions:
            yield {"type": other, "actor": me}


TACTIC = DefaultTactic(
    "pv",
    candidates,
    "Attack the target with the first weapon (else the fist, coup simple), the defender declaring inline a dodge "
    "(esquiver; defensive: a block, bloquer, where the sheet allows it); join the target's duel first if needed.",
)
