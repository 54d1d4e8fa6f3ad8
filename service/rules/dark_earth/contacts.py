"""Who is in contact (melee) with whom: a list of sorted id pairs in the state.

A melee blow (or a shot in contact) puts the two fighters in contact; a
fighter out of the fight leaves every contact; the GM moves fighters apart or
together between tours (the seed leaves movement to the table).
"""

from __future__ import annotations

from typing import Any

from .state import DarkEarthCombat, Res


def _pair(a: str, b: str) -> list[str]:
    return sorted((a, b))


def in_contact(state: DarkEarthCombat, combatant_id: str) -> list[str]:
    """The ids of the fighters in contact with ``combatant_id``."""
    return [a if b == combatant_id else b for a, b in state["contacts"] if combatant_id in (a, b)]


def engage(res: Res, a: str, b: str, **gm: Any) -> None:
    """``gm``: the GM's ``author`` and ``reason`` when the GM's contact action does it."""
    pair = _pair(a, b)
    if pair not in res.state["contacts"]:
        res.state["contacts"].append(pair)
        res.state["contacts"].sort()
        res.emit("contact_made", combatant=pair[0], target=pair[1], **gm)


def disengage(res: Res, a: str, b: str, **gm: Any) -> None:
    pair = _pair(a, b)
    if pair in res.state["contacts"]:
        res.state["contacts"].remove(pair)
        res.emit("contact_broken", combatant=pair[0], target=pair[1], **gm)


def leave_all(res: Res, combatant_id: str) -> None:
    for other in in_contact(res.state, combatant_id):
        disengage(res, combatant_id, other)
