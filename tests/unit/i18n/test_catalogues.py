"""Every event code has a reviewed translation in every language, and the
catalogues are what `python -m service.i18n update` makes of the code."""

import io

import pytest
from babel.messages.pofile import write_po

from melee_testing.ruleset_kit import prose_faults
from service.i18n import TRANSLATED, catalogues, labels, locales, owners, source_entries
from service.i18n.__main__ import placeholders, problems, template
from service.i18n.corpus import random_fight
from service.rules.engine import apply_action, create_combat
from service.rules.events import render
from service.rules.registry import RULESETS

COMPLETE = TRANSLATED
RANDOM_SEEDS = range(1, 9)


@pytest.mark.parametrize("lang", COMPLETE)
def test_no_event_code_lacks_a_translation(lang):
    assert problems(lang) == []


@pytest.mark.parametrize("ruleset_id", owners())
def test_the_template_is_up_to_date(ruleset_id):
    written = io.BytesIO()
    write_po(written, template(ruleset_id), sort_output=True, no_location=True, width=0)
    stored = (locales(ruleset_id) / "melee.pot").read_bytes()
    # The header carries a creation date; compare the entries.
    assert written.getvalue().split(b"\n\n", 1)[1] == stored.split(b"\n\n", 1)[1], "run: python -m service.i18n update"


def test_every_template_names_the_same_placeholders_in_every_language():
    for ruleset_id in RULESETS:
        by_lang = catalogues(ruleset_id)
        for lang in COMPLETE:
            for code, text in by_lang[lang].items():
                assert placeholders(text) == placeholders(by_lang["en"][code]), (ruleset_id, lang, code)


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_every_event_of_played_fights_reads_in_every_language(ruleset_id):
    # The example plus a few fights on server dice: every emitted code must have
    # a sentence (render falls back to the bare code when none exists).
    example = RULESETS[ruleset_id].example()
    names = {c["id"]: c["name"] for c in example["combat"]["combatants"]}
    emitted = []
    for seed in range(3):
        state, entry = create_combat({**example["combat"], "seed": seed}, combat_id="i18n", seed=seed)
        emitted += entry["events"]
        for action in example["actions"]:
            try:
                state, entry = apply_action(state, action if seed == 0 else {**action, "dice": []})
            except Exception:
                break
            emitted += entry["events"]
    assert emitted
    for lang in ("en", *COMPLETE):
        for event in emitted:
            text = render(event, lang, catalogues(ruleset_id), names)
            assert text != event["code"], (lang, event["code"])


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_random_play_reads_as_prose_in_every_language(ruleset_id):
    """Seeded fights of random listed actions (and GM adjustments), rendered in en, fr and pt: no raw id,
    no None, no snake_case token (melee_testing/prose.py), as a table clicking through /play reads them."""
    played = [
        (event, fight.names)
        for seed in RANDOM_SEEDS
        for fight in [random_fight(ruleset_id, seed)]
        for event in fight.events
    ]
    assert {event["code"] for event, _ in played} > {"combat_summary"}
    assert prose_faults(ruleset_id, played) == []


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_catalog_weapons_the_sheet_does_not_name_read_in_the_combat_language(ruleset_id):
    """A catalog weapon (bare hands included) that no sheet names is not called by the catalog's own
    name in an English or Portuguese sentence of seeded random fights."""
    ruleset = RULESETS[ruleset_id]
    sheets = ruleset.example()["combat"]["combatants"]
    typed = {w["name"] for sheet in sheets for w in sheet.get("weapons") or () if w.get("name")}
    catalog = {w["name"] for w in (ruleset.catalog.get("weapons") or {}).values() if w.get("name")} - typed
    words = labels(ruleset_id)
    found = {
        (lang, name, text)
        for seed in RANDOM_SEEDS
        for fight in [random_fight(ruleset_id, seed)]
        for event in fight.events
        for lang in ("en", "pt")
        for text in [render(event, lang, catalogues(ruleset_id), fight.names, words[lang])]
        for name in catalog
        if name in text
    }
    assert sorted(found)[:3] == []


def test_source_entries_cover_every_ruleset_and_the_shared_events():
    contexts = {ctx.split("|")[0] for ctx in source_entries()}
    assert contexts == {"common", *RULESETS}


def test_ids_in_event_params_read_as_words_in_every_language():
    event = {
        "code": "defense_rolled",
        "params": {
            "defender": "philip",
            "defense": "esquiver",
            "dice": [3, 3],
            "total": 6,
            "target": 7,
            "level": "reussite_critique",
        },
    }
    names = {"philip": "Philip"}
    sentences = {
        lang: render(event, lang, catalogues("duel-2d6"), names, labels("duel-2d6")[lang])
        for lang in ("en", "fr", "pt")
    }
    assert sentences["en"] == "Philip tries Esquiver: 3, 3 = 6 against 7: critical success."
    assert sentences["fr"].endswith("réussite critique.")
    assert sentences["pt"].endswith("sucesso crítico.")


def test_lists_of_ids_read_as_words_too():
    event = {"code": "declared", "params": {"actor": "ana", "kinds": ["attack", "hold"], "ranks": [60, 50]}}
    text = render(event, "pt", catalogues("age-du-silicium"), {"ana": "Ana"}, labels("age-du-silicium")["pt"])
    assert text == "Ana declara um ataque e uma ação retida (posições 60, 50)."


def test_a_stun_with_no_chance_says_so_without_a_roll():
    """Issue 27 item 17: « (chance 0 %, jet None) » when no stun roll is made (space_opera_d100/damage.py)."""
    event = {"code": "stun_failed", "params": {"target": "garde", "chance": 0, "roll": None}}
    names, words = {"garde": "Garde"}, labels("space-opera-d100")
    sentences = [render(event, lang, catalogues("space-opera-d100"), names, words[lang]) for lang in ("en", "fr", "pt")]
    assert sentences == [
        "This blow cannot stun Garde.",
        "Ce coup ne peut pas étourdir Garde.",
        "Este golpe não pode atordoar Garde.",
    ]


def test_the_pain_that_takes_a_fighter_out_reads_naturally():
    """Issue 27 item 18: not « The pain overwhelms X (5 dice fewer, against a POT of 4 at best) »."""
    event = {"code": "incapacitated_by_pain", "params": {"target": "goule", "pain": 5, "pot": 4}}
    names, words = {"goule": "Goule"}, labels("dark-earth")
    sentences = [render(event, lang, catalogues("dark-earth"), names, words[lang]) for lang in ("en", "fr", "pt")]
    assert sentences == [
        "Goule collapses in pain and is out of the fight: the wounds cost 5 dice, and their best POT is only 4.",
        "Goule s'effondre de douleur et ne peut plus combattre : ses blessures lui retirent 5 dés, "
        "et son meilleur POT n'est que de 4.",
        "Goule desaba de dor e não consegue mais lutar: os ferimentos tiram 5 dados, e o seu melhor POT é de apenas 4.",
    ]
