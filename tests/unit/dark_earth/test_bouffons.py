"""The optional « Bouffons » rule (dk-gone:regles_optionnelles), option ``bouffons``.

A bouffon is its DIFF (dice: its INIT, ATT and DEF), its bonus aux dommages
(the DOM of its blows, no FOR) and its Défense (taken off the damage of a
blow on it, no PROT nor RES roll); the first blow through takes it out.
"""

import pytest

from service.rules.dark_earth import RULESET as RULESET_OBJECT
from service.rules.errors import InvalidAction, InvalidInput

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import RULESET, allocate, kael, refused

ON = {"bouffons": True}


def brigand(**bouffon):
    return {
        "id": "brigand",
        "name": "Brigand",
        "side": "ombres",
        "bouffon": {"diff": 3, "damage": 4, "defense": 1, **bouffon},
    }


def fight(options=ON, hero=None, **bouffon):
    return start(RULESET, [hero or kael(contact_with=["brigand"]), brigand(**bouffon)], options=options)[0]


def test_bouffons_are_an_option_off_by_default():
    with pytest.raises(InvalidAction) as caught:
        fight(options=None)
    assert caught.value.field == "combatants.1.bouffon"


@pytest.mark.parametrize(
    ("sheet", "field"),
    [
        ({"id": "x", "name": "X", "side": "a"}, "attributes"),  # neither a fighter nor a bouffon
        ({**brigand(), "weapons": [{"id": "gourdin", "damage": 2}]}, "weapons"),
        ({**brigand(), "attributes": {"MEL": 1, "TIR": 1, "AGI": 1, "FOR": 1, "RES": 1}}, "attributes"),
        (brigand(diff=5), "bouffon"),  # beyond 4D, the normal rules (the source)
        (brigand(defense=4), "bouffon"),  # up to 3 points of Défense
    ],
)
def test_malformed_bouffon_sheets_are_refused(sheet, field):
    with pytest.raises(InvalidInput) as caught:
        start(RULESET, [kael(), sheet], options=ON)
    assert field in caught.value.messages["combatants"][1]


def test_a_bouffon_acts_on_its_diff_and_the_first_blow_through_takes_it_out():
    state, _ = step(fight({**ON, "auto_end": True}), allocate("kael", "brigand", (2, 3, 2)))
    # INIT: the brigand's DIFF 3 > Kael's 2: it strikes first. ATT 3 dice [1, 2, 3] = 0 vs Kael DEF [4, 5] = 2:
    # fails, riposte bonus 2. Kael: ATT 3 + 2 = 5 dice [6, 4, 4, 1, 1] = 4 vs its DEF 3 dice [4, 1, 1] = 1: DEG 3;
    # 3 + DOM 3 + FOR 2 - Défense 1 = 7 > 0: out of the fight, and the fight is over in tour 1.
    state, entry = step(state, allocate("brigand", "kael", dice=[1, 2, 3, 4, 5, 6, 4, 4, 1, 1, 4, 1, 1]))
    assert params(entry, "turn_order") == {"order": [["brigand"], ["kael"]]}
    revealed = params(entry, "allocation_revealed", 1)
    assert (revealed["weapon"], revealed["pot"], revealed["init"], revealed["att"], revealed["defense"]) == (
        "bouffon",
        3,
        3,
        3,
        3,
    )
    assert params(entry, "attack_failed") == {
        "attacker": "brigand",
        "target": "kael",
        "riposte_bonus": 2,
        "riposte_later": True,
    }
    assert params(entry, "bouffon_blow_scored") == {
        "attacker": "kael",
        "target": "brigand",
        "deg": 3,
        "weapon_damage": 3,
        "strength": 2,
        "defense": 1,
        "score": 7,
    }
    assert params(entry, "bouffon_eliminated") == {"target": "brigand"} and "resistance_rolled" not in codes(entry)
    assert [c["code"] for c in combatant(state, "brigand")["conditions"]] == ["eliminated"]
    assert state["status"] == "over" and state["round"] == 1


def test_a_bouffon_blow_has_its_damage_bonus_as_dom_and_no_for():
    state, _ = step(fight(), allocate("kael", "brigand", (2, 3, 2)))
    # Brigand ATT [6, 6, 4] = 5 vs Kael DEF [1, 2] = 0: DEG 5; Kael RES [1, 2, 3] = 0: 5 + DOM 4 + FOR 0 = 9 -> PV 3.
    # Kael's riposte: ATT 3 - CHOC 9 -> no dice, against the brigand's DEF [2, 2, 2] = 0: a tie fails.
    state, entry = step(state, allocate("brigand", "kael", dice=[6, 6, 4, 1, 2, 1, 2, 3, 2, 2, 2]))
    assert params(entry, "blow_scored") == {
        "attacker": "brigand",
        "target": "kael",
        "deg": 5,
        "weapon_damage": 4,
        "strength": 0,
        "protection": 0,
        "resistance": 0,
        "score": 9,
    }
    assert combatant(state, "kael")["pv"] == 3 and params(entry, "attack_rolled", 1)["pool"] == 0


def test_its_defense_can_absorb_a_blow_and_the_last_option_puts_it_after_the_fighters():
    hero = kael(contact_with=["brigand"], weapons=[])  # bare hands: POT 4 + 0, DOM 0
    state, _ = step(
        fight(options={**ON, "bouffon_initiative": "last"}, hero=hero, defense=3),
        allocate("kael", "brigand", (1, 3, 0)),
    )
    # INIT: Kael 1 > the brigand's 0. Kael ATT [4, 1, 1] = 1 vs its DEF [1, 2, 3] = 0:
    # DEG 1; 1 + DOM 0 + FOR 2 - Défense 3 = 0: absorbed. Brigand ATT [1, 1, 2] = 0
    # vs Kael's DEF, no dice: a tie fails; tour 2 begins.
    state, entry = step(state, allocate("brigand", "kael", dice=[4, 1, 1, 1, 2, 3, 1, 1, 2]))
    assert params(entry, "turn_order") == {"order": [["kael"], ["brigand"]]}
    assert params(entry, "bouffon_blow_scored")["score"] == 0 and params(entry, "blow_absorbed") == {
        "target": "brigand",
        "score": 0,
    }
    assert state["round"] == 2 and combatant(state, "brigand")["conditions"] == []


@pytest.mark.parametrize(
    ("extra", "field"),
    [({"split": {"init": 1, "att": 1, "def": 1}}, "split"), ({"weapon": "epee"}, "weapon"), ({"evade": True}, "evade")],
)
def test_a_bouffon_names_only_its_target(extra, field):
    state = fight()
    assert (
        refused(state, {"type": "allocate", "actor": "brigand", "target": "kael", **extra}, InvalidAction).field
        == field
    )


def test_the_listing_offers_a_bouffon_its_targets_or_no_attack():
    listed = [entry["params"] for entry in RULESET_OBJECT.legal_actions(fight(), "brigand")]
    assert [p.get("target") for p in listed] == [{"required": True, "choices": ["kael"]}, None]
    assert all(not {"weapon", "split", "evade", "reload", "shot"} & set(p) for p in listed)
