"""Conditions on a combatant: one mechanism for every ruleset.

A condition is a dict in ``combatant["conditions"]``::

    {"code": "stunned", "source": "bob", "start": {"round": 2},
     "ends": {"round": 3}, "modifiers": {}, ...details}

- ``source``: who or what caused it (a combatant id, ``"gm"``, ``"rules"``);
- ``start``: the round it began in (and ``moment``, a ruleset's phase, when it matters);
- ``ends``: ``{"round": R}`` (it expires when round R begins), ``{"event": E}``
  (it ends when the rules say E happened, e.g. ``next_roll``), or ``None``
  (until removed by the rules or the game master);
- ``modifiers``: what it adds to its bearer's rolls (``{"roll": -2}``), read by
  :func:`take_roll_adjustments`; a ruleset's own states keep their effects in
  the ruleset's rules and leave this empty.

Every ruleset starts its rounds with :func:`next_round`, so expiry happens at
the same moment everywhere and is always logged (``condition_expired``).
One representation for every ruleset, so clients show states the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .state import Combatant, Condition

if TYPE_CHECKING:  # ruleset.py is not imported at run time: only its types are needed
    from .ruleset import AnyResolution

NEXT_ROLL = "next_roll"
RULES = "rules"
MODIFIER, OVERRIDE = "modifier", "override"
LEFT = "left"  # the combatant left the fight (flight, surrender, removed by the GM)
# The GM's narrative conditions (gm/actions.py): their words in "label", no rule reads them.
NARRATIVE = "narrative"


def has(combatant: Combatant, code: str) -> bool:
    # A plain loop: this is the rules' most frequent call (tens per action),
    # and twice as fast as any() over a generator on the usual short lists.
    for condition in combatant["conditions"]:
        if condition["code"] == code:
            return True
    return False


def has_any(combatant: Combatant, codes: frozenset[str]) -> bool:
    """``has`` for any of ``codes``, in one pass over the conditions."""
    for condition in combatant["conditions"]:
        if condition["code"] in codes:
            return True
    return False


def find(combatant: Combatant, code: str) -> Condition | None:
    for condition in combatant["conditions"]:  # a plain loop, as in has()
        if condition["code"] == code:
            return condition
    return None


def add(
    res: AnyResolution,
    combatant: Combatant,
    code: str,
    *,
    source: str = RULES,
    rounds: int | None = None,
    until: str | None = None,
    moment: str | None = None,
    modifiers: dict[str, int] | None = None,
    stacks: bool = False,
    **details: Any,
) -> bool:
    """Start a condition unless present (``stacks``: add it anyway); True when added.

    ``rounds``: it lasts this many rounds, the current one included, and
    expires when round ``start + rounds`` begins; ``until``: it ends at that
    event; neither: until removed.
    """
    if not stacks and has(combatant, code):
        return False
    start: dict[str, Any] = {"round": res.state["round"]}
    if moment is not None:
        start["moment"] = moment
    ends: dict[str, Any] | None
    if rounds is not None:
        ends = {"round": res.state["round"] + rounds}
    elif until is not None:
        ends = {"event": until}
    else:
        ends = None
    combatant["conditions"].append(
        {"code": code, "source": source, "start": start, "ends": ends, "modifiers": dict(modifiers or {}), **details}
    )
    return True


def remove(combatant: Combatant, code: str) -> bool:
    before = len(combatant["conditions"])
    combatant["conditions"] = [c for c in combatant["conditions"] if c["code"] != code]
    return len(combatant["conditions"]) != before


def _expire(res: AnyResolution, combatant: Combatant, due: Callable[[Condition], Any]) -> list[Condition]:
    gone = [c for c in combatant["conditions"] if due(c)]
    if gone:
        combatant["conditions"] = [c for c in combatant["conditions"] if not due(c)]
        for condition in gone:
            # A narrative condition is said in the GM's own words.
            res.emit(
                "condition_expired", combatant=combatant["id"], condition=condition.get("label") or condition["code"]
            )
    return gone


def next_round(res: AnyResolution) -> None:
    """The next round begins: count it, say it, and expire what ends now."""
    state = res.state
    state["round"] += 1
    res.emit("round_started", round=state["round"])
    for combatant in state["combatants"]:
        _expire(
            res, combatant, lambda c: c.get("ends") and c["ends"].get("round", state["round"] + 1) <= state["round"]
        )


def end_on_event(res: AnyResolution, combatant: Combatant, event_code: str) -> list[Condition]:
    """The rules say ``event_code`` happened to ``combatant``: end what lasted until then."""
    return _expire(res, combatant, lambda c: (c.get("ends") or {}).get("event") == event_code)


def _active(combatant: Combatant, code: str) -> Iterator[Condition]:
    return (c for c in combatant["conditions"] if c["code"] == code)


def roll_bonus(combatant: Combatant) -> int:
    """The sum of the ``roll`` modifiers on ``combatant`` (GM modifiers and the like)."""
    return sum(c.get("modifiers", {}).get("roll", 0) for c in combatant["conditions"])


def take_roll_adjustments(res: AnyResolution, combatant: Combatant) -> tuple[int, str | None]:
    """Before ``combatant`` rolls: the roll bonus and any forced result ("success"/"failure").

    What lasts only for the next roll is used up here (and logged as expired).
    """
    if not combatant["conditions"]:  # the usual case: nothing to add, force or use up
        return 0, None
    bonus = roll_bonus(combatant)
    overrides = [c["result"] for c in _active(combatant, OVERRIDE)]
    forced = overrides[-1] if overrides else None  # the GM's latest word wins
    end_on_event(res, combatant, NEXT_ROLL)
    return bonus, forced
