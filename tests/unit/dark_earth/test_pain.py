"""G16: a pool the pain empties rolls no die, and nothing but the PV ends a fight.

dk-gone:sante: "Une Blessure Critique entraine une perte constante de 5D sur
toutes les actions du personnage"; "Arrivé à 0 point de vie, le personnage
sombre dans le coma"; "Lorsque le total de Point de Vie atteint -RES, le
personnage est mort". No floor, no fall for want of dice: a fighter keeps
his choice of split, and only a split that carries ATT past the pain rolls.
Option pain_beyond_pot "out": a pain at least his best POT takes him out.

Kael (melee POT 7) and the Goule (POT 6, RES 3) start in contact; the GM
gives both a critique wound (pain 5, no CHOC).
"""

from service.rules.dark_earth.tactic import candidates
from service.simulation.tactics import Tactic

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import RULESET, allocate, goule, kael


def both_critique():
    state = start(RULESET, [kael(contact_with=["goule"]), goule()])[0]
    for target in ("kael", "goule"):
        state, _ = step(state, {"type": "adjust", "actor": "gm", "target": target, "set": {"wound_level": "critique"}})
    return state


def test_splits_under_the_pain_roll_no_die_and_the_tour_changes_nothing():
    state, _ = step(both_critique(), allocate("kael", "goule", (2, 3, 2)))
    state, entry = step(state, allocate("goule", "kael", (2, 2, 2)))
    # Equal INIT 2: simultaneous. Kael ATT 3 - 5 and the Goule's ATT 2 - 5: no die; both DEF 2 - 5: no die.
    # 0 successes against 0: a tie, a failure with a riposte bonus of 0 (notes 2.3); no blow, no RES roll.
    assert entry["rolls"] == []
    for index, (attacker, target) in enumerate((("kael", "goule"), ("goule", "kael"))):
        rolled = params(entry, "attack_rolled", index)
        assert (rolled["attacker"], rolled["pool"], rolled["malus"], rolled["total"]) == (attacker, 0, 5, 0)
        assert params(entry, "attack_failed", index) == {
            "attacker": attacker,
            "target": target,
            "riposte_bonus": 0,
            "riposte_later": False,
        }
    assert "wounded" not in codes(entry)
    assert [(c["pv"], c["wound_level"]) for c in state["combatants"]] == [(12, "critique"), (10, "critique")]
    assert state["status"] == "active" and state["round"] == 2


def test_a_split_that_carries_att_past_the_pain_still_hits():
    state, _ = step(both_critique(), allocate("kael", "goule", (0, 7, 0)))
    # The Goule (INIT 2) strikes first: ATT 2 - 5, no die, against Kael's DEF 0 - 5, no die: a tie, no blow.
    # Kael: ATT 7 - 5 = 2 dice [4, 1] = 1 against the Goule's DEF 2 - 5, no die: 1 > 0, DEG 1.
    # Goule RES 3 dice [1, 1, 1] = 0: DEG 1 + DOM 3 + FOR 2 - PROT 0 - RES 0 = 6 -> PV 10 - 6 = 4.
    state, entry = step(state, allocate("goule", "kael", (2, 2, 2), dice=[4, 1, 1, 1, 1]))
    assert params(entry, "turn_order") == {"order": [["goule"], ["kael"]]}
    assert [r["purpose"] for r in entry["rolls"]] == ["attack kael"] * 2 + ["resistance goule"] * 3
    assert params(entry, "attack_hit") == {"attacker": "kael", "target": "goule", "deg": 1}
    goule_now = combatant(state, "goule")
    assert (goule_now["pv"], goule_now["choc"], goule_now["wound_level"]) == (4, 6, "critique")


def test_the_default_tactic_moves_dice_past_the_pain_into_att():
    state = both_critique()
    waiting = {"actor": "kael", "actions": ["allocate"], "reason": "allocation"}

    def split(who, style="balanced"):
        body = next(candidates(state, combatant(state, who), {**waiting, "actor": who}, Tactic(style=style)))
        return body["split"]

    # Kael POT 7, balanced INIT 2 / ATT 3 / DEF 2: ATT 3 <= pain 5, 3 dice short of one die past it:
    # DEF's 2, then 1 of INIT -> INIT 1 / ATT 6 / DEF 0 (ATT rolls 6 - 5 = 1 die).
    assert split("kael") == {"init": 1, "att": 6, "def": 0}
    # Goule POT 6, balanced 2 / 2 / 2: 4 short -> DEF 2, INIT 2 -> 0 / 6 / 0 (1 die).
    assert split("goule") == {"init": 0, "att": 6, "def": 0}
    # Aggressive Kael 1 / 5 / 1: 1 short -> DEF 1 -> 1 / 6 / 0.
    assert split("kael", "aggressive") == {"init": 1, "att": 6, "def": 0}
    # A grave wound (pain 2) on the Goule: balanced 2 / 2 / 2 is 1 short -> 2 / 3 / 1.
    state, _ = step(state, {"type": "adjust", "actor": "gm", "target": "goule", "set": {"wound_level": "grave"}})
    assert split("goule") == {"init": 2, "att": 3, "def": 1}
    # Unwounded: the style's split, untouched.
    state, _ = step(state, {"type": "adjust", "actor": "gm", "target": "goule", "set": {"wound_level": None}})
    assert split("goule") == {"init": 2, "att": 2, "def": 2}


