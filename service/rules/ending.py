"""When a fight is decided, the same way in every ruleset.

A fight is decided when at most one side still has a fighter standing (what
"standing" means is each ruleset's :meth:`Ruleset.standing_sides`). No seed
ends a fight by itself (sistema-2d6: "O mestre determina o final da cena de
combate"), so by default the game master is then awaited with ``end_combat``
(gm/legal.py, :func:`awaited`): a fallen fighter may still be healed, a
newcomer may still join. With the ``auto_end`` option (off by default in
every ruleset; simulations turn it on) the engine ends the fight itself
after the action that decided it, with the one event ``combat_over``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # ruleset.py is not imported at run time: only its types are needed
    from .ruleset import AnyResolution, Ruleset

ONE_SIDE, NOBODY = "one_side_standing", "nobody_standing"
AUTO_END_EVENT = "combat_over"


def decided(sides: set[str]) -> str | None:
    """Why the fight is decided (at most one side standing), or None while it is not."""
    if len(sides) > 1:
        return None
    return ONE_SIDE if sides else NOBODY


def ends_now(res: AnyResolution, sides: set[str]) -> bool:
    """True when the engine will end this fight after the action (``auto_end`` on, fight decided).

    A ruleset asks this mid-action to begin no next round in a fight about to end.
    """
    return res.state["status"] == "active" and bool(res.options["auto_end"]) and decided(sides) is not None


def end_if_decided(ruleset: Ruleset[Any, Any], res: AnyResolution) -> bool:
    """With ``auto_end``: end a decided fight (event ``combat_over``); True when it ended."""
    sides = ruleset.standing_sides(res.state)
    if not ends_now(res, sides):
        return False
    res.state["status"] = "over"
    # A ruleset's pending exchange (an attack awaiting its defence...): not a key every combat has.
    state = cast("dict[str, Any]", res.state)
    if state.get("pending") is not None:
        state["pending"] = None
    res.emit(AUTO_END_EVENT, reason=decided(sides))
    ruleset.on_combat_end(res)
    return True
