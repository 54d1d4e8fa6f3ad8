"""The default tactic of sistema-2d6 simulations (contract: rules/tactics.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..state import Awaiting
from ..tactics import DefaultTactic, Tactic, choose_target, first_weapon
from .conditions import is_standing
from .state import SistemaCombat, SistemaCombatant


def candidates(
    state: SistemaCombat, actor: SistemaCombatant, waiting: Awaiting, tactic: Tactic
) -> Iterator[dict[str, Any]]:
    actions, me = waiting["actions"], actor["id"]
    if "death_test" in actions:
        yield {"type": "death_test", "actor": me}
    if "defend" in actions:
        yield {"type": "defend", "actor": me}
    target = choose_target(state, actor, is_standing, "pv", tactic)
    if "attack" in actions and target:
        yield {
            "type": "attack",
            "actor": me,
            "target": target["id"],
            "weapon": first_weapon(actor, "soco"),
            "defense": {},
        }
    if "pass" in actions:
        yield {"type": "pass", "actor": me}


TACTIC = DefaultTactic(
    "pv",
    candidates,
    "Attack the target with the first weapon (else the fist), the defender rolling its sheet's defense skill "
    "inline; a dying fighter takes its death test; style has no effect.",
)
