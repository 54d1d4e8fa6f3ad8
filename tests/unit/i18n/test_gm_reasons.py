"""The game master's reason in the sentence of every GM event that carries one.

Each GM action is played on a ruleset's example (no dice needed); its event is
rendered in en, fr and pt-BR with a reason typed in that language (shown as
typed: never translated), and without one (the sentence as it was before reasons
were shown).
"""

from __future__ import annotations

import pytest

from service.i18n import catalogues, labels
from service.rules.engine import apply_action, create_combat
from service.rules.events import narration_names, render
from service.rules.registry import RULESETS

NEWCOMER = {
    "id": "rui",
    "name": "Rui",
    "side": "heroes",
    "attributes": {"FOR": 2, "DES": 2, "CON": 2},
    "skills": {"Esquiva": 1},
    "defense_skill": "Esquiva",
}


def sentences(ruleset_id: str, actions: list[dict], code: str, reason: str | None) -> dict[str, str]:
    """The first ``code`` event of the last of ``actions`` (sent with ``reason``), in every language."""
    state, _ = create_combat({**RULESETS[ruleset_id].example()["combat"], "dice": []}, combat_id="t", seed=1)
    *before, last = actions
    for action in before:
        state, _ = apply_action(state, {"actor": "gm", **action})
    state, entry = apply_action(state, {"actor": "gm", **last, **({"reason": reason} if reason is not None else {})})
    event = next(e for e in entry["events"] if e["code"] == code)
    if reason is not None:
        assert event["params"]["reason"] == reason and event["params"]["author"] == "gm"
    names = narration_names(state)
    return {
        lang: render(event, lang, catalogues(ruleset_id), names, labels(ruleset_id)[lang])
        for lang in ("en", "fr", "pt")
    }


