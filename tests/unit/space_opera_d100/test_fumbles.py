"""Seed 8 and notes 3.3: fumbled attacks go through a fumble table.

Dice: attack d100 (a fumble), fumble table d100, then the effect's dice
(weapon damage for a blow that lands on someone). The table d100 is moved by
-(Chance - 40) / 2 and kept within 1-100."""

import pytest

from service.rules.errors import ActionNotAllowed

from ..rules_helpers import codes, combatant, params, sentences, step
from .fixtures import exchange, fight, kira

FUMBLE = 66  # a double above the vibro-knife's 60


@pytest.mark.parametrize(
    ("chance", "roll", "adjustment", "value", "result"),
    [
        (40, 20, 0, 20, "off_balance"),
        (40, 21, 0, 21, "loses_next_action"),
        (60, 30, -10, 20, "off_balance"),
        (20, 15, 10, 25, "loses_next_action"),
        (75, 58, -17, 41, "drops_weapon"),  # -(35 / 2) truncates to -17
        (200, 10, -80, 1, "off_balance"),  # kept within 1-100
        (0, 100, 20, 100, "hits_self"),
    ],
)
def test_the_melee_fumble_roll_and_its_chance_adjustment(chance, roll, adjustment, value, result):
    more = [3, 4, 20] if result == "hits_self" else []  # own damage 7 of 13 PV: CON 12 x 5 test
    _, entry = exchange(fight(kira_sheet=kira(chance=chance)), dice=[FUMBLE, roll, *more])
    assert params(entry, "fumble_rolled") == {
        "attacker": "kira",
        "table": "melee_house",
        "roll": roll,
        "adjustment": adjustment,
        "value": value,
        "result": result,
    }


def test_off_balance_costs_10_on_the_next_action():
    state, _ = exchange(fight(), dice=[FUMBLE, 10])
    state, _ = step(state, {"type": "pass", "actor": "garde", "dice": [9, 2]})
    state, entry = exchange(state, dice=[99])
    assert params(entry, "attack_rolled")["modifiers"] == {"off_balance": -10}
    assert combatant(state, "kira")["conditions"] == []


def test_losing_the_next_action_skips_the_next_turn():
    state, _ = exchange(fight(), dice=[FUMBLE, 30])
    state, entry = step(state, {"type": "pass", "actor": "garde", "dice": [9, 2]})
    assert params(entry, "action_lost") == {"combatant": "kira"}
    assert state["awaiting"][0]["actor"] == "garde"


def test_a_dropped_weapon_must_be_picked_up():
    state, _ = exchange(fight(), dice=[FUMBLE, 50])
    state, _ = step(state, {"type": "pass", "actor": "garde", "dice": [9, 2]})
    with pytest.raises(ActionNotAllowed) as refused:
        exchange(state)
    assert refused.value.field == "weapon"
    _, entry = step(state, {"type": "recover", "actor": "kira", "weapon": "vibro"})
    assert params(entry, "weapon_recovered") == {"combatant": "kira", "item": "vibro"}


def test_a_damaged_weapon_takes_a_step():
    state, entry = exchange(fight(), dice=[FUMBLE, 70])
    assert params(entry, "item_damaged") == {
        "combatant": "kira",
        "item": "vibro",
        "steps": 1,
        "vibro_lost": True,
        "destroyed": True,
    }


def test_the_blow_lands_on_the_first_ally_standing():
    ally = kira(id="jax", name="Jax", armour=2)
    state = fight(others=[ally], dice=[9, 2, 1])
    state, entry = exchange(state, dice=[FUMBLE, 80, 3, 4])
    assert params(entry, "fumble_strike") == {
        "attacker": "kira",
        "target": "jax",
        "parts": {"weapon": 3, "item_steps": 0, "vibro": 4},
        "rolled": 7,
        "armour": 2,
        "pv_loss": 5,
    }
    assert combatant(state, "jax")["pv"] == 8


def test_without_an_ally_the_blow_lands_on_the_attacker():
    state, entry = exchange(fight(), dice=[FUMBLE, 80, 3, 4, 20])
    assert params(entry, "fumble_strike")["target"] == "kira"
    assert combatant(state, "kira")["pv"] == 6


def _leaves(state, who, how):
    state, _ = step(state, {"type": "leave", "actor": "gm", "target": who, "how": how})
    return state


