"""Who is looking at (or acting on) a combat: the game master, or the player of one combatant.

Rulesets use it to hide what their rules keep secret (dark-earth's split of
the combat potential) from everyone but the owner and the GM.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Viewer:
    combatant: str | None = None
    gm: bool = False

    def sees_secrets_of(self, combatant_id: str) -> bool:
        return self.gm or self.combatant == combatant_id

    def controls(self, combatant_id: str) -> bool:
        """May this caller decide for ``combatant_id`` (its answers, its dice)?"""
        return self.gm or self.combatant == combatant_id


GM_VIEWER = Viewer(gm=True)