# (reason typed, the sentence with it, the sentence without a reason) per language
CASES = [
    pytest.param(
        "sistema-2d6",
        [{"type": "adjust", "target": "ana", "set": {"pv": 9}}],
        "value_adjusted",
        {
            "en": (
                "poison",
                "The game master sets Ana's HP from 14 to 9 (reason: poison).",
                "The game master sets Ana's HP from 14 to 9.",
            ),
            "fr": (
                "poison",
                "Ana : le meneur de jeu fait passer les PV de 14 à 9 (motif : poison).",
                "Ana : le meneur de jeu fait passer les PV de 14 à 9.",
            ),
            "pt": (
                "veneno",
                "Ana: o mestre muda os PV de 14 para 9 (motivo: veneno).",
                "Ana: o mestre muda os PV de 14 para 9.",
            ),
        },
        id="value_adjusted",
    ),
    pytest.param(
        "dark-earth",
        [{"type": "adjust", "target": "kael", "set": {"wound_level": "grave"}}],
        "value_adjusted",
        {
            "en": (
                "bad fall",
                "The game master gives Kael a serious wound (reason: bad fall).",
                "The game master gives Kael a serious wound.",
            ),
            "fr": (
                "mauvaise chute",
                "Kael : le meneur de jeu lui inflige une blessure grave (motif : mauvaise chute).",
                "Kael : le meneur de jeu lui inflige une blessure grave.",
            ),
            "pt": (
                "queda feia",
                "Kael: o mestre lhe inflige um ferimento grave (motivo: queda feia).",
                "Kael: o mestre lhe inflige um ferimento grave.",
            ),
        },
        id="value_adjusted.no_old.value=wound_level",
    ),
    pytest.param(
        "dark-earth",
        [
            {"type": "adjust", "target": "kael", "set": {"wound_level": "grave"}},
            {"type": "adjust", "target": "kael", "set": {"wound_level": None}},
        ],
        "value_adjusted",
        {
            "en": (
                "healed",
                "The game master heals Kael's serious wound (reason: healed).",
                "The game master heals Kael's serious wound.",
            ),
            "fr": (
                "soigné",
                "Kael : le meneur de jeu guérit la blessure grave (motif : soigné).",
                "Kael : le meneur de jeu guérit la blessure grave.",
            ),
            "pt": (
                "curado",
                "Kael: o mestre cura o ferimento grave (motivo: curado).",
                "Kael: o mestre cura o ferimento grave.",
            ),
        },
        id="value_adjusted.no_new.value=wound_level",
    ),
    pytest.param(
        "duel-2d6",
        [{"type": "adjust", "target": "truand", "pv": 3}],
        "pv_set",
        {
            "en": (
                "old wound",
                "The game master sets Le truand's HP to 3 (reason: old wound).",
                "The game master sets Le truand's HP to 3.",
            ),
            "fr": (
                "vieille blessure",
                "Le truand : le meneur de jeu fixe les PV à 3 (motif : vieille blessure).",
                "Le truand : le meneur de jeu fixe les PV à 3.",
            ),
            "pt": (
                "ferida antiga",
                "O mestre deixa Le truand com 3 PV (motivo: ferida antiga).",
                "O mestre deixa Le truand com 3 PV.",
            ),
        },
        id="pv_set",
    ),
    pytest.param(
        "age-du-silicium",
        [{"type": "adjust", "target": "ana", "blessures": 3}],
        "adjusted",
        {
            "en": (
                "old wound",
                "The game master adjusts Ana; 3 wound points left (reason: old wound).",
                "The game master adjusts Ana; 3 wound points left.",
            ),
            "fr": (
                "vieille blessure",
                "Le meneur de jeu ajuste Ana ; 3 points de Blessure restants (motif : vieille blessure).",
                "Le meneur de jeu ajuste Ana ; 3 points de Blessure restants.",
            ),
            "pt": (
                "ferida antiga",
                "O mestre ajusta Ana; 3 pontos de ferimento restantes (motivo: ferida antiga).",
                "O mestre ajusta Ana; 3 pontos de ferimento restantes.",
            ),
        },
        id="adjusted",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "modify", "target": "ana", "value": -2, "rounds": 2}],
        "modifier_applied",
        {
            "en": (
                "smoke",
                "The game master gives Ana -2 on rolls for 2 rounds (reason: smoke).",
                "The game master gives Ana -2 on rolls for 2 rounds.",
            ),
            "fr": (
                "fumée",
                "Ana : -2 à ses jets pendant 2 tours, sur décision du meneur de jeu (motif : fumée).",
                "Ana : -2 à ses jets pendant 2 tours, sur décision du meneur de jeu.",
            ),
            "pt": (
                "fumaça",
                "Ana: -2 nas rolagens por 2 rodadas, por decisão do mestre (motivo: fumaça).",
                "Ana: -2 nas rolagens por 2 rodadas, por decisão do mestre.",
            ),
        },
        id="modifier_applied",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "modify", "target": "ana", "value": 1}],
        "modifier_applied",
        {
            "en": (
                "high ground",
                "The game master gives Ana +1 on the next roll (reason: high ground).",
                "The game master gives Ana +1 on the next roll.",
            ),
            "fr": (
                "en hauteur",
                "Ana : +1 à son prochain jet, sur décision du meneur de jeu (motif : en hauteur).",
                "Ana : +1 à son prochain jet, sur décision du meneur de jeu.",
            ),
            "pt": (
                "terreno elevado",
                "Ana: +1 na próxima rolagem, por decisão do mestre (motivo: terreno elevado).",
                "Ana: +1 na próxima rolagem, por decisão do mestre.",
            ),
        },
        id="modifier_applied.no_rounds",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "override", "target": "ana", "result": "success"}],
        "result_overridden",
        {
            "en": (
                "luck",
                "The game master decides that Ana's next roll is a success (reason: luck).",
                "The game master decides that Ana's next roll is a success.",
            ),
            "fr": (
                "chance",
                "Ana : le meneur de jeu décide que son prochain jet sera une réussite (motif : chance).",
                "Ana : le meneur de jeu décide que son prochain jet sera une réussite.",
            ),
            "pt": (
                "sorte",
                "Ana: o mestre decide que a próxima rolagem será um sucesso (motivo: sorte).",
                "Ana: o mestre decide que a próxima rolagem será um sucesso.",
            ),
        },
        id="result_overridden",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "condition", "target": "capanga", "code": "unconscious", "rounds": 2}],
        "condition_added",
        {
            "en": (
                "knocked out",
                "By the game master's decision, Capanga is unconscious for 2 rounds (reason: knocked out).",
                "By the game master's decision, Capanga is unconscious for 2 rounds.",
            ),
            "fr": (
                "assommé",
                "Capanga : état « inconscient » pendant 2 tours, sur décision du meneur de jeu (motif : assommé).",
                "Capanga : état « inconscient » pendant 2 tours, sur décision du meneur de jeu.",
            ),
            "pt": (
                "nocauteado",
                "Capanga: condição “inconsciente” por 2 rodadas, por decisão do mestre (motivo: nocauteado).",
                "Capanga: condição “inconsciente” por 2 rodadas, por decisão do mestre.",
            ),
        },
        id="condition_added",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "condition", "target": "capanga", "code": "unconscious"}],
        "condition_added",
        {
            "en": (
                "knocked out",
                "By the game master's decision, Capanga is unconscious (reason: knocked out).",
                "By the game master's decision, Capanga is unconscious.",
            ),
            "fr": (
                "assommé",
                "Capanga : état « inconscient », sur décision du meneur de jeu (motif : assommé).",
                "Capanga : état « inconscient », sur décision du meneur de jeu.",
            ),
            "pt": (
                "nocauteado",
                "Capanga: condição “inconsciente”, por decisão do mestre (motivo: nocauteado).",
                "Capanga: condição “inconsciente”, por decisão do mestre.",
            ),
        },
        id="condition_added.no_rounds",
    ),
    pytest.param(
        "sistema-2d6",
        [
            {"type": "condition", "target": "capanga", "code": "unconscious"},
            {"type": "condition", "target": "capanga", "code": "unconscious", "remove": True},
        ],
        "condition_removed",
        {
            "en": (
                "woke up",
                "Capanga is no longer unconscious (reason: woke up).",
                "Capanga is no longer unconscious.",
            ),
            "fr": (
                "réveillé",
                "Capanga n'a plus l'état « inconscient » (motif : réveillé).",
                "Capanga n'a plus l'état « inconscient ».",
            ),
            "pt": (
                "acordou",
                "Capanga não tem mais a condição “inconsciente” (motivo: acordou).",
                "Capanga não tem mais a condição “inconsciente”.",
            ),
        },
        id="condition_removed",
    ),
    pytest.param(
        "duel-2d6",
        [
            {"type": "condition", "target": "truand", "code": "prone"},
            {"type": "adjust", "target": "truand", "remove": ["prone"]},
        ],
        "condition_removed",
        {
            "en": (
                "stands up",
                "Le truand is no longer on the ground (reason: stands up).",
                "Le truand is no longer on the ground.",
            ),
            "fr": (
                "se relève",
                "Le truand n'a plus l'état « au sol » (motif : se relève).",
                "Le truand n'a plus l'état « au sol ».",
            ),
            "pt": (
                "se levanta",
                "Le truand não tem mais a condição “no chão” (motivo: se levanta).",
                "Le truand não tem mais a condição “no chão”.",
            ),
        },
        id="condition_removed by adjust",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "condition", "target": "capanga", "label": "blind", "rounds": 2}],
        "narrative_condition_added",
        {
            "en": (
                "sand in the eyes",
                "The game master marks Capanga: blind (reason: sand in the eyes).",
                "The game master marks Capanga: blind.",
            ),
            "fr": (
                "sable dans les yeux",
                "Le meneur de jeu marque Capanga : blind (motif : sable dans les yeux).",
                "Le meneur de jeu marque Capanga : blind.",
            ),
            "pt": (
                "areia nos olhos",
                "O mestre marca Capanga: blind (motivo: areia nos olhos).",
                "O mestre marca Capanga: blind.",
            ),
        },
        id="narrative_condition_added",
    ),
    pytest.param(
        "sistema-2d6",
        [
            {"type": "condition", "target": "capanga", "label": "blind"},
            {"type": "condition", "target": "capanga", "label": "blind", "remove": True},
        ],
        "narrative_condition_removed",
        {
            "en": (
                "washed his face",
                "Capanga is no longer marked: blind (reason: washed his face).",
                "Capanga is no longer marked: blind.",
            ),
            "fr": (
                "s'est lavé le visage",
                "Capanga : « blind » ne s'applique plus (motif : s'est lavé le visage).",
                "Capanga : « blind » ne s'applique plus.",
            ),
            "pt": (
                "lavou o rosto",
                "Capanga: “blind” não se aplica mais (motivo: lavou o rosto).",
                "Capanga: “blind” não se aplica mais.",
            ),
        },
        id="narrative_condition_removed",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "join", "combatant": NEWCOMER}],
        "joined",
        {
            "en": (
                "reinforcements",
                "Rui joins the fight (heroes; reason: reinforcements).",
                "Rui joins the fight (heroes).",
            ),
            "fr": (
                "renforts",
                "Rui entre dans le combat (heroes ; motif : renforts).",
                "Rui entre dans le combat (heroes).",
            ),
            "pt": ("reforços", "Rui entra no combate (heroes; motivo: reforços).", "Rui entra no combate (heroes)."),
        },
        id="joined",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "leave", "target": "capanga", "how": "flight"}],
        "left_fight",
        {
            "en": (
                "the police arrive",
                "Capanga flees the fight (reason: the police arrive).",
                "Capanga flees the fight.",
            ),
            "fr": (
                "la police arrive",
                "Capanga s'enfuit et quitte le combat (motif : la police arrive).",
                "Capanga s'enfuit et quitte le combat.",
            ),
            "pt": (
                "a polícia chegou",
                "Capanga foge do combate (motivo: a polícia chegou).",
                "Capanga foge do combate.",
            ),
        },
        id="left_fight.how=flight",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "leave", "target": "capanga", "how": "surrender"}],
        "left_fight",
        {
            "en": (
                "surrounded",
                "Capanga surrenders and leaves the fight (reason: surrounded).",
                "Capanga surrenders and leaves the fight.",
            ),
            "fr": (
                "encerclé",
                "Capanga se rend et quitte le combat (motif : encerclé).",
                "Capanga se rend et quitte le combat.",
            ),
            "pt": (
                "cercado",
                "Capanga se rende e deixa o combate (motivo: cercado).",
                "Capanga se rende e deixa o combate.",
            ),
        },
        id="left_fight.how=surrender",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "leave", "target": "capanga"}],
        "left_fight",
        {
            "en": (
                "player away",
                "The game master takes Capanga out of the fight (reason: player away).",
                "The game master takes Capanga out of the fight.",
            ),
            "fr": (
                "joueur absent",
                "Le meneur de jeu retire Capanga du combat (motif : joueur absent).",
                "Le meneur de jeu retire Capanga du combat.",
            ),
            "pt": (
                "jogador ausente",
                "O mestre retira Capanga do combate (motivo: jogador ausente).",
                "O mestre retira Capanga do combate.",
            ),
        },
        id="left_fight.how=removed",
    ),
    pytest.param(
        "sistema-2d6",
        [{"type": "end_combat"}],
        "combat_ended",
        {
            "en": ("truce", "The game master ends the fight (reason: truce).", "The game master ends the fight."),
            "fr": (
                "trêve",
                "Le meneur de jeu met fin au combat (motif : trêve).",
                "Le meneur de jeu met fin au combat.",
            ),
            "pt": ("trégua", "O mestre encerra o combate (motivo: trégua).", "O mestre encerra o combate."),
        },
        id="combat_ended",
    ),
    pytest.param(
        "dark-earth",
        [{"type": "contact", "combatant": "kael", "target": "goule", "engaged": False}],
        "contact_broken",
        {
            "en": (
                "they step back",
                "Goule and Kael are no longer in contact (reason: they step back).",
                "Goule and Kael are no longer in contact.",
            ),
            "fr": (
                "ils reculent",
                "Goule et Kael ne sont plus au contact (motif : ils reculent).",
                "Goule et Kael ne sont plus au contact.",
            ),
            "pt": (
                "eles recuam",
                "Goule e Kael não estão mais em contato (motivo: eles recuam).",
                "Goule e Kael não estão mais em contato.",
            ),
        },
        id="contact_broken",
    ),
    pytest.param(
        "dark-earth",
        [
            {"type": "contact", "combatant": "kael", "target": "goule", "engaged": False},
            {"type": "contact", "combatant": "kael", "target": "goule"},
        ],
        "contact_made",
        {
            "en": ("charge", "Goule and Kael are in contact (reason: charge).", "Goule and Kael are in contact."),
            "fr": ("charge", "Goule et Kael sont au contact (motif : charge).", "Goule et Kael sont au contact."),
            "pt": ("investida", "Goule e Kael estão em contato (motivo: investida).", "Goule e Kael estão em contato."),
        },
        id="contact_made",
    ),
    pytest.param(
        "space-opera-d100",
        [
            {"type": "condition", "target": "garde", "code": "paralysed"},
            {"type": "clear_condition", "target": "garde", "condition": "paralysed"},
        ],
        "condition_cleared",
        {
            "en": (
                "antidote",
                "The game master lifts a condition from Garde: paralysed (reason: antidote).",
                "The game master lifts a condition from Garde: paralysed.",
            ),
            "fr": (
                "antidote",
                "Le meneur de jeu lève un état pour Garde : paralysé (motif : antidote).",
                "Le meneur de jeu lève un état pour Garde : paralysé.",
            ),
            "pt": (
                "antídoto",
                "O mestre retira uma condição de Garde: paralisado (motivo: antídoto).",
                "O mestre retira uma condição de Garde: paralisado.",
            ),
        },
        id="condition_cleared",
    ),
]


