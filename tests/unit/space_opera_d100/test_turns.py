"""Seed 1 (D12 + DEX every round) and seed 4 (several attacks per round)."""

import pytest

from service.rules.errors import InvalidAction, NotYourTurn

from ..rules_helpers import codes, params, start, step
from .fixtures import KIRA_FIRST, RULESET, attack, exchange, fight, garde, kira, react, unchanged


def test_initiative_is_d12_plus_dex_highest_first():
    state, entry = start(RULESET, [kira(), garde()], dice=KIRA_FIRST)
    assert params(entry, "initiative_rolled", 0) == {"combatant": "kira", "die": 9, "dex": 14, "total": 23}
    assert params(entry, "initiative_rolled", 1) == {"combatant": "garde", "die": 2, "dex": 11, "total": 13}
    assert params(entry, "turn_order") == {"order": [["kira"], ["garde"]]}
    assert state["awaiting"] == [{"actor": "kira", "actions": ["attack", "pass"], "reason": "turn"}]


def test_equal_scores_go_to_the_higher_dex():
    # Kira 1 + 14 = 15, Garde 4 + 11 = 15: Kira's DEX 14 wins the tie.
    state, _ = start(RULESET, [garde(), kira()], dice=[4, 1])
    assert state["awaiting"][0]["actor"] == "kira"


def test_initiative_is_rolled_again_every_round():
    state = fight()
    state, _ = step(state, {"type": "pass", "actor": "kira"})
    # Garde passes; round 2: Kira 1 + 14 = 15, Garde 12 + 11 = 23.
    state, entry = step(state, {"type": "pass", "actor": "garde", "dice": [1, 12]})
    assert params(entry, "round_started") == {"round": 2}
    assert params(entry, "turn_order") == {"order": [["garde"], ["kira"]]}
    assert state["awaiting"][0]["actor"] == "garde"


def test_only_the_current_actor_may_act_and_nothing_changes_when_refused():
    state = fight()
    before = unchanged(state)
    with pytest.raises(NotYourTurn) as refused:
        step(state, {"type": "attack", "actor": "garde", "target": "kira", "weapon": "epee"})
    assert refused.value.field == "actor"
    assert state == before


def test_several_attacks_cost_5_per_attack_each_and_3_initiative_each():
    # Kira D12 1 + 14 = 15, Garde D12 3 + 11 = 14. Kira declares 2 attacks: -10 on each.
    state = fight(dice=[1, 3])
    state, entry = exchange(state, {"attacks": 2}, dice=[90])
    assert params(entry, "attack_rolled")["needed"] == 50
    assert params(entry, "attack_rolled")["modifiers"] == {"multiple_attacks": -10}
    kira_state = next(c for c in state["combatants"] if c["id"] == "kira")
    assert kira_state["round"]["initiative"] == 12 and kira_state["round"]["attacks_left"] == 1
    # 12 < 14: Garde answers before Kira's second attack.
    assert state["awaiting"] == [{"actor": "garde", "actions": ["attack", "pass"], "reason": "turn"}]
    state, _ = step(state, {"type": "pass", "actor": "garde"})
    assert state["awaiting"] == [{"actor": "kira", "actions": ["attack", "pass"], "reason": "next_attack"}]
    state, entry = exchange(state, dice=[90])
    assert params(entry, "attack_rolled")["needed"] == 50
    assert "round_started" in codes(entry)


def test_a_single_attack_has_no_multiple_attack_penalty():
    state = fight()
    _, entry = exchange(state, dice=[90])
    assert params(entry, "attack_rolled")["needed"] == 60


def test_more_attacks_than_allowed_is_refused():
    state = fight(kira_sheet=kira(max_attacks=2))
    before = unchanged(state)
    with pytest.raises(InvalidAction) as refused:
        attack(state, attacks=3)
    assert refused.value.field == "attacks"
    assert state == before


def test_the_number_of_attacks_cannot_change_within_the_round():
    state = fight()
    state, _ = exchange(state, {"attacks": 3}, dice=[90])
    with pytest.raises(InvalidAction) as refused:
        attack(state, attacks=2)
    assert refused.value.field == "attacks"


def test_the_target_of_a_declared_attack_is_awaited_for_its_reaction():
    state = fight()
    state, entry = attack(state)
    assert codes(entry) == ["attack_declared", "awaiting_reaction"]
    assert entry["rolls"] == []
    assert state["awaiting"] == [{"actor": "garde", "actions": ["react"], "reason": "declare_reaction"}]
    with pytest.raises(NotYourTurn):
        attack(state)
    with pytest.raises(NotYourTurn):
        react(state, actor="kira")


def test_without_asking_reactions_the_attack_resolves_at_once():
    state = fight(options={"ask_reactions": False})
    _, entry = attack(state, dice=[90])
    assert codes(entry)[:3] == ["attack_declared", "attack_rolled", "attack_missed"]
