"""The listing (/options) and the resolution share their checks (issue 28, item 1).

actions.between_tours_refusal, contact_refusal and worsen_refusal are the
functions the GM's `contact` and `worsen_wound` refuse with and legal.py lists
with; allocation.py's checks (allocator_refusal, target_refusal, ...) and
bounds (allocated_potential, splits_the_pot) are those of the fighters'
`allocate`, and weapons.weapons_of the weapons it takes. Each test changes one
in one place and watches both sides follow. In the GM's tests Kael and the
Goule start in contact.
"""

from service.rules.dark_earth import actions, allocation, weapons
from service.rules.errors import ActionNotAllowed, InvalidAction
from service.rules.registry import get_ruleset

from ..rules_helpers import params, replace_everywhere, start, step
from .fixtures import RULESET, allocate, goule, kael, refused


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


# -- the fighters' allocation: allocation.py's checks and bounds, weapons.weapons_of ---


def _allocation_duel(contact=False, **kael_sheet):
    """Kael (sword: POT 7; bow and loaded crossbow: POT de Tir 5; bare hands: 4) against the Goule."""
    return start(RULESET, [kael(contact_with=["goule"] if contact else [], **kael_sheet), goule()])[0]


def _allocations(state, actor="kael"):
    """The parameters /options lists ``actor``'s allocations with."""
    return [c["params"] for c in get_ruleset(RULESET).legal_actions(state, actor) if c["type"] == "allocate"]


def _entries(state, weapon):
    """(reload choices, attacks, split total or None) of each entry listed with ``weapon``."""
    return [
        (p["reload"]["choices"], "target" in p, p["split"]["total"] if "split" in p else None)
        for p in _allocations(state)
        if p["weapon"]["choices"] == [weapon]
    ]


def test_allocator_refusal_decides_who_is_awaited_listed_and_accepted(monkeypatch):
    original = allocation.allocator_refusal

    def kael_waits(state, actor):
        return ActionNotAllowed("Kael waits", field="actor") if actor["id"] == "kael" else original(state, actor)

    _replace(monkeypatch, original, kael_waits)
    state = _allocation_duel()
    assert [entry["actor"] for entry in state["awaiting"]] == ["goule"]
    assert _allocations(state) == []
    assert str(refused(state, allocate("kael", "goule", (2, 3, 2), weapon="epee"), ActionNotAllowed)) == "Kael waits"
    # The tour waits for nobody else: the Goule's allocation (no attack, nothing rolled) resolves it.
    _, entry = step(state, allocate("goule", split=(2, 0, 4)))
    assert params(entry, "round_started")["round"] == 2


def test_target_refusal_decides_the_targets_in_both(monkeypatch):
    state = _allocation_duel()
    assert {tuple(p["target"]["choices"]) for p in _allocations(state) if "target" in p} == {("goule",)}
    refused(state, allocate("kael", "kael", (2, 3, 2), weapon="epee"), InvalidAction)

    def anyone(actor, target):
        return None

    _replace(monkeypatch, allocation.target_refusal, anyone)
    assert {tuple(p["target"]["choices"]) for p in _allocations(state) if "target" in p} == {("kael", "goule")}
    after, _ = step(state, allocate("kael", "kael", (2, 3, 2), weapon="epee"))
    assert after["allocations"]["kael"]["target"] == "kael"
    _replace(monkeypatch, anyone, lambda actor, target: ActionNotAllowed("nobody", field="target"))
    assert all("target" not in p for p in _allocations(state))
    assert str(refused(state, allocate("kael", "goule", (2, 3, 2), weapon="epee"), ActionNotAllowed)) == "nobody"


def test_contact_weapon_refusal_decides_what_serves_in_contact_in_both(monkeypatch):
    state = _allocation_duel(contact=True)
    assert _entries(state, "arc") == []
    refused(state, allocate("kael", "goule", (2, 1, 2), weapon="arc"), ActionNotAllowed)
    _replace(monkeypatch, allocation.contact_weapon_refusal, lambda actor, weapon, contact, reloading: None)
    assert _entries(state, "arc") == [([False], True, 5), ([False], False, 5)]  # TIR 3 + Arc 2, split in contact
    after, _ = step(state, allocate("kael", "goule", (2, 1, 2), weapon="arc"))
    assert after["allocations"]["kael"]["mode"] == "contact_shot"


def test_unloaded_refusal_decides_whether_the_crossbow_shoots_in_both(monkeypatch):
    state = _allocation_duel(weapons=[kael()["weapons"][2] | {"loaded": False}])
    assert _entries(state, "arbalete") == [([False], False, None), ([True], False, None)]  # no split at a distance
    assert refused(state, allocate("kael", "goule", weapon="arbalete"), ActionNotAllowed).field == "weapon"
    _replace(monkeypatch, allocation.unloaded_refusal, lambda actor, weapon: None)
    assert _entries(state, "arbalete") == [([False], True, None), ([False], False, None), ([True], False, None)]
    after, _ = step(state, allocate("kael", "goule", weapon="arbalete"))
    assert after["allocations"]["kael"]["mode"] == "shot"


