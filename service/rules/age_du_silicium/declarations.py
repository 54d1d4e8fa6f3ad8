"""Declaring a round's actions, and what surprise, frenzy and holds forbid.

Seed: a surprised combatant's next action must be defensive; a berserker
attacks and neglects its defence (no defensive action) and seeks the next
enemy; a fleeing combatant avoids any fight unless it has no choice (the GM
marks it ``cornered``). Source: an immobilised victim may only break free.
"""

from __future__ import annotations

from ..conditions import has
from ..errors import ActionNotAllowed, InvalidAction, NotYourTurn
from ..state import Action
from .rounds import next_declarer, plan, spend_surprise
from .state import Res, SiliciumCombat, SiliciumCombatant
from .status import CORNERED, FRENZY, IMMOBILISED, condition, frenzy, is_standing
from .tables import DEFENSIVE_KINDS, MAX_AIM
from .weapons import find_weapon


def check_kind(combatant: SiliciumCombatant, kind: str, field: str, forced_defence: bool = False) -> None:
    """Refuse a kind of action the combatant's state forbids."""
    behaviour = frenzy(combatant)
    immobilised = has(combatant, IMMOBILISED)
    if immobilised:
        # Breaking free is all a victim can do, surprised or frenzied alike.
        if kind != "break_free":
            raise ActionNotAllowed(f"{combatant['id']} is immobilised and can only try to break free", field=field)
        return
    if kind == "break_free":
        raise ActionNotAllowed(f"{combatant['id']} is not immobilised", field=field)
    if forced_defence:
        if kind not in DEFENSIVE_KINDS:
            raise ActionNotAllowed(
                f"{combatant['id']} was surprised: this action must be defensive ({', '.join(DEFENSIVE_KINDS)})",
                field=field,
            )
        return  # the surprise's compulsory defence comes before the frenzy (docs, gap G9)
    if behaviour == "berserker" and kind in DEFENSIVE_KINDS:
        raise ActionNotAllowed(f"{combatant['id']} is a berserker and takes no defensive action", field=field)
    if behaviour == "flight" and kind in ("attack", "aim") and not has(combatant, CORNERED):
        # Seed: "il doit éviter tout combat, sauf s'il n'a pas le choix": aiming prepares a shot.
        what = "attacks" if kind == "attack" else "aims"
        raise ActionNotAllowed(f"{combatant['id']} is fleeing and {what} only when cornered", field=field)


def check_target(state: SiliciumCombat, actor: SiliciumCombatant, kind: str, target_id: str | None, field: str) -> None:
    if kind not in ("attack", "reason"):
        return
    if target_id is None:
        raise InvalidAction(f"a declared {kind} needs a target", field=field)
    target = next((c for c in state["combatants"] if c["id"] == target_id), None)
    if target is None:
        raise InvalidAction(f"there is no combatant {target_id!r} in this combat", field=field)
    if target is actor:
        raise InvalidAction(f"{actor['id']} cannot {kind} itself", field=field)
    if kind == "attack":
        check_attack_target(actor, target, field)
    else:
        check_reason_target(actor, target, field)


def check_attack_target(attacker: SiliciumCombatant, target: SiliciumCombatant, field: str) -> None:
    if has(target, "dead"):
        raise ActionNotAllowed(f"{target['id']} is dead", field=field)
    if frenzy(attacker) == "berserker" and target["side"] == attacker["side"]:
        raise ActionNotAllowed(f"{attacker['id']} is a berserker and attacks only enemies", field=field)


def check_reason_target(actor: SiliciumCombatant, target: SiliciumCombatant, field: str) -> None:
    if target["side"] != actor["side"]:
        raise ActionNotAllowed(f"only an ally can talk {target['id']} out of its frenzy", field=field)
    if condition(target, FRENZY) is None:
        raise ActionNotAllowed(f"{target['id']} is not in a frenzy", field=field)


def reasoned_with(state: SiliciumCombat) -> set[str]:
    """Who someone has already declared to reason with this round (one retest a round, seed)."""
    return {s["target"] for s in state.get("slots", []) if s["kind"] == "reason"}


def declare(res: Res, actor: SiliciumCombatant, action: Action) -> None:
    state = res.state
    if state.get("phase") != "declaration":
        raise ActionNotAllowed(f"declarations are not open now (phase: {state.get('phase')})", field="type")
    declarer = next_declarer(state)
    if declarer is None or declarer["id"] != actor["id"]:
        raise NotYourTurn(
            f"declarations go in increasing Initiative; waiting for {declarer['id'] if declarer else 'nobody'}",
            field="actor",
        )
    planned = plan(actor)
    open_slots = [s for s in planned if s["constraint"] != "lost"]
    declared = action["actions"]
    if len(declared) != len(open_slots):
        raise InvalidAction(
            f"{actor['id']} has {len(open_slots)} action(s) to declare this round, not {len(declared)}", field="actions"
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
                    f"someone already reasons with {entry['target']} this round: one Calme retest a round",
                    field=f"{field}.target",
                )
            claimed.add(entry["target"])
        if entry["weapon"] is not None:
            find_weapon(actor, entry["weapon"], f"{field}.weapon")
        if entry["kind"] == "aim":
            aims += 1
            if aims > MAX_AIM:
                raise ActionNotAllowed(f"at most {MAX_AIM} actions can be spent aiming", field=f"{field}.kind")
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
        raise ActionNotAllowed(f"{actor['id']} has no frenzy behaviour to choose", field="type")
    found["behaviour"] = action["behaviour"]
    res.emit("frenzy_chosen", combatant=actor["id"], behaviour=action["behaviour"])


def standing_check(actor: SiliciumCombatant) -> None:
    if not is_standing(actor):
        raise ActionNotAllowed(f"{actor['id']} is out of action", field="actor")
