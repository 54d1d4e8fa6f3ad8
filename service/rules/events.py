"""Events: machine-readable facts (``code`` + ``params``) with a sentence.

Events are stored without text; the sentence is rendered when read, in the
combat's language, from the ruleset's message catalogue. Parameters that
name combatants hold ids and are shown by name.
"""

from __future__ import annotations

from collections.abc import Mapping

COMBATANT_PARAMS = frozenset({"actor", "target", "attacker", "defender", "combatant", "healer"})

# English only: translations live in the gettext catalogues (service/i18n).
COMMON_MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "combat_started": "The fight begins ({ruleset}).",
        "round_started": "Round {round} begins.",
        "combat_ended": "The game master ends the fight.",
        "combat_over": "The fight is over: no side has an opponent left standing.",
        "turn_order": "Order of action: {order}.",
        "action_undone": "The game master takes back action {seq}.",
        "action_redone": "The game master plays action {seq} again.",
        "condition_expired": "{combatant} is no longer {condition}.",
        "value_adjusted": "The game master sets {target}'s {value} from {old} to {new}.",
        "modifier_applied": "The game master gives {target} {value:+d} on rolls ({rounds} rounds; none: the next roll).",
        "result_overridden": "The game master decides {target}'s next roll is a {result}.",
        "condition_added": "The game master makes {target} {condition}.",
        "condition_removed": "{target} is no longer {condition}.",
        "joined": "{combatant} joins the fight ({side}).",
        "left_fight": "{target} leaves the fight ({how}).",
        "narrative_condition_added": "The game master marks {target}: {label}.",
        "narrative_condition_removed": "{target} is no longer marked: {label}.",
        "recovered": "{target} comes round and can fight again.",
        "combat_summary": "The fight lasted {rounds} rounds: {actions} actions, {rolls} dice rolled; dead: {deaths}.",
    },
}


def event(code: str, **params) -> dict:
    return {"code": code, "params": params}


YES_NO = {"en": ("yes", "no"), "fr": ("oui", "non"), "pt": ("sim", "não")}


def _shown(key: str, value, names: Mapping[str, str], lang: str):
    if key in COMBATANT_PARAMS and isinstance(value, str):
        return names.get(value, value)
    if key == "order" and isinstance(value, list):
        return " > ".join(" = ".join(names.get(i, i) for i in group) for group in value)
    if isinstance(value, bool):
        yes, no = YES_NO.get(lang, YES_NO["en"])
        return yes if value else no
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value


def _labelled(words: Mapping[str, str] | None, value):
    """``value`` (an id, or a list of ids) in words; None when there are no words for it."""
    if not words:
        return None
    if isinstance(value, str):
        return words.get(value, value)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(words.get(v, v) for v in value)
    return None


def render(
    entry: Mapping,
    lang: str,
    catalogues: Mapping[str, Mapping[str, str]],
    names: Mapping[str, str],
    labels: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """The event's sentence in ``lang``, falling back to English, then to the code.

    ``labels`` (param -> value id -> words, in ``lang``) shows ids such as a
    result level or a maneuver as words."""
    templates = catalogues.get(lang) or catalogues["en"]
    template = templates.get(entry["code"]) or catalogues["en"].get(entry["code"])
    if template is None:
        return entry["code"]
    labels = labels or {}
    shown = {key: _labelled(labels.get(key), value) or _shown(key, value, names, lang) for key, value in entry["params"].items()}
    try:
        return template.format_map(shown)
    except (KeyError, IndexError, ValueError):
        return entry["code"]
