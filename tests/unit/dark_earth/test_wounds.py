"""Seed: DEG + weapon DOM + attacker's FOR - armour PROT - RES roll; positive:
wound counter, PV loss and CHOC. Health (dk-gone:sante): coma at 0 PV, death
at PV <= -RES, grave and critique wounds and their pain.

One blow: Kael (POT 7: 3/3/1) on the Goule (1/0/5, no attack). Kael ATT
[6,6,6] = 6 vs DEF 5 dice [1,2,3,1,2] = 0: DEG 6; then the armour's dice when
it is partial; RES 3 dice [1,2,3] = 0. Score 6 + DOM 3 + FOR 2 - PROT = 11 - PROT.
"""

import pytest

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import RULESET, allocate, goule, kael

ATTACK = [6, 6, 6, 1, 2, 3, 1, 2]
RES_ZERO = [1, 2, 3]


def blow(armour_dice=(), res_dice=RES_ZERO, options=None, **goule_overrides):
    state, _ = start(RULESET, [kael(contact_with=["goule"]), goule(**goule_overrides)], options=options)
    state, _ = step(state, allocate("goule", split=(1, 0, 5)))
    return step(state, allocate("kael", "goule", (3, 3, 1), dice=ATTACK + list(armour_dice) + list(res_dice)))


def test_the_wound_formula():
    state, entry = blow(res_dice=[6, 4, 1], pv=20)
    assert params(entry, "blow_scored") == {
        "attacker": "kael",
        "target": "goule",
        "deg": 6,
        "weapon_damage": 3,
        "strength": 2,
        "protection": 0,
        "resistance": 3,
        "score": 8,
    }
    goule_now = combatant(state, "goule")
    assert (goule_now["pv"], goule_now["wounds"], goule_now["choc"]) == (12, 8, 8)


def test_a_score_of_zero_or_less_is_taken_without_harm():
    state, entry = blow(res_dice=[6, 6, 6], armour={"prot": 5})  # 6 + 3 + 2 - 5 - 6 = 0
    assert params(entry, "blow_absorbed") == {"target": "goule", "score": 0}
    assert "wounded" not in codes(entry) and combatant(state, "goule")["choc"] == 0


def test_complete_armour_subtracts_its_prot():
    state, entry = blow(armour={"prot": 3, "coverage": "complete"})
    assert params(entry, "blow_scored")["protection"] == 3 and params(entry, "blow_scored")["score"] == 8
    assert "armour_rolled" not in codes(entry)


def test_partial_armour_rolls_its_prot_as_dice_before_the_res_roll():
    state, entry = blow(armour_dice=[6, 4, 1], armour={"prot": 3, "coverage": "partial"}, pv=20)
    assert params(entry, "armour_rolled") == {
        "combatant": "goule",
        "pool": 3,
        "terms": None,
        "gm": 0,
        "dice": [6, 4, 1],
        "successes": 3,
        "fumble": False,
    }
    assert params(entry, "blow_scored")["protection"] == 3 and params(entry, "blow_scored")["score"] == 8
    assert [r["purpose"] for r in entry["rolls"][-6:]] == ["armour goule"] * 3 + ["resistance goule"] * 3


def test_a_catalog_armour():
    state, entry = blow(armour={"catalog": "cuir_complete"})
    assert params(entry, "blow_scored")["protection"] == 2


@pytest.mark.parametrize(
    ("pv", "pv_after", "state_code"),
    [(12, 1, None), (11, 0, "fell_into_coma"), (9, -2, "fell_into_coma"), (8, -3, "died")],
)
def test_coma_at_zero_pv_and_death_at_minus_res(pv, pv_after, state_code):
    state, entry = blow(pv=pv)
    assert combatant(state, "goule")["pv"] == pv_after
    if state_code is None:
        assert "fell_into_coma" not in codes(entry) and "died" not in codes(entry)
    else:
        assert params(entry, state_code) == {"target": "goule", "pv": pv_after}
    expected = {"fell_into_coma": "coma", "died": "dead"}.get(state_code)
    assert [c["code"] for c in combatant(state, "goule")["conditions"] if c["code"] in ("coma", "dead")] == (
        [expected] if expected else []
    )


def test_the_gm_death_option_leaves_death_to_the_game_master():
    state, entry = blow(pv=8, options={"death_threshold": "gm"})
    assert params(entry, "fell_into_coma") == {"target": "goule", "pv": -3} and "died" not in codes(entry)


