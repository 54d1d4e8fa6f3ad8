"""Seed: shooters act first by AGI; POT de Tir against DIFF 3 + modifiers, or
against the target's AGI + Esquive roll when it evades; DEG = the margin.

Dice of a shot, in order: the target's evasion roll (when it evades), the
shooter's pool, then the target's RES dice (and partial armour before them).
"""

import pytest

from service.rules.dark_earth.tables import size_modifier

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import RULESET, allocate, goule, kael


def test_a_shooting_round_without_evasion():
    state, _ = start(RULESET, [kael(), goule()])
    state, _ = step(state, allocate("kael", "goule", weapon="arc"))
    # Shot 5 dice [6,6,4,2,1] = 5 successes vs DIFF 3: DEG 2. Goule RES 3 dice [4,1,2] = 1.
    # Blow: DEG 2 + DOM 1 + FOR 2 - PROT 0 - RES 1 = 4 -> PV 10 -> 6, CHOC 4, grave (4 >= RES 3).
    # Goule's ATT 5 - max(CHOC 4, pain 2) = 1 die [5] vs Kael's DEF: no split, no dice -> DEG 1.
    # Kael RES [1,2,3] = 0: DEG 1 + DOM 1 + FOR 3 = 5 -> PV 12 -> 7, grave.
    dice = [6, 6, 4, 2, 1, 4, 1, 2, 5, 1, 2, 3]
    state, entry = step(state, allocate("goule", "kael", (1, 5, 0), dice=dice))
    assert params(entry, "shooting_order") == {"order": [["kael"]]}
    shot = params(entry, "shot_rolled")
    assert (shot["pool"], shot["successes"], shot["base"], shot["difficulty"], shot["hit"]) == (5, 5, 3, 3, True)
    assert params(entry, "shot_hit") == {"attacker": "kael", "target": "goule", "deg": 2}
    assert params(entry, "blow_scored", 0) == {
        "attacker": "kael",
        "target": "goule",
        "deg": 2,
        "weapon_damage": 1,
        "strength": 2,
        "protection": 0,
        "resistance": 1,
        "score": 4,
    }
    assert params(entry, "wounded", 0) == {"target": "goule", "amount": 4, "pv": 6, "wounds": 4, "choc": 4}
    assert params(entry, "wound_severity", 0) == {"target": "goule", "level": "grave", "pain": 2}
    assert params(entry, "choc_spent") == {"combatant": "goule", "choc": 4, "malus": 4, "pain_larger": False}
    assert params(entry, "attack_rolled")["pool"] == 1
    assert params(entry, "wounded", 1) == {"target": "kael", "amount": 5, "pv": 7, "wounds": 5, "choc": 5}
    assert combatant(state, "goule")["choc"] == 0 and combatant(state, "kael")["choc"] == 5
    assert state["round"] == 2 and state["contacts"] == [["goule", "kael"]]


def test_a_shot_that_misses():
    state, _ = start(RULESET, [kael(), goule()])
    state, _ = step(state, allocate("goule", split=(2, 0, 4)))
    state, entry = step(state, allocate("kael", "goule", weapon="arc", dice=[6, 3, 3, 2, 1]))
    assert params(entry, "shot_rolled")["successes"] == 2 and params(entry, "shot_rolled")["hit"] is False
    assert params(entry, "shot_missed") == {"attacker": "kael", "target": "goule"}
    assert "blow_scored" not in codes(entry) and len(entry["rolls"]) == 5


def test_a_shot_exactly_at_the_difficulty_hits_with_deg_0():
    state, _ = start(RULESET, [kael(), goule()])
    state, _ = step(state, allocate("goule", split=(2, 0, 4)))
    # 3 successes vs DIFF 3: DEG 0; RES [6,6,6] = 6: 0 + 1 + 2 - 6 = -3, absorbed.
    state, entry = step(state, allocate("kael", "goule", weapon="arc", dice=[6, 4, 1, 1, 1, 6, 6, 6]))
    assert params(entry, "shot_hit")["deg"] == 0
    assert params(entry, "blow_absorbed") == {"target": "goule", "score": -3}
    assert combatant(state, "goule")["pv"] == 10


def test_a_shooting_round_with_evasion():
    state, _ = start(RULESET, [kael(), goule()])
    state, _ = step(state, allocate("goule", split=(2, 0, 4), evade=True))
    # Evasion AGI 4 + Esquive 1 = 5 dice [6,4,1,2,3] = 3 -> DIFF 3 + cover half (+2) = 5.
    # Shot [6,6,5,4,1] = 6 >= 5: DEG 1. RES [1,1,1]: fumble, 0. Blow 1 + 1 + 2 = 4.
    dice = [6, 4, 1, 2, 3, 6, 6, 5, 4, 1, 1, 1, 1]
    state, entry = step(state, allocate("kael", "goule", weapon="arc", shot={"cover": "half"}, dice=dice))
    assert params(entry, "evasion_rolled") == {
        "combatant": "goule",
        "pool": 5,
        "terms": {"AGI": 4, "Esquive": 1},
        "gm": 0,
        "dice": [6, 4, 1, 2, 3],
        "successes": 3,
        "fumble": False,
    }
    shot = params(entry, "shot_rolled")
    assert (shot["evaded"], shot["base"], shot["difficulty"], shot["successes"]) == (True, 3, 5, 6)
    assert params(entry, "shot_hit")["deg"] == 1
    assert params(entry, "fumbled") == {"combatant": "goule", "roll": "RES"}
    assert params(entry, "wounded")["amount"] == 4
    assert [r["purpose"] for r in entry["rolls"]] == ["evasion goule"] * 5 + ["shot kael"] * 5 + [
        "resistance goule"
    ] * 3


