"""Events: machine-readable facts (``code`` + ``params``) with a sentence.

Events are stored without text; the sentence is rendered when read, in the
combat's language, from the ruleset's message catalogue. Parameters that
name combatants hold ids and are shown by name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import cache, lru_cache
from string import Formatter
from typing import Any

from babel import Locale
from babel.dates import format_date, format_time
from babel.lists import format_list

from .state import Event

COMBATANT_PARAMS = frozenset({"actor", "target", "attacker", "defender", "combatant", "healer"})
# Params naming a weapon or an item of a sheet: shown by the name the sheet gives it.
ITEM_PARAMS = frozenset({"weapon", "item"})
# A GM's adjusted value that names a weapon of the sheet (space-opera-d100's weapon in hand): its
# ``old`` and ``new`` are shown by the weapon's name, as ITEM_PARAMS are.
ITEM_VALUES = frozenset({"wielding"})
ADJUSTED_PARAMS = frozenset({"old", "new"})
# The game master's own words in an event the GM made (``author: "gm"``): shown as typed,
# never through a ruleset's words for ids (duel-2d6 names its initiative reasons).
GM_WORDS = frozenset({"reason"})
# Params holding a moment (ISO 8601, UTC): shown as a date and time in the reader's language.
TIME_PARAMS = frozenset({"taken_at", "restored_at"})
# The label group naming a catalog weapon inside a sentence, article included (``_item_name``).
WEAPON_IN_SENTENCE = "weapon_in_sentence"
GM_AUTHOR = "gm"

# English only: translations live in the gettext catalogues (service/i18n).
COMMON_MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "combat_started": "The fight begins ({ruleset}).",
        "round_started": "Round {round} begins.",
        "combat_ended": "The game master ends the fight[reason? (reason: {reason})].",
        "combat_ended.reason=one_side_standing": "The fight is over: only one side is still standing.",
        "combat_ended.reason=nobody_standing": "The fight is over: nobody is left standing.",
        "combat_over": "The fight is over: no side has an opponent left standing.",
        "combat_over.reason=one_side_standing": "The fight is over: only one side is still standing.",
        "combat_over.reason=nobody_standing": "The fight is over: nobody is left standing.",
        "turn_order": "Order of action: {order}.",
        "action_undone": "The game master takes back action {seq}.",
        "action_redone": "The game master plays action {seq} again.",
        "combat_restored": (
            "The game master resumes the fight on {restored_at}, from the save of {taken_at} (version {version})."
        ),
        "condition_expired": "{combatant} is no longer {condition}.",
        "condition_expired.condition=modifier": "The game master's modifier on {combatant}'s rolls ends.",
        "condition_expired.condition=override": "The game master's ruling on {combatant}'s roll has been applied.",
        "value_adjusted": "The game master sets {target}'s {value} from {old} to {new}[reason? (reason: {reason})].",
        "value_adjusted.no_old": "The game master sets {target}'s {value} to {new}[reason? (reason: {reason})].",
        "value_adjusted.no_new": "The game master clears {target}'s {value} (it was {old}[reason?; reason: {reason}]).",
        "modifier_applied": (
            "The game master gives {target} {value:+d} on rolls for "
            "{rounds:# round|# rounds}[reason? (reason: {reason})]."
        ),
        "modifier_applied.no_rounds": (
            "The game master gives {target} {value:+d} on the next roll[reason? (reason: {reason})]."
        ),
        "result_overridden": (
            "The game master decides that {target}'s next roll is {result}[reason? (reason: {reason})]."
        ),
        "condition_added": (
            "By the game master's decision, {target} is {condition} for "
            "{rounds:# round|# rounds}[reason? (reason: {reason})]."
        ),
        "condition_added.no_rounds": (
            "By the game master's decision, {target} is {condition}[reason? (reason: {reason})]."
        ),
        "condition_removed": "{target} is no longer {condition}[reason? (reason: {reason})].",
        "joined": "{combatant} joins the fight ({side}[reason?; reason: {reason}]).",
        "left_fight": "{target} leaves the fight[reason? (reason: {reason})].",
        "left_fight.how=flight": "{target} flees the fight[reason? (reason: {reason})].",
        "left_fight.how=surrender": "{target} surrenders and leaves the fight[reason? (reason: {reason})].",
        "left_fight.how=removed": "The game master takes {target} out of the fight[reason? (reason: {reason})].",
        "combat_summary": (
            "The fight lasted {rounds:# round|# rounds}: {actions:# action|# actions}, "
            "{rolls:# die rolled|# dice rolled}; dead: {deaths}."
        ),
        "combat_summary.no_deaths": (
            "The fight lasted {rounds:# round|# rounds}: {actions:# action|# actions}, "
            "{rolls:# die rolled|# dice rolled}; nobody died."
        ),
        "narrative_condition_added": "The game master marks {target}: {label}[reason? (reason: {reason})].",
        "narrative_condition_removed": "{target} is no longer marked: {label}[reason? (reason: {reason})].",
        "recovered": "{target} comes round and can fight again.",
    },
}
# Words for the ids the shared events carry (a ruleset adds its own: LABELS).
COMMON_LABELS: dict[str, dict[str, str]] = {
    "result": {"success": "a success", "failure": "a failure"},
    "condition": {"modifier": "under a modifier", "override": "under the game master's ruling"},
}


def event(code: str, **params: Any) -> Event:
    return {"code": code, "params": params}


YES_NO = {"en": ("yes", "no"), "fr": ("oui", "non"), "pt": ("sim", "não")}
# A date and a time as one moment: CLDR's "date at time" patterns (Babel's long date-time joins them
# with a comma, and says "TU" in French), to the minute, in UTC.
AT_TIME = {"en": "{date} at {time} UTC", "fr": "{date} à {time} UTC", "pt": "{date} às {time} UTC"}


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@lru_cache(maxsize=4096)
def _is_one(lang: str, number: int) -> bool:
    """CLDR's "one" category (cached: the rule is evaluated per read, on few distinct numbers)."""
    return _locale(lang).plural_form(number) == "one"


