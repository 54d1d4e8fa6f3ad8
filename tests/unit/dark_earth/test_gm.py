"""Game-master controls in Dark Earth: adjust, modify (dice), conditions, contact, worsen_wound, join, leave, the end.

Kael (melee POT 7, RES 3) and the Goule (POT 6) start in contact.
"""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction

from ..rules_helpers import codes, combatant, params, sentences, start, step
from .fixtures import RULESET, allocate, goule, kael

GM = "gm"
# test_melee.test_a_melee_round_with_riposte_bonus: Kael fails, the Goule's riposte wounds him for 6 (critique).
RIPOSTE_DICE = [4, 2, 6, 5, 4, 4, 6, 1, 1, 4, 1, 5, 1, 1]


def duel(**options):
    return start(RULESET, [kael(contact_with=["goule"]), goule()], options=options or None)[0]


def gm(state, kind, **fields):
    return step(state, {"type": kind, "actor": GM, **fields})


def test_adjust_wound_level_sets_its_condition_and_pain_and_refuses_other_levels():
    state, entry = gm(duel(), "adjust", target="kael", set={"wound_level": "grave"}, reason="old arrow")
    assert params(entry, "value_adjusted") == {
        "target": "kael",
        "value": "wound_level",
        "old": None,
        "new": "grave",
        "author": GM,
        "reason": "old arrow",
    }
    grave = next(c for c in combatant(state, "kael")["conditions"] if c["code"] == "grave_wound")
    assert (grave["source"], grave["pain_dice"]) == ("gm", 2)
    state, _ = gm(state, "adjust", target="kael", set={"wound_level": None})
    assert combatant(state, "kael")["conditions"] == []
    with pytest.raises(InvalidAction) as refused:
        gm(state, "adjust", target="kael", set={"wound_level": "light"})
    assert refused.value.field == "set.wound_level"


def test_a_dice_modifier_for_one_round_adds_to_the_pool_then_expires_when_round_2_begins():
    state, entry = gm(duel(), "modify", target="kael", value=2, rounds=1)
    assert params(entry, "modifier_applied") == {
        "target": "kael",
        "value": 2,
        "rounds": 1,
        "author": GM,
        "reason": None,
    }
    state, _ = step(state, allocate("kael", "goule", (2, 3, 2)))
    # Kael ATT 3 + 2 dice, all 2s: 0 vs the Goule's DEF [2, 2] = 0, a tie: no blow.
    state, entry = step(state, allocate("goule", None, (2, 2, 2), dice=[2] * 7))
    assert params(entry, "attack_rolled")["dice"] == [2] * 5
    assert params(entry, "round_started") == {"round": 2}
    assert params(entry, "condition_expired") == {"combatant": "kael", "condition": "modifier"}
    state, _ = step(state, allocate("kael", "goule", (2, 3, 2)))
    state, entry = step(state, allocate("goule", None, (2, 2, 2), dice=[2] * 5))
    assert params(entry, "attack_rolled")["dice"] == [2] * 3


def test_override_is_refused_opposed_pools_have_no_result_of_their_own():
    with pytest.raises(ActionNotAllowed) as refused:
        gm(duel(), "override", target="kael", result="success")
    assert refused.value.field == "type"


def test_coma_at_zero_pv_ends_the_fight_by_itself():
    state, entry = gm(duel(auto_end=True), "adjust", target="goule", set={"pv": 0})
    assert params(entry, "fell_into_coma") == {"target": "goule", "pv": 0}
    assert params(entry, "combat_over") == {"reason": "one_side_standing"} and state["status"] == "over"


def test_coma_then_removed_brings_the_fighter_back():
    state, _ = gm(duel(auto_end=False), "adjust", target="goule", set={"pv": 0})
    assert [a["actor"] for a in state["awaiting"]] == ["kael", "gm"]
    state, entry = gm(state, "condition", target="goule", code="coma", remove=True)
    assert params(entry, "condition_removed")["condition"] == "coma"
    assert [a["actor"] for a in state["awaiting"]] == ["kael", "goule"]
    state, entry = gm(state, "adjust", target="goule", change={"pv": -3})  # -3 <= -RES 3
    assert params(entry, "died") == {"target": "goule", "pv": -3}
    assert {"coma", "dead"} & {c["code"] for c in combatant(state, "goule")["conditions"]} == {"dead"}


