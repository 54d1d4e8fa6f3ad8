"""Reading a combat: its state, its log (a page, or a long poll for the next
entry) and the legal actions of one of its combatants, for the holder of a
token. Each result shows what the caller may see of them (the rules'
secrets, the sheets the GM hides, the narration in the reader's language:
``views.py``), by the ``grant`` of its token; ``state`` is the combat as
stored, for its version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules.errors import refusal
from ..rules.registry import get_ruleset
from ..rules.ruleset import GM
from .access import AccessDenied, Grant, authorize
from .ports import Combats, EntryWait
from .views import Languages, combat_view, entry_view, narration_language


@dataclass(frozen=True)
class Seen:
    """The combat as stored, and the grant of the token that reads it."""

    state: dict[str, Any]
    grant: Grant

    @property
    def combat(self) -> dict[str, Any]:
        """The combat as the token's holder may see it."""
        return combat_view(self.state, self.grant.viewer)


@dataclass(frozen=True)
class EventsPage:
    """Log entries with seq > ``after`` (at most ``limit``), the newest seq, and
    where the next page starts (None when this one reaches the newest entry)."""

    state: dict[str, Any]
    grant: Grant
    entries: list[dict[str, Any]]
    last_seq: int
    # The reader's ``after`` is past the newest seq: the store lost writes it had
    # read (a Redis rollback); it reloads the combat and its log from the start.
    reset: bool = False
    lang: str | None = None  # the narration's language; None: the combat's

    @property
    def items(self) -> list[dict[str, Any]]:
        """The entries as the token's holder may see them, narrated in ``lang``."""
        lang = self.lang or self.state["lang"]
        return [entry_view(self.state, entry, self.grant.viewer, lang) for entry in self.entries]

    @property
    def next_after(self) -> int | None:
        if self.entries and self.entries[-1]["seq"] < self.last_seq:
            return int(self.entries[-1]["seq"])
        return None


@dataclass(frozen=True)
class LegalActions:
    actor: str
    version: int
    actions: list[dict[str, Any]]


class UnknownActor(Exception):
    """The options of a combatant the combat does not have (422, on ``actor``)."""

    def __init__(self, actor: str):
        self.detail = refusal("there is no combatant '{combatant_id}' in this combat", combatant_id=actor)
        super().__init__(self.detail)
        self.actor = actor


def read_combat(combats: Combats, combat_id: str, token: str | None) -> Seen:
    """The combat, for any holder of one of its tokens."""
    return Seen(*authorize(combats, combat_id, token))


def read_events(
    combats: Combats,
    combat_id: str,
    token: str | None,
    *,
    after: int,
    limit: int,
    wait_seconds: float = 0,
    wait: EntryWait | None = None,
    languages: Languages | None = None,
) -> EventsPage:
    """A page of the log, narrated in the reader's ``languages`` when the service
    speaks one; with ``wait_seconds`` (and ``wait``), when there is no
    entry after ``after`` yet, waits for one, then reads again (the combat,
    and the token's grant, as they are then)."""
    state, grant = authorize(combats, combat_id, token)
    entries, last = combats.log(combat_id, after, limit)
    if after > state["version"]:
        return EventsPage(state, grant, entries, last, reset=True, lang=narration_language(state, languages))
    if not entries and wait_seconds and wait is not None and wait(combat_id, after, wait_seconds):
        state, grant = authorize(combats, combat_id, token)
        entries, last = combats.log(combat_id, after, limit)
    return EventsPage(state, grant, entries, last, lang=narration_language(state, languages))


def legal_actions(combats: Combats, combat_id: str, token: str | None, actor: str) -> LegalActions:
    """What ``actor`` (a combatant's id, or ``gm``) may send now. A player's
    token sees its own combatant's options only; the GM's anyone's and its own."""
    state, grant = authorize(combats, combat_id, token)
    if actor == GM and not grant.is_gm:
        raise AccessDenied(403, refusal("the game master's options need the GM's token"), lang=grant.lang)
    if actor != GM and not grant.is_gm and actor != grant.combatant:
        raise AccessDenied(
            403,
            refusal(
                "this token sees the options of '{combatant_id}' only, not of '{actor_id}'",
                combatant_id=grant.combatant,
                actor_id=actor,
            ),
            lang=grant.lang,
        )
    if actor != GM and all(c["id"] != actor for c in state["combatants"]):
        raise UnknownActor(actor)
    actions = get_ruleset(state["ruleset"]).legal_actions(state, actor, grant.viewer)
    return LegalActions(actor, state["version"], actions)
