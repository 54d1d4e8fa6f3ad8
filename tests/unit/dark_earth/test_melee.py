"""Seed: most INIT dice attacks first, ATT against DEF; a failure gives the
defender the difference as riposte bonus; then the riposte; DEG = the margin.

Dice of a melee attack, in order: the attacker's ATT pool, the defender's DEF
pool (once per tour by default), then the blow's dice (PROT if partial, RES).
"""

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import RULESET, allocate, goule, kael


def duel(options=None, **goule_overrides):
    return start(RULESET, [kael(contact_with=["goule"]), goule(**goule_overrides)], options=options)[0]


def test_a_melee_round_with_riposte_bonus():
    state, _ = step(duel(), allocate("kael", "goule", (3, 2, 2)))
    # Kael ATT [4,2] = 1 vs Goule DEF [6,5] = 3: fails, riposte bonus 2.
    # Goule ATT 3 + 2 dice [4,4,6,1,1] = 4 vs Kael DEF [4,1] = 1: DEG 3.
    # Kael RES [5,1,1] = 1: DEG 3 + DOM 1 + FOR 3 - PROT 0 - RES 1 = 6 -> PV 12 -> 6, critique (>= 2 x RES 3).
    dice = [4, 2, 6, 5, 4, 4, 6, 1, 1, 4, 1, 5, 1, 1]
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=dice))
    assert params(entry, "turn_order") == {"order": [["kael"], ["goule"]]}
    assert params(entry, "attack_failed") == {
        "attacker": "kael",
        "target": "goule",
        "riposte_bonus": 2,
        "riposte_later": True,
    }
    riposte = params(entry, "attack_rolled", 1)
    assert (riposte["attacker"], riposte["pool"], riposte["riposte_bonus"], riposte["total"]) == ("goule", 5, 2, 4)
    assert params(entry, "attack_hit") == {"attacker": "goule", "target": "kael", "deg": 3}
    assert params(entry, "blow_scored")["score"] == 6
    kael_now = combatant(state, "kael")
    assert (kael_now["pv"], kael_now["wounds"], kael_now["choc"], kael_now["wound_level"]) == (6, 6, 6, "critique")
    assert {
        "code": "critical_wound",
        "source": "rules",
        "start": {"round": 1},
        "ends": None,
        "modifiers": {},
        "pain_dice": 5,
    } in kael_now["conditions"]
    assert [r["purpose"] for r in entry["rolls"]] == (
        ["attack kael"] * 2
        + ["defense goule"] * 2
        + ["attack goule"] * 5
        + ["defense kael"] * 2
        + ["resistance kael"] * 3
    )


def test_the_riposte_bonus_as_successes_option():
    state, _ = step(duel({"riposte_bonus": "successes"}), allocate("kael", "goule", (3, 2, 2)))
    # Goule ATT 3 dice [4,4,6] = 4 + 2 = 6 vs Kael DEF [4,1] = 1: DEG 5.
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[4, 2, 6, 5, 4, 4, 6, 4, 1, 1, 1, 2]))
    riposte = params(entry, "attack_rolled", 1)
    assert (riposte["pool"], riposte["successes"], riposte["total"]) == (3, 4, 6)
    assert params(entry, "attack_hit")["deg"] == 5


def test_a_tie_is_a_failure_with_no_bonus():
    state, _ = step(duel(), allocate("kael", "goule", (3, 2, 2)))
    # Kael [4,2] = 1 vs [4,1] = 1: failed, bonus 0. Goule [2,2,2] = 0 vs Kael [2,2] = 0: failed.
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[4, 2, 4, 1, 2, 2, 2, 2, 2]))
    assert params(entry, "attack_failed", 0) == {
        "attacker": "kael",
        "target": "goule",
        "riposte_bonus": 0,
        "riposte_later": True,
    }
    # Kael has struck already this tour: Goule's failure gives him no blow to ride a bonus on.
    assert params(entry, "attack_failed", 1)["riposte_later"] is False
    assert params(entry, "attack_rolled", 1)["pool"] == 3
    assert "attack_hit" not in codes(entry) and state["round"] == 2


def test_the_attack_that_hits_gives_no_bonus_and_choc_weighs_on_the_riposte():
    state, _ = step(duel(), allocate("kael", "goule", (3, 3, 1)))
    # Kael [6,4,1] = 3 vs Goule [1,2] = 0: DEG 3; RES [6,6,4] = 5: 3 + 3 + 2 - 5 = 3 -> CHOC 3, grave.
    # Goule's riposte: ATT 3 - max(CHOC 3, pain 2) = 0 dice; Kael DEF [5] = 1: failed.
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[6, 4, 1, 1, 2, 6, 6, 4, 5]))
    assert params(entry, "choc_spent") == {"combatant": "goule", "choc": 3, "malus": 3, "pain_larger": False}
    assert params(entry, "attack_rolled", 1)["pool"] == 0 and params(entry, "attack_rolled", 1)["dice"] == []
    assert combatant(state, "goule")["choc"] == 0 and combatant(state, "goule")["pv"] == 7


