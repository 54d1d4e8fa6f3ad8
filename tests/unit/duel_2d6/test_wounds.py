"""Seed C: damage, armour, wound levels against PV, optional rules C-5 and C-6."""

import pytest

from service.rules.errors import ActionNotAllowed

from ..rules_helpers import codes, combatant, params, step
from .fixtures import ana, attack, bob, fight, refused, shoot

EPEE = [{"id": "epee", "catalog": "epee_2m"}]


@pytest.mark.parametrize(
    ("damage_dice", "level", "malus", "loss"),
    [([1, 2], "egratignure", 0, 0), ([2, 2], "legere", -1, 0), ([3, 3], "legere", -1, 0), ([3, 4], "grave", -3, 1)],
)
def test_wound_level_compares_the_damage_with_pv(damage_dice, level, malus, loss):
    state = fight(ana(weapons=EPEE), bob())
    state, entry = step(state, attack(weapon="epee", dice=[1, 2] + damage_dice))
    wounded = params(entry, "wounded")
    assert (wounded["level"], wounded["malus"], wounded["loss"]) == (level, malus, loss)
    assert combatant(state, "bob")["pv"] == 6 - loss and combatant(state, "bob")["malus"] == malus


def test_the_worst_wound_gives_the_malus_and_maluses_do_not_stack():
    state = fight(ana(weapons=EPEE), bob(pv=10))
    state, _ = step(state, attack(weapon="epee", dice=[1, 2, 6, 6]))  # 12 > 10: grave, PV 8
    state, entry = step(state, attack(weapon="epee", dice=[1, 2, 1, 1]))  # 2 <= 4: égratignure
    assert combatant(state, "bob")["malus"] == -3 and combatant(state, "bob")["wound"] == "grave"
    # The wounded fighter rolls at -3.
    state, entry = step(state, attack(weapon="epee", defense="esquiver", dice=[1, 2, 1, 2]))
    assert params(entry, "defense_rolled")["modifiers"]["wound"] == -3


def test_zero_pv_is_out_of_the_fight_and_below_is_death():
    state, entry = step(
        fight(ana(weapons=EPEE), bob(pv=3), options={"auto_end": True}), attack(weapon="epee", dice=[1, 2, 3, 3])
    )
    assert params(entry, "wounded")["pv"] == 0 and "out_of_fight" in codes(entry)
    assert state["status"] == "over" and params(entry, "combat_over")["reason"] == "one_side_standing"
    state, entry = step(fight(ana(weapons=EPEE), bob(pv=3)), attack(weapon="epee", dice=[1, 2, 3, 4]))
    assert "dead" in [c["code"] for c in combatant(state, "bob")["conditions"]] and "died" in codes(entry)
    state, entry = step(
        fight(ana(weapons=EPEE), bob(pv=3), options={"death": "zero"}), attack(weapon="epee", dice=[1, 2, 3, 3])
    )
    assert "died" in codes(entry)


def test_for_bonus_for_natural_and_melee_weapons_not_firearms():
    state = fight(ana(attributes={"FOR": 2}, weapons=[{"id": "pistolet", "catalog": "pistolet_9mm"}]), bob(pv=20))
    _, entry = step(state, attack(dice=[1, 2, 2]))
    assert params(entry, "damage_rolled")["parts"] == {"dice": 2, "FOR": 2}
    _, entry = step(state, shoot("pistolet", 5, dice=[1, 2, 2]))
    assert params(entry, "damage_rolled")["parts"] == {"dice": 4}


def test_armour_ip_reduces_and_the_helmet_only_stops_fragments():
    worn = [{"catalog": "cuir_epais"}, {"catalog": "casque"}]
    state = fight(ana(weapons=[{"id": "pistolet", "catalog": "pistolet_9mm"}]), bob(armour=worn, attributes={"FOR": 3}))
    _, entry = step(state, shoot("pistolet", 5, dice=[1, 2, 3]))
    assert params(entry, "wounded")["ip"] == 1 and params(entry, "wounded")["effective"] == 4
    _, entry = step(state, shoot("pistolet", 5, fragments=True, dice=[1, 2, 3]))
    assert params(entry, "wounded")["ip"] == 2


