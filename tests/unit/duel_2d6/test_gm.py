"""Game-master controls in Duel 2D6: adjust, modify, override, conditions, a
newcomer's interruption roll, leave, the end.

``fight()`` gives Ana the surprise: she holds the initiative against Bob without dice.
Ana's Coup simple with the fist: 7 + Bagarre 1 = 8.
"""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction

from ..rules_helpers import codes, combatant, params, step
from .fixtures import ana, attack, bob, duel, fight, refused, sheet, shoot
from .test_melee import JUDO, KARATE
from .test_ranged import SHOOTER

GM = "gm"


def gm(state, kind, **fields):
    return step(state, {"type": kind, "actor": GM, **fields})


def codes_of(state, combatant_id):
    return [c["code"] for c in combatant(state, combatant_id)["conditions"]]


def test_adjust_sets_a_wound_level_of_the_table_and_zero_pv_puts_out_of_the_fight():
    state, entry = gm(fight(), "adjust", target="bob", set={"wound": "legere", "malus": -1}, reason="old cut")
    assert params(entry, "value_adjusted") == {
        "target": "bob",
        "value": "wound",
        "old": "aucune",
        "new": "legere",
        "author": GM,
        "reason": "old cut",
    }
    assert (
        refused(state, {"type": "adjust", "actor": GM, "target": "bob", "set": {"wound": "scratched"}}, InvalidAction)
        == "set.wound"
    )
    state, entry = gm(state, "adjust", target="bob", change={"pv": -6})
    assert params(entry, "out_of_fight") == {"target": "bob", "pv": 0} and codes_of(state, "bob") == ["unconscious"]
    # auto_end is off by default: the GM is awaited to end the fight.
    assert state["status"] == "active" and state["awaiting"] == [
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"}
    ]


def test_setting_the_wound_level_sets_its_malus_as_the_wound_would():
    # Example F: "C'est donc une blessure grave. Le truand aura donc un malus de -3 sur ses prochaines actions".
    state, entry = gm(fight(first="bob"), "adjust", target="bob", set={"wound": "grave"}, reason="old wound")
    assert params(entry, "wound_malus") == {"target": "bob", "level": "grave", "malus": -3}
    assert combatant(state, "bob")["malus"] == -3 and combatant(state, "bob")["pv"] == 6  # the level moves no PV
    # Bob's punch: 7 + Bagarre 1 - 3 (grave) = 5; 3 + 3 = 6 > 5 misses.
    _, entry = step(state, attack(actor="bob", target="ana", dice=[3, 3]))
    assert params(entry, "attack_rolled")["target"] == 5 and "attack_missed" in codes(entry)
    # Healed to a light wound: -1; back to none: 0.
    state, entry = gm(state, "adjust", target="bob", set={"wound": "legere"})
    assert params(entry, "wound_malus") == {"target": "bob", "level": "legere", "malus": -1}
    state, entry = gm(state, "adjust", target="bob", set={"wound": "aucune"})
    assert combatant(state, "bob")["malus"] == 0 and params(entry, "wound_malus")["malus"] == 0


def test_a_malus_set_with_the_wound_level_is_the_game_masters():
    state, entry = gm(fight(), "adjust", target="bob", set={"wound": "grave", "malus": -2})
    assert combatant(state, "bob")["malus"] == -2 and "wound_malus" not in codes(entry)


def test_a_modifier_for_one_round_applies_to_the_tests_then_expires_when_round_2_begins():
    state, entry = gm(fight(), "modify", target="ana", value=2, rounds=1)
    assert params(entry, "modifier_applied") == {"target": "ana", "value": 2, "rounds": 1, "author": GM, "reason": None}
    state, entry = step(state, attack(dice=[6, 5]))  # 11 > 8 + 2: missed, Bob takes the initiative; the round is over
    rolled = params(entry, "attack_rolled")
    assert (rolled["target"], rolled["modifiers"]["gm_modifier"]) == (10, 2)
    assert params(entry, "round_started") == {"round": 2}
    assert params(entry, "condition_expired") == {"combatant": "ana", "condition": "modifier"}
    state, entry = step(state, attack(actor="bob", target="ana", defense="esquiver", dice=[1, 2, 6, 6]))
    assert "gm_modifier" not in params(entry, "defense_rolled")["modifiers"]