def test_a_pot_the_pain_swallows_is_left_as_the_style_splits_it():
    # Kael with MEL 1 + Épée 3: POT 4 <= pain 5, no split rolls an ATT die: the tactic changes nothing.
    state = start(
        RULESET, [kael(contact_with=["goule"], attributes={"MEL": 1, "TIR": 3, "AGI": 3, "FOR": 2, "RES": 3}), goule()]
    )[0]
    state, _ = step(state, {"type": "adjust", "actor": "gm", "target": "kael", "set": {"wound_level": "critique"}})
    waiting = {"actor": "kael", "actions": ["allocate"], "reason": "allocation"}
    body = next(candidates(state, combatant(state, "kael"), waiting, Tactic()))
    assert body["split"] == {"init": 1, "att": 2, "def": 1}


def weak_goule():
    # MEL 1 + Griffes 3: POT 4; bare hands MEL 1 + Bagarre 0: 1. RES 2: a wound of 4 (2 x RES) is critique.
    return goule(attributes={"MEL": 1, "TIR": 1, "AGI": 4, "FOR": 3, "RES": 2})


# Kael INIT 2 strikes first: ATT 3 dice [4, 1, 1] = 1 against the Goule's DEF 1 die [1] = 0: DEG 1.
# Goule RES 2 dice [6, 1] = 2: DEG 1 + DOM 3 + FOR 2 - PROT 0 - RES 2 = 4 -> PV 10 - 4 = 6, critique (4 >= 2 x 2).
WEAK_GOULE_WOUNDED = [4, 1, 1, 1, 6, 1]


def test_option_out_a_pain_at_least_the_best_pot_takes_the_fighter_out():
    state = start(RULESET, [kael(contact_with=["goule"]), weak_goule()], options={"pain_beyond_pot": "out"})[0]
    state, _ = step(state, allocate("kael", "goule", (2, 3, 2)))
    state, entry = step(state, allocate("goule", "kael", (1, 2, 1), dice=WEAK_GOULE_WOUNDED))
    # Pain 5 >= the best POT max(4, 1) = 4: out of the fight, and its riposte is lost (no die rolled).
    assert params(entry, "incapacitated_by_pain") == {"target": "goule", "pain": 5, "pot": 4}
    assert params(entry, "attack_lost") == {"attacker": "goule", "target": "kael"}
    assert len(entry["rolls"]) == 6
    goule_now = combatant(state, "goule")
    assert (goule_now["pv"], goule_now["wound_level"]) == (6, "critique")
    assert "incapacitated" in {c["code"] for c in goule_now["conditions"]}
    # Only Kael stands: the GM is awaited to end the fight, the Goule no longer allocates.
    assert state["awaiting"] == [
        {"actor": "kael", "actions": ["allocate"], "reason": "allocation"},
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"},
    ]
    assert codes(entry)[-3:] == ["attack_lost", "contact_broken", "round_started"]


def test_by_default_the_same_wound_leaves_the_fighter_in_the_fight():
    state = start(RULESET, [kael(contact_with=["goule"]), weak_goule()])[0]
    state, _ = step(state, allocate("kael", "goule", (2, 3, 2)))
    # As above, then the Goule's riposte: ATT 2 - 5 (pain and CHOC 4, the larger): no die,
    # against Kael's DEF 2 dice [1, 1] = 0: a tie, no blow.
    state, entry = step(state, allocate("goule", "kael", (1, 2, 1), dice=[*WEAK_GOULE_WOUNDED, 1, 1]))
    assert "incapacitated_by_pain" not in codes(entry)
    assert params(entry, "attack_failed", 0)["attacker"] == "goule"
    assert "incapacitated" not in {c["code"] for c in combatant(state, "goule")["conditions"]}


def test_option_out_when_the_gm_sets_the_wound_and_only_when_the_pain_reaches_the_pot():
    state = start(RULESET, [kael(contact_with=["goule"]), weak_goule()], options={"pain_beyond_pot": "out"})[0]
    # Grave: pain 2 < POT 4, the Goule fights on; Kael's critique: 5 < POT 7, he fights on.
    state, entry = step(state, {"type": "adjust", "actor": "gm", "target": "goule", "set": {"wound_level": "grave"}})
    state, entry = step(state, {"type": "adjust", "actor": "gm", "target": "kael", "set": {"wound_level": "critique"}})
    assert "incapacitated_by_pain" not in codes(entry)
    # Critique on the Goule: 5 >= 4.
    state, entry = step(state, {"type": "adjust", "actor": "gm", "target": "goule", "set": {"wound_level": "critique"}})
    assert params(entry, "incapacitated_by_pain") == {"target": "goule", "pain": 5, "pot": 4}
