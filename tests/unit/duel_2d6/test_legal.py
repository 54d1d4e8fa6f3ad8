"""The listing (/options) and the resolution share the shooting checks (issue 28, item 1).

arsenal.ammo_refusal (a jammed weapon, too few rounds) and
arsenal.automatic_refusal (a long burst needs an automatic weapon) are the
functions the resolution refuses with and legal.py lists with. The tests
change one of them in one place and watch both sides follow.
"""

from service.rules.duel_2d6 import arsenal
from service.rules.errors import ActionNotAllowed, InvalidAction

from ..rules_helpers import codes, combatant, params, replace_everywhere, step
from .fixtures import ana, attack, bob, fight, legal, refused, shoot

GUNS = [{"id": "pistolet", "catalog": "pistolet_9mm"}, {"id": "fusil", "catalog": "fusil_assaut"}]
SHOOTER = {"weapons": GUNS, "skills": {"Bagarre": 1, "Armes à feu": 2}}


def _gunfight(first="ana"):
    return fight(ana(**SHOOTER), bob(weapons=[{"id": "pistolet", "catalog": "pistolet_9mm"}]), first=first)


def _shots(state, actor="ana"):
    """(weapon, shot) pairs /options lists."""
    return {
        (c["params"]["weapon"]["choices"][0], c["params"]["shot"]["choices"][0])
        for c in legal(state, actor)
        if c["type"] == "shoot"
    }


def _counter_weapons(state, actor="ana"):
    return {c["params"]["weapon"]["choices"][0] for c in legal(state, actor) if c["type"] == "counter"}


def _replace(monkeypatch, original, replacement):
    replace_everywhere(monkeypatch, "service.rules.duel_2d6", original, replacement)


def _threatened_from_afar():
    """Bob threatens Ana with his pistol from 8 m: she may counter by shooting back."""
    state, _ = step(
        _gunfight(first="bob"),
        {"type": "threaten", "actor": "bob", "target": "ana", "weapon": "pistolet", "distance": 8, "dice": [1, 2]},
    )
    return state


def test_a_jammed_gun_is_not_listed_to_shoot_back_and_is_refused():
    # Regression: the counter listing offered every ranged weapon, a jammed one too, which the counter refuses.
    state = _threatened_from_afar()
    assert _counter_weapons(state) == {"pistolet", "fusil"}
    combatant(state, "ana")["jammed"] = ["pistolet"]
    assert _counter_weapons(state) == {"fusil"}
    assert refused(state, {"type": "counter", "actor": "ana", "weapon": "pistolet"}, ActionNotAllowed) == "weapon"
    # The assault rifle (Armes à feu 2, counter -3: 7 + 2 - 3 = 6) shoots back; 1 + 2 = 3 succeeds.
    _, entry = step(state, {"type": "counter", "actor": "ana", "weapon": "fusil", "dice": [1, 2, 1, 1]})
    assert params(entry, "counter_rolled")["target"] == 6


def test_a_jammed_or_empty_gun_is_neither_listed_nor_accepted():
    state = _gunfight()
    combatant(state, "ana")["jammed"] = ["fusil"]
    combatant(state, "ana")["ammo"]["pistolet"] = 1
    # The pistol keeps its one round: a single shot, no Double tir (2 rounds).
    assert {w for w, _ in _shots(state)} == {"pistolet"}
    assert ("pistolet", "double_tir") not in _shots(state) and ("pistolet", "tir_simple") in _shots(state)
    assert refused(state, shoot("fusil", 5), ActionNotAllowed) == "weapon"
    assert refused(state, shoot("pistolet", 5, shot="double_tir"), ActionNotAllowed) == "weapon"


def test_refusing_a_weapon_in_ammo_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    state = _gunfight()
    assert {w for w, _ in _shots(state)} == {"pistolet", "fusil"}
    original = arsenal.ammo_refusal

    def empty_rifle(shooter, weapon, shots):
        return "the rifle is empty" if weapon["id"] == "fusil" else original(shooter, weapon, shots)

    _replace(monkeypatch, original, empty_rifle)
    assert {w for w, _ in _shots(state)} == {"pistolet"}
    assert refused(state, shoot("fusil", 5), ActionNotAllowed) == "weapon"
    assert _counter_weapons(_threatened_from_afar()) == {"pistolet"}


def test_allowing_every_weapon_in_ammo_refusal_allows_a_jammed_gun_in_both(monkeypatch):
    state = _gunfight()
    combatant(state, "ana")["jammed"] = ["pistolet"]
    _replace(monkeypatch, arsenal.ammo_refusal, lambda shooter, weapon, shots: None)
    assert ("pistolet", "tir_simple") in _shots(state)
    state, entry = step(state, shoot("pistolet", 5, dice=[1, 2, 1]))
    assert "shot_rolled" in codes(entry)
    assert combatant(state, "ana")["ammo"]["pistolet"] == 14  # 15 rounds, one fired


