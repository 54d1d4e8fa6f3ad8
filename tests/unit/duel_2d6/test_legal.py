"""The listing (/options) and the resolution share the shooting checks (issue 28, item 1).

arsenal.ammo_refusal (a jammed weapon, too few rounds) and
arsenal.automatic_refusal (a long burst needs an automatic weapon) are the
functions the resolution refuses with and legal.py lists with. The tests
change one of them in one place and watch both sides follow.
"""

from service.rules.duel_2d6 import arsenal, duels, exchange
from service.rules.duel_2d6 import defense as defense_rules
from service.rules.errors import ActionNotAllowed, InvalidAction

from ..rules_helpers import codes, combatant, params, replace_everywhere, step
from .fixtures import ana, attack, bob, fight, legal, refused, sheet, shoot

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


# -- the defenses: defense.dive_refusal (Plongeon "non consécutif"), locked_refusal (caught in a Clé) -----------


def _defenses_listed(state, actor="bob"):
    return {d for c in legal(state, actor) if c["type"] == "defend" for d in c["params"]["defense"]["choices"]}


def _dived_in_round_1():
    """Ana's pistol shot at 20 m: 1 + 2 = 3 against 7 + Armes à feu 2 = 9; Bob's Plongeon, 7 + Bagarre 1 - 3 = 5:
    1 + 2 = 3, the same level, avoids. Round 2: Ana shoots again and Bob's defense is awaited."""
    state, _ = step(_gunfight(), shoot("pistolet", 20, defense="plongeon", dice=[1, 2, 1, 2]))
    state, _ = step(state, shoot("pistolet", 20, defense=None))
    assert state["round"] == 2 and state["awaiting"][0] == {"actor": "bob", "actions": ["defend"], "reason": "defense"}
    return state


def test_allowing_every_dive_in_dive_refusal_lists_and_accepts_a_second_plongeon(monkeypatch):
    state = _dived_in_round_1()
    assert "plongeon" not in _defenses_listed(state) and "esquiver" not in _defenses_listed(state)
    assert refused(state, {"type": "defend", "actor": "bob", "defense": "plongeon"}, ActionNotAllowed) == "defense"
    _replace(monkeypatch, defense_rules.dive_refusal, lambda state, defender, defense: None)
    assert "plongeon" in _defenses_listed(state)
    _, entry = step(state, {"type": "defend", "actor": "bob", "defense": "plongeon", "dice": [1, 2, 1, 2]})
    assert params(entry, "defense_rolled")["defense"] == "plongeon" and "blow_avoided" in codes(entry)


def test_refusing_a_defense_in_locked_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    state, _ = step(fight(ana(), bob()), attack(defense=None))
    assert "esquiver" in _defenses_listed(state)
    original = defense_rules.locked_refusal

    def no_dodging(state, defender, defense):
        return "held fast" if defense == "esquiver" else original(state, defender, defense)

    _replace(monkeypatch, original, no_dodging)
    assert "esquiver" not in _defenses_listed(state) and "bloquer" in _defenses_listed(state)
    assert refused(state, {"type": "defend", "actor": "bob", "defense": "esquiver"}, ActionNotAllowed) == "defense"


# -- who leads, who joins, whom one faces: duels.lead_refusal, join_refusal, face_refusal, cover_refusal --------


def _types(state, actor):
    return {c["type"] for c in legal(state, actor)}


def test_refusing_the_lead_in_lead_refusal_refuses_the_attack_and_lists_none(monkeypatch):
    state = fight(ana(), bob())
    assert {"attack", "threaten"} <= _types(state, "ana")
    _replace(monkeypatch, duels.lead_refusal, lambda state, actor, target: ActionNotAllowed("no lead", field="target"))
    assert _types(state, "ana") & {"attack", "shoot", "threaten"} == set()
    assert refused(state, attack(maneuver="coup_simple", weapon="poing"), ActionNotAllowed) == "target"


def _three():
    """Ana against Bob; Cid is free to join."""
    return fight(ana(), bob(), sheet("cid", "villains"))


def _join_targets(state, actor="cid"):
    return [t for c in legal(state, actor) if c["type"] == "join" for t in c["params"]["target"]["choices"]]


def test_refusing_a_target_in_join_refusal_refuses_the_join_and_lists_none(monkeypatch):
    state = _three()
    assert _join_targets(state) == ["ana"]
    original = duels.join_refusal

    def not_ana(state, actor, target):
        return "not her" if target["id"] == "ana" else original(state, actor, target)

    _replace(monkeypatch, original, not_ana)
    assert _join_targets(state) == []
    assert refused(state, {"type": "join", "actor": "cid", "target": "ana"}, ActionNotAllowed) == "target"


def test_one_opponent_at_most_in_face_refusal_limits_the_choice_the_join_and_the_listing(monkeypatch):
    state = fight(ana(attributes={"DEX": 3}), bob(), sheet("cid", "villains"), sheet("dan", "villains"))
    # Cid joins Ana: interruption 2 + DEX: Cid's 6 + 5 fails against 4, Ana's 1 + 2 succeeds against 5.
    state, _ = step(state, {"type": "join", "actor": "cid", "target": "ana", "dice": [6, 5, 1, 2]})
    faces = [c["params"]["opponents"]["choices"] for c in legal(state, "ana") if c["type"] == "face"]
    assert faces == [[["bob", "cid"], ["bob"], ["cid"]]] and _join_targets(state, "ana") == ["dan"]
    _replace(monkeypatch, duels.face_refusal, lambda actor, count: "one only" if count > 1 else None)
    faces = [c["params"]["opponents"]["choices"] for c in legal(state, "ana") if c["type"] == "face"]
    assert faces == [[["bob"], ["cid"]]] and _join_targets(state, "ana") == []
    both = {"type": "face", "actor": "ana", "opponents": ["bob", "cid"]}
    assert refused(state, both, ActionNotAllowed) == "opponents"
    assert refused(state, {"type": "join", "actor": "ana", "target": "dan"}, ActionNotAllowed) == "target"


