"""Seed intro and E-5: initiative, duels, interruption, several opponents."""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction, InvalidInput, NotYourTurn

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import RULESET, ana, attack, bob, duel, fight, legal, refused, sheet


def test_initiative_roll_2_plus_dex_the_better_level_starts():
    # Ana 2+2=4: 1+2 simple success; Bob: 6+5 failure.
    state, entry = start(RULESET, [ana(), bob()], dice=[1, 2, 6, 5])
    assert params(entry, "initiative_rolled", 0)["target"] == 4
    assert duel(state)["attacker"] == "ana"
    assert state["awaiting"] == [
        {"actor": "ana", "actions": ["attack", "threaten", "face", "pass"], "reason": "initiative"}
    ]


def test_equal_levels_are_broken_by_the_margin_then_rerolled():
    state, _ = start(RULESET, [ana(), bob()], dice=[1, 2, 1, 1])  # both succeed... Bob critical
    assert duel(state)["attacker"] == "bob"
    state, _ = start(RULESET, [ana(), bob()], dice=[2, 1, 3, 1])  # both simple: margins 1 and 0
    assert duel(state)["attacker"] == "ana"
    state, entry = start(RULESET, [ana(), bob()], dice=[2, 1, 1, 2, 6, 5, 1, 2])
    assert "initiative_tied" in codes(entry) and duel(state)["attacker"] == "bob"


def test_initiative_by_sen_or_weapon_skill():
    state, entry = start(
        RULESET, [ana(attributes={"SEN": 3}), bob()], dice=[2, 3, 6, 5], options={"initiative_roll": "SEN"}
    )
    assert params(entry, "initiative_rolled", 0)["target"] == 5
    sword = [{"id": "epee", "catalog": "epee_large"}]
    _, entry = start(
        RULESET, [ana(weapons=sword, skills={"Armes blanches": 2}, initiative="weapon"), bob()], dice=[4, 5, 6, 5]
    )
    assert params(entry, "initiative_rolled", 0)["target"] == 9 and params(entry, "initiative_rolled", 1)["target"] == 4


def test_surprise_starts_without_a_roll():
    state, entry = start(RULESET, [ana(), bob()], options={"surprise": ["bob"]})
    assert params(entry, "surprise") == {"attacker": "bob", "defender": "ana"} and entry["rolls"] == []


def test_groups_split_into_duels():
    fighters = [ana(), sheet("eve", "heroes"), bob(), sheet("cid", "villains")]
    state, _ = start(RULESET, fighters, options={"surprise": ["ana", "eve"]})
    assert [(d["a"], d["b"], d["attacker"]) for d in state["duels"]] == [("ana", "bob", "ana"), ("eve", "cid", "eve")]
    assert [w["actor"] for w in state["awaiting"]] == ["ana", "eve"]
    state, entry = step(state, {"type": "pass", "actor": "ana"})
    assert state["round"] == 1
    state, entry = step(state, {"type": "pass", "actor": "eve"})
    assert params(entry, "round_started") == {"round": 2}


def test_a_newcomer_interrupts_with_an_initiative_roll_and_several_opponents_cost_minus_n():
    state = fight(ana(), bob(), sheet("cid", "villains"))
    assert state["awaiting"][1] == {"actor": "cid", "actions": ["join"], "reason": "free"}
    state, entry = step(state, {"type": "join", "actor": "cid", "target": "ana", "dice": [1, 2, 6, 5]})
    assert params(entry, "interruption_rolled", 0)["combatant"] == "cid"
    assert duel(state, "cid", "ana")["attacker"] == "cid"
    assert combatant(state, "ana")["facing"] == ["bob", "cid"]
    _, entry = step(state, attack(dice=[1, 2, 1]))
    assert (
        params(entry, "attack_rolled")["modifiers"]["opponents"] == -2 and params(entry, "attack_rolled")["target"] == 6
    )


def test_more_opponents_than_dex_is_refused():
    state = fight(ana(attributes={"DEX": 1}), bob(), sheet("cid", "villains"))
    assert refused(state, {"type": "join", "actor": "ana", "target": "cid"}, ActionNotAllowed) == "target"
    state, entry = step(state, {"type": "join", "actor": "cid", "target": "ana", "dice": [1, 2, 6, 5]})
    assert params(entry, "cannot_face") == {"combatant": "ana", "target": "cid"}
    assert (
        refused(state, {"type": "face", "actor": "ana", "opponents": ["bob", "cid"]}, ActionNotAllowed) == "opponents"
    )


def test_an_opponent_not_chosen_attacks_without_defense_roll_and_keeps_the_initiative():
    state = fight(ana(attributes={"DEX": 1}), bob(), sheet("cid", "villains"))
    state, _ = step(state, {"type": "join", "actor": "cid", "target": "ana", "dice": [1, 2, 6, 5]})
    state, entry = step(state, attack(actor="cid", target="ana", defense=None, dice=[6, 5]))
    assert params(entry, "no_defense") == {"defender": "ana", "reason": "not_faced"}
    assert duel(state, "cid", "ana")["attacker"] == "cid"