@pytest.mark.parametrize(("ruleset_id", "actions", "code", "expected"), CASES)
def test_a_gm_events_sentence_says_the_reason_as_typed(ruleset_id, actions, code, expected):
    for lang, (reason, with_reason, _) in expected.items():
        assert sentences(ruleset_id, actions, code, reason)[lang] == with_reason


@pytest.mark.parametrize(("ruleset_id", "actions", "code", "expected"), CASES)
def test_without_a_reason_the_sentence_is_unchanged(ruleset_id, actions, code, expected):
    texts = sentences(ruleset_id, actions, code, None)
    assert texts == {lang: without for lang, (_, _, without) in expected.items()}


def test_a_reason_that_is_also_a_rules_word_is_not_translated():
    # duel-2d6 has words for its own initiative reasons ("feint": "a feint"); the GM's "feint" stays "feint".
    texts = sentences("duel-2d6", [{"type": "adjust", "target": "truand", "pv": 3}], "pv_set", "feint")
    assert texts == {
        "en": "The game master sets Le truand's HP to 3 (reason: feint).",
        "fr": "Le truand : le meneur de jeu fixe les PV à 3 (motif : feint).",
        "pt": "O mestre deixa Le truand com 3 PV (motivo: feint).",
    }


def test_a_blank_reason_is_not_shown_and_a_reason_is_shown_without_its_outer_spaces():
    adjust = [{"type": "adjust", "target": "ana", "set": {"pv": 9}}]
    assert (
        sentences("sistema-2d6", adjust, "value_adjusted", "   ")["en"] == "The game master sets Ana's HP from 14 to 9."
    )
    assert (
        sentences("sistema-2d6", adjust, "value_adjusted", "  poison ")["fr"]
        == "Ana : le meneur de jeu fait passer les PV de 14 à 9 (motif : poison)."
    )
