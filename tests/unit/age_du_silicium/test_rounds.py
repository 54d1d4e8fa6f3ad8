"""Seed 003, "Initiative" and "Phase principale": declarations up, resolution down."""

from service.rules.errors import ActionNotAllowed, InvalidAction, NotYourTurn

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import NO_STRESS, RULESET, ana, attack_entry, bob, cy, declare, duel, refused, to_resolution


def _three():
    # Ana 60 (2 actions: 60, 50), Cy 50 + implant 5 = 55 (2 actions: 55, 45), Bob 40.
    sheets = [ana(actions=2), bob(), cy(actions=2, initiative_modifier=5)]
    return start(RULESET, sheets, options=NO_STRESS)


def test_declarations_in_increasing_initiative_and_resolution_in_decreasing_order_with_a_held_reaction():
    state, entry = _three()
    assert params(entry, "declaration_order") == {"order": [["bob"], ["cy"], ["ana"]]}
    assert combatant(state, "cy")["initiative"] == 55
    assert state["awaiting"] == [{"actor": "bob", "actions": ["declare"], "reason": "declaration"}]
    refused(state, {"type": "declare", "actor": "ana", "actions": [{"kind": "other"}] * 2}, NotYourTurn)
    state, _ = declare(state, "bob", attack_entry("ana"))
    state, _ = declare(state, "cy", {"kind": "hold"}, {"kind": "other"})
    state, entry = declare(state, "ana", attack_entry("bob"), attack_entry("cy"))
    assert params(entry, "declared") == {"actor": "ana", "kinds": ["attack", "attack"], "ranks": [60, 50]}
    assert params(entry, "resolution_order") == {
        "order": [["ana"], ["cy"], ["ana"], ["cy"], ["bob"]],
        "ranks": [60, 55, 50, 45, 40],
    }
    assert state["awaiting"] == [{"actor": "ana", "actions": ["attack", "hold", "forgo"], "reason": "resolution"}]
    refused(state, {"type": "attack", "actor": "bob", "target": "ana"}, NotYourTurn)
    refused(state, {"type": "attack", "actor": "cy", "target": "ana", "reaction": True}, ActionNotAllowed)
    # Ana's first action (60) misses; Cy's hold (55) resolves alone and becomes a reaction.
    state, entry = step(state, {"type": "attack", "actor": "ana", "target": "bob", "dice": [90]})
    assert params(entry, "action_held") == {"actor": "cy", "rank": 55}
    assert state["awaiting"] == [
        {"actor": "ana", "actions": ["attack", "hold", "forgo"], "reason": "resolution"},
        {"actor": "cy", "actions": ["attack", "forgo"], "reason": "held_action"},
    ]
    # Cy spends the held action before Ana's second action (50): 20 <= 50 hits Bob, torso, 1.
    state, entry = step(
        state,
        {"type": "attack", "actor": "cy", "target": "bob", "weapon": "lame", "reaction": True, "dice": [20, 3, 1]},
    )
    assert params(entry, "attack")["reaction"] is True
    assert params(entry, "wounded") == {"target": "bob", "amount": 4, "left": 16}
    assert state["awaiting"] == [{"actor": "ana", "actions": ["attack", "hold", "forgo"], "reason": "resolution"}]
    refused(state, {"type": "attack", "actor": "cy", "target": "bob", "reaction": True}, ActionNotAllowed)
    # Ana's second action (50); then Cy's "other" (45) resolves alone and Bob (40) acts.
    state, entry = step(state, {"type": "attack", "actor": "ana", "target": "cy", "dice": [95]})
    assert params(entry, "other_action") == {"actor": "cy", "description": None}
    assert state["awaiting"] == [{"actor": "bob", "actions": ["attack", "hold", "forgo"], "reason": "resolution"}]
    state, entry = step(state, {"type": "attack", "actor": "bob", "target": "ana", "dice": [99]})
    assert params(entry, "attack_missed") == {"attacker": "bob", "target": "ana", "fumble": True}
    assert params(entry, "round_started") == {"round": 2}
    assert state["awaiting"] == [{"actor": "bob", "actions": ["declare"], "reason": "declaration"}]


def test_an_attack_must_follow_its_declaration():
    state, _ = duel()
    state, _ = to_resolution(state, ana_entries=[attack_entry("bob")], bob_entries=[{"kind": "other"}])
    error = refused(state, {"type": "attack", "actor": "ana", "target": "ana"}, InvalidAction)
    assert error.field == "target"
    state2, _ = start(RULESET, [ana(), bob(), cy()], options=NO_STRESS)
    state2, _ = declare(state2, "bob", {"kind": "other"})
    state2, _ = declare(state2, "cy", {"kind": "other"})
    state2, _ = declare(state2, "ana", attack_entry("bob"))
    error = refused(state2, {"type": "attack", "actor": "ana", "target": "cy"}, ActionNotAllowed)
    assert error.field == "target"


