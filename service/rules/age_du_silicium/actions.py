"""Dispatching actions, and the small ones: reason, break free, hold, forgo, adjust."""

from __future__ import annotations

from typing import Any

from ..conditions import add, remove
from ..ending import ends_now
from ..errors import ActionNotAllowed, InvalidAction, NotYourTurn, refusal
from ..ruleset import GM
from ..state import Action
from .attacks import attack
from .checks import Test, roll_test
from .declarations import check_reason_target, choose_frenzy, declare, retest_refusal, standing_check
from .opening import calme_test, numbers_modifier
from .reactions import react
from .rounds import add_reaction, available_reactions, current_slot, finish_slot, initiative_changed, own_slot, run
from .state import Res, SiliciumCombatant
from .status import FRENZY, IMMOBILISED, condition, enemies, frenzy, is_standing, refuse, standing_sides
from .tables import BREAK_FREE_SKILL, EXPERIENCE
from .weapons import skill
from .wounds import blessures_adjusted


def resolve(res: Res, action: Action) -> None:
    kind = action["type"]
    actor = res.combatant(action["actor"], field="actor")
    pending = res.state.get("pending")
    if pending and kind != "react":
        raise NotYourTurn(
            refusal(
                "waiting for {target}'s reaction to {attacker}'s hit",
                target=res.combatant(pending["target"])["name"],
                attacker=res.combatant(pending["attacker"])["name"],
            ),
            field="actor",
        )
    if kind != "react":
        standing_check(actor)
    HANDLERS[kind](res, actor, action)
    settle(res)


def settle(res: Res) -> None:
    """After any action (the GM's too): the frenzied calm down, the round goes on unless the fight ends now."""
    _calm_without_enemies(res)
    if not ends_now(res, standing_sides(res.state)):
        run(res)


def reason(res: Res, actor: SiliciumCombatant, action: Action) -> None:
    """Seed: an ally talks a frenzied combatant down; one Calme retest a round, at least 10 %."""
    slot = own_slot(res.state, actor, "reason")
    target = res.combatant(action["target"], field="target")
    if slot["target"] != target["id"]:
        raise ActionNotAllowed(
            refusal(
                "{actor} declared to reason with {target}",
                actor=actor["name"],
                target=res.combatant(slot["target"])["name"],
            ),
            field="target",
        )
    check_reason_target(actor, target, "target")
    refuse(retest_refusal(res.state, target), "target")
    modifiers = {}
    if res.options["retest_modifiers"] == "situation":
        experience = target["sheet"]["experience"]
        situation = {experience: EXPERIENCE[experience]["modifier"], **numbers_modifier(res.state, target)}
        # Seed: "avec les malus applicables à la situation": the table's bonuses do not help a retest.
        modifiers = {key: value for key, value in situation.items() if value < 0}
    modifiers["gm"] = action["modifier"]
    modifiers = {k: v for k, v in modifiers.items() if v}
    test, modifiers = calme_test(res, target, modifiers, f"Calme retest {target['id']}")
    target["retested_round"] = res.state["round"]
    res.emit("calme_retest", actor=actor["id"], target=target["id"], modifiers=modifiers, **test.as_params())
    if test.success:
        remove(target, FRENZY)
        res.emit("frenzy_ended", combatant=target["id"], reason="calmed")
    finish_slot(res.state)


def _margin(test: Test) -> int:
    found: int = test.chance - test.roll
    return found


def break_free(res: Res, actor: SiliciumCombatant, action: Action) -> None:
    """Source: the victim may only try to break free, opposed Bagarre (ties keep the hold; docs, gap G7).

    A victim grabbed before his rank breaks free with whatever action he had
    declared: the hold changed what he can do, not whether he acts.
    """
    own_slot(res.state, actor, "break_free")
    holder_id = (condition(actor, IMMOBILISED) or {}).get("by")
    holder = next((c for c in res.state["combatants"] if c["id"] == holder_id), None)
    victim_test = roll_test(res, skill(actor, BREAK_FREE_SKILL) + action["modifier"], "break free", actor)
    holding = holder is not None and is_standing(holder)
    holder_test = (
        roll_test(res, skill(holder, BREAK_FREE_SKILL), "keep the hold", holder)
        if holding and holder is not None
        else None
    )
    freed = victim_test.success and (
        holder_test is None or not holder_test.success or _margin(victim_test) > _margin(holder_test)
    )
    res.emit(
        "break_free",
        actor=actor["id"],
        target=holder_id,
        roll=victim_test.roll,
        chance=victim_test.chance,
        holder_roll=holder_test.roll if holder_test else None,
        holder_chance=holder_test.chance if holder_test else None,
        success=freed,
    )
    if freed:
        remove(actor, IMMOBILISED)
    finish_slot(res.state)


def hold(res: Res, actor: SiliciumCombatant, action: Action) -> None:
    """Seed: one may always give up the initiative and hold the action."""
    # Held down, he may only break free; freed before his rank, he may hold the break_free he declared.
    slot = own_slot(res.state, actor, "hold")
    add_reaction(res, slot, "held")
    finish_slot(res.state)


def forgo(res: Res, actor: SiliciumCombatant, action: Action) -> None:
    """Give up the declared action at its rank, or, with none due, the action held."""
    slot = current_slot(res.state)
    held = available_reactions(res.state, actor["id"], ("held",))
    if (slot is None or slot["actor"] != actor["id"]) and held:
        held[0]["used"] = True
        res.emit("held_action_given_up", actor=actor["id"])
        return
    slot = own_slot(res.state, actor, "forgo")
    res.emit("action_forgone", actor=actor["id"], kind=slot["kind"], description=action["description"])
    finish_slot(res.state)


def adjusted(res: Res, target: SiliciumCombatant, action: Action, changes: dict[str, Any]) -> bool:
    """The GM's adjust: what Blessures mean, and this ruleset's older fields (add/remove conditions, set Blessures)."""
    before = changes.get("blessures", target["blessures"])
    if changes.get("initiative", target["initiative"]) != target["initiative"]:
        initiative_changed(res, target)
    if not (action["add"] or action["remove"] or action["blessures"] is not None):
        blessures_adjusted(res, target, before)
        return False
    if "frenzy" in action["add"] or "surprised" in action["add"]:
        raise InvalidAction(
            refusal("frenzy and surprise come from the tests; the game master can only remove them"), field="add"
        )
    for code in action["remove"]:
        remove(target, code)
    for code in action["add"]:
        add(res, target, code, source=GM)
    if action["blessures"] is not None:
        target["blessures"] = action["blessures"]
    res.emit(
        "adjusted",
        combatant=target["id"],
        added=action["add"],
        removed=action["remove"],
        blessures=target["blessures"],
        author=GM,
        reason=action["reason"],
    )
    blessures_adjusted(res, target, before)
    return True


def _calm_without_enemies(res: Res) -> None:
    """Seed: once the fight is gone (no enemy standing), the frenzied calm down."""
    for combatant in res.state["combatants"]:
        if frenzy(combatant) and not any(is_standing(e) for e in enemies(res.state, combatant)):
            remove(combatant, FRENZY)
            res.emit("frenzy_ended", combatant=combatant["id"], reason="no_enemies")


HANDLERS = {
    "choose_frenzy": choose_frenzy,
    "declare": declare,
    "attack": attack,
    "reason": reason,
    "break_free": break_free,
    "react": react,
    "hold": hold,
    "forgo": forgo,
}
