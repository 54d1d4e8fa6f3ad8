"""Sistema +2d6: the legal actions of a combatant now, with their parameters."""

from __future__ import annotations

from ..gm.legal import choice_found, describe, field_spec, present
from ..ruleset import AnyRuleset, Choice
from .actions import attack_target_refusal, burst_refusal, stabilize_refusal
from .conditions import can_act
from .state import SistemaCombat, SistemaCombatant
from .tables import LOCATION_PENALTIES

# The body's own weapons (seed: "Soco", "Chute"): everyone has them; the rest of
# the catalog is what a sheet's weapon is based on, not something everyone carries.
BARE_HANDS = ("soco", "chute")


def choices(ruleset: AnyRuleset, state: SistemaCombat, actor_id: str, action_type: str) -> list[Choice] | None:
    """Refined parameter sets, or None for the default description."""
    if actor_id == "gm":
        return None
    actor = next(c for c in state["combatants"] if c["id"] == actor_id)
    if action_type == "attack":
        return _attacks(ruleset, state, actor)
    if action_type == "stabilize":
        # "Caso outro personagem seja bem sucedido": never oneself (actions.stabilize_refusal).
        dying = [c["id"] for c in present(state) if stabilize_refusal(actor, c) is None]
        return (
            [describe(ruleset, state, actor_id, "stabilize", target={"required": True, "choices": dying})]
            if dying
            else []
        )
    if action_type == "defend" and not can_act(actor):
        # Seed: "Se o alvo não puder se esquivar, o Mestre determina a dificuldade": the CD, no roll of his own.
        difficulty = {**field_spec(ruleset, "defend", "difficulty"), "required": True}
        return [
            describe(
                ruleset, state, actor_id, "defend", difficulty=difficulty, skill=None, attribute=None, modifier=None
            )
        ]
    if action_type == "test":
        attributes: list[str] = sorted(actor["sheet"]["attributes"])
        return [describe(ruleset, state, actor_id, "test", attribute={"required": True, "choices": attributes})]
    return None


def _attacks(ruleset: AnyRuleset, state: SistemaCombat, actor: SistemaCombatant) -> list[Choice]:
    targets = [c for c in present(state) if attack_target_refusal(actor, c) is None]
    if targets:
        choice_found()  # a target and a weapon: at least one set below (a probe stops here)
    able = [c["id"] for c in targets if can_act(c)]
    helpless = [c["id"] for c in targets if not can_act(c)]
    weapons = actor["sheet"]["weapons"]
    automatic = [w["id"] for w in weapons if burst_refusal(w, state["options"]) is None]
    carried = {w["id"] for w in weapons}
    single = [w["id"] for w in weapons if w["id"] not in automatic] + [w for w in BARE_HANDS if w not in carried]
    # A condition tag goes with a location; an inline defense is an object the client fills.
    sets = []
    for ids, helpless_targets in ((able, False), (helpless, True)):
        if not ids:
            continue
        # A helpless target has no active defense: the GM's difficulty instead.
        difficulty = {"required": True} if helpless_targets else {}
        common = {
            "condition": None,
            # The seed's suggested areas; another needs the GM's location_penalty (actions.aimed_area_penalty).
            "location": {"choices": sorted(LOCATION_PENALTIES)},
            "location_penalty": None,
            "defense": None if helpless_targets else {"type": "object"},
        }
        for weapon_ids, burst in ((single, [False]), (automatic, [False, True])):
            if weapon_ids:
                sets.append(
                    describe(
                        ruleset,
                        state,
                        actor["id"],
                        "attack",
                        **common,
                        target={"required": True, "choices": ids},
                        weapon={"choices": weapon_ids},
                        burst={"choices": burst},
                        difficulty={**field_spec(ruleset, "attack", "difficulty"), **difficulty},
                    )
                )
    return sets
