"""The default tactic of age-du-silicium simulations (contract: rules/tactics.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..state import Awaiting
from ..tactics import DefaultTactic, Tactic, choose_target
from .state import SiliciumCombat, SiliciumCombatant
from .status import is_standing


def candidates(
    state: SiliciumCombat, actor: SiliciumCombatant, waiting: Awaiting, tactic: Tactic
) -> Iterator[dict[str, Any]]:
    actions, me = waiting["actions"], actor["id"]
    target = choose_target(state, actor, is_standing, "blessures", tactic)
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


TACTIC = DefaultTactic(
    "blessures",
    candidates,
    "Declare one attack on the target each round and resolve it at short range; a frenzied fighter "
    "chooses berserker; style has no effect.",
)
