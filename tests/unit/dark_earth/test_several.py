"""One fighter facing several (the seed is written for a duel; docs G3, G4):
one order for everyone, each fighter attacks his own target once, DEF rolled
once per tour (option: for each attack), a riposte bonus only for the
defender's own attack on that attacker, later in the tour."""

from ..rules_helpers import combatant, params, start, step
from .fixtures import RULESET, allocate, goule, kael


def three(options=None):
    goule2 = goule(id="goule2", name="Goule 2")
    return start(RULESET, [kael(contact_with=["goule", "goule2"]), goule(), goule2], options=options)[0]


def test_the_defense_is_rolled_once_and_counts_against_every_attacker():
    state, _ = step(three(), allocate("kael", "goule", (4, 1, 2)))
    state, _ = step(state, allocate("goule", "kael", (2, 2, 2)))
    # Kael [2] = 0 vs Goule [2,2] = 0; Goule [2,2] = 0 vs Kael DEF [6,6] = 4;
    # Goule 2 [6,6,6] = 6 vs the same 4: DEG 2; Kael RES [1,2,3] = 0: 2 + 1 + 3 = 6.
    dice = [2, 2, 2, 2, 2, 6, 6, 6, 6, 6, 1, 2, 3]
    state, entry = step(state, allocate("goule2", "kael", (1, 3, 2), dice=dice))
    assert params(entry, "turn_order") == {"order": [["kael"], ["goule"], ["goule2"]]}
    assert params(entry, "defense_reused") == {"defender": "kael", "successes": 4}
    assert params(entry, "attack_hit") == {"attacker": "goule2", "target": "kael", "deg": 2}
    assert combatant(state, "kael")["pv"] == 6


def test_the_defense_for_each_attack_option():
    state, _ = step(three({"several_attackers_defense": "each_attack"}), allocate("kael", "goule", (4, 1, 2)))
    state, _ = step(state, allocate("goule", "kael", (2, 2, 2)))
    # As above, but Kael rolls DEF again against Goule 2: [2,3] = 0: DEG 6 -> 6 + 1 + 3 = 10.
    dice = [2, 2, 2, 2, 2, 6, 6, 6, 6, 6, 2, 3, 1, 2, 3]
    state, entry = step(state, allocate("goule2", "kael", (1, 3, 2), dice=dice))
    assert params(entry, "defense_rolled", 2) == {
        "defender": "kael",
        "pool": 2,
        "terms": None,
        "gm": 0,
        "dice": [2, 3],
        "successes": 0,
        "fumble": False,
    }
    assert combatant(state, "kael")["pv"] == 2


def test_the_riposte_bonus_is_only_for_the_defender_own_attack_on_that_attacker():
    state, _ = step(three(), allocate("kael", "goule", (3, 1, 3)))
    state, _ = step(state, allocate("goule", "kael", (1, 3, 2)))
    # Kael [2] = 0 vs Goule [6,5] = 3: bonus 3 for the Goule against Kael. The Goules
    # (INIT 1 both) strike together: Goule 3 + 3 dice [1,1,1,1,1,2]; Goule 2 only 3 dice [1,2,2].
    dice = [2, 6, 5, 1, 1, 1, 1, 1, 2, 1, 2, 3, 1, 2, 2]
    state, entry = step(state, allocate("goule2", "kael", (1, 3, 2), dice=dice))
    assert params(entry, "turn_order") == {"order": [["kael"], ["goule", "goule2"]]}
    first, second = params(entry, "attack_rolled", 1), params(entry, "attack_rolled", 2)
    assert (first["attacker"], first["pool"], first["riposte_bonus"]) == ("goule", 6, 3)
    assert (second["attacker"], second["pool"], second["riposte_bonus"]) == ("goule2", 3, 0)


def test_a_bonus_against_someone_else_is_lost():
    goule2 = goule(id="goule2", name="Goule 2", side="stallites")
    state, _ = start(RULESET, [kael(contact_with=["goule"]), goule(), goule2])
    state, _ = step(state, allocate("kael", "goule", (3, 1, 3)))
    state, _ = step(state, allocate("goule", "goule2", (1, 3, 2)))
    # Kael [2] = 0 vs Goule [6,5] = 3: but the Goule attacks Goule 2: its 3 dice only.
    dice = [2, 6, 5, 1, 2, 2, 1, 2]
    state, entry = step(state, allocate("goule2", split=(1, 3, 2), dice=dice))
    assert params(entry, "attack_rolled", 1)["pool"] == 3 and params(entry, "attack_rolled", 1)["riposte_bonus"] == 0


def test_a_target_already_down_makes_the_attack_lost():
    state, _ = step(three(), allocate("kael", "goule", (4, 3, 0)))
    state, _ = step(state, allocate("goule", "kael", (1, 3, 2)))
    # Kael [6,6,6] = 6 vs Goule [1,2] = 0: 6 + 3 + 2 - RES [1,2,3] = 11: coma. The Goule does
    # not strike (INIT 1, after Goule 2); Goule 2 [1,2] = 0 vs Kael DEF (0 dice) = 0: failed.
    state, entry = step(state, allocate("goule2", "kael", (2, 2, 2), dice=[6, 6, 6, 1, 2, 1, 2, 3, 1, 2]))
    assert params(entry, "attack_lost") == {"attacker": "goule", "target": "kael"}
    assert state["status"] == "active" and state["awaiting"] == [
        {"actor": "kael", "actions": ["allocate"], "reason": "allocation"},
        {"actor": "goule2", "actions": ["allocate"], "reason": "allocation"},
    ]
    assert state["contacts"] == [["goule2", "kael"]]
