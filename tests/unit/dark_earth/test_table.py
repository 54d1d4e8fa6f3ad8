"""What the seed leaves to the table: contacts (movement), untreated wounds,
the end of the fight (CHOC cancelled), the options' consistency."""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction, InvalidInput

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import RULESET, allocate, goule, kael, refused


def contact(a, b, engaged=True):
    return {"type": "contact", "actor": "gm", "combatant": a, "target": b, "engaged": engaged}


def test_the_gm_moves_fighters_apart_and_the_shooter_no_longer_splits():
    state, _ = start(RULESET, [kael(contact_with=["goule"]), goule()])
    assert refused(state, allocate("kael", "goule", weapon="arc"), ActionNotAllowed).field == "weapon"
    state, entry = step(state, contact("kael", "goule", engaged=False))
    gm_words = {"author": "gm", "reason": None}
    assert params(entry, "contact_broken") == {"combatant": "goule", "target": "kael", **gm_words}
    assert state["contacts"] == []
    state, _ = step(state, allocate("kael", "goule", weapon="arc"))
    assert state["allocations"]["kael"]["mode"] == "shot"


def test_the_gm_brings_fighters_into_contact():
    state, _ = start(RULESET, [kael(), goule()])
    state, entry = step(state, contact("kael", "goule"))
    assert state["contacts"] == [["goule", "kael"]]
    assert refused(state, contact("goule", "kael"), ActionNotAllowed).field == "engaged"


@pytest.mark.parametrize(
    ("action", "error", "field"),
    [
        (contact("kael", "kael"), InvalidAction, "target"),
        (contact("kael", "nobody"), InvalidAction, "target"),
        (contact("nobody", "kael"), InvalidAction, "combatant"),
        (contact("kael", "goule", engaged=False), ActionNotAllowed, "engaged"),
    ],
)
def test_bad_contact_actions(action, error, field):
    state, _ = start(RULESET, [kael(), goule()])
    assert refused(state, action, error).field == field


def test_contacts_change_only_between_tours():
    state, _ = start(RULESET, [kael(), goule()])
    state, _ = step(state, allocate("goule", split=(2, 0, 4)))
    assert refused(state, contact("kael", "goule"), ActionNotAllowed).field == "type"


def test_contacts_at_creation_must_name_another_combatant():
    with pytest.raises(InvalidAction) as caught:
        start(RULESET, [kael(), goule(contact_with=["ghost"])])
    assert caught.value.field == "combatants.1.contact_with"


def wounded_goule():
    """The Goule with a grave wound: Kael [6,4,1] = 3 vs DEF [1,2] = 0; RES [6,6,4] = 5: 3 + 3 + 2 - 5 = 3."""
    state, _ = start(RULESET, [kael(contact_with=["goule"]), goule()], options={"auto_end": True})
    state, _ = step(state, allocate("goule", split=(2, 0, 4)))
    state, _ = step(state, allocate("kael", "goule", (3, 3, 1), dice=[6, 4, 1, 1, 2, 3, 3, 6, 6, 4]))
    return state


def test_an_untreated_wound_worsens_without_choc():
    state = wounded_goule()
    assert combatant(state, "goule")["wound_level"] == "grave" and combatant(state, "goule")["pv"] == 7
    state, entry = step(
        state, {"type": "worsen_wound", "actor": "gm", "target": "goule", "amount": 2, "reason": "2 minutes"}
    )
    assert params(entry, "wound_worsened") == {"target": "goule", "amount": 2, "author": "gm", "reason": "2 minutes"}
    assert params(entry, "wounded") == {"target": "goule", "amount": 2, "pv": 5, "wounds": 5, "choc": 3}


def test_worsening_into_a_coma_can_end_the_fight():
    state = wounded_goule()
    state, entry = step(state, {"type": "worsen_wound", "actor": "gm", "target": "goule", "amount": 7})
    assert params(entry, "fell_into_coma") == {"target": "goule", "pv": 0}
    assert state["status"] == "over" and params(entry, "combat_over") == {"reason": "one_side_standing"}
    assert params(entry, "choc_cleared") == {"combatant": "goule", "choc": 3}


def test_only_a_grave_or_critique_wound_worsens():
    state, _ = start(RULESET, [kael(), goule()])
    action = {"type": "worsen_wound", "actor": "gm", "target": "goule"}
    assert refused(state, action, ActionNotAllowed).field == "target"
    assert refused(state, action | {"actor": "kael"}, ActionNotAllowed).field == "actor"


def test_the_gm_ends_the_fight_and_the_choc_is_cancelled():
    state = wounded_goule()
    assert combatant(state, "goule")["choc"] == 3
    state, entry = step(state, {"type": "end_combat", "actor": "gm"})
    assert codes(entry) == ["combat_ended", "choc_cleared", "combat_summary"]
    assert combatant(state, "goule")["choc"] == 0 and state["awaiting"] == []


def test_without_auto_end_the_last_side_standing_still_allocates():
    state, _ = start(RULESET, [kael(contact_with=["goule"]), goule(pv=1)], options={"auto_end": False})
    state, _ = step(state, allocate("goule", split=(2, 0, 4)))
    state, entry = step(state, allocate("kael", "goule", (3, 3, 1), dice=[6, 6, 6, 1, 2, 3, 1, 1, 2, 3]))
    assert state["status"] == "active" and state["awaiting"] == [
        {"actor": "kael", "actions": ["allocate"], "reason": "allocation"},
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"},
    ]


def test_the_critique_threshold_cannot_be_below_the_grave_one():
    with pytest.raises(InvalidInput) as caught:
        start(RULESET, [kael(), goule()], options={"grave_wound_res_multiple": 3, "critical_wound_res_multiple": 2})
    assert "critical_wound_res_multiple" in caught.value.messages["options"]


def test_without_auto_end_and_nobody_standing_the_gm_is_awaited():
    # Both shoot at once (AGI 3) and both fall (see test_shooting's simultaneous shots).
    sling = {"id": "fronde", "name": "Fronde", "kind": "ranged", "skill": "Fronde", "damage": 9}
    attributes = {"MEL": 3, "TIR": 1, "AGI": 3, "FOR": 3, "RES": 3}
    sheets = [kael(pv=3), goule(attributes=attributes, pv=3, weapons=[sling], skills={"Fronde": 2})]
    state, _ = start(RULESET, sheets, options={"auto_end": False})
    state, _ = step(state, allocate("kael", "goule", weapon="arc"))
    state, _ = step(state, allocate("goule", "kael", dice=[6, 6, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1, 1]))
    assert state["status"] == "active"
    assert state["awaiting"] == [{"actor": "gm", "actions": ["end_combat"], "reason": "nobody_standing"}]