def test_a_critique_wound_starts_with_its_choc_spent_on_the_next_attack_and_cleared_at_the_end():
    state, _ = step(duel(), allocate("kael", "goule", (3, 2, 2)))
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=RIPOSTE_DICE))
    assert params(entry, "wound_severity") == {"target": "kael", "level": "critique", "pain": 5}
    assert combatant(state, "kael")["choc"] == 6
    state, entry = gm(state, "worsen_wound", target="kael", amount=1, reason="bleeding")
    assert params(entry, "wound_worsened") == {"target": "kael", "amount": 1, "author": "gm", "reason": "bleeding"}
    assert combatant(state, "kael")["pv"] == 5 and combatant(state, "kael")["choc"] == 6  # no new CHOC
    state, entry = gm(state, "end_combat")
    assert params(entry, "choc_cleared") == {"combatant": "kael", "choc": 6}


def test_choc_set_by_the_gm_is_spent_on_the_next_attack():
    state, _ = gm(duel(pain_malus=False), "adjust", target="kael", set={"choc": 2})
    state, _ = step(state, allocate("kael", "goule", (2, 3, 2)))
    state, entry = step(state, allocate("goule", None, (2, 2, 2), dice=[2, 2, 2]))  # ATT 3 - 2 = 1 die, DEF 2
    assert params(entry, "choc_spent") == {"combatant": "kael", "choc": 2, "malus": 2, "pain_larger": False}
    assert params(entry, "attack_rolled")["dice"] == [2] and combatant(state, "kael")["choc"] == 0


def test_contacts_change_between_tours_only():
    state, entry = gm(duel(), "contact", combatant="kael", target="goule", engaged=False)
    assert params(entry, "contact_broken") == {"combatant": "goule", "target": "kael", "author": GM, "reason": None}
    assert state["contacts"] == []
    state, _ = step(state, allocate("kael", None, (2, 3, 2)))
    with pytest.raises(ActionNotAllowed) as refused:
        gm(state, "contact", combatant="kael", target="goule")
    assert refused.value.field == "type"


def test_a_newcomer_allocates_in_the_current_tour_without_an_initiative_roll():
    state, _ = step(duel(), allocate("kael", None, (2, 3, 2)))
    newcomer = goule(id="goule2", name="Goule 2", contact_with=["kael"])
    state, entry = gm(state, "join", combatant=newcomer)
    assert params(entry, "joined") == {"combatant": "goule2", "side": "ombres", "author": GM, "reason": None}
    assert params(entry, "contact_made") == {"combatant": "goule2", "target": "kael"} and entry["rolls"] == []
    assert [a["actor"] for a in state["awaiting"]] == ["goule", "goule2"]


def test_a_leaver_is_no_longer_waited_for_the_tour_resolves_and_auto_end_sums_up():
    state, _ = step(duel(auto_end=True), allocate("kael", "goule", (2, 3, 2)))
    state, entry = gm(state, "leave", target="goule", how="surrender")
    assert params(entry, "left_fight") == {"target": "goule", "how": "surrender", "author": GM, "reason": None}
    assert "contact_broken" in codes(entry) and state["status"] == "over"
    assert entry["events"][-1]["code"] == "combat_summary"


def test_the_end_summary_counts_the_riposte_wound():
    state, _ = step(duel(), allocate("kael", "goule", (3, 2, 2)))
    state, _ = step(state, allocate("goule", "kael", (1, 3, 2), dice=RIPOSTE_DICE))
    state, entry = gm(state, "end_combat")
    summary = params(entry, "combat_summary")
    assert summary["combatants"]["kael"] == {"damage_dealt": 0, "damage_taken": 6, "wounds": 1, "dead": False}
    assert summary["combatants"]["goule"]["damage_dealt"] == 6
    # Both allocations were played in tour 1; the GM ends the fight in tour 2, never played.
    assert (summary["rounds"], summary["actions"], summary["rolls"]) == (1, 3, len(RIPOSTE_DICE))


