"""Issue 38: the terms of a damage sum and the GM's ammunition line read as words in every language."""

from ..rules_helpers import sentences, step
from .fixtures import ana, attack, bob, fight
from .test_melee import KARATE


def test_a_damage_sum_names_the_maneuver_and_the_coup_mortel_rule():
    state = fight(ana(**KARATE), bob(), options={"coup_mortel_rule": True})
    # Massue with one Coup mortel step: 7 + Karaté 2 - 3 - 2 = 4; 1 + 2 = 3 hits. Fist 1d3 = 3,
    # + FOR 0 + Massue 2 + Coup mortel 1 = 6.
    state, entry = step(state, attack(maneuver="massue", coup_mortel_steps=1, dice=[1, 2, 3]))
    assert sentences(state, entry, "damage_rolled") == [
        "Ana rolls 1d3 for damage: 3; dice 3 + FOR 0 + maneuver 2 + Coup mortel 1 = 6 points.",
        "Ana lance 1d3 pour les dommages : 3 ; dés 3 + FOR 0 + manœuvre 2 + coup mortel 1 = 6 points.",
        "Ana rola 1d3 de dano: 3; dados 3 + FOR 0 + manobra 2 + coup mortel 1 = 6 pontos.",
    ]


PISTOLS = [{"id": "p", "catalog": "pistolet_9mm"}, {"id": "b", "catalog": "pistolet_9mm", "name": "Beretta"}]


def _ammo_set(weapon_id):
    state = fight(ana(weapons=PISTOLS, skills={"Armes à feu": 2}), bob())
    return step(state, {"type": "adjust", "actor": "gm", "target": "ana", "set": {f"ammo.{weapon_id}": 3}})


def test_the_gms_ammunition_line_names_the_weapon():
    state, entry = _ammo_set("p")
    assert sentences(state, entry, "value_adjusted") == [
        "The game master sets Ana's ammunition (9 mm automatic pistol) from 15 to 3.",
        "Ana : le meneur de jeu fait passer les munitions (pistolet automatique 9 mm) de 15 à 3.",
        "Ana: o mestre muda a munição (pistola automática 9 mm) de 15 para 3.",
    ]
    state, entry = _ammo_set("b")  # a name typed on the sheet is shown as typed
    assert sentences(state, entry, "value_adjusted")[1] == (
        "Ana : le meneur de jeu fait passer les munitions (Beretta) de 15 à 3."
    )


def test_the_gms_wound_line_and_its_malus_read_as_french():
    state = fight(ana(), bob())
    state, entry = step(state, {"type": "adjust", "actor": "gm", "target": "bob", "set": {"wound": "grave"}})
    assert sentences(state, entry, "value_adjusted")[1] == (
        "Bob : le meneur de jeu fait passer la blessure de « aucune » à « blessure grave »."
    )
    assert sentences(state, entry, "wound_malus") == [
        "Bob now has a serious wound: malus -3 on every action.",
        "Bob a désormais une blessure grave : malus de -3 à toutes ses actions.",
        "Bob agora tem um ferimento grave: malus de -3 em todas as ações.",
    ]
