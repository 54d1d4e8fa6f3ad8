"""The GM's listing (/options) and the resolution share their checks (issue 28, item 1).

actions.between_tours_refusal, contact_refusal and worsen_refusal are the
functions the GM's `contact` and `worsen_wound` refuse with and legal.py lists
with. Each test changes one in one place and watches both sides follow.
Kael and the Goule start in contact.
"""

from service.rules.dark_earth import actions
from service.rules.errors import ActionNotAllowed
from service.rules.registry import get_ruleset

from ..rules_helpers import params, replace_everywhere, start, step
from .fixtures import RULESET, goule, kael, refused


def _duel():
    return start(RULESET, [kael(contact_with=["goule"]), goule()])[0]


def _gm_listed(state):
    listed = get_ruleset(RULESET).legal_actions(state, "gm")
    return {c["type"]: [x["params"] for x in listed if x["type"] == c["type"]] for c in listed}


def _contacts(state):
    """(combatant, target, engaged) triples the GM's /options lists."""
    return {
        (p["combatant"]["choices"][0], t, p["engaged"]["choices"][0])
        for p in _gm_listed(state).get("contact", [])
        for t in p["target"]["choices"]
    }


def _replace(monkeypatch, original, replacement):
    replace_everywhere(monkeypatch, "service.rules.dark_earth", original, replacement)


def test_contact_refusal_decides_the_gm_contacts_in_the_resolution_and_the_listing(monkeypatch):
    state = _duel()
    assert _contacts(state) == {("kael", "goule", False), ("goule", "kael", False)}  # only breaking off
    _replace(monkeypatch, actions.contact_refusal, lambda state, first, second, engaged: None)
    assert ("kael", "goule", True) in _contacts(state)  # allowed everywhere: coming into contact again
    # Accepted by the resolution too (engage keeps the one contact they already have).
    after, _ = step(state, {"type": "contact", "actor": "gm", "combatant": "kael", "target": "goule", "engaged": True})
    assert after["contacts"] == state["contacts"]
    _replace(monkeypatch, actions.contact_refusal, lambda s, f, t, e: ActionNotAllowed("no", field="engaged"))
    assert _contacts(state) == set()
    action = {"type": "contact", "actor": "gm", "combatant": "kael", "target": "goule", "engaged": False}
    assert str(refused(state, action, ActionNotAllowed)) == "no"


def test_worsen_refusal_decides_the_wounds_the_gm_may_worsen_in_both(monkeypatch):
    state = _duel()
    assert "worsen_wound" not in _gm_listed(state)  # nobody is wounded yet
    worsen = {"type": "worsen_wound", "actor": "gm", "target": "goule", "amount": 1}
    refused(state, worsen, ActionNotAllowed)
    _replace(monkeypatch, actions.worsen_refusal, lambda target: None)
    assert [p["target"]["choices"] for p in _gm_listed(state)["worsen_wound"]] == [["kael", "goule"]]
    _, entry = step(state, worsen)
    assert params(entry, "wound_worsened")["target"] == "goule"


def test_between_tours_refusal_closes_both_gm_actions_in_both(monkeypatch):
    state = _duel()
    _replace(monkeypatch, actions.between_tours_refusal, lambda s, what: ActionNotAllowed("mid-tour", field="type"))
    assert "contact" not in _gm_listed(state)
    action = {"type": "contact", "actor": "gm", "combatant": "kael", "target": "goule", "engaged": False}
    assert str(refused(state, action, ActionNotAllowed)) == "mid-tour"
