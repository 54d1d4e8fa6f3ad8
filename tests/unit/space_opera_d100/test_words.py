"""Issue 38: the GM's adjust lines name every value in words, in en, fr and pt.

Garde's round at the start: initiative D12 2 + DEX 11 = 13 (KIRA_FIRST), no dodge, no HP lost.
"""

import pytest

from service.i18n import catalogues, labels
from service.rules.errors import InvalidAction
from service.rules.events import render

from ..rules_helpers import sentences, step
from .fixtures import fight, unchanged


def _adjust(state, **fields):
    return step(state, {"type": "adjust", "actor": "gm", "target": "garde", **fields})


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            {"round.initiative": 20},
            [
                "The game master sets Garde's initiative this round from 13 to 20.",
                "Garde : le meneur de jeu fait passer l'initiative de ce tour-ci de 13 à 20.",
                "Garde: o mestre muda a iniciativa desta rodada de 13 para 20.",
            ],
        ),
        (
            {"round.dodges": 2},
            [
                "The game master sets Garde's dodges this round from 0 to 2.",
                "Garde : le meneur de jeu fait passer les esquives de ce tour-ci de 0 à 2.",
                "Garde: o mestre muda as esquivas desta rodada de 0 para 2.",
            ],
        ),
        (
            {"round.damage": 7},
            [
                "The game master sets Garde's HP lost this round from 0 to 7.",
                "Garde : le meneur de jeu fait passer les PV perdus ce tour-ci de 0 à 7.",
                "Garde: o mestre muda os PV perdidos nesta rodada de 0 para 7.",
            ],
        ),
        (
            {"round.attacks_left": 1},
            [
                "The game master sets Garde's attacks left this round to 1.",
                "Garde : le meneur de jeu fixe les attaques restantes de ce tour-ci à 1.",
                "Garde: o mestre define os ataques restantes nesta rodada como 1.",
            ],
        ),
        (
            {"round.attacks": 2},
            [
                "The game master sets Garde's number of attacks declared this round to 2.",
                "Garde : le meneur de jeu fixe le nombre d'attaques annoncées pour ce tour-ci à 2.",
                "Garde: o mestre define o número de ataques declarados nesta rodada como 2.",
            ],
        ),
        (
            {"round.done": True},
            [
                "The game master ends Garde's turn for this round.",
                "Garde : le meneur de jeu met fin à son tour.",
                "Garde: o mestre encerra a vez nesta rodada.",
            ],
        ),
        (
            {"kind": "droid"},
            [
                "The game master sets Garde's kind from living being to droid.",
                "Garde : le meneur de jeu fait passer la nature de « être vivant » à « droïde ».",
                "Garde: o mestre muda a natureza de ser vivo para droide.",
            ],
        ),
    ],
)
def test_each_adjusted_value_reads_as_words(change, expected):
    state, entry = _adjust(fight(), set=change)
    assert sentences(state, entry, "value_adjusted") == expected


def test_a_turn_given_back_is_said_in_a_whole_sentence():
    state, _ = _adjust(fight(), set={"round.done": True})
    state, entry = _adjust(state, set={"round.done": False})
    assert sentences(state, entry, "value_adjusted") == [
        "The game master gives Garde back a turn this round.",
        "Garde : le meneur de jeu lui rend son tour.",
        "Garde: o mestre devolve a vez nesta rodada.",
    ]


@pytest.mark.parametrize(
    ("change", "field"),
    [({"kind": "robot"}, "set.kind"), ({"round.done": 1}, "set.round.done"), ({"san": True}, "set.san")],
)
def test_a_value_the_rules_cannot_hold_is_refused_and_changes_nothing(change, field):
    state = fight()
    before = unchanged(state)
    with pytest.raises(InvalidAction) as refused:
        _adjust(state, set=change)
    assert refused.value.field == field
    assert state == before


def test_the_weapon_in_hand_is_named_as_the_sheet_or_catalog_names_it():
    state, _ = _adjust(fight(), set={"wielding": "epee"})
    state, entry = _adjust(state, set={"wielding": "couteau"})
    assert sentences(state, entry, "value_adjusted") == [
        "The game master changes Garde's weapon in hand: sword → knife.",
        "Garde : le meneur de jeu change l'arme en main : épée → couteau.",
        "Garde: o mestre troca a arma em punho: espada → faca.",
    ]
    state, entry = _adjust(state, set={"wielding": None})
    assert sentences(state, entry, "value_adjusted") == [
        "The game master has Garde put away the weapon in hand (knife).",
        "Garde : le meneur de jeu lui fait ranger l'arme en main (couteau).",
        "Garde: o mestre manda guardar a arma em punho (faca).",
    ]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"wielding": "blaster"}, "set.wielding"),  # Kira's, not on Garde's sheet
        ({"round": None}, "set.round"),  # a group of values: its entries are set one by one
        ({"items": None}, "set.items"),
        ({"pv": None}, "set.pv"),  # a number never becomes null
    ],
)
def test_a_value_that_would_break_the_state_is_refused_and_changes_nothing(change, field):
    state = fight()
    before = unchanged(state)
    with pytest.raises(InvalidAction) as refused:
        _adjust(state, set=change)
    assert refused.value.field == field
    assert state == before


@pytest.mark.parametrize(
    ("severity", "french"),
    [
        ("very_light", "Garde : blessure très légère, -1 SAN, -2 à une compétence au choix du MJ."),
        ("light", "Garde : blessure légère, -1 SAN, -2 à une compétence au choix du MJ."),
    ],
)
def test_a_wound_s_severity_agrees_with_blessure_in_french(severity, french):
    event = {"code": "wound", "params": {"target": "garde", "severity": severity, "san_loss": 1, "skill_loss": 2}}
    names = {"garde": "Garde"}
    assert render(event, "fr", catalogues("space-opera-d100"), names, labels("space-opera-d100")["fr"]) == french