def test_choosing_opponents_with_face():
    state = fight(ana(), bob(), sheet("cid", "villains"))
    state, _ = step(state, {"type": "join", "actor": "cid", "target": "ana", "dice": [1, 2, 6, 5]})
    state, entry = step(state, {"type": "face", "actor": "ana", "opponents": ["bob"]})
    assert params(entry, "faces") == {"combatant": "ana", "opponents": ["bob"], "malus": 0}
    assert refused(state, attack(target="cid"), NotYourTurn) == "target"


def defending_against_two():
    """Bob and Cid both hold the initiative against Ana, who faces both (-2)."""
    state = fight(ana(), bob(), sheet("cid", "villains"), first="bob")
    state, _ = step(
        state, {"type": "join", "actor": "cid", "target": "ana", "dice": [1, 2, 6, 5]}
    )  # Cid 3 <= 4, Ana 11 > 4
    assert combatant(state, "ana")["facing"] == ["bob", "cid"]
    state, _ = step(state, attack(actor="bob", target="ana", defense=None, dice=[]))
    return state


def test_a_defender_chooses_his_opponents_before_they_attack():
    """Issue 27 item 11: « tant en attaque qu'en défense », with no attack pending yet (was 409 not-your-turn)."""
    state = fight(ana(), bob(), sheet("cid", "villains"), first="bob")
    state, _ = step(state, {"type": "join", "actor": "cid", "target": "ana", "dice": [1, 2, 6, 5]})
    assert {"actor": "ana", "actions": ["face"], "reason": "opponents"} in state["awaiting"]
    offered = [e["params"]["opponents"]["choices"] for e in legal(state, "ana") if e["type"] == "face"]
    assert offered == [[["bob", "cid"], ["bob"], ["cid"]]]
    state, entry = step(state, {"type": "face", "actor": "ana", "opponents": ["bob"]})
    assert params(entry, "faces") == {"combatant": "ana", "opponents": ["bob"], "malus": 0}
    # Bob's punch 1+2 = 3 <= 8; Ana's dodge 2+3 = 5 <= 8: 7 + Bagarre 1, no -2 for a second opponent.
    state, entry = step(state, attack(actor="bob", target="ana", defense="esquiver", dice=[1, 2, 2, 3]))
    assert params(entry, "defense_rolled")["target"] == 8
    # Cid, not chosen, attacks with no defense roll.
    state, entry = step(state, attack(actor="cid", target="ana", defense=None, dice=[6, 5]))
    assert params(entry, "no_defense") == {"defender": "ana", "reason": "not_faced"}


def test_a_defender_chooses_his_opponents_as_he_declares_his_defense():
    state = defending_against_two()
    # Bob's punch 1+2 = 3 <= 8; Ana's dodge 2+3 = 5 <= 8: 7 + Bagarre 1, no -2 now that she faces Bob alone.
    state, entry = step(
        state, {"type": "defend", "actor": "ana", "defense": "esquiver", "face": ["bob"], "dice": [1, 2, 2, 3]}
    )
    assert params(entry, "faces") == {"combatant": "ana", "opponents": ["bob"], "malus": 0}
    assert (
        params(entry, "defense_rolled")["target"] == 8
        and "opponents" not in params(entry, "defense_rolled")["modifiers"]
    )
    # Cid, not chosen, attacks with no defense roll and keeps the initiative.
    state, entry = step(state, attack(actor="cid", target="ana", defense=None, dice=[6, 5]))
    assert params(entry, "no_defense") == {"defender": "ana", "reason": "not_faced"}


def test_without_a_choice_the_defender_keeps_minus_two():
    _, entry = step(
        defending_against_two(), {"type": "defend", "actor": "ana", "defense": "esquiver", "dice": [1, 2, 2, 3]}
    )
    assert params(entry, "defense_rolled")["modifiers"]["opponents"] == -2
    assert params(entry, "defense_rolled")["target"] == 6  # 7 + 1 - 2


def test_the_opponents_chosen_with_a_defense_include_the_attacker_and_are_offered():
    state = defending_against_two()
    defend = {"type": "defend", "actor": "ana", "defense": "esquiver"}
    assert refused(state, {**defend, "face": ["cid"]}, InvalidAction) == "face"
    assert refused(state, {**defend, "face": ["bob", "zed"]}, InvalidAction) == "face.1"
    offered = [e["params"]["face"]["choices"] for e in legal(state, "ana") if e["type"] == "defend"]
    assert offered and all(choices == [["bob", "cid"], ["bob"]] for choices in offered)


def test_facing_nobody_is_refused():
    with pytest.raises(InvalidInput) as refusal:
        step(fight(), {"type": "face", "actor": "ana", "opponents": []})
    assert "opponents" in refusal.value.messages
    assert all(
        set(choice)
        for e in legal(fight(), "ana")
        if e["type"] == "face"
        for choice in e["params"]["opponents"]["choices"]
    )
