"""Seed 5 (dodge) and seed 6 (parry), both declared before the attack roll.

Dice: reaction d100 first, then the attack d100, then (hit) the damage dice,
the parry points (item dice, then damage bonus dice) and the item wear d100."""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction

from ..rules_helpers import codes, combatant, params, step
from .fixtures import attack, exchange, fight, garde, react, unchanged

DODGE = {"kind": "dodge"}
SHIELD = {"kind": "parry", "item": "bouclier"}
SWORD = {"kind": "parry", "item": "epee"}


@pytest.mark.parametrize(
    ("esquive", "roll", "modifier"),
    [
        (30, 25, -40),  # success
        (80, 40, -40),  # margin exactly 40
        (80, 39, -60),  # margin 41
        (30, 22, -60),  # critical (double)
        (30, 1, -60),  # critical (01)
        (30, 31, 0),  # plain failure
        (30, 77, 10),  # fumble (double above the skill)
        (30, 96, 10),  # fumble (96-00)
    ],
)
def test_dodge_effects_on_the_attacker(esquive, roll, modifier):
    sheet = garde(skills={"Armes blanches": 50, "Esquive": esquive, "Bloquer": 50})
    _, entry = exchange(fight(garde_sheet=sheet), reaction=DODGE, dice=[roll, 99])
    assert params(entry, "dodge_rolled")["attack_modifier"] == modifier
    assert params(entry, "attack_rolled")["needed"] == 60 + modifier


def test_extra_dodges_in_a_round_cost_20_40():
    # Kira: 3 attacks at -15 (45); 23 -> 20 -> 17 -> 14 stays above Garde's 13.
    state = fight()
    needed = []
    for attacks in (3, None, None):
        fields = {"attacks": attacks} if attacks else {}
        state, entry = exchange(state, fields, DODGE, dice=[90, 90])
        needed.append(params(entry, "dodge_rolled")["needed"])
    assert needed == [30, 10, -10]


@pytest.mark.parametrize(("option", "penalty"), [("flat", -20), ("per_dodge", -40)])
def test_actions_after_dodging_take_a_further_penalty(option, penalty):
    state = fight(options={"after_dodge_penalty": option})
    state, _ = exchange(state, {"attacks": 2}, DODGE, dice=[90, 90])
    state, _ = exchange(state, {}, DODGE, dice=[90, 90])
    state, _ = step(state, {"type": "attack", "actor": "garde", "target": "kira", "weapon": "epee"})
    _, entry = react(state, actor="kira", dice=[99, 1, 1])
    assert params(entry, "attack_rolled")["modifiers"] == {"after_dodge": penalty}
    assert params(entry, "attack_rolled")["needed"] == 50 + penalty


@pytest.mark.parametrize(("option", "needed"), [("seed", 10), ("ranged_page", 20)])
def test_dodging_a_shot_uses_the_chosen_values(option, needed):
    _, entry = exchange(fight(options={"dodge_effects": option}), {"weapon": "blaster"}, DODGE, dice=[25, 99])
    assert params(entry, "attack_rolled")["needed"] == needed


def test_an_undeclared_dodge_after_the_attack_roll_is_refused_and_changes_nothing():
    state, _ = exchange(fight(), dice=[61])
    before = unchanged(state)
    with pytest.raises(ActionNotAllowed) as refused:
        react(state, kind="dodge")
    assert refused.value.field == "type"
    assert state == before


def test_without_asked_reactions_a_dodge_can_only_be_inline():
    state = fight(options={"ask_reactions": False})
    _, entry = attack(state, reaction=DODGE, dice=[25, 99])
    assert params(entry, "dodge_rolled")["attack_modifier"] == -40
    state, _ = attack(state, dice=[99])
    with pytest.raises(ActionNotAllowed):
        react(state, kind="dodge")


def test_the_weapon_parry_formula():
    # (Bloquer 50 + Armes blanches 41) // 2 + weapon bonus 5 = 50.
    sheet = garde(skills={"Armes blanches": 41, "Bloquer": 50}, weapons=[{"id": "epee", "catalog": "epee", "bonus": 5}])
    _, entry = exchange(fight(garde_sheet=sheet), reaction=SWORD, dice=[51, 99])
    assert (params(entry, "parry_rolled")["skill"], params(entry, "parry_rolled")["needed"]) == (45, 50)


def test_a_shield_parry_uses_bloquer():
    _, entry = exchange(fight(), reaction=SHIELD, dice=[51, 99])
    assert params(entry, "parry_rolled")["needed"] == 50


def test_a_parry_takes_off_the_item_damage_plus_damage_bonus():
    # 7 damage; sword 1d8 5 + damage bonus 1d4 1 = 6 parried; wear 50 > 6; 1 PV.
    sheet = garde(armour=0, damage_bonus="1d4")
    state, entry = exchange(fight(garde_sheet=sheet), reaction=SWORD, dice=[40, 30, 3, 4, 5, 1, 50])
    assert params(entry, "parry_points") == {
        "defender": "garde",
        "item": "epee",
        "points": 6,
        "pierced": 0,
        "parried": 6,
    }
    assert combatant(state, "garde")["pv"] == 13


def test_a_critical_parry_stops_2_more():
    state, entry = exchange(fight(garde_sheet=garde(armour=0)), reaction=SWORD, dice=[33, 30, 3, 4, 2, 50])
    assert params(entry, "parry_rolled")["level"] == "critical"
    assert params(entry, "parry_points")["points"] == 4
    assert combatant(state, "garde")["pv"] == 11