def test_holding_at_its_rank_and_dodging_with_the_reaction():
    state, _ = duel(ana=ana(actions=3))
    # Ana (60, 50, 40) declares after Bob (40).
    state, _ = declare(state, "bob", attack_entry("ana"))
    state, _ = declare(state, "ana", {"kind": "attack", "target": "bob"}, {"kind": "other"}, {"kind": "other"})
    # Ana holds at her own slot instead of attacking ("renoncer à l'initiative").
    state, entry = step(state, {"type": "hold", "actor": "ana"})
    assert params(entry, "action_held") == {"actor": "ana", "rank": 60}
    # Ana's "other" at 50 and 40 resolve alone (Ana first on the tie at 40: higher Initiative);
    # Bob shoots with his pistol: 30 <= 60 hits, and Ana holds a reaction.
    state, entry = step(state, {"type": "attack", "actor": "bob", "target": "ana", "dice": [30]})
    assert params(entry, "awaiting_reaction") == {"target": "ana", "attacker": "bob"}
    assert state["awaiting"] == [{"actor": "ana", "actions": ["react"], "reason": "reaction"}]
    refused(state, {"type": "attack", "actor": "ana", "target": "bob", "reaction": True}, NotYourTurn)
    # Esquive 40 - 5 (GM): 35 <= 35 dodges.
    state, entry = step(state, {"type": "react", "actor": "ana", "reaction": "dodge", "modifier": -5, "dice": [35]})
    assert params(entry, "reaction_roll") == {
        "defender": "ana",
        "reaction": "dodge",
        "roll": 35,
        "chance": 35,
        "success": True,
        "critical": False,
        "fumble": False,
    }
    assert params(entry, "hit_avoided") == {"defender": "ana", "attacker": "bob", "reaction": "dodge"}
    assert combatant(state, "ana")["blessures"] == 20
    assert state["round"] == 2


def test_a_failed_parry_lets_the_hit_land():
    state, _ = duel()
    state, _ = to_resolution(state, bob_entries=[attack_entry("ana", weapon="lame")], ana_entries=[{"kind": "defend"}])
    # Ana's declared defence guards from the start of the resolution (option defend_ready).
    state, entry = step(state, {"type": "attack", "actor": "bob", "target": "ana", "dice": [10]})
    assert "awaiting_reaction" in codes(entry)
    # Parry with the blade (Armes tranchantes 50): 70 fails; torso (4), d6 5: 6 - 3 + 5 = 8.
    state, entry = step(state, {"type": "react", "actor": "ana", "reaction": "parry", "dice": [70, 4, 5]})
    assert params(entry, "reaction_roll")["chance"] == 50
    assert params(entry, "wounded") == {"target": "ana", "amount": 8, "left": 12}


def test_bullets_cannot_be_parried():
    state, _ = duel()
    state, _ = to_resolution(state, bob_entries=[attack_entry("ana")], ana_entries=[{"kind": "defend"}])
    state, _ = step(state, {"type": "attack", "actor": "bob", "target": "ana", "dice": [10]})
    error = refused(state, {"type": "react", "actor": "ana", "reaction": "parry"}, ActionNotAllowed)
    assert error.field == "reaction"
    refused(state, {"type": "react", "actor": "bob", "reaction": "none"}, NotYourTurn)
    state, entry = step(state, {"type": "react", "actor": "ana", "reaction": "none", "dice": [1, 1]})
    assert params(entry, "wounded")["amount"] == 6  # 8 - 3 + 1


def test_defend_ready_at_rank_option():
    state, _ = duel(options={"stress_test": False, "defend_ready": "rank"})
    state, _ = to_resolution(state, ana_entries=[{"kind": "defend"}])
    # Ana's defence (60) comes before Bob's attack anyway, and becomes ready at its rank.
    state, entry = step(state, {"type": "attack", "actor": "bob", "target": "ana", "dice": [10]})
    assert "awaiting_reaction" in codes(entry)


def test_forgo_and_skipped_and_lapsed():
    state, _ = duel(bob=bob(actions=2))
    state, _ = declare(state, "bob", {"kind": "hold"}, attack_entry("ana"))
    state, entry = declare(state, "ana", attack_entry("bob"))
    state, entry = step(state, {"type": "forgo", "actor": "ana", "description": "reloads"})
    assert params(entry, "action_forgone") == {"actor": "ana", "kind": "attack", "description": "reloads"}
    assert params(entry, "action_held") == {"actor": "bob", "rank": 40}
    state, entry = step(state, {"type": "adjust", "actor": "gm", "combatant": "bob", "add": ["out_of_action"]})
    assert params(entry, "action_skipped") == {"actor": "bob", "number": 2}
    assert params(entry, "reaction_lapsed") == {"actor": "bob", "kind": "held"}
    assert state["round"] == 2
    assert state["awaiting"] == [
        {"actor": "ana", "actions": ["declare"], "reason": "declaration"},
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"},
    ]


def test_auto_end_option_and_gm_end():
    state, _ = duel(options={"stress_test": False, "auto_end": True})
    state, _ = to_resolution(state)
    state, entry = step(state, {"type": "adjust", "actor": "gm", "combatant": "bob", "add": ["dead"], "blessures": 0})
    assert params(entry, "combat_over") == {"reason": "one_side_standing"}
    assert state["status"] == "over" and state["awaiting"] == []


