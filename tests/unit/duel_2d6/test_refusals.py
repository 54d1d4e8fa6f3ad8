"""Issue 38: duel-2d6's refusals are said in the reader's language (rules.errors.refusal, i18n.say).

The English detail is made where the rules refuse; French and Portuguese come from the
ruleset's catalogues (locales/fr.po, pt.po), filled with the same params.
"""

import pytest

from service.i18n import say
from service.rules.engine import apply_action, create_combat
from service.rules.errors import ActionNotAllowed, InvalidInput

from ..rules_helpers import refused
from .fixtures import ana, bob, fight, shoot
from .test_ranged import gunfight


def said(error) -> list[str]:
    return [say(error.detail, lang, "duel-2d6") for lang in ("en", "fr", "pt")]


def test_a_jammed_weapon_is_refused_in_every_language():
    # 6 + 6 = 12 against 7 + Armes à feu 2 = 9: a Maladresse with Dd 6 > skill 2: the 9 mm jams.
    state, _ = apply_action(gunfight(), shoot("pistolet", 5, dice=[6, 6]))
    state, _ = apply_action(state, {"type": "adjust", "actor": "gm", "target": "ana", "initiative_against": "bob"})
    error = refused(state, shoot("pistolet", 5), ActionNotAllowed)
    assert error.field == "weapon"
    assert said(error) == [
        "Pistolet automatique 9mm is jammed: reload it first",
        "Pistolet automatique 9mm : l'arme est enrayée, il faut d'abord recharger",
        "Pistolet automatique 9mm: a arma está emperrada, é preciso recarregar primeiro",
    ]


def test_too_few_rounds_counts_them_in_every_language():
    state = gunfight()
    state["combatants"][0]["ammo"]["pistolet"] = 1  # a Double tir fires 2
    error = refused(state, shoot("pistolet", 5, shot="double_tir"), ActionNotAllowed)
    assert said(error) == [
        "Pistolet automatique 9mm has 1 round left, 2 needed: reload it",
        "Pistolet automatique 9mm : 1 balle restante pour 2 nécessaires ; il faut recharger",
        "Pistolet automatique 9mm: 1 bala restante para 2 necessárias; é preciso recarregar",
    ]


def test_a_sheet_refused_by_the_schema_is_said_in_every_language():
    sheet = ana()
    del sheet["attributes"]["DEX"]
    with pytest.raises(InvalidInput) as caught:
        create_combat({"ruleset": "duel-2d6", "combatants": [sheet, bob()]}, combat_id="t", seed=1)
    message = caught.value.messages["combatants"][0]["attributes"][0]
    assert [say(message, lang, "duel-2d6") for lang in ("en", "fr", "pt")] == [
        "missing attributes: DEX",
        "caractéristiques manquantes : DEX",
        "atributos faltando: DEX",
    ]


def test_an_action_out_of_turn_names_who_is_awaited():
    error = refused(fight(ana(), bob()), shoot("poing", 1, actor="bob", target="ana"), ActionNotAllowed)
    assert said(error)[1].startswith("Bob ne peut pas agir maintenant ; on attend : Ana (")
