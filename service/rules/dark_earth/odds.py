"""How dark-earth outcomes read in the odds, and what they assume of the secret allocations.

A tour resolves when the last fighter allocates, so the odds of an
allocation need everyone's. The allocations a viewer may not see stay
secret: the odds replace them, and the ones still to come, by the default
allocation: the fighter's whole POT with its first weapon, split evenly
(INIT and ATT a third each, DEF the rest), against the proposing fighter.
"""

from __future__ import annotations

from typing import Any, cast

from ..odds.profile import OddsProfile
from ..state import Action, Combat, Event
from ..viewer import Viewer
from .state import DarkEarthCombat
from .weapons import potential, weapon_of


class DarkEarthOdds(OddsProfile):
    labels = {
        **OddsProfile.labels,
        "blow_absorbed": "absorbed",
        "fell_into_coma": "coma",
    }

    def label(self, event: Event) -> str | None:
        if event["code"] == "wound_severity":
            return f"wound {event['params']['level']}"
        return super().label(event)

    def answered_types(self) -> frozenset[str]:
        return frozenset({"allocate"})

    def answers(self, state: Combat[Any], proposed: Action) -> list[Action]:
        for waiting in state.get("awaiting", ()):
            if "allocate" in waiting["actions"]:
                return default_allocations(cast(DarkEarthCombat, state), waiting["actor"], proposed["actor"])
        return []

    def assumed_state(self, state: Combat[Any], viewer: Viewer) -> Combat[Any]:
        allocations = cast(DarkEarthCombat, state).get("allocations", {})
        known = {fighter: split for fighter, split in allocations.items() if viewer.sees_secrets_of(fighter)}
        return cast("Combat[Any]", {**state, "allocations": known})


def default_allocations(state: DarkEarthCombat, fighter_id: str, opponent_id: str) -> list[dict[str, Any]]:
    """An even split against the opponent; else no target; else (a shooter out of contact) no split."""
    fighter = next(c for c in state["combatants"] if c["id"] == fighter_id)
    pot = potential(fighter, weapon_of(fighter, None))
    third = pot // 3
    split = {"init": third, "att": third, "def": pot - 2 * third}
    target = opponent_id if opponent_id != fighter_id else None
    base = {"type": "allocate", "actor": fighter_id}
    return [{**base, "target": target, "split": split}, {**base, "split": split}, {**base, "target": target}]