class Count(int):
    """A number that can say its noun: ``{rounds:# round|# rounds}``.

    The format spec lists the CLDR forms ``one|other`` (``#`` is the number);
    the language's plural rule picks one (French "many", for millions, takes
    "other"). Any other spec formats the number as usual (``{value:+d}``)."""

    lang = "en"

    def __format__(self, spec: str) -> str:
        if "|" not in spec:
            return int.__format__(self, spec)
        one, _, other = spec.partition("|")
        form = one if _is_one(self.lang, int(self)) else other
        return form.replace("#", str(int(self)))


class Items(str):
    """A list shown as words that can say its noun by its length: ``{ranks:rank #|ranks #}``."""

    length = 0
    lang = "en"

    def __format__(self, spec: str) -> str:
        if "|" not in spec:
            return str.__format__(self, spec)
        one, _, other = spec.partition("|")
        return (one if _is_one(self.lang, self.length) else other).replace("#", str(self))


def _items(text: str, count: int, lang: str) -> Items:
    items = Items(text)
    items.length, items.lang = count, lang
    return items


def _count(value: int, lang: str) -> Count:
    number = Count(value)
    number.lang = lang
    return number


def narration_names(state: Mapping[str, Any]) -> dict[str, str]:
    """What the sentences call things by: combatant ids and ``weapon:<id>`` of the sheets; for a catalog
    weapon the sheet does not name (``named`` false), ``catalog:<id>``, its catalog id, which the
    renderer shows through the ``weapon`` labels in the combat's language."""
    names: dict[str, str] = {}
    for combatant in state["combatants"]:
        sheet = combatant.get("sheet") if isinstance(combatant.get("sheet"), Mapping) else {}
        for weapon in sheet.get("weapons") or ():
            if not isinstance(weapon, Mapping) or not weapon.get("id"):
                continue
            if weapon.get("named") is False and weapon.get("catalog"):
                names.setdefault(f"catalog:{weapon['id']}", weapon["catalog"])
            if weapon.get("name"):
                names.setdefault(f"weapon:{weapon['id']}", weapon["name"])
    names.update({c["id"]: c["name"] for c in state["combatants"]})
    names.setdefault("gm", "GM")
    return names