def test_a_held_action_waits_for_its_holder_until_used_or_given_up():
    # Seed: "retenir son action jusqu'au moment opportun. Une action retenue est alors considérée comme une réaction".
    # Ana (60) holds; Bob (40) shoots at her and misses (90 > 60); the round stays open for Ana's held action.
    state, _ = duel()
    state, _ = to_resolution(state, bob_entries=[attack_entry("ana")], ana_entries=[{"kind": "hold"}])
    state, entry = step(state, {"type": "attack", "actor": "bob", "target": "ana", "dice": [90]})
    assert "attack_missed" in codes(entry)
    assert state["round"] == 1
    assert state["awaiting"] == [{"actor": "ana", "actions": ["attack", "forgo"], "reason": "held_action"}]
    # She fires back: 10 <= 60 hits; d10 2 = torso; wound 8 - (Endurance 3 + 0) + d6 1 = 6.
    state, entry = step(
        state, {"type": "attack", "actor": "ana", "target": "bob", "reaction": True, "dice": [10, 2, 1]}
    )
    assert params(entry, "wounded") == {"target": "bob", "amount": 6, "left": 14}
    assert "reaction_lapsed" not in codes(entry)
    assert state["round"] == 2
    assert state["awaiting"] == [{"actor": "bob", "actions": ["declare"], "reason": "declaration"}]


def test_a_fleeing_holder_does_not_keep_the_round_open():
    # A held action its holder may not attack with stays a dodge or parry, and lapses with the round.
    state, _ = duel(options={"stress_test": True}, dice=[1, 99])
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state, _ = declare(state, "bob", {"kind": "hold"})
    state, entry = declare(state, "ana", {"kind": "other"})
    assert params(entry, "reaction_lapsed") == {"actor": "bob", "kind": "held"}
    assert state["round"] == 2


def _gm(state, **fields):
    return step(state, {"type": "adjust", "actor": "gm", **fields})


def test_a_gm_change_of_initiative_before_the_announcements_moves_both_orders():
    # Issue 38. Seed: the best Initiative "a le privilège de choisir ses actions et de les annoncer en dernier,
    # et de les exécuter en premier": one score for both orders.
    state, _ = duel()  # Ana 60, Bob 40: Bob would announce first
    state, entry = _gm(state, target="bob", set={"initiative": 70}, reason="combat drug")
    # Bob's 70 is now the best: Ana announces first, Bob last (before the fix Bob still announced first).
    assert params(entry, "declaration_order") == {"order": [["ana"], ["bob"]]}
    assert state["awaiting"] == [{"actor": "ana", "actions": ["declare"], "reason": "declaration"}]
    refused(state, {"type": "declare", "actor": "bob", "actions": [{"kind": "other"}]}, NotYourTurn)
    state, _ = declare(state, "ana", {"kind": "other"})
    state, entry = declare(state, "bob", attack_entry("ana"))
    # ... and executes first: rank 70, then Ana's 60.
    assert params(entry, "resolution_order") == {"order": [["bob"], ["ana"]], "ranks": [70, 60]}
    assert state["awaiting"] == [{"actor": "bob", "actions": ["attack", "hold", "forgo"], "reason": "resolution"}]


def test_a_gm_change_of_initiative_after_the_first_announcement_counts_from_the_next_round():
    # Once Bob (40) has announced, the round's order is set: Ana's new 30 does not make her act after
    # the man who announced before her. She keeps 60 for this round; from round 2 she announces first and acts last.
    state, _ = duel()
    state, _ = declare(state, "bob", {"kind": "other"})
    state, entry = _gm(state, target="ana", set={"initiative": 30})
    assert params(entry, "initiative_next_round") == {"combatant": "ana"}
    state, entry = declare(state, "ana", {"kind": "other"})
    # Before the fix: ranks [40, 30], Bob acting first though Ana announced last.
    assert params(entry, "declared") == {"actor": "ana", "kinds": ["other"], "ranks": [60]}
    assert params(entry, "resolution_order") == {"order": [["ana"], ["bob"]], "ranks": [60, 40]}
    assert params(entry, "round_started") == {"round": 2}
    assert params(entry, "declaration_order") == {"order": [["ana"], ["bob"]]}
    state, _ = declare(state, "ana", {"kind": "other"})
    state, entry = declare(state, "bob", {"kind": "other"})
    assert params(entry, "resolution_order") == {"order": [["bob"], ["ana"]], "ranks": [40, 30]}


def test_a_gm_change_of_initiative_during_the_resolution_counts_from_the_next_round():
    state, _ = to_resolution(duel()[0], bob_entries=[{"kind": "other"}])
    state, entry = _gm(state, target="bob", change={"initiative": 30})  # 40 + 30 = 70
    assert params(entry, "initiative_next_round") == {"combatant": "bob"}
    assert state["awaiting"] == [{"actor": "ana", "actions": ["attack", "hold", "forgo"], "reason": "resolution"}]
    state, entry = step(state, {"type": "attack", "actor": "ana", "target": "bob", "dice": [90]})
    assert params(entry, "declaration_order") == {"order": [["ana"], ["bob"]]}