@pytest.mark.parametrize(
    ("res_dice", "score", "level", "pain"),
    [
        ([6, 6, 6], 5, None, 0),
        ([6, 6, 1], 7, "grave", 2),
        ([6, 1, 1], 9, "critique", 5),
        ([4, 1, 1], 10, "critique", 5),
    ],
)
def test_wound_severity_from_the_res_multiples(res_dice, score, level, pain):
    # Options: grave from 2 x RES 3 = 6, critique from 3 x RES = 9.
    options = {"grave_wound_res_multiple": 2, "critical_wound_res_multiple": 3}
    state, entry = blow(res_dice=res_dice, options=options, pv=30)
    assert params(entry, "blow_scored")["score"] == score
    if level is None:
        assert "wound_severity" not in codes(entry)
    else:
        assert params(entry, "wound_severity") == {"target": "goule", "level": level, "pain": pain}


def test_the_default_thresholds_grave_at_res_critique_at_twice_res():
    state, entry = blow(pv=30)  # score 11 >= 2 x 3
    assert params(entry, "wound_severity") == {"target": "goule", "level": "critique", "pain": 5}
    state, entry = blow(pv=30, res_dice=[6, 6, 4])  # score 6 = 2 x 3: critique too
    assert params(entry, "wound_severity")["level"] == "critique"


def test_pain_malus_option_off():
    state, entry = blow(pv=30, options={"pain_malus": False})
    assert params(entry, "wound_severity") == {"target": "goule", "level": "critique", "pain": 0}


def test_a_later_lighter_wound_does_not_lower_the_severity():
    state, _ = blow(pv=30)
    state, _ = step(state, allocate("goule", split=(1, 0, 5)))
    # Second tour: the critique's pain takes the Goule's 5 DEF dice; Kael [6,6,6] = 6: DEG 6;
    # RES [6,6,6] = 6: 11 - 6 = 5 (a grave wound), the critique stays.
    state, entry = step(state, allocate("kael", "goule", (3, 3, 1), dice=[6, 6, 6, 6, 6, 6]))
    assert params(entry, "defense_rolled")["pool"] == 0
    assert "wound_severity" not in codes(entry)
    assert combatant(state, "goule")["wound_level"] == "critique"
    assert combatant(state, "goule")["wounds"] == 16 and combatant(state, "goule")["pv"] == 14


@pytest.mark.parametrize(
    ("options", "level", "pain", "riposte_malus", "tour_2_dice", "tour_2_pool"),
    [
        # Default: 4 >= 2 x RES 2: critique, -5D. Tour 2: ATT 3 - 5 -> no dice.
        (None, "critique", 5, 5, [1, 2, 3, 2, 2], 0),
        # Thresholds 2 x / 3 x RES: 4 >= 4 but < 6: grave, -2D. Tour 2: ATT 3 - 2 = 1 die [2].
        ({"grave_wound_res_multiple": 2, "critical_wound_res_multiple": 3}, "grave", 2, 4, [1, 2, 3, 2, 2, 2], 1),
    ],
)
def test_the_example_goule_after_a_4_point_wound(options, level, pain, riposte_malus, tour_2_dice, tour_2_pool):
    """The published example (Kael 2/3/2, the Goule RES 2 with 1/3/2): what the
    thresholds change, and what they do not."""
    from service.rules.dark_earth import RULESET as RULESET_OBJECT

    example = RULESET_OBJECT.example()
    kael_action, goule_action = example["actions"]
    state, _ = start(RULESET, example["combat"]["combatants"], options=options)
    state, _ = step(state, kael_action)
    # Kael ATT [2, 1, 4] = 1 vs the Goule's DEF [2, 1] = 0: DEG 1;
    # RES 2 dice [6, 1] = 2: 1 + DOM 3 + FOR 2 - 2 = 4 -> PV 6.
    # Its riposte: ATT 3 - max(CHOC 4, pain) -> no dice either way: the seed's CHOC alone (4 PV lost, 4 dice fewer)
    # empties it; against Kael's DEF [4, 4] = 2 it fails.
    state, entry = step(state, {**goule_action, "dice": [2, 1, 4, 2, 1, 6, 1, 4, 4]})
    assert params(entry, "wounded")["amount"] == 4 and combatant(state, "goule")["pv"] == 6
    assert params(entry, "wound_severity") == {"target": "goule", "level": level, "pain": pain}
    riposte = params(entry, "attack_rolled", 1)
    assert (riposte["pool"], riposte["malus"]) == (0, riposte_malus)
    # Tour 2, same splits: Kael ATT [1, 2, 3] = 0 vs the Goule's DEF 2 - pain -> no dice: a tie. The Goule's
    # ATT 3 - pain; Kael's DEF [2, 2] = 0. The thresholds weigh here, on every later roll.
    state, _ = step(state, kael_action)
    state, entry = step(state, {**goule_action, "dice": tour_2_dice})
    assert params(entry, "attack_rolled", 1)["pool"] == tour_2_pool
