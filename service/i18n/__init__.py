"""Event sentences in every language, from one gettext catalogue per language.

English is the source: each ruleset's ``messages.py`` (and the shared
``COMMON_MESSAGES``) holds the English templates. Each ruleset carries its
own catalogues, ``<lang>.po`` in its package's ``locales/`` folder
(:attr:`Ruleset.locales`), so a plugin ruleset brings its translations with
it; this package's ``locales/<lang>.po`` holds only the shared events and
labels. One entry per event code: ``msgctxt`` is
``<ruleset id>|<code>`` (``common|<code>`` for shared events) and ``msgid``
the English template, so translators work with Poedit, Weblate or any
gettext tool; an English change leaves the entry untranslated until it is
translated again. A fuzzy or missing translation falls back to English.
Labels (words for ids) are entries too: ``<ruleset>|label:<param>:<id>``
(``common|...`` for the shared ones). docs/narration/README.md has the
template syntax.

``python -m service.i18n update`` refreshes each folder's ``melee.pot`` and
catalogues from the code; ``python -m service.i18n check`` lists what is
missing. A ruleset without a catalogue for a language reads in English there.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from ..rules.events import COMMON_LABELS, COMMON_MESSAGES
from ..rules.registry import RULESETS

LOCALES = Path(__file__).resolve().parent / "locales"
SOURCE_LANGUAGE = "en"
TRANSLATED = ("fr", "pt")
COMMON = "common"


def owner(ctx: str) -> str | None:
    """The ruleset whose catalogue holds the entry ``ctx`` (None: the shared catalogue)."""
    prefix = ctx.split("|", 1)[0]
    return None if prefix == COMMON else prefix


def owners() -> tuple[str | None, ...]:
    """Every catalogue's owner: None (the shared events), then each ruleset."""
    return (None, *sorted(RULESETS))


def locales(ruleset_id: str | None) -> Path:
    """The folder of a catalogue: this package's for the shared events, else the ruleset's own."""
    return LOCALES if ruleset_id is None else RULESETS[ruleset_id].locales


def english(ruleset_id: str | None) -> dict[str, str]:
    """The English templates of a ruleset (its own over the shared ones)."""
    if ruleset_id is None:
        return dict(COMMON_MESSAGES[SOURCE_LANGUAGE])
    return {**COMMON_MESSAGES[SOURCE_LANGUAGE], **RULESETS[ruleset_id].messages[SOURCE_LANGUAGE]}


def context(ruleset_id: str | None, code: str) -> str:
    return f"{ruleset_id or COMMON}|{code}"


def label_context(ruleset_id: str | None, param: str, value: str) -> str:
    return f"{ruleset_id or COMMON}|label:{param}:{value}"


def source_labels(ruleset_id: str | None) -> Mapping[str, Mapping[str, str]]:
    """The English words for ids: the shared ones, or a ruleset's own."""
    return COMMON_LABELS if ruleset_id is None else RULESETS[ruleset_id].labels


def source_entries() -> dict[str, str]:
    """Every translatable template and label: msgctxt -> English msgid."""
    entries = {context(None, code): text for code, text in COMMON_MESSAGES[SOURCE_LANGUAGE].items()}
    for ruleset_id, ruleset in sorted(RULESETS.items()):
        for code, text in ruleset.messages[SOURCE_LANGUAGE].items():
            entries[context(ruleset_id, code)] = text
    for labels_owner in owners():
        for param, words in source_labels(labels_owner).items():
            for value, text in words.items():
                entries[label_context(labels_owner, param, value)] = text
    return entries


@cache
def catalog(lang: str, ruleset_id: str | None = None) -> Catalog:
    """The ``lang`` catalogue of a ruleset (None: the shared one); empty when the ruleset has none."""
    path = locales(ruleset_id) / f"{lang}.po"
    if not path.exists():
        return Catalog(locale=lang, domain="melee")
    with open(path, "rb") as handle:
        return read_po(handle, locale=lang)


def _translation(lang: str, ruleset_id: str | None, code: str, msgid: str, ctx: str | None = None) -> str | None:
    message = catalog(lang, ruleset_id).get(msgid, context=ctx or context(ruleset_id, code))
    if message is None or message.fuzzy:
        return None
    return translated_text(message) or None


def translated_text(message: Message | None) -> str:
    """An entry's translation, "" when there is none. Melee's entries have no
    plural forms, so a translation is one string (babel also types the plural
    forms' tuple)."""
    if message is None or not isinstance(message.string, str):
        return ""
    return message.string


@cache
def catalogues(ruleset_id: str) -> dict[str, dict[str, str]]:
    """``{lang: {code: template}}`` for one ruleset, every language."""
    source = english(ruleset_id)
    own = RULESETS[ruleset_id].messages[SOURCE_LANGUAGE]
    result = {SOURCE_LANGUAGE: source}
    for lang in TRANSLATED:
        templates = {}
        for code, msgid in source.items():
            owner = ruleset_id if code in own else None
            translated = _translation(lang, owner, code, msgid)
            if translated is not None:
                templates[code] = translated
        result[lang] = templates
    return result


def _words(ruleset_id: str | None, lang: str) -> dict[str, dict[str, str]]:
    source = source_labels(ruleset_id)
    if lang == SOURCE_LANGUAGE:
        return {param: dict(words) for param, words in source.items()}
    return {
        param: {
            value: _translation(lang, ruleset_id, value, text, label_context(ruleset_id, param, value)) or text
            for value, text in words.items()
        }
        for param, words in source.items()
    }


@cache
def labels(ruleset_id: str) -> dict[str, dict[str, dict[str, str]]]:
    """``{lang: {param: {id: words}}}`` for one ruleset: its own words over the
    shared ones, and the ruleset's name (English where untranslated)."""
    result = {}
    for lang in (SOURCE_LANGUAGE, *TRANSLATED):
        merged = _words(None, lang)
        for param, words in _words(ruleset_id, lang).items():
            merged[param] = {**merged.get(param, {}), **words}
        merged["ruleset"] = {ruleset_id: RULESETS[ruleset_id].name}
        result[lang] = merged
    return result