def test_evasion_can_beat_the_shot_and_armour_weighs_on_it():
    # Cuir complète: AGI malus 1 -> evasion 4 dice [6,6,6,6] = 8: a 5-dice shot cannot reach it.
    state, _ = start(RULESET, [kael(), goule(armour={"catalog": "cuir_complete"})])
    state, _ = step(state, allocate("goule", split=(2, 0, 4), evade=True))
    state, entry = step(state, allocate("kael", "goule", weapon="arc", dice=[6, 6, 6, 6, 6, 6, 6, 6, 6]))
    assert params(entry, "evasion_rolled")["pool"] == 4
    assert params(entry, "shot_rolled")["difficulty"] == 8 and params(entry, "shot_rolled")["successes"] == 10
    assert params(entry, "shot_hit")["deg"] == 2


def test_the_shooting_modifiers_add_up():
    state, _ = start(RULESET, [kael(), goule(attributes={"MEL": 3, "TIR": 1, "AGI": 4, "FOR": 3, "RES": 3, "TAI": 1})])
    state, _ = step(state, allocate("goule", split=(2, 0, 4)))
    shot = {
        "range": "bout_portant",
        "cover": "half",
        "target_movement": "running",
        "shooter_pace": "walking",
        "modifier": 1,
    }
    state, entry = step(state, allocate("kael", "goule", weapon="arc", shot=shot, dice=[1, 2, 3, 1, 2]))
    rolled = params(entry, "shot_rolled")
    assert rolled["modifiers"] == {
        "range": -2,
        "cover": 2,
        "target_movement": 1,
        "shooter_pace": 1,
        "target_size": -1,
        "gm": 1,
    }
    assert rolled["difficulty"] == 5


@pytest.mark.parametrize(
    ("tai", "modifier"), [(3, -3), (2, -2), (1, -1), (0, 0), (-1, 1), (-2, 2), (-3, 3), (5, -3), (-5, 3)]
)
def test_the_target_size_row(tai, modifier):
    assert size_modifier(tai) == modifier


def test_shooters_act_first_by_decreasing_agi():
    # Goule (AGI 4) shoots before Kael (AGI 3), though both shoot.
    sling = {"id": "fronde", "name": "Fronde", "kind": "ranged", "skill": "Fronde", "damage": 0}
    state, _ = start(RULESET, [kael(), goule(weapons=[sling])])
    state, _ = step(state, allocate("kael", "goule", weapon="arc"))
    state, entry = step(state, allocate("goule", "kael", dice=[1, 5, 1, 1, 1, 1]))
    assert params(entry, "shooting_order") == {"order": [["goule"], ["kael"]]}
    assert [r["purpose"] for r in entry["rolls"]] == ["shot goule"] + ["shot kael"] * 5


def test_equal_agi_shooters_are_simultaneous_and_both_shots_land():
    # Both AGI 3. Kael's shot [6,6,1,1,1] = 4: DEG 1; Goule RES [1,1,1] = 0: 1 + 1 + 2 = 4,
    # PV 3 -> -1: coma. The Goule still shoots (same group): TIR 1 + Fronde 2 = 3 dice
    # [6,6,1] = 4: DEG 1; Kael RES [1,1,1] = 0: 1 + 9 + 3 = 13, PV 3 -> -10 <= -RES: dead.
    sling = {"id": "fronde", "name": "Fronde", "kind": "ranged", "skill": "Fronde", "damage": 9}
    attributes = {"MEL": 3, "TIR": 1, "AGI": 3, "FOR": 3, "RES": 3}
    state, _ = start(
        RULESET,
        [kael(pv=3), goule(attributes=attributes, pv=3, weapons=[sling], skills={"Fronde": 2})],
        options={"auto_end": True},
    )
    state, _ = step(state, allocate("kael", "goule", weapon="arc"))
    dice = [6, 6, 1, 1, 1, 1, 1, 1] + [6, 6, 1, 1, 1, 1]
    state, entry = step(state, allocate("goule", "kael", dice=dice))
    assert params(entry, "shooting_order") == {"order": [["kael", "goule"]]}
    assert params(entry, "fell_into_coma") == {"target": "goule", "pv": -1}
    assert params(entry, "shot_rolled", 1)["attacker"] == "goule"
    assert params(entry, "died") == {"target": "kael", "pv": -10}
    assert state["status"] == "over" and params(entry, "combat_over") == {"reason": "nobody_standing"}


def test_strength_on_ranged_option():
    state, _ = start(RULESET, [kael(), goule()], options={"strength_on_ranged": False})
    state, _ = step(state, allocate("goule", split=(2, 0, 4)))
    state, entry = step(state, allocate("kael", "goule", weapon="arc", dice=[6, 6, 4, 2, 1, 1, 1, 2]))
    assert params(entry, "blow_scored")["strength"] == 0 and params(entry, "blow_scored")["score"] == 3


def test_a_mechanical_weapon_is_unloaded_by_its_shot():
    state, _ = start(RULESET, [kael(), goule()])
    state, _ = step(state, allocate("goule", split=(2, 0, 4)))
    state, entry = step(state, allocate("kael", "goule", weapon="arbalete", dice=[1, 1, 2, 2, 2]))
    assert params(entry, "weapon_unloaded") == {"combatant": "kael", "weapon": "arbalete"}
    assert combatant(state, "kael")["loaded"] == {"arbalete": False}
