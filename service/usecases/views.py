"""What a viewer may see of a stored combat and its log: the one place that decides it.

The state keeps private fields: ``dice_keys`` (the secrets of the server's
dice, which would let a client predict the next rolls) and ``rng`` (where
the generator stands), and ``seed`` (when the creator gave one). The keys are
shown as ``dice_secrets`` only once the fight is over, with the seed, when
anyone may check them against the ``dice_commitments`` published from the
start and recompute every server die (docs/dice-audit.md). The
sheets the GM listed in ``hidden_sheets`` are shown to the GM only (and to
the combatant's own player); the ruleset hides what its rules keep secret
(``visible_state``, ``visible_entry``). The events are narrated in the
combat's language, or in the one the reader prefers when the service speaks
it (``Languages``: handed in by the caller, parsed from whatever carries the
request, e.g. an Accept-Language header).

The use cases' results show their combat through these (``Seen.combat``,
``EventsPage.items``, ``Applied.shown``, ``Created.combat``,
``Restored.combat``); the live stream renders its entries with
``entry_view`` too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..i18n import catalogues, labels, preferred_language
from ..rules.engine import REDO
from ..rules.events import narration_names, render
from ..rules.registry import get_ruleset
from ..rules.ruleset import Ruleset
from ..rules.viewer import Viewer

HIDDEN = frozenset({"rng", "seed", "dice_keys"})


# A reader's preferred languages with their qualities, best first (werkzeug's ``LanguageAccept``,
# an Accept-Language parsed, is one).
Languages = Iterable[tuple[str, float]]


def combat_view(state: Mapping[str, Any], viewer: Viewer) -> dict[str, Any]:
    visible = get_ruleset(state["ruleset"]).visible_state(state, viewer)
    view = {key: value for key, value in visible.items() if key not in HIDDEN}
    hidden = set(state.get("hidden_sheets", ())) - ({viewer.combatant} if viewer.combatant else set())
    if hidden and not viewer.gm:
        view["combatants"] = [_without_sheet(c) if c["id"] in hidden else c for c in view["combatants"]]
    if state["status"] == "over":
        if state.get("seed") is not None:
            view["seed"] = state["seed"]
        # (A combat stored before keyed streams has none to reveal: its seed replays it.)
        view["dice_secrets"] = [{"stream": index, "key": key} for index, key in enumerate(state.get("dice_keys", []))]
    return view


def _without_sheet(combatant: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in combatant.items() if key != "sheet"}


def narration_language(state: Mapping[str, Any], languages: Languages | None = None) -> str:
    """The combat's language, unless the reader prefers another one the service speaks: the
    rule a problem's language follows too (``i18n.preferred_language``), so that a bare ``*``
    (Node's fetch sends it) or a language the service does not speak changes nothing."""
    return preferred_language(languages or (), str(state["lang"]))


def events_view(state: Mapping[str, Any], events: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """The events, each with its ``text``: narrated in ``lang``."""
    messages, words = catalogues(state["ruleset"]), labels(state["ruleset"])
    names = narration_names(state)
    return [{**event, "text": render(event, lang, messages, names, words.get(lang))} for event in events]


def entry_view(state: Mapping[str, Any], entry: dict[str, Any], viewer: Viewer, lang: str) -> dict[str, Any]:
    """A log entry as ``viewer`` may see it, its events narrated in ``lang`` (``narration_language``)."""
    # An undo carries the whole state it restored, dice keys included: private.
    entry = {key: value for key, value in entry.items() if key != "restored_state"}
    ruleset = get_ruleset(state["ruleset"])
    if entry["action"]["type"] == REDO:
        # What the rules hide in the action played again stays hidden in its redo.
        shown = ruleset.visible_entry(state, {**entry, "action": entry["action"]["action"]}, viewer)
        entry = {**shown, "action": {**entry["action"], "action": shown["action"]}}
    else:
        entry = ruleset.visible_entry(state, entry, viewer)
    return {**entry, "events": events_view(state, entry["events"], lang)}


def entries_shown_alike(ruleset_id: str) -> bool:
    """Whether the ruleset shows every viewer its log entries alike: it keeps the base class's
    ``visible_entry``, and the rest of ``entry_view`` does not depend on the viewer."""
    return type(get_ruleset(ruleset_id)).visible_entry is Ruleset.visible_entry


def action_result(
    state: Mapping[str, Any], entry: dict[str, Any], viewer: Viewer, languages: Languages | None = None
) -> dict[str, Any]:
    """An applied action's answer as ``viewer`` may see it: the action, its rolls and events, the combat after it."""
    entry = entry_view(state, entry, viewer, narration_language(state, languages))
    action = entry["action"]
    return {
        "action": {"seq": entry["seq"], "type": action["type"], "actor": action["actor"]},
        "rolls": entry["rolls"],
        "events": entry["events"],
        "combat": combat_view(state, viewer),
    }
