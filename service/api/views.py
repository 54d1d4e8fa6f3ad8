"""How stored data is shown to clients, filtered for who is looking.

The state keeps private fields: ``dice_keys`` (the secrets of the server's
dice, which would let a client predict the next rolls) and ``rng`` (where
the generator stands), and ``seed`` (when the creator gave one). The keys are
shown as ``dice_secrets`` only once the fight is over, with the seed, when
anyone may check them against the ``dice_commitments`` published from the
start and recompute every server die (docs/dice-audit.md). The
sheets the GM listed in ``hidden_sheets`` are shown to the GM only (and to
the combatant's own player); the ruleset hides what its rules keep secret.
"""

from __future__ import annotations

from flask import has_request_context, request
from werkzeug.datastructures import LanguageAccept

from ..i18n import catalogues, labels
from ..rules.engine import REDO
from ..rules.events import narration_names, render
from ..rules.registry import get_ruleset
from ..rules.schemas import LANGUAGES
from ..rules.viewer import Viewer

HIDDEN = frozenset({"rng", "seed", "dice_keys"})


def combat_view(state: dict, viewer: Viewer) -> dict:
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


def _without_sheet(combatant: dict) -> dict:
    return {key: value for key, value in combatant.items() if key != "sheet"}


def etag(state: dict) -> str:
    return f'"{state["version"]}"'


def events_view(state: dict, events: list[dict], accept: LanguageAccept | None = None) -> list[dict]:
    messages, words = catalogues(state["ruleset"]), labels(state["ruleset"])
    names = narration_names(state)
    lang = narration_language(state, accept)
    return [{**event, "text": render(event, lang, messages, names, words.get(lang))} for event in events]


def narration_language(state: dict, accept: LanguageAccept | None = None) -> str:
    """The combat's language, unless the reader names another one the service speaks.

    ``accept``: the reader's Accept-Language (by default the current request's;
    the event stream keeps the one it was opened with). The combat's language
    is offered first, so a bare ``*`` (Node's fetch sends it) or a tie keeps it,
    and a language the service does not speak changes nothing."""
    if accept is None and has_request_context():
        accept = request.accept_languages
    if not accept:
        return state["lang"]
    offered = [state["lang"], *(lang for lang in LANGUAGES if lang != state["lang"])]
    return accept.best_match(offered) or state["lang"]


def entry_view(state: dict, entry: dict, viewer: Viewer, accept: LanguageAccept | None = None) -> dict:
    # An undo carries the whole state it restored, dice keys included: private.
    entry = {key: value for key, value in entry.items() if key != "restored_state"}
    ruleset = get_ruleset(state["ruleset"])
    if entry["action"]["type"] == REDO:
        # What the rules hide in the action played again stays hidden in its redo.
        shown = ruleset.visible_entry(state, {**entry, "action": entry["action"]["action"]}, viewer)
        entry = {**shown, "action": {**entry["action"], "action": shown["action"]}}
    else:
        entry = ruleset.visible_entry(state, entry, viewer)
    return {**entry, "events": events_view(state, entry["events"], accept)}


def action_result(state: dict, entry: dict, viewer: Viewer) -> dict:
    entry = entry_view(state, entry, viewer)
    action = entry["action"]
    return {
        "action": {"seq": entry["seq"], "type": action["type"], "actor": action["actor"]},
        "rolls": entry["rolls"],
        "events": entry["events"],
        "combat": combat_view(state, viewer),
    }


def applied_answer(applied) -> tuple[dict, int, dict]:
    """The answer to a committed write (``usecases.actions.Applied``), with a join's new tokens, shown once."""
    result = action_result(applied.state, applied.entry, applied.grant.viewer)
    if applied.new_tokens:
        result["tokens"] = {"combatants": applied.new_tokens}
    return result, 200, {"ETag": etag(applied.state)}
