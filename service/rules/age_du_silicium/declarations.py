"""Declaring a round's actions, and what surprise, frenzy and holds forbid.

Seed: a surprised combatant's next action must be defensive; a berserker
attacks and neglects its defence (no defensive action) and seeks the next
enemy; a fleeing combatant avoids any fight unless it has no choice (the GM
marks it ``cornered``). Source: an immobilised victim may only break free.
"""

from __future__ import annotations

from ..conditions import has
from ..errors import ActionNotAllowed, InvalidAction, NotYourTurn, refusal
from ..state import Action
from .rounds import aim_refusal, next_declarer, plan, spend_surprise
from .state import Res, SiliciumCombat, SiliciumCombatant
from .status import DEAD, FRENZY, KIND_WORDS, by_id, condition, frenzy, is_standing, kind_refusal, raise_refusal, refuse
from .weapons import find_weapon


def check_kind(combatant: SiliciumCombatant, kind: str, field: str, forced_defence: bool = False) -> None:
    """Refuse a kind of action the combatant's state forbids (status.kind_refusal)."""
    refuse(kind_refusal(combatant, kind, forced_defence), field)


def check_target(state: SiliciumCombat, actor: SiliciumCombatant, kind: str, target_id: str | None, field: str) -> None:
    if kind not in ("attack", "reason"):
        return
    if target_id is None:
        raise InvalidAction(refusal("this action ({kind}) needs a target", kind=KIND_WORDS[kind]), field=field)
    target = next((c for c in state["combatants"] if c["id"] == target_id), None)
    if target is None:
        raise InvalidAction(
            refusal("there is no combatant '{target_id}' in this combat", target_id=target_id), field=field
        )
    if target is actor:
        raise InvalidAction(refusal("{actor} cannot choose itself as the target", actor=actor["name"]), field=field)
    if kind == "attack":
        check_attack_target(actor, target, field)
    else:
        check_reason_target(actor, target, field)


def attack_target_refusal(attacker: SiliciumCombatant, target: SiliciumCombatant) -> str | None:
    """Why ``attacker`` may not attack ``target`` (another combatant), or None: the declaration, the
    attack and the listing."""
    if has(target, DEAD):
        return refusal("{target} is dead", target=target["name"])
    if frenzy(attacker) == "berserker" and target["side"] == attacker["side"]:
        return refusal("{actor} is a berserker and attacks only enemies", actor=attacker["name"])
    return None


def check_attack_target(attacker: SiliciumCombatant, target: SiliciumCombatant, field: str) -> None:
    refuse(attack_target_refusal(attacker, target), field)


def reason_target_refusal(actor: SiliciumCombatant, target: SiliciumCombatant) -> str | None:
    """Why ``actor`` may not talk ``target`` (another combatant) out of a frenzy, or None (seed: an ally, a frenzy)."""
    if target["side"] != actor["side"]:
        return refusal("only an ally can talk {target} out of the frenzy", target=target["name"])
    if condition(target, FRENZY) is None:
        return refusal("{target} is not in a frenzy", target=target["name"])
    return None


def check_reason_target(actor: SiliciumCombatant, target: SiliciumCombatant, field: str) -> None:
    refuse(reason_target_refusal(actor, target), field)


def retest_refusal(state: SiliciumCombat, target: SiliciumCombatant) -> str | None:
    """Seed: one Calme retest a round ("tous les rounds où on l'aide")."""
    if target["retested_round"] == state["round"]:
        return refusal("{target} has already retested Calme this round", target=target["name"])
    return None


def reasoned_with(state: SiliciumCombat) -> set[str]:
    """Who someone has already declared to reason with this round (one retest a round, seed)."""
    return {s["target"] for s in state.get("slots", []) if s["kind"] == "reason"}


def declare(res: Res, actor: SiliciumCombatant, action: Action) -> None:
    state = res.state
    if state.get("phase") != "declaration":
        raise ActionNotAllowed(refusal("declarations are not open at this point of the round"), field="type")
    declarer = next_declarer(state)
    if declarer is None or declarer["id"] != actor["id"]:
        raise NotYourTurn(
            refusal("declarations go in increasing Initiative; waiting for {actor}", actor=declarer["name"])
            if declarer
            else refusal("declarations go in increasing Initiative; nobody declares now"),
            field="actor",
        )
    planned = plan(state, actor)
    open_slots = [s for s in planned if s["constraint"] != "lost"]
    declared = action["actions"]
    if len(declared) != len(open_slots):
        raise InvalidAction(
            refusal(
                "{actor} has {open:# action|# actions} to declare this round, not {sent}",
                actor=actor["name"],
                open=len(open_slots),
                sent=len(declared),
            ),
            field="actions",
        )
    aims = actor["aim"]
    claimed = reasoned_with(state)
    for index, (slot, entry) in enumerate(zip(open_slots, declared, strict=True)):
        field = f"actions.{index}"
        check_kind(actor, entry["kind"], f"{field}.kind", slot["constraint"] == "defensive")
        check_target(state, actor, entry["kind"], entry["target"], f"{field}.target")
        if entry["kind"] == "reason":
            if entry["target"] in claimed:
                raise ActionNotAllowed(
                    refusal(
                        "someone already reasons with {target} this round: one Calme retest a round",
                        target=by_id(state)[entry["target"]]["name"],
                    ),
                    field=f"{field}.target",
                )
            claimed.add(entry["target"])
        if entry["weapon"] is not None:
            find_weapon(actor, entry["weapon"], f"{field}.weapon")
        if entry["kind"] == "aim":
            aims += 1
            raise_refusal(aim_refusal(aims, f"{field}.kind"))
        forced = slot["constraint"] == "defensive"
        state["slots"].append(
            {
                "actor": actor["id"],
                "number": slot["number"],
                "rank": slot["rank"],
                **entry,
                "forced": forced,
                "done": False,
            }
        )
    spend_surprise(res, actor, planned)
    state["declared"].append(actor["id"])
    res.emit("declared", actor=actor["id"], kinds=[e["kind"] for e in declared], ranks=[s["rank"] for s in open_slots])


def choose_frenzy(res: Res, actor: SiliciumCombatant, action: Action) -> None:
    found = condition(actor, FRENZY)
    if found is None or found.get("behaviour"):
        raise ActionNotAllowed(refusal("{actor} has no frenzy behaviour to choose", actor=actor["name"]), field="type")
    found["behaviour"] = action["behaviour"]
    res.emit("frenzy_chosen", combatant=actor["id"], behaviour=action["behaviour"])


def standing_check(actor: SiliciumCombatant) -> None:
    if not is_standing(actor):
        raise ActionNotAllowed(refusal("{actor} is out of action", actor=actor["name"]), field="actor")
