"""Refusals in the reader's language (issue 38, with the problems framework): each is said in en, fr and pt.

Kira's vibro-knife is edged (catalog vibro_couteau, "Vibro-couteau"); R2 is a droid.
"""

import pytest

from service.i18n import say
from service.rules.errors import ActionNotAllowed, InvalidAction, RulesError

from ..rules_helpers import refused, step
from .fixtures import RULESET, attack, droid, fight


def _said(error: RulesError) -> list[str]:
    return [say(error.detail, lang, RULESET) for lang in ("en", "fr", "pt")]


def test_an_edged_weapon_cannot_stun_in_every_language():
    error = refused(
        fight(),
        {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", "mode": "stun"},
        InvalidAction,
    )
    assert _said(error) == [
        "Vibro-couteau is edged: an edged weapon cannot stun",
        "Vibro-couteau est une arme tranchante : une arme tranchante ne peut pas assommer",
        "Vibro-couteau é uma arma cortante: uma arma cortante não pode nocautear",
    ]


def test_a_droid_cannot_be_stunned_in_every_language():
    state = fight(others=[droid()], dice=[9, 2, 1])
    blow = {"type": "attack", "actor": "kira", "target": "r2", "weapon": "matraque", "mode": "stun"}
    assert _said(refused(state, blow, InvalidAction)) == [
        "R2 is a droid: droids cannot be stunned",
        "R2 est un droïde : on ne peut pas assommer un droïde",
        "R2 é um droide: não se pode nocautear um droide",
    ]


@pytest.mark.parametrize(
    ("attacks", "expected"),
    [
        (
            4,  # Kira's max_attacks is 3
            [
                "Kira may attack at most 3 times a round",
                "Kira peut attaquer au plus 3 fois par tour",
                "Kira pode atacar no máximo 3 vezes por rodada",
            ],
        ),
    ],
)
def test_too_many_attacks_counts_in_every_language(attacks, expected):
    assert (
        _said(
            refused(
                fight(),
                {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", "attacks": attacks},
                InvalidAction,
            )
        )
        == expected
    )


def test_a_declared_number_of_attacks_that_changes_is_counted_in_every_language():
    state, _ = attack(fight(), attacks=2)  # Garde is asked for a reaction; he declares none: d100 99, a miss
    state, _ = step(state, {"type": "react", "actor": "garde", "kind": "none", "dice": [99]})
    error = refused(
        state, {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", "attacks": 3}, InvalidAction
    )
    assert _said(error) == [
        "2 attacks were declared for this round; the number cannot change",
        "2 attaques ont été annoncées pour ce tour-ci : ce nombre ne peut plus changer",
        "2 ataques foram declarados nesta rodada: o número não pode mudar",
    ]


def test_a_shot_parried_with_a_sword_and_the_turn_of_another_in_every_language():
    state, _ = attack(fight(), weapon="blaster")
    error = refused(state, {"type": "react", "actor": "garde", "kind": "parry", "item": "epee"}, ActionNotAllowed)
    assert _said(error) == [
        "in this combat only a shield parries a shot",
        "dans ce combat, seul un bouclier pare un tir",
        "neste combate, só um escudo apara um disparo",
    ]
    error = refused(state, {"type": "pass", "actor": "kira"}, ActionNotAllowed)
    assert _said(error) == [
        "waiting for Garde to declare a dodge, a parry or nothing against Kira's attack",
        "en attente : Garde doit annoncer une esquive, une parade ou rien contre l'attaque lancée par Kira",
        "aguardando Garde declarar uma esquiva, uma aparada ou nada contra o ataque de Kira",
    ]


def test_out_of_turn_in_every_language():
    error = refused(fight(), {"type": "pass", "actor": "garde"}, ActionNotAllowed)
    assert _said(error) == [
        "it is not Garde's turn; waiting for Kira",
        "Garde doit attendre son tour : Kira a la main",
        "não é a vez de Garde; aguardando Kira",
    ]
