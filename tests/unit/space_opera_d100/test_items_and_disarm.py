"""Seed 7 (destruction of the parrying item) and seed 8 (disarm).

Item wear: after the parry points, a d100 <= the damage parried damages the
item. Disarm dice: [reaction d100], attack d100, second attack d100, DEX x 2 d100."""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction
from service.rules.registry import get_ruleset

from ..rules_helpers import codes, combatant, params, step
from .fixtures import attack, exchange, fight, garde, unchanged


def _worn(steps: int) -> dict:
    return {"steps": steps, "destroyed": False, "vibro": False, "dropped": False, "jam": 0}


@pytest.mark.parametrize(
    ("item", "steps_before", "point_dice", "destroyed"),
    [
        ("couteau", 0, [4], True),  # light: destroyed at the 1st step
        ("epee", 0, [8], False),
        ("epee", 1, [8], True),  # simple: at the 2nd
        ("grande", 1, [6, 6], False),
        ("grande", 2, [6, 6], True),  # heavy: at the 3rd
        ("pavois", 3, [8], False),
        ("pavois", 4, [8], True),  # shield: at the 5th
    ],
)
def test_items_break_at_the_step_of_their_class(item, steps_before, point_dice, destroyed):
    sheet = garde(weapons=[*garde()["weapons"], {"id": "pavois", "catalog": "bouclier", "damage": "1d8"}])
    state = fight(garde_sheet=sheet)
    if steps_before:
        combatant(state, "garde")["items"][item] = _worn(steps_before)
    _, entry = exchange(state, reaction={"kind": "parry", "item": item}, dice=[20, 30, 3, 4, *point_dice, 1])
    wear = params(entry, "item_wear")
    assert wear["roll"] == 1 and wear["damaged"] is True
    assert params(entry, "item_damaged")["steps"] == steps_before + 1
    assert params(entry, "item_damaged")["destroyed"] is destroyed


def test_the_wear_chance_is_the_damage_parried():
    # Sword 1d8 3 parries 3 of 7: 4 > 3 leaves it whole.
    _, entry = exchange(fight(), reaction={"kind": "parry", "item": "epee"}, dice=[20, 30, 3, 4, 3, 4])
    assert params(entry, "item_wear") == {
        "combatant": "garde",
        "item": "epee",
        "roll": 4,
        "chance": 3,
        "damaged": False,
    }


def test_a_damage_step_stops_vibro_and_costs_1_damage_and_5_skill():
    sheet = garde(weapons=[{"id": "vhache", "catalog": "vibro_hache"}])
    state = fight(garde_sheet=sheet)
    # Parry (50 + 50) // 2 = 50; points 1d8+1 = 6; wear 5 <= 6: first step, vibro lost.
    state, entry = exchange(state, reaction={"kind": "parry", "item": "vhache"}, dice=[20, 30, 3, 4, 5, 5])
    assert params(entry, "item_damaged") == {
        "combatant": "garde",
        "item": "vhache",
        "steps": 1,
        "vibro_lost": True,
        "destroyed": False,
    }
    # Garde strikes back with it: 50 - 5; 1d8+1 (4 + 1) - 1 = 4, no vibro die.
    state, _ = step(state, {"type": "attack", "actor": "garde", "target": "kira", "weapon": "vhache"})
    state, entry = step(state, {"type": "react", "actor": "kira", "kind": "none", "dice": [30, 4, 1, 1]})
    assert params(entry, "attack_rolled")["needed"] == 45
    assert params(entry, "damage_rolled")["parts"] == {"weapon": 5, "item_steps": -1}
    assert combatant(state, "kira")["pv"] == 9


def test_a_destroyed_item_cannot_be_used():
    state, _ = exchange(fight(), reaction={"kind": "parry", "item": "couteau"}, dice=[20, 30, 3, 4, 4, 1])
    before = unchanged(state)
    with pytest.raises(ActionNotAllowed) as refused:
        step(state, {"type": "attack", "actor": "garde", "target": "kira", "weapon": "couteau"})
    assert refused.value.field == "weapon"
    assert state == before


