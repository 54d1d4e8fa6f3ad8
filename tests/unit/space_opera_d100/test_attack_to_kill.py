"""Seed 1 (attack to kill) and seed 8 (head, called shot, sneak, off hand,
martial arts, critical hits). Dice order without a reaction: attack d100,
martial arts d100 (if declared), weapon dice, vibro dice, damage bonus dice,
1D3 for a critical hit on an unarmoured target, then wound dice."""

import pytest

from service.rules.errors import InvalidAction

from ..rules_helpers import codes, combatant, params
from .fixtures import attack, exchange, fight, garde, kira, unchanged


def test_a_hit_deals_the_weapon_damage_minus_armour():
    # Vibro-knife: 30 <= 60; 1d4 3 + vibro 1d4 4 = 7, armour 4 -> 3 PV.
    state, entry = exchange(fight(), dice=[30, 3, 4])
    assert params(entry, "attack_hit") == {"attacker": "kira", "target": "garde", "critical": False}
    damage = params(entry, "damage_rolled")
    assert damage["parts"] == {"weapon": 3, "item_steps": 0, "vibro": 4}
    assert (damage["rolled"], damage["armour"], damage["pv_loss"]) == (7, 4, 3)
    assert combatant(state, "garde")["pv"] == 11


def test_armour_can_stop_everything():
    state, entry = exchange(fight(), {"vibro": False}, dice=[30, 3])
    assert params(entry, "damage_rolled")["pv_loss"] == 0
    assert "damage_taken" not in codes(entry)
    assert combatant(state, "garde")["pv"] == 14


def test_a_miss_deals_nothing():
    state, entry = exchange(fight(), dice=[61])
    assert params(entry, "attack_missed")["fumble"] is False
    assert combatant(state, "garde")["pv"] == 14


def test_a_critical_hit_ignores_armour():
    state, entry = exchange(fight(), dice=[11, 3, 4])
    assert params(entry, "damage_rolled")["armour"] == 0
    assert combatant(state, "garde")["pv"] == 7


def test_a_critical_hit_on_an_unarmoured_target_adds_1d3():
    # 7 + 1D3 2 = 9 PV: half the PV in one round -> CON 13 x 5 = 65 test, 50 passes.
    state, entry = exchange(fight(garde_sheet=garde(armour=0)), dice=[22, 3, 4, 2, 50])
    assert params(entry, "damage_rolled")["rolled"] == 9
    assert params(entry, "consciousness_test") == {
        "target": "garde",
        "con": 13,
        "roll": 50,
        "needed": 65,
        "level": "success",
    }
    assert combatant(state, "garde")["pv"] == 5


def test_the_wielders_damage_bonus_adds_to_melee():
    state, entry = exchange(fight(kira_sheet=kira(damage_bonus="1d4")), dice=[30, 3, 4, 2])
    assert params(entry, "damage_rolled")["parts"]["damage_bonus"] == 2
    assert combatant(state, "garde")["pv"] == 9


def test_a_called_shot_is_at_minus_20_and_the_head_doubles_after_armour():
    # 60 - 20 = 40; (3 + 4 - 4 armour) x 2 = 6.
    state, entry = exchange(fight(), {"location": "head"}, dice=[30, 3, 4])
    assert params(entry, "attack_rolled")["needed"] == 40
    assert params(entry, "damage_rolled")["location"] == "head"
    assert combatant(state, "garde")["pv"] == 8


def test_a_called_shot_elsewhere_is_not_doubled():
    state, _ = exchange(fight(), {"location": "left_leg"}, dice=[30, 3, 4])
    assert combatant(state, "garde")["pv"] == 11


def test_a_sneak_attack_doubles_the_skill_and_cannot_be_answered():
    state, entry = attack(fight(), sneak=True, dice=[90, 3, 4])
    assert "awaiting_reaction" not in codes(entry)
    assert (params(entry, "attack_rolled")["skill"], params(entry, "attack_rolled")["needed"]) == (120, 120)
    assert combatant(state, "garde")["pv"] == 11


def test_the_off_hand_is_at_minus_20_but_not_for_shields():
    _, entry = exchange(fight(), {"off_hand": True}, dice=[45])
    assert params(entry, "attack_rolled")["needed"] == 40
    _, entry = exchange(fight(), {"off_hand": True, "weapon": "bouclier"}, dice=[45])
    assert params(entry, "attack_rolled")["needed"] == 40  # Bloquer 40, no penalty
    assert params(entry, "attack_rolled")["modifiers"] == {}


