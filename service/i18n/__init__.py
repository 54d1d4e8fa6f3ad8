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

Refusals (the sentences of an error the API answers with, ``problem.detail`` and
``title``) are entries too: ``msgctxt "<ruleset>|refusal"`` (``common|refusal``)
and ``msgid`` the English template given to ``rules.errors.refusal``, extracted
from the code by Babel's Python extractor (``refusal_entries``) into the
catalogue of the package the call is written in; :func:`say` says one in a
language.

``python -m service.i18n update`` refreshes each folder's ``melee.pot`` and
catalogues from the code; ``python -m service.i18n check`` lists what is
missing. A ruleset without a catalogue for a language reads in English there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from ..rules.errors import Refusal
from ..rules.events import COMMON_LABELS, COMMON_MESSAGES, fill
from ..rules.registry import RULESETS

LOCALES = Path(__file__).resolve().parent / "locales"
SOURCE_LANGUAGE = "en"
TRANSLATED = ("fr", "pt")
SPOKEN = (SOURCE_LANGUAGE, *TRANSLATED)
COMMON = "common"
# The msgctxt of a refusal after its owner's prefix, and the marker the extractor looks for.
REFUSAL = "refusal"
REFUSAL_KEYWORDS = {"refusal": None}
# Where the shared refusals are written: every module of the service but the rulesets' packages.
SERVICE = Path(__file__).resolve().parent.parent


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


def refusal_context(ruleset_id: str | None) -> str:
    return f"{ruleset_id or COMMON}|{REFUSAL}"


def _sources(ruleset_id: str | None) -> Iterator[Path]:
    """The Python files whose refusals go to ``ruleset_id``'s catalogue (None: the shared one)."""
    if ruleset_id is not None:
        yield from sorted(locales(ruleset_id).parent.rglob("*.py"))
        return
    packages = [locales(other).parent for other in RULESETS]
    for path in sorted(SERVICE.rglob("*.py")):
        if not any(path.is_relative_to(package) for package in packages):
            yield path


@cache
def refusal_templates(ruleset_id: str | None) -> tuple[str, ...]:
    """The English refusal templates written in an owner's code: every ``refusal("...")``
    call's first argument, as Babel's Python extractor finds them."""
    found: set[str] = set()
    for path in _sources(ruleset_id):
        for _, message, _, _ in extract_from_file("python", path, REFUSAL_KEYWORDS, (), {}):
            if isinstance(message, str):
                found.add(message)
    return tuple(sorted(found))


def refusal_entries() -> list[tuple[str, str]]:
    """Every refusal template: (msgctxt, English msgid), owner by owner."""
    return [(refusal_context(owner), msgid) for owner in owners() for msgid in refusal_templates(owner)]


def _refusal_translation(lang: str, template: str, ruleset_id: str | None) -> str | None:
    """A refusal's template in ``lang``: the combat's ruleset's catalogue, then the shared
    one, then any ruleset's (a refusal met before a ruleset is known, e.g. a sheet's)."""
    owners_first = (ruleset_id, None, *sorted(set(RULESETS) - {ruleset_id}))
    for owner_id in dict.fromkeys(owners_first):
        if owner_id is not None and owner_id not in RULESETS:
            continue
        translated = _translation(lang, owner_id, REFUSAL, template, refusal_context(owner_id))
        if translated is not None:
            return translated
    return None


def say(text: str, lang: str, ruleset_id: str | None = None, names: Mapping[str, str] | None = None) -> str:
    """A refusal's sentence in ``lang`` (English, as made, when there is no translation or
    ``text`` is a plain string); ids in its params shown by ``names`` and the ruleset's words."""
    if lang == SOURCE_LANGUAGE or not isinstance(text, Refusal):
        return str(text)
    translated = _refusal_translation(lang, text.template, ruleset_id)
    if translated is None:
        return str(text)
    words = labels(ruleset_id)[lang] if ruleset_id in RULESETS else _words(None, lang)
    # A param that is a refusal itself (a value's kind, a ruleset's rule) is said in the same language.
    params = {
        key: say(value, lang, ruleset_id, names) if isinstance(value, Refusal) else value
        for key, value in text.params.items()
    }
    return fill(translated, params, lang, {**text.names, **(names or {})}, words) or str(text)


def preferred_language(accepted: Iterable[tuple[str, float]], default: str) -> str:
    """The first language of ``accepted`` (by quality, as werkzeug's ``LanguageAccept`` lists
    them) the service speaks, a regional tag counting for its language; ``default`` for ``*``
    or when none is spoken."""
    for value, quality in accepted:
        if quality <= 0:
            continue
        if value == "*":
            return default
        primary = value.replace("_", "-").split("-")[0].lower()
        if primary in SPOKEN:
            return primary
    return default
