"""The listing (/options) and the resolution share their checks (issue 28, item 1).

attack.martial_arts_allowed, attack.mode_allowed and items.usable are the
functions attack.declare refuses with and legal.py lists with. Each test
changes one in one place and watches both the refusal and the listing follow.
"""

from service.rules.errors import InvalidAction
from service.rules.registry import get_ruleset
from service.rules.space_opera_d100 import attack as attack_rules
from service.rules.space_opera_d100 import items

from ..rules_helpers import codes, refused, replace_everywhere, step
from .fixtures import RULESET, fight


def _attacks(state):
    return [c["params"] for c in get_ruleset(RULESET).legal_actions(state, "kira") if c["type"] == "attack"]


def _with_martial_arts(state):
    """The weapons /options lists with martial_arts: true."""
    return {w for p in _attacks(state) if True in p["martial_arts"]["choices"] for w in p["weapon"]["choices"]}


def _replace(monkeypatch, original, replacement):
    replace_everywhere(monkeypatch, "service.rules.space_opera_d100", original, replacement)


def test_refusing_martial_arts_in_martial_arts_allowed_refuses_them_in_both(monkeypatch):
    state = fight()
    assert "vibro" in _with_martial_arts(state)  # a blade
    _replace(monkeypatch, attack_rules.martial_arts_allowed, lambda weapon, options: False)
    assert _with_martial_arts(state) == set()
    action = {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", "martial_arts": True}
    assert refused(state, action, InvalidAction).field == "martial_arts"


def test_allowing_a_jammed_weapon_in_usable_allows_it_in_both(monkeypatch):
    state = fight()
    items.state_of(state["combatants"][0], {"id": "vibro", "vibro": True})["jam"] = 2
    assert all("vibro" not in p["weapon"]["choices"] for p in _attacks(state))
    _replace(monkeypatch, items.usable, lambda combatant, weapon: True)
    assert any("vibro" in p["weapon"]["choices"] for p in _attacks(state))
    _, entry = step(state, {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro"})
    assert "attack_declared" in codes(entry), codes(entry)
