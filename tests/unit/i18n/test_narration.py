"""What players read: every event of every ruleset, in every language,
rendered from parameters the rules really emitted (service/i18n/corpus.py).

The corpus is: each ruleset's example, six seeded fights driven by the
simulator's tactic, a game-master scene, the events the rules tests make the
engine emit (recorded.json, ``python -m service.i18n record``), and three
hand-written events no fight reaches (corpus.HAND_WRITTEN).
"""

import re

import pytest

from melee_testing.ruleset_kit import played_samples
from service.i18n import SOURCE_LANGUAGE, TRANSLATED, catalog, catalogues, owners
from service.i18n.narration_docs import pages
from service.rules.events import COMBATANT_PARAMS, COMMON_MESSAGES, render
from service.rules.registry import RULESETS

LANGUAGES = (SOURCE_LANGUAGE, *TRANSLATED)

# Shared events a ruleset never emits by design.
NOT_IN_RULESET = {
    "turn_order": {"age-du-silicium", "dark-earth", "duel-2d6"},  # they narrate their own orders
    "result_overridden": {
        "dark-earth",
        "space-opera-d100",
    },  # dice pools and degrees: no success to force (supports_override)
    "recovered": {
        "space-opera-d100"
    },  # its rules tie no state to PV: healing ends none (docs/rules/space-opera-d100.md)
}
# Melee's own rulesets: a plugin owes none of the shared events.
BUILT_IN = sorted(rid for rid, ruleset in RULESETS.items() if type(ruleset).__module__.startswith("service.rules."))


def _base(code: str) -> str:
    return code.split(".")[0]


# Every event reads as prose, and every event code of a ruleset is played: the
# ruleset kit (melee_testing/ruleset_kit.py, tests/kit/) checks both for each ruleset.


def test_every_shared_event_code_is_played_where_it_can_happen():
    for code in {_base(key) for key in COMMON_MESSAGES["en"]}:
        for ruleset_id in sorted(set(BUILT_IN) - NOT_IN_RULESET.get(code, set())):
            assert code in {event["code"] for event, _ in played_samples(ruleset_id)}, (ruleset_id, code)


def test_every_variant_refines_an_existing_sentence():
    for ruleset_id in RULESETS:
        english = catalogues(ruleset_id)["en"]
        for key in english:
            code, *flags = key.split(".")
            assert code in english, key
            assert all(re.fullmatch(r"(no_)?\w+|\w+=[\w-]+", flag) for flag in flags), key


NAMED = sorted(COMBATANT_PARAMS | {"opponents", "deaths", "order"})  # names, or lists of names
NAME_AFTER_ARTICLE = re.compile(r"\b(de|à|que|le|la|du|au|des|aux)\s+\{(" + "|".join(NAMED) + r")\}", re.IGNORECASE)


def test_french_never_puts_an_article_or_a_preposition_to_contract_before_a_name():
    # Names are free text ("Ana", "Le truand", "Archer"): "de Ana", "à Le truand" are wrong
    # and "d'Ana", "au truand" need the name's grammar. The French sentences are phrased
    # so that a name is a subject, an object, or follows "pour", "sur", "contre", ":".
    offending = [
        f"{message.context}: {message.string}"
        for ruleset_id in owners()
        for message in catalog("fr", ruleset_id)
        if message.context and message.string and NAME_AFTER_ARTICLE.search(message.string)
    ]
    assert offending == []


@pytest.mark.parametrize(
    ("lang", "count", "text"),
    [
        ("en", 0, "0 rounds"),
        ("en", 1, "1 round"),
        ("en", 2, "2 rounds"),
        # CLDR: French and Portuguese take the singular for 0 and 1.
        ("fr", 0, "0 tour"),
        ("fr", 1, "1 tour"),
        ("fr", 2, "2 tours"),
        ("pt", 0, "0 rodada"),
        ("pt", 1, "1 rodada"),
        ("pt", 2, "2 rodadas"),
    ],
)
def test_counted_nouns_follow_the_languages_plural_rules(lang, count, text):
    forms = {"en": "{n:# round|# rounds}", "fr": "{n:# tour|# tours}", "pt": "{n:# rodada|# rodadas}"}
    assert (
        render({"code": "x", "params": {"n": count}}, lang, {"en": {"x": forms[lang]}, lang: {"x": forms[lang]}}, {})
        == text
    )


def test_a_list_of_combatants_reads_as_names_joined_as_the_language_joins_them():
    event = {
        "code": "combat_summary",
        "params": {"rounds": 1, "actions": 2, "rolls": 1, "combatants": {}, "deaths": ["a", "b", "c"]},
    }
    names = {"a": "Ana", "b": "Bob", "c": "Cy"}
    texts = {lang: render(event, lang, catalogues("sistema-2d6"), names) for lang in LANGUAGES}
    assert texts["en"] == "The fight lasted 1 round: 2 actions, 1 die rolled; dead: Ana, Bob, and Cy."
    assert texts["fr"] == "Le combat a duré 1 tour : 2 actions, 1 dé lancé ; morts : Ana, Bob et Cy."
    assert texts["pt"] == "O combate durou 1 rodada: 2 ações, 1 dado rolado; mortos: Ana, Bob e Cy."


def test_an_automatic_end_is_not_told_as_the_game_masters():
    by_rules = {"code": "combat_ended", "params": {"reason": "one_side_standing"}}
    by_gm = {"code": "combat_ended", "params": {"reason": None}}
    messages = catalogues("sistema-2d6")
    assert render(by_rules, "en", messages, {}) == "The fight is over: only one side is still standing."
    assert render(by_gm, "en", messages, {}) == "The game master ends the fight."


def test_docs_narration_is_what_the_generator_writes_now():
    stale = [
        path.name for path, text in pages().items() if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    assert stale == [], "run: python -m service.i18n docs"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            # CLDR puts a narrow no-break space before PM.
            "The game master resumes the fight on December 4, 2026 at 10:02\u202fPM UTC, "
            "from the save of December 1, 2026 at 9:00\u202fAM UTC (version 7).",
        ),
        (
            "fr",
            "Le meneur de jeu reprend le combat le 4 décembre 2026 à 22:02 UTC, "
            "à partir de la sauvegarde du 1er décembre 2026 à 09:00 UTC (version 7).",
        ),
        (
            "pt",
            "O mestre retoma o combate em 4 de dezembro de 2026 às 22:02 UTC, "
            "a partir do ponto salvo em 1 de dezembro de 2026 às 09:00 UTC (versão 7).",
        ),
    ],
)
def test_a_restore_says_its_moments_as_a_reader_writes_them(lang, expected):
    entry = {
        "code": "combat_restored",
        "params": {"restored_at": "2026-12-04T22:02:51Z", "taken_at": "2026-12-01T09:00:00Z", "version": 7},
    }
    assert render(entry, lang, catalogues("sistema-2d6"), {}) == expected
