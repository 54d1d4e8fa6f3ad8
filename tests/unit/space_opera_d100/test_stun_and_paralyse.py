"""Seed 2 (attack to stun) and seed 3 (attack to paralyse).

Stun dice: attack d100, weapon dice, stun d100, 3D10 minutes (if stunned).
Paralyse dice: attack d100, 1D4, CON test d100, 5D6 minutes (if failed)."""

import pytest

from service.rules.errors import InvalidAction

from ..rules_helpers import codes, combatant, params, step
from .fixtures import attack, droid, exchange, fight, garde, react, unchanged

STUN = {"weapon": "matraque", "mode": "stun"}
PARALYSE = {"weapon": "para", "mode": "paralyse"}


def test_stun_chance_is_damage_x5_plus_the_weapon_bonus_for_3d10_minutes_and_a_quarter_of_the_pv():
    # Club 1d6 = 4: 4 x 5 + 10 = 30%; 20 stuns for 5 + 6 + 7 = 18 min; 4 // 4 = 1 PV.
    # Garde is down, Kira has acted: round 2, only Kira rolls initiative (1).
    state, entry = exchange(fight(garde_sheet=garde(armour=0)), STUN, dice=[30, 4, 20, 5, 6, 7, 1])
    assert params(entry, "stunned") == {"target": "garde", "chance": 30, "roll": 20, "minutes": 18}
    assert params(entry, "stun_damage") == {"target": "garde", "pv_loss": 1}
    target = combatant(state, "garde")
    assert target["pv"] == 13
    assert target["conditions"] == [
        {
            "code": "knocked_out",
            "source": "rules",
            "start": {"round": 1},
            "ends": None,
            "modifiers": {},
            "lasts": {"dice": "3d10", "value": 18, "unit": "minutes"},
        }
    ]
    assert state["awaiting"][0]["actor"] == "kira"
    assert [p["combatant"] for p in [params(entry, "initiative_rolled")]] == ["kira"]


def test_a_stun_roll_above_the_chance_does_not_stun():
    state, entry = exchange(fight(garde_sheet=garde(armour=0)), STUN, dice=[30, 4, 31])
    assert params(entry, "stun_failed") == {"target": "garde", "chance": 30, "roll": 31}
    assert combatant(state, "garde")["conditions"] == []
    assert state["awaiting"][0]["actor"] == "garde"


def test_a_stun_at_the_head_is_at_minus_20_and_the_quarter_is_of_the_doubled_damage():
    # 55 - 20 = 35; 6 x 5 + 10 = 40%; (6 - 0) x 2 = 12 -> 3 PV.
    state, entry = exchange(fight(garde_sheet=garde(armour=0)), {**STUN, "location": "head"}, dice=[30, 6, 99])
    assert params(entry, "attack_rolled")["needed"] == 35
    assert params(entry, "stun_failed")["chance"] == 40
    assert combatant(state, "garde")["pv"] == 11


def test_stun_chance_after_armour_option():
    # Armour 4: (6 - 4) x 5 + 10 = 20%.
    _, entry = exchange(fight(options={"stun_chance_basis": "after_armour"}), STUN, dice=[30, 6, 99])
    assert params(entry, "stun_failed")["chance"] == 20


def test_a_shield_parry_prevents_the_stun():
    # Parry 20 <= Bloquer 50; attack 30; 6 - shield 1d4 2 = 4 -> 1 PV; wear 50 > 2.
    state, entry = exchange(
        fight(garde_sheet=garde(armour=0)), STUN, {"kind": "parry", "item": "bouclier"}, dice=[20, 30, 6, 2, 50]
    )
    assert "stun_blocked" in codes(entry) and "stunned" not in codes(entry)
    assert combatant(state, "garde")["pv"] == 13


@pytest.mark.parametrize(
    ("fields", "sheets", "field"),
    [
        ({"weapon": "vibro", "mode": "stun"}, {}, "weapon"),
        (STUN, {"others": [droid()]}, "target"),
        ({**STUN, "martial_arts": True}, {}, "martial_arts"),
        ({"weapon": "matraque", "mode": "paralyse"}, {}, "weapon"),
    ],
)
def test_illegal_stuns_and_paralyses_are_refused_and_change_nothing(fields, sheets, field):
    state = fight(**sheets, dice=[9, 2, 1] if sheets else [9, 2])
    target = "r2" if sheets else "garde"
    before = unchanged(state)
    with pytest.raises(InvalidAction) as refused:
        attack(state, **{**fields, "target": target})
    assert refused.value.field == field
    assert state == before


def test_failed_con_x_1d4_paralyses_for_5d6_minutes():
    # 1D4 2: CON 13 x 2 = 26; 40 fails; 5D6 1+2+3+4+5 = 15 min; round 2, Kira's initiative 6.
    state, entry = exchange(fight(), PARALYSE, dice=[30, 2, 40, 1, 2, 3, 4, 5, 6])
    assert params(entry, "paralysis_test") == {
        "target": "garde",
        "con": 13,
        "factor": 2,
        "roll": 40,
        "needed": 26,
        "level": "failure",
    }
    assert params(entry, "paralysed") == {"target": "garde", "minutes": 15}
    assert "damage_rolled" not in codes(entry)
    assert state["awaiting"] == [
        {"actor": "kira", "actions": ["attack", "pass"], "reason": "turn"},
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"},
    ]


def test_passed_con_test_gives_contracted_muscles_minus_2_dex_and_minus_10():
    # 1D4 3: 39; 20 passes.
    state, entry = exchange(fight(), PARALYSE, dice=[30, 3, 20])
    assert "contracted" in codes(entry)
    # Garde's sword: Armes blanches 50 - 10 = 40.
    state, _ = step(state, {"type": "attack", "actor": "garde", "target": "kira", "weapon": "epee"})
    state, entry = react(state, actor="kira", dice=[45, 1, 1])
    assert params(entry, "attack_rolled")["needed"] == 40
    assert params(entry, "attack_rolled")["modifiers"] == {"contracted": -10}
    # Round 2 initiative: Garde's DEX 11 - 2 = 9.
    assert params(entry, "initiative_rolled", 1) == {"combatant": "garde", "die": 1, "dex": 9, "total": 10}


def test_contracted_muscles_also_weigh_on_dodges():
    state, _ = exchange(fight(), PARALYSE, dice=[30, 3, 20])
    state, _ = step(state, {"type": "pass", "actor": "garde", "dice": [9, 2]})
    _, entry = exchange(state, reaction={"kind": "dodge"}, dice=[25, 90])
    assert params(entry, "dodge_rolled")["needed"] == 20


def test_droids_can_be_paralysed_unless_the_option_says_otherwise():
    state = fight(others=[droid()], dice=[9, 2, 1])
    _, entry = exchange(state, {**PARALYSE, "target": "r2"}, reaction={"kind": "none", "actor": "r2"}, dice=[30, 3, 20])
    assert params(entry, "paralysis_test")["target"] == "r2"
    state = fight(others=[droid()], dice=[9, 2, 1], options={"paralyse_droids": False})
    with pytest.raises(InvalidAction):
        attack(state, **PARALYSE, target="r2")