@pytest.mark.parametrize(("ma_roll", "pv"), [(20, 8), (80, 13)])
def test_unarmed_martial_arts_double_or_halve_the_damage(ma_roll, pv):
    # Bare hands 1d3 = 3: x 2 = 6 or // 2 = 1, on an unarmoured target.
    state, entry = exchange(
        fight(garde_sheet=garde(armour=0)), {"weapon": "unarmed", "martial_arts": True}, dice=[30, ma_roll, 3]
    )
    assert params(entry, "martial_arts_rolled")["kind"] == "unarmed"
    assert combatant(state, "garde")["pv"] == pv


@pytest.mark.parametrize(("ma_roll", "pv"), [(20, 11), (80, 14)])
def test_armed_martial_arts_add_or_remove_2(ma_roll, pv):
    # Sword 1d8 = 5: +2 = 7 - 4 armour = 3, or -2 = 3 - 4 -> 0.
    state, entry = exchange(fight(), {"weapon": "epee", "martial_arts": True}, dice=[30, ma_roll, 5])
    assert params(entry, "martial_arts_rolled")["kind"] == "armed"
    assert combatant(state, "garde")["pv"] == pv


def test_martial_arts_need_a_melee_weapon():
    state = fight()
    before = unchanged(state)
    with pytest.raises(InvalidAction) as refused:
        attack(state, weapon="blaster", martial_arts=True)
    assert refused.value.field == "martial_arts"
    assert state == before


def test_armour_piercing_ignores_armour_points():
    # Blasters 50: 3d6 = 6, armour 4 - 3 pierced = 1 -> 5 PV.
    state, entry = exchange(fight(), {"weapon": "perforant"}, dice=[30, 2, 2, 2])
    assert params(entry, "damage_rolled")["armour"] == 1
    assert combatant(state, "garde")["pv"] == 9


def test_unknown_weapons_and_targets_are_refused():
    state = fight()
    with pytest.raises(InvalidAction) as refused:
        attack(state, weapon="sabre")
    assert refused.value.field == "weapon"
    with pytest.raises(InvalidAction) as refused:
        attack(state, target="nobody")
    assert refused.value.field == "target"
    with pytest.raises(InvalidAction) as refused:
        attack(state, target="kira")
    assert refused.value.field == "target"


@pytest.mark.parametrize("weapon", ["matraque", "bouclier"])
def test_armed_martial_arts_need_an_arme_blanche_unless_the_option_allows_any_melee_weapon(weapon):
    # Seed 8: "Lorsqu'un personnage combat avec une arme blanche"; the catalog files clubs under
    # "Armes contondantes", apart from the "Armes blanches". A club or a shield is refused by default.
    state = fight()
    before = unchanged(state)
    with pytest.raises(InvalidAction) as refused:
        attack(state, weapon=weapon, martial_arts=True)
    assert refused.value.field == "martial_arts" and "arme blanche" in refused.value.detail
    assert state == before


def test_armed_martial_arts_with_a_club_under_the_any_melee_option():
    # Club skill Armes contondantes 55: attack 30 hits; Arts martiaux 30: 20 succeeds -> +2;
    # club 1d6 = 5 + 2 = 7 - armour 4 = 3 PV -> 14 - 3 = 11.
    state = fight(options={"armed_martial_arts": "any_melee"})
    state, entry = exchange(state, {"weapon": "matraque", "martial_arts": True}, dice=[30, 20, 5])
    assert params(entry, "martial_arts_rolled")["kind"] == "armed"
    assert combatant(state, "garde")["pv"] == 11


@pytest.mark.parametrize(("mode", "extra"), [("stun", {}), ("disarm", {"target_weapon": "epee"})])
def test_a_blaster_neither_stuns_nor_disarms_unless_the_option_allows_shots_to(mode, extra):
    # The seed's stun and disarm are on its melee page: a shot is refused by default (field mode).
    state = fight()
    before = unchanged(state)
    with pytest.raises(InvalidAction) as refused:
        attack(state, weapon="blaster", mode=mode, **extra)
    assert refused.value.field == "mode" and state == before
    state, entry = attack(fight(options={"ranged_stun_and_disarm": True}), weapon="blaster", mode=mode, **extra)
    assert params(entry, "attack_declared")["mode"] == mode