def test_reload_refusal_decides_what_may_be_reloaded_in_both(monkeypatch):
    state = _allocation_duel()
    assert [reload for reload, _, _ in _entries(state, "arbalete")] == [[False], [False]]  # loaded: no reload
    assert refused(state, allocate("kael", weapon="arbalete", reload=True), ActionNotAllowed).field == "reload"
    original = allocation.reload_refusal

    def crossbow_reloads(options, actor, weapon, contact):
        return None if weapon["id"] == "arbalete" else original(options, actor, weapon, contact)

    _replace(monkeypatch, original, crossbow_reloads)
    assert ([True], False, None) in _entries(state, "arbalete")
    after, _ = step(state, allocate("kael", weapon="arbalete", reload=True))
    assert after["allocations"]["kael"]["reload"] is True


def test_reload_attack_refusal_decides_whether_a_fighter_attacks_in_both(monkeypatch):
    _replace(
        monkeypatch, allocation.reload_attack_refusal, lambda reloading: InvalidAction("no attack", field="target")
    )
    state = _allocation_duel()
    assert _allocations(state) and all("target" not in p for p in _allocations(state))
    assert str(refused(state, allocate("kael", "goule", (2, 3, 2), weapon="epee"), InvalidAction)) == "no attack"


def test_evade_attack_refusal_decides_whether_an_attacker_evades_in_both(monkeypatch):
    state = _allocation_duel()
    assert {tuple(p["evade"]["choices"]) for p in _allocations(state) if "target" in p} == {(False,)}
    assert refused(state, allocate("kael", "goule", (2, 3, 2), weapon="epee", evade=True), InvalidAction).field == (
        "target"
    )
    _replace(monkeypatch, allocation.evade_attack_refusal, lambda options, evading: None)
    assert {tuple(p["evade"]["choices"]) for p in _allocations(state) if "target" in p} == {(False, True)}
    after, _ = step(state, allocate("kael", "goule", (2, 3, 2), weapon="epee", evade=True))
    assert after["allocations"]["kael"]["evade"] is True


def test_allocated_potential_bounds_the_split_in_both(monkeypatch):
    state = _allocation_duel()
    assert _entries(state, "epee") == [([False], True, 7), ([False], False, 7)]  # MEL 4 + Épée 3
    _replace(monkeypatch, allocation.allocated_potential, lambda actor, weapon, contact, reloading: 3)
    assert {total for p in _allocations(state) for total in [p.get("split", {}).get("total")] if total} == {3}
    assert refused(state, allocate("kael", "goule", (2, 3, 2), weapon="epee"), InvalidAction).field == "split"
    after, _ = step(state, allocate("kael", "goule", (1, 1, 1), weapon="epee"))
    assert after["allocations"]["kael"]["pot"] == 3


def test_splits_the_pot_decides_who_splits_in_both(monkeypatch):
    state = _allocation_duel()
    assert _entries(state, "arc") == [([False], True, None), ([False], False, None)]  # a shot at a distance
    assert refused(state, allocate("kael", "goule", (2, 1, 2), weapon="arc"), InvalidAction).field == "split"
    _replace(monkeypatch, allocation.splits_the_pot, lambda weapon, contact: True)
    assert _entries(state, "arc") == [([False], True, 5), ([False], False, 5)]
    assert refused(state, allocate("kael", "goule", weapon="arc"), InvalidAction).field == "split"
    after, _ = step(state, allocate("kael", "goule", (2, 1, 2), weapon="arc"))
    assert after["allocations"]["kael"]["split"] == {"init": 2, "att": 1, "def": 2}


def test_shot_refusal_decides_who_gives_shooting_modifiers_in_both(monkeypatch):
    state = _allocation_duel()
    shot = {"range": "courte"}
    assert ["shot" in p for p in _allocations(state) if p["weapon"]["choices"] == ["epee"]] == [False, False]
    assert refused(state, allocate("kael", "goule", (2, 3, 2), weapon="epee", shot=shot), InvalidAction).field == (
        "shot"
    )
    _replace(monkeypatch, allocation.shot_refusal, lambda mode: None)
    assert ["shot" in p for p in _allocations(state) if p["weapon"]["choices"] == ["epee"]] == [True, False]
    after, _ = step(state, allocate("kael", "goule", (2, 3, 2), weapon="epee", shot=shot))
    assert after["allocations"]["kael"]["mode"] == "melee"


def test_weapons_of_decides_the_weapons_in_both(monkeypatch):
    state = _allocation_duel()
    assert [p["weapon"]["choices"][0] for p in _allocations(state) if "target" in p] == [
        "epee",
        "arc",
        "arbalete",
        "mains_nues",
    ]
    staff = {"id": "baton", "name": "Bâton", "kind": "melee", "skill": None, "damage": 1, "mechanical": False}
    assert refused(state, allocate("kael", "goule", (2, 1, 1), weapon="baton"), InvalidAction).field == "weapon"
    original = weapons.weapons_of
    _replace(monkeypatch, original, lambda combatant: iter([*original(combatant), staff]))
    assert _entries(state, "baton") == [([False], True, 4), ([False], False, 4)]  # MEL 4, no skill
    after, _ = step(state, allocate("kael", "goule", (2, 1, 1), weapon="baton"))
    assert after["allocations"]["kael"]["weapon"] == "baton"
