"""Refusals (the sentences of the problems the API answers with) in every language.

Each ``refusal("...")`` template is extracted into its owner's catalogues
(``python -m service.i18n update``); ``check`` lists one without a translation,
and this suite fails on it for every owner that has converted its refusals.
"""

import re
from pathlib import Path

import pytest

import service as service_package
from service.i18n import REFUSAL, TRANSLATED, catalog, owners, refusal_context, refusal_templates, say
from service.i18n import __main__ as i18n_cli
from service.rules.errors import InvalidAction, refusal

# Rulesets whose refusals are still English f-strings, converted by their owners
# (issue 36): the lead empties this list once each has merged. A pending ruleset's
# templates are checked too; only a missing translation is forgiven.
PENDING: frozenset[str] = frozenset()


def test_the_extractor_finds_the_refusals_written_in_the_code():
    assert "the fight is over; no more actions are accepted" in refusal_templates(None)
    assert "{actor} has left the fight" in refusal_templates(None)


def test_check_flags_a_refusal_without_translation(monkeypatch):
    entries = i18n_cli.entries()
    monkeypatch.setattr(i18n_cli, "entries", lambda: [*entries, (refusal_context(None), "a brand new {thing}")])
    found = i18n_cli.problems("fr", (None,))
    assert found == ["fr: common|refusal 'a brand new {thing}' is not translated"]


@pytest.mark.parametrize("owner", owners(), ids=lambda owner: owner or "common")
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_refusal_has_a_reviewed_translation(owner, lang):
    missing = [
        msgid
        for msgid in refusal_templates(owner)
        if (entry := catalog(lang, owner).get(msgid, context=refusal_context(owner))) is None
        or entry.fuzzy
        or not entry.string
    ]
    if owner in PENDING and missing:
        pytest.xfail(f"{owner}'s refusals are converted by its owner (issue 36): {len(missing)} untranslated")
    assert missing == [], f"run python -m service.i18n update, then translate in {owner or 'common'}'s {lang}.po"


def test_a_refusal_keeps_its_english_and_says_itself_again():
    error = InvalidAction(refusal("there is no combatant '{actor_id}' in this combat", actor_id="zed"), field="actor")
    assert str(error) == error.detail == "there is no combatant 'zed' in this combat"
    assert say(error.detail, "fr") == "il n'y a aucun combattant « zed » dans ce combat"
    assert say(error.detail, "pt") == "não há nenhum combatente “zed” neste combate"
    # A plain string has no template: English in every language.
    assert say("no such thing", "fr") == "no such thing"


def test_a_refusal_context_names_its_owner():
    assert refusal_context(None) == f"common|{REFUSAL}"
    assert refusal_context("dark-earth") == "dark-earth|refusal"


def test_an_update_that_changes_only_the_date_leaves_the_catalogue_alone(tmp_path):
    path = tmp_path / "fr.po"
    path.write_bytes(b'"POT-Creation-Date: 2026-01-01 00:00+0000\\n"\nmsgid "x"\n')
    i18n_cli._write_if_changed(path, b'"POT-Creation-Date: 2026-12-04 05:00+0000\\n"\nmsgid "x"\n')
    assert b"2026-01-01" in path.read_bytes()
    i18n_cli._write_if_changed(path, b'"POT-Creation-Date: 2026-12-04 05:00+0000\\n"\nmsgid "y"\n')
    assert path.read_bytes() == b'"POT-Creation-Date: 2026-12-04 05:00+0000\\n"\nmsgid "y"\n'


def test_no_refusal_template_is_an_f_string():
    """Babel's extractor skips an f-string (it cannot be translated as written): the template must be
    a plain literal, its values params (``refusal("{actor} is down", actor=name)``)."""
    service = Path(service_package.__file__).parent
    found = [
        f"{path.relative_to(service.parent)}:{text[: match.start()].count(chr(10)) + 1}"
        for path in sorted(service.rglob("*.py"))
        for text in [path.read_text()]
        for match in re.finditer(r"\brefusal\(\s*[rbRB]?[fF]['\"]", text)
    ]
    assert found == []