def _shown(key: str, value: Any, names: Mapping[str, str], lang: str, counted: bool) -> Any:
    # The most common values first, by exact type: what the general case below does with them.
    kind = type(value)
    if kind is int:
        return _count(value, lang) if counted else value
    if kind is str and key not in COMBATANT_PARAMS:
        return value
    if key in COMBATANT_PARAMS and isinstance(value, str):
        return names.get(value, value)
    if key == "order" and isinstance(value, list):
        return " > ".join(" = ".join(names.get(i, i) for i in group) for group in value)
    if isinstance(value, bool):
        yes, no = YES_NO.get(lang, YES_NO["en"])
        return yes if value else no
    if isinstance(value, int) and counted:
        return _count(value, lang)
    if isinstance(value, Mapping):
        return _sum(value, {})
    if isinstance(value, list):
        if value and all(isinstance(v, str) and v in names for v in value):
            return _items(format_list([names[v] for v in value], locale=_locale(lang)), len(value), lang)
        return _items(", ".join(str(v) for v in value), len(value), lang)
    return value


def _labelled(words: Mapping[str, str] | None, value: Any, lang: str) -> str | None:
    """``value`` (an id, or a list of ids) in words; None when there are no words for it."""
    if not words:
        return None
    if isinstance(value, str):
        return words.get(value, value)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return _items(format_list([words.get(v, v) for v in value], locale=_locale(lang)), len(value), lang)
    if isinstance(value, Mapping):
        return _sum(value, words)
    return None


def _sum(parts: Mapping[str, Any], words: Mapping[str, str]) -> str:
    """Named numbers as the terms of a sum: ``dice 2 + FOR 1 - malus 1``."""
    terms = []
    for key, number in parts.items():
        sign = "-" if isinstance(number, int) and number < 0 else "+"
        terms.append(f"{sign} {words.get(key, key)} {abs(number) if isinstance(number, int) else number}")
    return " ".join(terms).removeprefix("+ ")


# An optional part of a template: ``[param?text]`` is kept when ``param`` is
# there (not None, False, 0, empty or only spaces), ``[!param?text]`` when it is not.
SEGMENT = re.compile(r"\[(!?)(\w+)\?([^\[\]]*)\]")


def _segments(template: str, params: Mapping[str, Any]) -> str:
    if "[" not in template:
        return template
    return SEGMENT.sub(lambda m: m.group(3) if _there(params.get(m.group(2))) != bool(m.group(1)) else "", template)


def _there(value: Any) -> bool:
    return bool(value.strip()) if isinstance(value, str) else bool(value)


def _flags(params: Mapping[str, Any]) -> set[str]:
    """What may pick a variant: ``<param>`` for a true flag, ``no_<param>`` for an
    absent value (None, empty list), ``<param>=<value>`` for a word."""
    flags: set[str] = set()
    for key, value in params.items():
        if value is True:
            flags.add(key)
        elif value is None or value == []:
            flags.add(f"no_{key}")
        elif isinstance(value, str):
            flags.add(f"{key}={value}")
    return flags


_variant_index: dict[int, tuple[Mapping[str, str], dict[str, list[tuple[frozenset[str], str]]]]] = {}


def _variants(english: Mapping[str, str]) -> dict[str, list[tuple[frozenset[str], str]]]:
    """code -> its variants (their flags, their key), the most specific first; built once per catalogue."""
    cached = _variant_index.get(id(english))
    if cached is not None and cached[0] is english:
        return cached[1]
    index: dict[str, list[tuple[frozenset[str], str]]] = {}
    for key in english:
        code, *flags = key.split(".")
        if flags:
            index.setdefault(code, []).append((frozenset(flags), key))
    for found in index.values():
        found.sort(key=lambda variant: -len(variant[0]))
    if len(_variant_index) > 64:  # catalogues are few and cached; ad hoc ones (tests) must not pile up
        _variant_index.clear()
    _variant_index[id(english)] = (english, index)
    return index


def variant(code: str, params: Mapping[str, Any], english: Mapping[str, str]) -> str:
    """The template key for these params: the most specific variant of ``code``
    whose flags all hold, else ``code``. A variant's key is the code and its
    flags joined by dots (``modifier_applied.no_rounds``,
    ``combat_ended.reason=one_side_standing``): one whole sentence per case,
    so that no sentence carries an empty or a yes/no slot."""
    candidates = _variants(english).get(code)
    if candidates:
        flags = _flags(params)
        for needed, key in candidates:
            if needed <= flags:
                return key
    return code