def test_encumbrance_when_ip_exceeds_for():
    state = fight(ana(), bob(armour=[{"catalog": "gilet_pare_balles"}], attributes={"FOR": 3}))
    _, entry = step(state, attack(defense="esquiver", dice=[1, 2, 1, 2]))
    assert params(entry, "defense_rolled")["modifiers"]["encumbrance"] == -1


def test_hit_location_head_doubles_and_limbs_halve_the_pv_loss():
    state = fight(ana(weapons=EPEE), bob(pv=4), options={"hit_location": True})
    # 2D6 damage 6 vs PV 4: overflow 2; location 1+1 = 2 (tête) doubles it.
    _, entry = step(state, attack(weapon="epee", dice=[1, 2, 3, 3, 1, 1]))
    assert params(entry, "hit_location") == {"target": "bob", "roll": 2, "shift": 0, "location": "tete"}
    assert params(entry, "wounded")["loss"] == 4
    _, entry = step(state, attack(weapon="epee", dice=[1, 2, 3, 3, 2, 2]))
    assert params(entry, "hit_location")["location"] == "bras_g" and params(entry, "wounded")["loss"] == 1


def test_aimed_location_shifts_the_roll_by_up_to_the_skill_level():
    state = fight(ana(weapons=EPEE, skills={"Armes blanches": 1}), bob(pv=20), options={"hit_location": True})
    _, entry = step(state, attack(weapon="epee", aim="tete", dice=[1, 2, 3, 3, 1, 2]))
    assert params(entry, "hit_location") == {"target": "bob", "roll": 3, "shift": -1, "location": "tete"}
    assert refused(fight(), attack(aim="tete"), ActionNotAllowed) == "aim"


def test_optional_coup_mortel_rule_plus_one_damage_per_minus_two():
    state = fight(ana(), bob(), options={"coup_mortel_rule": True})
    _, entry = step(state, attack(coup_mortel_steps=2, dice=[1, 2, 2]))
    assert params(entry, "attack_rolled")["modifiers"]["coup_mortel"] == -4
    assert params(entry, "damage_rolled")["total"] == 4
    assert refused(fight(), attack(coup_mortel_steps=1), ActionNotAllowed) == "coup_mortel_steps"


def test_no_armour_no_encumbrance_even_with_negative_for():
    # "Malus de -1 ... si IP supérieur à FOR": without armour there is no IP to compare.
    state = fight(ana(), bob(attributes={"FOR": -1}))
    _, entry = step(state, attack(defense="esquiver", dice=[1, 2, 1, 2]))
    assert "encumbrance" not in params(entry, "defense_rolled")["modifiers"]
    assert params(entry, "defense_rolled")["target"] == 8  # 7 + Bagarre 1, nothing else


def test_a_helmet_alone_does_not_encumber_unless_its_sheet_says_so():
    # The helmet's IP 1 protects only against fragments: by default it is no body armour to carry.
    state = fight(ana(), bob(attributes={"FOR": -1}, armour=[{"catalog": "casque"}]))
    _, entry = step(state, attack(defense="esquiver", dice=[1, 2, 1, 2]))
    assert params(entry, "defense_rolled")["target"] == 8  # 7 + 1
    state = fight(ana(), bob(attributes={"FOR": -1}, armour=[{"catalog": "casque", "encumbers": True}]))
    _, entry = step(state, attack(defense="esquiver", dice=[1, 2, 1, 2]))
    assert params(entry, "defense_rolled")["modifiers"]["encumbrance"] == -1
    assert params(entry, "defense_rolled")["target"] == 7  # 7 + 1 - 1 (IP 1 > FOR -1)
