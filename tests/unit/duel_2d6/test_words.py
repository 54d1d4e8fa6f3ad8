"""Issue 38: the terms of a damage sum and the GM's ammunition line read as words in every language."""

from ..rules_helpers import sentences, step
from .fixtures import ana, attack, bob, fight, shoot
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


def test_the_gms_wound_lines_read_as_sentences_about_the_wound():
    state = fight(ana(), bob())
    state, entry = step(state, {"type": "adjust", "actor": "gm", "target": "bob", "set": {"wound": "grave"}})
    assert sentences(state, entry, "value_adjusted") == [
        "The game master gives Bob a serious wound.",
        "Bob : le meneur de jeu lui inflige une blessure grave.",
        "Bob: o mestre lhe inflige um ferimento grave.",
    ]
    assert sentences(state, entry, "wound_malus") == [
        "Bob now has a serious wound: malus -3 on every action.",
        "Bob a désormais une blessure grave : malus de -3 à toutes ses actions.",
        "Bob agora tem um ferimento grave: malus de -3 em todas as ações.",
    ]
    state, entry = step(state, {"type": "adjust", "actor": "gm", "target": "bob", "set": {"wound": "egratignure"}})
    assert sentences(state, entry, "value_adjusted") == [
        "The game master turns Bob's serious wound into a scratch.",
        "Bob : le meneur de jeu change la blessure grave en égratignure.",
        "Bob: o mestre transforma o ferimento grave em arranhão.",
    ]
    state, entry = step(
        state, {"type": "adjust", "actor": "gm", "target": "bob", "set": {"wound": "aucune"}, "reason": "soins"}
    )
    assert sentences(state, entry, "value_adjusted") == [
        "The game master heals Bob's scratch (reason: soins).",
        "Bob : le meneur de jeu guérit l'égratignure (motif : soins).",
        "Bob: o mestre cura o arranhão (motivo: soins).",
    ]


def test_the_gms_plongeon_round_line_says_tour_in_french():
    state = fight(ana(), bob())
    state, entry = step(state, {"type": "adjust", "actor": "gm", "target": "bob", "set": {"last_dive_round": 1}})
    assert sentences(state, entry, "value_adjusted") == [
        "The game master sets Bob's round of the last Plongeon to 1.",
        "Bob : le meneur de jeu fixe le tour du dernier Plongeon à 1.",
        "Bob: o mestre define a rodada do último Plongeon como 1.",
    ]


def test_a_double_tir_is_named_in_portuguese():
    # As test_ranged.test_a_jam_on_the_first_shot_of_a_double_tir_stops_the_second: 5 + 5 = 10 against 7.
    state = fight(ana(weapons=PISTOLS, skills={"Armes à feu": 2}), bob())
    state, entry = step(state, shoot("p", 5, shot="double_tir", dice=[5, 5]))
    assert sentences(state, entry, "shot_rolled") == [
        "Ana shoots with the 9 mm pistol (Double tir, Court (2-10m)): 5, 5 = 10 against 7: "
        "critical failure (Maladresse).",
        "Ana tire avec le pistolet 9 mm (Double tir, Court (2-10m)) : 5, 5 = 10 pour 7 : échec critique (Maladresse).",
        "Ana atira com a pistola 9 mm (Tiro duplo, Court (2-10m)): 5, 5 = 10 contra 7: falha crítica (Maladresse).",
    ]
