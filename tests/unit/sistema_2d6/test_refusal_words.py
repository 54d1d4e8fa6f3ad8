"""Refusals in the reader's language (issue 38, with the problems framework): each is said in en, fr and pt.

Initiative (ANA_FIRST): Ana 15, Bruno 5. Bruno's knife (Faca) is not automatic.
"""

from service.i18n import say
from service.rules.errors import ActionNotAllowed, InvalidAction, RulesError

from ..rules_helpers import refused, start
from .fixtures import ANA_FIRST, RULESET, ana, bruno
from .test_death import dying_bruno


def _said(error: RulesError) -> list[str]:
    return [say(error.detail, lang, RULESET) for lang in ("en", "fr", "pt")]


def _fight():
    return start(RULESET, [ana(), bruno()], dice=ANA_FIRST)[0]


def test_out_of_turn_names_who_is_awaited_in_every_language():
    error = refused(_fight(), {"type": "pass", "actor": "bruno"}, ActionNotAllowed)
    assert _said(error) == [
        "it is not Bruno's turn; waiting for: Ana",
        "Bruno doit attendre son tour ; en attente : Ana",
        "não é a vez de Bruno; aguardando: Ana",
    ]


def test_a_dying_character_only_tests_death_in_every_language():
    # Bruno at -1 HP after Ana's shot; his turn comes, for a death test only.
    error = refused(dying_bruno(), {"type": "pass", "actor": "bruno"}, ActionNotAllowed)
    assert _said(error) == [
        "Bruno is dying and can only make a death test",
        "Bruno est à l'agonie et ne peut faire qu'un test de mort",
        "Bruno está morrendo e só pode fazer um teste de morte",
    ]


def test_a_burst_from_a_knife_and_healing_oneself_in_every_language():
    state = start(RULESET, [bruno(), ana()], dice=[6, 6, 1, 1])[0]  # Bruno 2 + 12 = 14, Ana 3 + 1 + 2 = 6
    burst = {"type": "attack", "actor": "bruno", "target": "ana", "weapon": "faca", "burst": True, "difficulty": 10}
    assert _said(refused(state, burst, InvalidAction)) == [
        "Faca cannot fire bursts (not automatic)",
        "Faca ne tire pas en rafale (arme non automatique)",
        "Faca não dispara rajadas (arma não automática)",
    ]
    aid = {"type": "stabilize", "actor": "bruno", "target": "bruno", "skill": "Briga", "difficulty": 10}
    assert _said(refused(state, aid, InvalidAction)) == [
        "Bruno cannot stabilise their own wounds; another character must",
        "Bruno : personne ne se stabilise soi-même, il faut un autre personnage",
        "Bruno: ninguém estabiliza a si próprio; outro personagem precisa fazê-lo",
    ]
