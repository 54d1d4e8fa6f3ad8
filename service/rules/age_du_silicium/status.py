"""What a combatant's conditions allow (seed: surprise, frenzy; source: wounds)."""

from __future__ import annotations

from typing import Any

from ..conditions import LEFT, find, has
from ..errors import ActionNotAllowed, RulesError, refusal
from .state import SiliciumCombat, SiliciumCombatant
from .tables import DEFENSIVE_KINDS

SURPRISED, FRENZY, CORNERED, PRONE = "surprised", "frenzy", "cornered", "prone"
IMMOBILISED, DISARMED, OUT_OF_ACTION, DEAD = "immobilised", "disarmed", "out_of_action", "dead"


# The kinds of action as refusals name them, said again in the reader's language (errors.refusal).
KIND_WORDS = {
    "attack": refusal("attack"),
    "aim": refusal("aiming"),
    "hold": refusal("held action"),
    "defend": refusal("defense"),
    "flee": refusal("flight"),
    "reason": refusal("reasoning with an ally"),
    "break_free": refusal("breaking free"),
    "other": refusal("another action"),
}


def condition(combatant: SiliciumCombatant, code: str) -> dict[str, Any] | None:
    return find(combatant, code)


_DOWN = frozenset({OUT_OF_ACTION, DEAD, LEFT})


def is_standing(combatant: SiliciumCombatant) -> bool:
    # has_any() inlined: called several times per combatant in every action (prompts, turn order, sides).
    for condition in combatant["conditions"]:
        if condition["code"] in _DOWN:
            return False
    return True


def frenzy(combatant: SiliciumCombatant) -> str | None:
    """'berserker', 'flight', 'undecided' or None."""
    found = find(combatant, FRENZY)
    if found is None:
        return None
    return found.get("behaviour") or "undecided"


def kind_refusal(combatant: SiliciumCombatant, kind: str, forced_defence: bool = False) -> str | None:
    """Why the combatant's state forbids this kind of action now, or None when it allows it.

    The one statement of the rule: the declaration and the resolution refuse
    with it (declarations.check_kind, rank_refusal), the listing filters with it.
    """
    if has(combatant, IMMOBILISED):
        # Source: breaking free is all a victim can do, surprised or frenzied alike.
        if kind == "break_free":
            return None
        return refusal("{actor} is immobilised and can only try to break free", actor=combatant["name"])
    if kind == "break_free":
        return refusal("{actor} is not immobilised", actor=combatant["name"])
    if forced_defence:
        if kind not in DEFENSIVE_KINDS:
            return refusal(
                "{actor} was surprised: this action must be defensive (defend or flee)", actor=combatant["name"]
            )
        return None  # the surprise's compulsory defence comes before the frenzy (docs, gap G9)
    behaviour = frenzy(combatant)
    if behaviour == "berserker" and kind in DEFENSIVE_KINDS:
        return refusal("{actor} is a berserker and takes no defensive action", actor=combatant["name"])
    if behaviour == "flight" and kind in ("attack", "aim") and not has(combatant, CORNERED):
        # Seed: "il doit éviter tout combat, sauf s'il n'a pas le choix": aiming prepares a shot.
        if kind == "attack":
            return refusal("{actor} is fleeing and attacks only when cornered", actor=combatant["name"])
        return refusal("{actor} is fleeing and aims only when cornered", actor=combatant["name"])
    return None


def refuse(refusal: str | None, field: str) -> None:
    """Raise a refusal a check function found (409 action-not-allowed) on ``field``."""
    if refusal is not None:
        raise ActionNotAllowed(refusal, field=field)


def raise_refusal(refusal: RulesError | None) -> None:
    """Raise a refusal a ``*_refusal`` function built with its class and field (dark-earth's pattern)."""
    if refusal is not None:
        raise refusal


# What an actor may send at the rank of its declared action besides that action.
RANK_ACTIONS = ("break_free", "hold", "forgo")


def rank_refusal(combatant: SiliciumCombatant, declared: str, kind: str) -> str | None:
    """Why ``kind`` may not be sent at the rank of the action declared as ``declared``, or None.

    Giving the action up is always possible; otherwise what was declared, or
    holding it, as the combatant's state allows (a victim grabbed before his
    rank breaks free instead, docs M6). rounds.awaiting lists with it,
    the resolution refuses with it.
    """
    if kind == "forgo":
        return None
    if kind != declared and kind not in RANK_ACTIONS:
        return refusal(
            "{actor} declared another action at this rank ({kind})", actor=combatant["name"], kind=KIND_WORDS[declared]
        )
    return kind_refusal(combatant, kind)


def may_attack(combatant: SiliciumCombatant) -> bool:
    """Not held down, and not fleeing unless cornered (kind_refusal)."""
    return kind_refusal(combatant, "attack") is None


def enemies(state: SiliciumCombat, combatant: SiliciumCombatant) -> list[SiliciumCombatant]:
    return [c for c in state["combatants"] if c["side"] != combatant["side"]]


def allies(state: SiliciumCombat, combatant: SiliciumCombatant) -> list[SiliciumCombatant]:
    """The combatant's side, the combatant included."""
    return [c for c in state["combatants"] if c["side"] == combatant["side"]]


def standing_sides(state: SiliciumCombat) -> set[str]:
    return {c["side"] for c in state["combatants"] if is_standing(c)}


def by_id(state: SiliciumCombat) -> dict[str, SiliciumCombatant]:
    return {c["id"]: c for c in state["combatants"]}