def test_automatic_refusal_decides_the_suppression_fire_in_both(monkeypatch):
    state = _gunfight()
    assert ("fusil", "tir_de_suppression") in _shots(state)
    assert ("pistolet", "tir_de_suppression") not in _shots(state)
    original = arsenal.automatic_refusal

    def pistol_bursts(weapon, shot):
        return None if weapon["id"] == "pistolet" else original(weapon, shot)

    _replace(monkeypatch, original, pistol_bursts)
    assert ("pistolet", "tir_de_suppression") in _shots(state)
    suppression = shoot("pistolet", 20, shot="tir_de_suppression", zone_width=5, defense=None, dice=[6, 6])
    _, entry = step(state, suppression)
    assert params(entry, "suppression_fire")["weapon"] == "pistolet"
    _replace(monkeypatch, pistol_bursts, lambda weapon, shot: "no bursts")
    assert _shots(state) == set()
    assert refused(state, shoot("fusil", 5), ActionNotAllowed) == "weapon"


def _threaten_a_jammed_pistol():
    """Ana's only gun, her pistol, is jammed; Bob threatens her from 8 m."""
    state = fight(ana(weapons=[GUNS[0]], skills=SHOOTER["skills"]), bob(weapons=[GUNS[0]]), first="bob")
    combatant(state, "ana")["jammed"] = ["pistolet"]
    threat = {"type": "threaten", "actor": "bob", "target": "ana", "weapon": "pistolet", "distance": 8, "dice": [1, 2]}
    return step(state, threat)[0]


def test_threatened_from_afar_with_only_a_jammed_gun_she_is_not_awaited():
    state = _threaten_a_jammed_pistol()
    assert [entry["actor"] for entry in state["awaiting"]] == ["bob"]
    assert _counter_weapons(state) == set()


def test_allowing_every_weapon_in_ammo_refusal_awaits_her_counter_and_accepts_it(monkeypatch):
    _replace(monkeypatch, arsenal.ammo_refusal, lambda shooter, weapon, shots: None)
    state = _threaten_a_jammed_pistol()
    assert {"actor": "ana", "actions": ["counter"], "reason": "threatened"} in state["awaiting"]
    assert _counter_weapons(state) == {"pistolet"}
    _, entry = step(state, {"type": "counter", "actor": "ana", "weapon": "pistolet", "dice": [1, 2, 1]})
    assert params(entry, "counter_rolled")["target"] == 7 + 2 - 3  # Armes à feu 2, counter -3


# -- the maneuvers: arsenal.maneuver_refusal (the weapon a maneuver takes), hold_refusal (the Prise it needs) ---


def _maneuvers(state, actor="ana"):
    """(maneuver, weapon) pairs of the first blows /options lists, and of the Double Manoeuvre seconds."""
    attacks = [c["params"] for c in legal(state, actor) if c["type"] == "attack"]
    firsts = {(p["maneuver"]["choices"][0], p["weapon"]["choices"][0]) for p in attacks}
    seconds = {(s["maneuver"], s["weapon"]) for p in attacks for s in p["second"]["choices"]}
    return firsts, seconds


def test_refusing_a_maneuver_in_maneuver_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    state = fight(ana(), bob())  # bare hands: fist and foot
    firsts, seconds = _maneuvers(state)
    assert ("coup_simple", "poing") in firsts and ("coup_simple", "poing") in seconds
    original = arsenal.maneuver_refusal

    def no_punches(maneuver, weapon):
        return "no punches" if weapon["id"] == "poing" else original(maneuver, weapon)

    _replace(monkeypatch, original, no_punches)
    firsts, seconds = _maneuvers(state)
    assert firsts and all(w != "poing" for _, w in firsts | seconds)
    assert refused(state, attack(maneuver="coup_simple", weapon="poing"), InvalidAction) == "maneuver"


def test_allowing_every_hold_in_hold_refusal_lists_and_accepts_a_strangling_without_a_prise(monkeypatch):
    state = fight(ana(), bob())
    firsts, seconds = _maneuvers(state)
    assert ("etrangler", "poing") not in firsts  # Étrangler needs a Prise on the head first
    assert refused(state, attack(maneuver="etrangler", weapon="poing"), ActionNotAllowed) == "maneuver"
    _replace(monkeypatch, arsenal.hold_refusal, lambda maneuver, held_part, opponent, set_up_by=None: None)
    firsts, seconds = _maneuvers(state)
    assert ("etrangler", "poing") in firsts and ("etrangler", "poing") in seconds
    # Declared, and struck as it lands (the blow's own check is the same function): 1 + 2 = 3 against
    # 2 + Bagarre 1 = 3 succeeds; damage 1d3 (3); Bob's CON roll 1 + 1 against 2 - 3 fails: stunned.
    _, entry = step(state, attack(maneuver="etrangler", weapon="poing", defense="aucune", dice=[1, 2, 3, 1, 1]))
    assert "blow_impossible" not in codes(entry)
    assert params(entry, "stunned") == {"target": "bob", "until": 2}