def test_disarm_needs_two_hits_then_a_failed_dex_x2():
    # 30 and 40 <= 60; DEX 11 x 2 = 22, 50 fails: Garde drops the sword he holds.
    state, entry = exchange(fight(), {"weapon": "epee", "mode": "disarm"}, dice=[30, 40, 50])
    assert params(entry, "disarm_test") == {
        "target": "garde",
        "item": "epee",
        "dex": 11,
        "roll": 50,
        "needed": 22,
        "level": "failure",
    }
    assert "damage_rolled" not in codes(entry)
    with pytest.raises(ActionNotAllowed):
        step(state, {"type": "attack", "actor": "garde", "target": "kira", "weapon": "epee"})
    state, entry = step(state, {"type": "recover", "actor": "garde", "weapon": "epee", "dice": [1, 1]})
    assert params(entry, "weapon_recovered") == {"combatant": "garde", "item": "epee"}
    assert combatant(state, "garde")["items"]["epee"]["dropped"] is False


def test_disarm_fails_when_the_second_roll_misses_or_the_dex_test_passes():
    _, entry = exchange(fight(), {"weapon": "epee", "mode": "disarm"}, dice=[30, 70])
    assert params(entry, "attack_missed")["fumble"] is False
    state, entry = exchange(fight(), {"weapon": "epee", "mode": "disarm"}, dice=[30, 40, 20])
    assert "weapon_dropped" not in codes(entry)
    assert combatant(state, "garde")["items"] == {}


def test_a_successful_parry_stops_a_disarm_unless_the_option_says_otherwise():
    _, entry = exchange(
        fight(), {"weapon": "epee", "mode": "disarm"}, {"kind": "parry", "item": "epee"}, dice=[20, 30, 40]
    )
    assert params(entry, "parry_stopped") == {"defender": "garde", "mode": "disarm"}
    _, entry = exchange(
        fight(options={"parry_stops_effects": False}),
        {"weapon": "epee", "mode": "disarm"},
        {"kind": "parry", "item": "epee"},
        dice=[20, 30, 40, 50],
    )
    assert params(entry, "weapon_dropped")["item"] == "epee"


@pytest.mark.parametrize("wanted", ["blaster_poing", "bouclier"])
def test_a_weapon_the_target_does_not_carry_cannot_be_disarmed(wanted):
    # Garde carries a sword and a knife only: neither the catalog's hand blaster nor a shield can fall from his
    # hands (before, the refusal did not exist and a dropped phantom joined his items, to be "recovered").
    state = fight(
        garde_sheet=garde(weapons=[{"id": "epee", "catalog": "epee"}, {"id": "couteau", "catalog": "couteau"}])
    )
    before = unchanged(state)
    with pytest.raises(InvalidAction) as refused:
        attack(state, weapon="epee", mode="disarm", target_weapon=wanted)
    assert refused.value.field == "target_weapon" and f"does not carry {wanted!r}" in refused.value.detail
    assert state == before


def test_a_disarm_without_a_named_weapon_takes_the_first_one_carried():
    # Garde has not fought yet: his first weapon, the sword. 30 and 40 <= 60; DEX 11 x 2 = 22 < 50: dropped.
    state, entry = exchange(fight(), {"weapon": "epee", "mode": "disarm"}, dice=[30, 40, 50])
    assert params(entry, "weapon_dropped") == {"combatant": "garde", "item": "epee"}
    assert list(combatant(state, "garde")["items"]) == ["epee"]


def test_a_disarmed_fighter_has_only_his_bare_hands_and_never_a_catalog_weapon_he_does_not_carry():
    """Issue 27 item 12: « ou être désarmé ». The listing offers what the attack accepts (items.arsenal)."""
    state = fight(garde_sheet=garde(weapons=[{"id": "epee", "catalog": "epee"}]))
    # 30 and 40 <= 60; DEX 11 x 2 = 22, 50 fails: the Garde drops his only weapon.
    state, entry = exchange(state, {"weapon": "epee", "mode": "disarm"}, dice=[30, 40, 50])
    assert params(entry, "weapon_dropped") == {"combatant": "garde", "item": "epee"}
    before = unchanged(state)
    with pytest.raises(InvalidAction) as refused:
        step(state, {"type": "attack", "actor": "garde", "target": "kira", "weapon": "hache"})
    assert refused.value.field == "weapon" and "does not carry 'hache'" in refused.value.detail
    assert state == before
    listed = get_ruleset("space-opera-d100").legal_actions(state, "garde")
    weapons = {w for e in listed if e["type"] == "attack" for w in e["params"]["weapon"]["choices"]}
    assert weapons == {"unarmed"}