def test_vibro_mode_does_not_count_in_a_parry():
    # Parrying with a vibro-knife: only its 1d4 (2), no vibro die.
    _, entry = exchange(
        fight(garde_sheet=garde(armour=0)), reaction={"kind": "parry", "item": "vibro"}, dice=[40, 30, 3, 4, 2, 50]
    )
    assert params(entry, "parry_points")["points"] == 2
    assert [r["purpose"] for r in entry["rolls"]] == [
        "parry",
        "attack",
        "damage",
        "vibro damage",
        "parry points",
        "parrying item wear",
    ]


def test_armour_piercing_eats_parry_points_first():
    # Shot 3d6 = 12, AP 3; shield 1d4 4: 3 pierced, 1 parried; armour 4 in full; 7 PV;
    # 7 is half of 14: CON x 5 = 65, 20 passes.
    state, entry = exchange(fight(), {"weapon": "perforant"}, SHIELD, dice=[40, 30, 4, 4, 4, 4, 50, 20])
    assert params(entry, "parry_points") == {
        "defender": "garde",
        "item": "bouclier",
        "points": 4,
        "pierced": 3,
        "parried": 1,
    }
    assert params(entry, "damage_rolled")["armour"] == 4
    assert combatant(state, "garde")["pv"] == 7


def test_a_critical_hit_is_parried_at_minus_20():
    # Parry 40 <= 50, but the attack 11 is critical: 40 > 30, the parry fails.
    state, entry = exchange(fight(), reaction=SWORD, dice=[40, 11, 3, 4, 20])
    assert params(entry, "parry_against_critical") == {
        "defender": "garde",
        "penalty": -20,
        "roll": 40,
        "needed": 30,
        "level": "failure",
    }
    assert "parry_points" not in codes(entry)
    assert combatant(state, "garde")["pv"] == 7


def test_a_fumbled_parry_gives_the_attacker_plus_10():
    _, entry = exchange(fight(), reaction=SWORD, dice=[88, 65, 3, 4])
    assert params(entry, "parry_rolled")["attack_modifier"] == 10
    assert params(entry, "attack_rolled")["needed"] == 70


def test_a_shield_parry_moves_a_head_hit_to_the_shield_arm():
    # 7 - 2 parried - 4 armour = 1, not doubled.
    state, entry = exchange(fight(), {"location": "head"}, SHIELD, dice=[20, 30, 3, 4, 2, 50])
    assert params(entry, "damage_rolled")["location"] == "shield_arm"
    assert combatant(state, "garde")["pv"] == 13


def test_a_weapon_parry_is_deducted_before_the_head_doubles():
    state, entry = exchange(fight(), {"location": "head"}, SWORD, dice=[20, 30, 3, 4, 2, 50])
    assert params(entry, "damage_rolled")["pv_loss"] == 2
    assert combatant(state, "garde")["pv"] == 12


def test_average_parry_points_option():
    # Sword 1d8: (1 x 9) // 2 = 4, no die.
    _, entry = exchange(fight(options={"parry_points": "average"}), reaction=SWORD, dice=[20, 30, 3, 4, 50])
    assert params(entry, "parry_points")["points"] == 4


@pytest.mark.parametrize(
    ("reaction", "error", "field"),
    [
        ({"kind": "parry"}, InvalidAction, "item"),
        ({"kind": "parry", "item": "lance"}, InvalidAction, "item"),
        ({"kind": "parry", "item": "unarmed"}, InvalidAction, "item"),
        ({"kind": "dodge", "item": "epee"}, InvalidAction, "item"),
    ],
)
def test_impossible_parries_are_refused(reaction, error, field):
    state, _ = attack(fight())
    before = unchanged(state)
    with pytest.raises(error) as refused:
        react(state, **reaction)
    assert refused.value.field == field
    assert state == before


def test_shots_are_parried_only_with_a_shield_by_default():
    state, _ = attack(fight(), weapon="blaster")
    with pytest.raises(ActionNotAllowed) as refused:
        react(state, **SWORD)
    assert refused.value.field == "item"
    _, entry = react(state, dice=[20, 99], **SHIELD)
    assert params(entry, "parry_rolled")["level"] == "success"
    state, _ = attack(fight(options={"parry_ranged_with": "anything"}), weapon="blaster")
    _, entry = react(state, dice=[20, 99], **SWORD)
    assert params(entry, "parry_rolled")["item"] == "epee"


@pytest.mark.parametrize("inline", [False, True])
def test_a_fighter_cannot_parry_with_a_shield_he_does_not_carry(inline):
    # Garde's sheet holds only a sword: the catalog's "bouclier" is not his to parry with (it would block
    # the stun and the head doubling); refused whether declared by `react` or inline, and nothing changes.
    state = fight(garde_sheet=garde(weapons=[{"id": "epee", "catalog": "epee"}]))
    blow = {"weapon": "matraque", "mode": "stun", "location": "head"}
    if inline:
        before = unchanged(state)
        with pytest.raises(InvalidAction) as refused:
            attack(state, **blow, reaction=SHIELD)
        assert refused.value.field == "reaction.item"
    else:
        state, _ = attack(state, **blow)
        before = unchanged(state)
        with pytest.raises(InvalidAction) as refused:
            react(state, **SHIELD)
        assert refused.value.field == "item"
    assert "does not carry 'bouclier'" in refused.value.detail and state == before