def test_override_makes_the_next_test_fail_and_the_initiative_passes():
    state, entry = gm(fight(), "override", target="ana", result="failure")
    state, entry = step(state, attack(dice=[1, 2]))
    assert "attack_missed" in codes(entry) and duel(state)["attacker"] == "bob"
    assert codes_of(state, "ana") == []


def test_stunned_by_a_coup_bas_ends_when_its_round_comes():
    # test_melee: hit 1+2, fist 3 - 1 = 2, CON 2 + 0 - 2 = 0: 1+2 fails; stunned until round 3 begins.
    state, entry = step(fight(ana(**KARATE), bob()), attack(maneuver="coup_bas", dice=[1, 2, 3, 1, 2]))
    assert codes_of(state, "bob") == ["stunned"] and combatant(state, "bob")["conditions"][0]["ends"] == {"round": 3}
    state, entry = step(state, attack(dice=[6, 5]))  # round 2: Bob stunned keeps no initiative
    assert params(entry, "condition_expired") == {"combatant": "bob", "condition": "stunned"}
    assert params(entry, "round_started") == {"round": 3} and codes_of(state, "bob") == []


def test_stunned_by_the_gm_loses_the_initiative_like_by_the_rules():
    state, entry = gm(fight(), "condition", target="ana", code="stunned", rounds=1)
    assert params(entry, "initiative_passes") == {"attacker": "bob", "defender": "ana", "reason": "stunned"}
    # One to one: nobody else to join.
    assert state["awaiting"] == [
        {"actor": "bob", "actions": ["attack", "threaten", "face", "pass"], "reason": "initiative"}
    ]


def test_prone_after_a_balayage_ends_when_the_fighter_regains_the_initiative():
    state, _ = step(
        fight(ana(**KARATE), bob(attributes={"FOR": 1})),
        attack(maneuver="balayage", dice=[1, 2, 3, 4, 1], defense="jet_dex"),
    )
    assert codes_of(state, "bob") == ["prone"]
    prone = combatant(state, "bob")["conditions"][0]
    assert prone["ends"] == {"event": "stands_up"}
    state, entry = step(state, attack(dice=[6, 6]))  # Ana misses: Bob takes the initiative and gets up
    assert "stands_up" in codes(entry) and codes_of(state, "bob") == []


def test_held_by_a_prise_until_a_degagement():
    state, _ = step(
        fight(ana(**KARATE), bob(**JUDO)), attack(maneuver="prise", part="tete", dice=[1, 2, 6, 5], defense="esquiver")
    )
    assert state["holds"] == [{"holder": "ana", "held": "bob", "part": "tete", "locked": False}]
    state, entry = step(state, attack(maneuver="etrangler", dice=[1, 2, 1, 2], defense="degagement"))
    assert "hold_released" in codes(entry) and state["holds"] == []


def test_suppressed_until_round_3_begins():
    state = fight(ana(**SHOOTER), bob(), sheet("cid", "villains"))
    state, entry = step(
        state, shoot("fusil", 20, shot="tir_de_suppression", zone_width=10, zone=["cid"], defense=None, dice=[1, 2])
    )
    assert params(entry, "round_started") == {"round": 2}  # Ana keeps the initiative; her exchange is done
    assert [c["ends"] for c in combatant(state, "cid")["conditions"]] == [{"round": 3}]
    state, entry = step(state, {"type": "pass", "actor": "ana"})
    assert params(entry, "round_started") == {"round": 3}
    assert [(p["combatant"], p["condition"]) for p in (params(entry, "condition_expired", i) for i in range(2))] == [
        ("bob", "suppressed"),
        ("cid", "suppressed"),
    ]