def render(
    entry: Mapping[str, Any],
    lang: str,
    catalogues: Mapping[str, Mapping[str, str]],
    names: Mapping[str, str],
    labels: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """The event's sentence in ``lang``, falling back to English, then to the code.

    ``labels`` (param -> value id -> words, in ``lang``) shows ids such as a
    result level or a maneuver as words."""
    code: str = entry["code"]
    params = entry["params"]
    templates = catalogues.get(lang) or catalogues["en"]
    english = catalogues["en"]
    key = variant(code, params, english)
    template = templates.get(key) or english.get(key)
    if template is None:
        return code
    filled = fill(template, params, lang, names, labels)
    return code if filled is None else filled


def fill(
    template: str,
    params: Mapping[str, Any],
    lang: str,
    names: Mapping[str, str],
    labels: Mapping[str, Mapping[str, str]] | None = None,
) -> str | None:
    """One template filled with ``params`` in ``lang``, as ``render`` fills an event's (optional
    parts, counted nouns, names and words for ids); None when it names a param that is not there
    or does not format. A refusal's sentence (``errors.refusal``) is filled here too."""
    labels = labels or {}
    template = _segments(template, params)
    used, counted = _fields(template)
    shown: dict[str, Any] = {}
    for name in used:
        if name not in params:
            return None
        value = params[name]
        if name in ITEM_PARAMS and isinstance(value, str) and (item := _item_name(value, names, labels)):
            shown[name] = item
        elif (
            name in ADJUSTED_PARAMS
            and params.get("value") in ITEM_VALUES
            and isinstance(value, str)
            and (item := _item_name(value, names, labels))
        ):
            shown[name] = item
        elif name in GM_WORDS and isinstance(value, str) and params.get("author") == GM_AUTHOR:
            shown[name] = value.strip()
        elif name == "value" and isinstance(value, str) and (per_weapon := _per_weapon(value, names, labels)):
            shown[name] = per_weapon
        elif name in TIME_PARAMS and isinstance(value, str) and (moment := _moment(value, lang)):
            shown[name] = moment
        elif (words := labels.get(name)) and (in_words := _labelled(words, value, lang)):
            shown[name] = in_words
        else:
            shown[name] = _shown(name, value, names, lang, counted)
    try:
        return template.format_map(shown)
    except (KeyError, IndexError, ValueError):
        return None


def _moment(text: str, lang: str) -> str | None:
    """An ISO 8601 moment as a date and time in ``lang`` (UTC, said so); None when it is not one."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    day = format_date(moment, "long", locale=_locale(lang))
    if lang == "fr" and moment.day == 1:
        day = "1er" + day[1:]  # French says the first of the month as an ordinal: "1er décembre"
    hour = format_time(moment, "short", tzinfo=UTC, locale=_locale(lang))
    return AT_TIME.get(lang, AT_TIME["en"]).format(date=day, time=hour)


def _item_name(item_id: str, names: Mapping[str, str], labels: Mapping[str, Mapping[str, str]]) -> str | None:
    """A weapon or item param in words: the catalog's name in this language for a catalog weapon the sheet
    does not name, else the sheet's name, else the words for a weapon nobody carries (bare hands).

    The catalog's name is its ``weapon_in_sentence`` words where the ruleset gives them (with the article
    its sentences need: "le pistolet", "la hache"), else its ``weapon`` words (the bare name menus show)."""
    words = labels.get(WEAPON_IN_SENTENCE) or labels.get("weapon") or {}
    catalog = names.get(f"catalog:{item_id}")
    if catalog is not None and catalog in words:
        return words[catalog]
    if f"weapon:{item_id}" in names:
        return names[f"weapon:{item_id}"]
    return words.get(item_id)


def _per_weapon(path: str, names: Mapping[str, str], labels: Mapping[str, Mapping[str, str]]) -> str | None:
    """A GM's ``value`` kept per weapon (``ammo.<weapon id>``) in words: "ammunition (9 mm automatic pistol)",
    the weapon as a menu names it; None for any other value."""
    key, dot, weapon_id = path.partition(".")
    words = labels.get("value") or {}
    if not dot or path in words or key not in words:
        return None
    catalog = names.get(f"catalog:{weapon_id}")
    weapons = labels.get("weapon") or {}
    weapon = weapons.get(catalog) if catalog else names.get(f"weapon:{weapon_id}", weapons.get(weapon_id))
    return f"{words[key]} ({weapon})" if weapon else None


@lru_cache(maxsize=4096)
def _fields(template: str) -> tuple[frozenset[str], bool]:
    """The params a template shows, and whether it counts nouns (``{n:# x|# xs}``): only those are prepared."""
    used = frozenset(field.split(".")[0].split("[")[0] for _, field, _, _ in Formatter().parse(template) if field)
    return used, "|" in template