@pytest.mark.parametrize("how", ["flight", "surrender", "removed"])
def test_the_blow_skips_an_ally_who_left_the_fight(how):
    # Issue 38: Jax (listed first) has left; Lia, still fighting, takes the blow.
    state = fight(others=[kira(id="jax", name="Jax"), kira(id="lia", name="Lia", armour=1)], dice=[9, 2, 1, 1])
    state, entry = exchange(_leaves(state, "jax", how), dice=[FUMBLE, 80, 3, 4])
    assert params(entry, "fumble_strike")["target"] == "lia"
    assert "fumble_no_ally" not in codes(entry)
    assert combatant(state, "lia")["pv"] == 7  # 13 - (3 + vibro 4 - armour 1 = 6)
    assert combatant(state, "jax")["pv"] == 13


def test_when_every_ally_left_the_blow_turns_on_the_attacker_and_says_so():
    state = fight(others=[kira(id="jax", name="Jax")], dice=[9, 2, 1])
    state, entry = exchange(_leaves(state, "jax", "flight"), dice=[FUMBLE, 80, 3, 4, 20])
    assert params(entry, "fumble_strike")["target"] == "kira"
    assert combatant(state, "kira")["pv"] == 6 and combatant(state, "jax")["pv"] == 13  # 13 - (3 + 4)
    assert sentences(state, entry, "fumble_no_ally") == [
        "Kira has no ally left in the fight: the fumbled blow turns back on Kira.",
        "Kira n'a plus aucun allié dans le combat : le coup raté se retourne contre son auteur.",
        "Kira não tem mais nenhum aliado no combate: o golpe desastrado se volta contra quem o desferiu.",
    ]


def test_a_shooting_fumble_uses_the_jam_table_and_recover_clears_it():
    # Blasters 50: 99 fumbles; jam table 10 -> jammed, one action to clear.
    state, entry = exchange(fight(), {"weapon": "blaster"}, dice=[99, 10])
    assert params(entry, "fumble_rolled")["table"] == "jam"
    assert params(entry, "weapon_jammed") == {"combatant": "kira", "item": "blaster", "actions": 1}
    state, _ = step(state, {"type": "pass", "actor": "garde", "dice": [9, 2]})
    with pytest.raises(ActionNotAllowed):
        exchange(state, {"weapon": "blaster"})
    state, entry = step(state, {"type": "recover", "actor": "kira", "weapon": "blaster"})
    assert params(entry, "jam_worked") == {"combatant": "kira", "item": "blaster", "left": 0}
    assert combatant(state, "kira")["items"]["blaster"]["jam"] == 0


@pytest.mark.parametrize(
    ("roll", "result"), [(5, "no_jam"), (6, "jam_1"), (21, "jam_2"), (67, "jam_fight"), (91, "weapon_damaged_jam")]
)
def test_jam_table_bands(roll, result):
    _, entry = exchange(fight(), {"weapon": "blaster"}, dice=[99, roll])
    assert params(entry, "fumble_rolled")["result"] == result


def test_a_jam_for_the_fight_cannot_be_cleared():
    state, _ = exchange(fight(), {"weapon": "blaster"}, dice=[99, 67])
    state, _ = step(state, {"type": "pass", "actor": "garde", "dice": [9, 2]})
    with pytest.raises(ActionNotAllowed) as refused:
        step(state, {"type": "recover", "actor": "kira", "weapon": "blaster"})
    assert refused.value.field == "weapon"


def test_an_exploding_weapon_is_destroyed_and_hurts_its_wielder():
    # 3d6 = 6 on unarmoured Kira (13 PV): 7 left.
    state, entry = exchange(fight(), {"weapon": "blaster"}, dice=[99, 96, 2, 2, 2])
    assert params(entry, "item_damaged")["destroyed"] is True
    assert combatant(state, "kira")["pv"] == 7


def test_the_none_table_leaves_the_fumble_to_the_gm():
    _, entry = exchange(fight(options={"melee_fumble_table": "none"}), dice=[FUMBLE])
    assert params(entry, "fumble_for_gm") == {"attacker": "kira", "item": "vibro"}
    assert [r["purpose"] for r in entry["rolls"]] == ["attack"]


def test_the_melee_table_can_be_swapped_for_another_catalog_table():
    _, entry = exchange(fight(options={"melee_fumble_table": "jam"}), dice=[FUMBLE, 10])
    assert params(entry, "fumble_rolled")["table"] == "jam"
    assert "fumble_rolled" in codes(entry)