def test_the_attack_line_says_the_dice_rolled_under_the_gms_modifier():
    # Issue 38: the line said "5 dice" while 3 were rolled.
    state, _ = gm(duel(), "modify", target="kael", value=-2)
    state, _ = step(state, allocate("kael", "goule", (2, 5, 0)))
    # Kael INIT 2 strikes first: ATT 5 - GM 2 = 3 dice [6, 4, 2] = 2 + 1 + 0 = 3 vs the Goule's DEF [6, 6] = 4:
    # failed, riposte bonus 1. The Goule: ATT 3 + 1 = 4 dice [2, 2, 2, 2] = 0 vs Kael's DEF 0: a tie.
    state, entry = step(state, allocate("goule", "kael", (1, 3, 2), dice=[6, 4, 2, 6, 6, 2, 2, 2, 2]))
    assert params(entry, "attack_rolled") == {
        "attacker": "kael",
        "target": "goule",
        "pool": 3,
        "terms": {"ATT": 5, "GM": -2},
        "gm": -2,
        "malus": 0,
        "riposte_bonus": 0,
        "bonus_successes": 0,
        "total": 3,
        "dice": [6, 4, 2],
        "successes": 3,
        "fumble": False,
    }
    assert sentences(state, entry, "attack_rolled") == [
        "Kael attacks Goule (3 dice: ATT 5 - GM 2): 6, 4, 2 → 3 successes.",
        "Kael attaque Goule (3 dés : ATT 5 - MJ 2) : 6, 4, 2 → 3 réussites.",
        "Kael ataca Goule (3 dados: ATT 5 - mestre 2): 6, 4, 2 → 3 sucessos.",
    ]
    riposte = params(entry, "attack_rolled", 1)
    assert (riposte["pool"], riposte["terms"], riposte["gm"]) == (4, {"ATT": 3, "riposte": 1}, 0)


def test_the_choc_spent_is_said_once_and_counted_in_the_attack_line():
    state, _ = gm(duel(pain_malus=False), "adjust", target="kael", set={"choc": 2})
    state, _ = step(state, allocate("kael", "goule", (2, 3, 2)))
    # Kael ATT 3 - CHOC 2 = 1 die [2] = 0 vs the Goule's DEF [2, 2] = 0: a tie.
    state, entry = step(state, allocate("goule", None, (2, 2, 2), dice=[2, 2, 2]))
    assert sentences(state, entry, "choc_spent") == [
        "Kael's CHOC (2) weighs on this action, then clears.",
        "Kael : le CHOC (2) pèse sur cette action, puis s'efface.",
        "Kael: o CHOC (2) pesa nesta ação e depois se desfaz.",
    ]
    assert sentences(state, entry, "attack_rolled") == [
        "Kael attacks Goule (1 die: ATT 3 - CHOC 2): 2 → 0 successes.",
        "Kael attaque Goule (1 dé : ATT 3 - CHOC 2) : 2 → 0 réussite.",
        "Kael ataca Goule (1 dado: ATT 3 - CHOC 2): 2 → 0 sucesso.",
    ]


def test_a_choc_smaller_than_the_pain_clears_without_weighing():
    # Tour 1 (test_melee.test_a_melee_round_with_riposte_bonus): Kael takes 6, a critique (pain 5), CHOC 6.
    state, _ = step(duel(), allocate("kael", "goule", (3, 2, 2)))
    state, _ = step(state, allocate("goule", "kael", (1, 3, 2), dice=RIPOSTE_DICE))
    state, _ = gm(state, "adjust", target="kael", set={"choc": 1})
    state, _ = step(state, allocate("kael", "goule", (1, 6, 0)))
    # Kael ATT 6 - pain 5 (larger than CHOC 1) = 1 die [6] = 2 vs the Goule's DEF [2, 2] = 0: DEG 2;
    # Goule RES [1, 2, 3] = 0: 2 + DOM 3 + FOR 2 = 7. The Goule's INIT 2 came first: ATT [2, 2] vs no DEF.
    state, entry = step(state, allocate("goule", "kael", (2, 2, 2), dice=[2, 2, 6, 2, 2, 1, 2, 3]))
    assert params(entry, "choc_spent") == {"combatant": "kael", "choc": 1, "malus": 5, "pain_larger": True}
    assert sentences(state, entry, "choc_spent") == [
        "Kael's CHOC (1) clears with this action without weighing on it: their pain weighs more, "
        "and the two do not add up.",
        "Kael : le CHOC (1) s'efface avec cette action sans peser sur elle, car la douleur pèse plus lourd "
        "et les deux ne s'additionnent pas.",
        "Kael: o CHOC (1) se desfaz nesta ação sem pesar nela, porque a dor pesa mais e os dois não se somam.",
    ]
    assert params(entry, "attack_rolled", 1)["terms"] == {"ATT": 6, "pain": -5}