def test_choc_weighs_on_the_next_tour_then_pain_alone():
    state, _ = step(duel(), allocate("kael", "goule", (3, 2, 2)))
    # Tour 1: Kael [2,3] = 0 vs Goule [2,3] = 0; Goule [6,6,6] = 6 vs Kael [2,3] = 0: DEG 6;
    # Kael RES [6,6,6] = 6: 6 + 1 + 3 - 6 = 4 -> PV 8, CHOC 4, grave (pain 2).
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[2, 3, 2, 3, 6, 6, 6, 2, 3, 6, 6, 6]))
    assert combatant(state, "kael")["choc"] == 4 and "choc_spent" not in codes(entry)
    # Tour 2: Kael ATT 3 - max(4, 2) = 0 dice; Goule DEF [2,3]; Goule [1,2,3] vs Kael DEF 1 - 2 = 0 dice.
    state, _ = step(state, allocate("kael", "goule", (3, 3, 1)))
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[2, 3, 1, 2, 3]))
    assert params(entry, "choc_spent") == {"combatant": "kael", "choc": 4, "malus": 4, "pain_larger": False}
    assert params(entry, "attack_rolled", 0)["pool"] == 0
    assert params(entry, "defense_rolled", 1) == {
        "defender": "kael",
        "pool": 0,
        "terms": {"DEF": 1, "pain": -2},
        "gm": 0,
        "dice": [],
        "successes": 0,
        "fumble": False,
    }
    # Tour 3: CHOC spent, the grave wound's pain alone: 3 - 2 = 1 die.
    state, _ = step(state, allocate("kael", "goule", (3, 3, 1)))
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[2, 2, 3, 1, 2, 3]))
    assert params(entry, "attack_rolled", 0)["pool"] == 1 and params(entry, "attack_rolled", 0)["malus"] == 2


def test_equal_init_is_simultaneous_both_blows_land_without_riposte_bonus():
    state, _ = step(duel({"auto_end": True}), allocate("kael", "goule", (2, 3, 2)))
    # Kael [6,6,6] = 6 vs Goule DEF 1 die [2] = 0: DEG 6; RES [1,2,3] = 0:
    # 6 + 3 + 2 = 11 -> PV -1, coma. The Goule strikes all the same, its pool fixed before (3 dice):
    # [6,6,6] = 6 vs Kael [1,2] = 0: DEG 6; Kael RES [1,2,3]: 6 + 1 + 3 = 10 -> PV 2.
    dice = [6, 6, 6, 2, 1, 2, 3, 6, 6, 6, 1, 2, 1, 2, 3]
    state, entry = step(state, allocate("goule", "kael", (2, 3, 1), dice=dice))
    assert params(entry, "turn_order") == {"order": [["kael", "goule"]]}
    assert params(entry, "fell_into_coma") == {"target": "goule", "pv": -1}
    assert params(entry, "attack_rolled", 1) | {"dice": None} == {
        "attacker": "goule",
        "target": "kael",
        "pool": 3,
        "terms": None,
        "gm": 0,
        "malus": 0,
        "riposte_bonus": 0,
        "bonus_successes": 0,
        "total": 6,
        "dice": None,
        "successes": 6,
        "fumble": False,
    }
    assert combatant(state, "kael")["pv"] == 2
    # One side left standing: the fight ends and the CHOC still active is cancelled.
    assert state["status"] == "over"
    assert [params(entry, "choc_cleared", i) for i in (0, 1)] == [
        {"combatant": "kael", "choc": 10},
        {"combatant": "goule", "choc": 11},
    ]
    assert [c["choc"] for c in state["combatants"]] == [0, 0]


def test_a_fighter_put_down_earlier_in_the_tour_does_not_strike():
    state, _ = step(duel(), allocate("kael", "goule", (3, 3, 1)))
    # Kael [6,6,6] = 6 vs Goule [1,2] = 0: 6 + 3 + 2 - RES [1,2,3] 0 = 11: coma before its attack.
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[6, 6, 6, 1, 2, 1, 2, 3]))
    assert params(entry, "attack_lost") == {"attacker": "goule", "target": "kael"}
    assert state["contacts"] == [] and params(entry, "contact_broken") == {"combatant": "goule", "target": "kael"}


def test_a_melee_attack_puts_the_fighters_in_contact():
    state, _ = start(RULESET, [kael(), goule()])
    assert state["contacts"] == []
    state, _ = step(state, allocate("kael", split=(3, 0, 4)))
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[1, 2, 3, 2, 3, 2, 3]))
    assert params(entry, "contact_made") == {"combatant": "goule", "target": "kael"}
    assert state["contacts"] == [["goule", "kael"]]


def test_a_duel_decided_in_the_first_tour_lasted_one_tour():
    state, _ = step(duel({"auto_end": True}), allocate("kael", "goule", (3, 3, 1)))
    # Kael [6,6,6] = 6 vs Goule [1,2] = 0: DEG 6 + DOM 3 + FOR 2 - RES [1,2,3] 0 = 11 -> PV 10 - 11 = -1, coma.
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[6, 6, 6, 1, 2, 1, 2, 3]))
    assert state["status"] == "over" and state["round"] == 1
    assert params(entry, "combat_summary")["rounds"] == 1