def test_firing_from_cover_until_the_shooter_acts_again():
    gunfight = fight(ana(**SHOOTER), bob(weapons=[{"id": "pistolet", "catalog": "pistolet_9mm"}]))
    state, _ = step(gunfight, shoot("pistolet", 5, shot="tir_a_couvert", cover=3, dice=[6, 5]))  # missed: Bob's turn
    assert codes_of(state, "ana") == ["firing_from_cover"]
    state, _ = step(state, shoot("pistolet", 5, actor="bob", target="ana", dice=[6, 5]))  # missed: Ana's turn
    state, entry = step(state, {"type": "pass", "actor": "ana"})
    assert params(entry, "leaves_cover") == {"combatant": "ana"} and codes_of(state, "ana") == []


def test_unconscious_and_dead_by_the_gm_leave_the_fight():
    state, entry = gm(
        fight(ana(), bob(), sheet("cid", "villains"), options={"auto_end": False}),
        "condition",
        target="bob",
        code="unconscious",
    )
    assert state["duels"] == [] and codes_of(state, "bob") == ["unconscious"]
    assert [a["actor"] for a in state["awaiting"]] == ["ana", "cid"]  # free fighters now
    state, entry = gm(state, "condition", target="cid", code="dead")
    assert (
        state["awaiting"] == [{"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"}]
        and state["status"] == "active"
    )  # nobody left to fight; the GM ends it


def test_a_newcomer_brought_by_the_gm_joins_with_an_interruption_roll():
    state, entry = gm(fight(), "join", combatant=sheet("cid", "villains"))
    assert (
        params(entry, "joined") == {"combatant": "cid", "side": "villains", "author": GM, "reason": None}
        and entry["rolls"] == []
    )
    assert {"actor": "cid", "actions": ["join"], "reason": "free"} in state["awaiting"]
    state, entry = step(state, {"type": "join", "actor": "cid", "target": "ana", "dice": [1, 2, 6, 5]})
    assert [params(entry, "interruption_rolled", i)["combatant"] for i in range(2)] == ["cid", "ana"]
    assert duel(state, "cid", "ana")["attacker"] == "cid" and combatant(state, "ana")["facing"] == ["bob", "cid"]


def test_leaving_drops_the_duel_and_the_pending_attack_and_auto_end_sums_up():
    state, _ = step(fight(options={"auto_end": True}), attack(defense=None))
    assert state["awaiting"] == [{"actor": "bob", "actions": ["defend"], "reason": "defense"}]
    state, entry = gm(state, "leave", target="bob", how="surrender")
    assert params(entry, "left_fight") == {"target": "bob", "how": "surrender", "author": GM, "reason": None}
    assert state["pending"] is None and state["duels"] == [] and state["status"] == "over"
    with pytest.raises(ActionNotAllowed):
        step(state, {"type": "pass", "actor": "ana"})


def test_the_end_summary_counts_a_wound():
    # Ana's fist 1+2 under 8, no defense, 1d3 = 3 against PV 2: blessure grave, 3 - 2 = 1 PV lost.
    state, entry = step(fight(ana(), bob(pv=2)), attack(dice=[1, 2, 3]))
    assert (params(entry, "wounded")["level"], params(entry, "wounded")["loss"]) == ("grave", 1)
    state, entry = gm(state, "end_combat", reason="the police arrive")
    summary = params(entry, "combat_summary")
    assert summary["combatants"]["bob"] == {"damage_dealt": 0, "damage_taken": 1, "wounds": 1, "dead": False}
    assert summary["combatants"]["ana"]["damage_dealt"] == 1 and (summary["actions"], summary["rolls"]) == (2, 3)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("last_dive_round", "maladresse"),
        ("last_dive_round", 0),
        ("last_dive_round", True),
    ],
)
def test_adjust_refuses_a_value_the_rules_cannot_read(path, value):
    # The narration sweep (issue 38) set the round of the last Plongeon to "maladresse".
    action = {"type": "adjust", "actor": GM, "target": "ana", "set": {path: value}}
    assert refused(fight(), action, InvalidAction) == f"set.{path}"


def test_adjust_sets_the_round_of_the_last_plongeon():
    state, _ = gm(fight(), "adjust", target="ana", set={"last_dive_round": 1})
    assert combatant(state, "ana")["last_dive_round"] == 1