def test_lifting_cover_refusal_lets_the_fighter_behind_cover_act_and_lists_it(monkeypatch):
    from .test_ranged import _ana_between_bob_and_cid

    assert "attack" not in _types(_ana_between_bob_and_cid(cid_first=False), "ana")
    # The turn order is stored with each state: the change is made before the fight.
    _replace(monkeypatch, duels.cover_refusal, lambda combatant, action_type, defense=None: None)
    state = _ana_between_bob_and_cid(cid_first=False)
    assert "attack" in _types(state, "ana")
    # Ana's punch: 7 + Bagarre 1 - 2 (two opponents) = 6; 6 + 5 = 11 misses.
    _, entry = step(state, attack(target="cid", maneuver="coup_simple", weapon="poing", dice=[6, 5]))
    assert params(entry, "attack_rolled")["target"] == 6


# -- the distances: arsenal.reach_refusal ---------------------------------------------------------------------


def _pistol_reach(state):
    shots = [c["params"] for c in legal(state, "ana") if c["type"] == "shoot"]
    return {p["distance"]["maximum"] for p in shots if p["weapon"]["choices"] == ["pistolet"]}


def test_a_shorter_range_in_reach_refusal_bounds_the_listing_and_refuses_the_shot(monkeypatch):
    state = _gunfight()
    assert _pistol_reach(state) == {500}  # one hand: "Non" beyond 500 m
    _, entry = step(state, shoot("pistolet", 20, dice=[6, 5]))  # 20 m is Moyen: 7 + 2 - 1 = 8
    assert params(entry, "shot_rolled")["target"] == 8
    original = arsenal.reach_refusal

    def court_only(weapon, band):
        return "too far" if band not in ("contact", "court") else original(weapon, band)

    _replace(monkeypatch, original, court_only)
    assert _pistol_reach(state) == {10}
    assert refused(state, shoot("pistolet", 20), ActionNotAllowed) == "distance"


# -- what a fighter holds: arsenal.lost_refusal; the optional rules' fields: exchange.optional_rule_refusal ---


def _attack_weapons(state, actor="ana"):
    return {c["params"]["weapon"]["choices"][0] for c in legal(state, actor) if c["type"] == "attack"}


def test_losing_a_weapon_in_lost_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    state = fight(ana(weapons=[{"id": "dague", "catalog": "dague"}]), bob())
    assert _attack_weapons(state) == {"dague", "poing", "pied"}
    original = arsenal.lost_refusal

    def dagger_lost(combatant, weapon):
        return "lost" if weapon["id"] == "dague" else original(combatant, weapon)

    _replace(monkeypatch, original, dagger_lost)
    assert _attack_weapons(state) == {"poing", "pied"}
    assert refused(state, attack(maneuver="coup_simple", weapon="dague"), ActionNotAllowed) == "weapon"


def test_turning_the_optional_rules_on_in_optional_rule_refusal_lists_and_accepts_their_fields(monkeypatch):
    state = fight(ana(), bob())  # both optional rules off, as by default
    attacks = [c["params"] for c in legal(state, "ana") if c["type"] == "attack"]
    assert all("coup_mortel_steps" not in p and "aim" not in p for p in attacks)
    assert refused(state, attack(coup_mortel_steps=1), ActionNotAllowed) == "coup_mortel_steps"
    _replace(monkeypatch, exchange.optional_rule_refusal, lambda options, field: None)
    attacks = [c["params"] for c in legal(state, "ana") if c["type"] == "attack"]
    assert all("coup_mortel_steps" in p and "aim" in p for p in attacks)
    # One Coup mortel step: 7 + Bagarre 1 - 2 = 6; 6 + 5 misses.
    _, entry = step(state, attack(coup_mortel_steps=1, dice=[6, 5]))
    assert params(entry, "attack_rolled")["target"] == 6


def test_refusing_a_weapon_in_block_refusal_refuses_the_block_and_lists_it_not(monkeypatch):
    state, _ = step(fight(ana(), bob(weapons=[{"id": "dague", "catalog": "dague"}])), attack(defense=None))

    def blockers():
        return {
            u
            for c in legal(state, "bob")
            if c["type"] == "defend" and "using" in c["params"]
            for u in c["params"]["using"]["choices"]
        }

    assert blockers() == {"dague", "poing", "pied"}
    original = defense_rules.block_refusal
    _replace(monkeypatch, original, lambda weapon: "no" if weapon["id"] == "dague" else original(weapon))
    assert blockers() == {"poing", "pied"}
    declared = {"type": "defend", "actor": "bob", "defense": "bloquer", "using": "dague"}
    assert refused(state, declared, InvalidAction) == "using"


def test_the_exchanges_led_in_exchanges_led_by_are_the_pass_targets_listed_and_accepted(monkeypatch):
    state = fight(ana(), bob())
    assert [c["params"]["target"]["choices"] for c in legal(state, "ana") if c["type"] == "pass"] == [["bob"]]
    _replace(monkeypatch, duels.exchanges_led_by, lambda state, actor_id: [])
    assert [c["params"].get("target") for c in legal(state, "ana") if c["type"] == "pass"] == [None]
    assert refused(state, {"type": "pass", "actor": "ana", "target": "bob"}, ActionNotAllowed) == "target"
