"""The listing (/options) and the resolution share their checks (issue 28, item 1).

attack.martial_arts_allowed, attack.mode_allowed and items.usable are the
functions attack.declare refuses with and legal.py lists with; so are (issue
38) items.recover_refusal (what recover works on), attack.stun_refusal (edged
weapons, droids), attack.paralyse_refusal and reactions.parry_refusal (what
parries, shots included). Each test changes one in one place and watches both
the refusal and the listing follow.
"""

from service.rules.errors import ActionNotAllowed, InvalidAction
from service.rules.registry import get_ruleset
from service.rules.space_opera_d100 import attack as attack_rules
from service.rules.space_opera_d100 import items, reactions

from ..rules_helpers import codes, params, refused, replace_everywhere, step
from .fixtures import RULESET, attack, droid, fight


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


def _listed(state, actor, action_type):
    return [c["params"] for c in get_ruleset(RULESET).legal_actions(state, actor) if c["type"] == action_type]


def _recoverable(state):
    """What /options lists for recover (its listing: the jam set by hand left the stored prompts as they were)."""
    return [w for p in get_ruleset(RULESET).action_choices(state, "kira", "recover") for w in p["weapon"]["choices"]]


def _refuse_all(field):
    return lambda *args, **kwargs: ActionNotAllowed("not in this test", field=field)


def test_recover_refusal_decides_what_recover_lists_and_accepts(monkeypatch):
    state = fight()
    kira = state["combatants"][0]
    items.state_of(kira, {"id": "blaster", "vibro": False})["jam"] = 2
    # A destroyed sword that lies on the ground: nothing to recover (items.recover_refusal).
    items.state_of(kira, {"id": "epee", "vibro": False}).update(dropped=True, destroyed=True)
    assert _recoverable(state) == ["blaster"]
    work = {"type": "recover", "actor": "kira", "weapon": "blaster"}
    _replace(monkeypatch, items.recover_refusal, _refuse_all("weapon"))
    assert _recoverable(state) == []
    assert str(refused(state, work, ActionNotAllowed)) == "not in this test"
    _replace(monkeypatch, items.recover_refusal, lambda combatant, weapon: None)
    assert "epee" in _recoverable(state)
    _, entry = step(state, {**work, "weapon": "epee"})
    assert params(entry, "weapon_recovered") == {"combatant": "kira", "item": "epee"}


def _stun_weapons(state):
    return {w for p in _attacks(state) if p["mode"]["choices"] == ["stun"] for w in p["weapon"]["choices"]}


def test_stun_refusal_decides_the_stun_in_the_listing_and_the_declaration(monkeypatch):
    state = fight()
    assert "vibro" not in _stun_weapons(state) and "matraque" in _stun_weapons(state)  # edged / blunt
    _replace(monkeypatch, attack_rules.stun_refusal, lambda weapon, target: None)
    assert "vibro" in _stun_weapons(state)
    _, entry = attack(state, mode="stun")  # the vibro-knife, edged, now stuns
    assert params(entry, "attack_declared")["mode"] == "stun"
    _replace(monkeypatch, attack_rules.stun_refusal, _refuse_all("target"))
    assert _stun_weapons(state) == set()
    blow = {"type": "attack", "actor": "kira", "target": "garde", "weapon": "matraque", "mode": "stun"}
    assert str(refused(state, blow, ActionNotAllowed)) == "not in this test"


def test_paralyse_refusal_decides_the_paralysable_targets_in_both(monkeypatch):
    # R2 a droid; the options make droids immune. Initiative: Kira 23, Garde 13, R2 1 + 11 = 12.
    state = fight(others=[droid()], dice=[9, 2, 1], options={"paralyse_droids": False})
    paralysable = {t for p in _attacks(state) if p["mode"]["choices"] == ["paralyse"] for t in p["target"]["choices"]}
    assert paralysable == {"garde"}
    _replace(monkeypatch, attack_rules.paralyse_refusal, lambda weapon, target, options: None)
    paralysable = {t for p in _attacks(state) if p["mode"]["choices"] == ["paralyse"] for t in p["target"]["choices"]}
    assert paralysable == {"garde", "r2"}
    _, entry = attack(state, target="r2", weapon="para", mode="paralyse")
    assert params(entry, "attack_declared")["target"] == "r2"


def _parries(state):
    return [
        i for p in _listed(state, "garde", "react") if p["kind"]["choices"] == ["parry"] for i in p["item"]["choices"]
    ]


def test_parry_refusal_decides_what_parries_a_shot_in_the_listing_and_the_reaction(monkeypatch):
    state, _ = attack(fight(), weapon="blaster")  # a shot: by default only a shield parries it
    assert _parries(state) == ["bouclier"]
    _replace(monkeypatch, reactions.parry_refusal, lambda item, weapon, options, field="item": None)
    assert _parries(state) == ["epee", "bouclier", "couteau", "grande", "vibro"]
    # Garde parries the shot with his sword: d100 10 for the parry, then 99 for the shot, which misses.
    _, entry = step(state, {"type": "react", "actor": "garde", "kind": "parry", "item": "epee", "dice": [10, 99]})
    assert params(entry, "parry_rolled")["item"] == "epee"
    _replace(monkeypatch, reactions.parry_refusal, _refuse_all("item"))
    assert _parries(state) == []
    shield = {"type": "react", "actor": "garde", "kind": "parry", "item": "bouclier"}
    assert str(refused(state, shield, ActionNotAllowed)) == "not in this test"
