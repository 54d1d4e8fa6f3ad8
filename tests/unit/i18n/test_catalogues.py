"""Every event code has a reviewed translation in every language, and the
catalogues are what `python -m service.i18n update` makes of the code."""

import io

import pytest
from babel.messages.pofile import write_po

from service.i18n import TRANSLATED, catalogues, labels, locales, owners, source_entries
from service.i18n.__main__ import placeholders, problems, template
from service.rules.engine import apply_action, create_combat
from service.rules.events import render
from service.rules.registry import RULESETS

COMPLETE = TRANSLATED


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
