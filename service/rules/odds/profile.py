"""How a ruleset's outcomes read in the odds: the per-ruleset hook.

Each ruleset has an ``odds`` attribute, an :class:`OddsProfile`. The default
names outcomes from the event codes every ruleset shares (``attack_hit`` is
"hit", ``died`` is "death"...); a ruleset subclasses it to name its own
(wound levels) and to say how a combatant answers by default when the
proposed action waits for that answer (a defense, a reaction).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..state import Action, Combat, Event
from ..viewer import Viewer

# Event codes shared by the rulesets that name an outcome, and how it reads.
COMMON_LABELS: dict[str, str] = {
    "attack_missed": "miss",
    "attack_failed": "miss",
    "shot_missed": "miss",
    "attack_hit": "hit",
    "shot_hit": "hit",
    "blow_avoided": "avoided",
    "blow_blocked": "blocked",
    "hit_avoided": "avoided",
    "stunned": "stunned",
    "paralysed": "paralysed",
    "knocked_out": "knocked out",
    "fell_unconscious": "unconscious",
    "out_of_fight": "out of the fight",
    "out_of_action": "out of action",
    "dying": "dying",
    "died": "death",
}
NOTHING = "no effect"
ATTACKER_PARAMS = ("attacker", "actor")
TARGET_PARAMS = ("target", "defender", "combatant")


class OddsProfile:
    """The default: outcomes from the shared event codes, health in ``pv``, no default answers."""

    labels: Mapping[str, str] = COMMON_LABELS
    health = "pv"
    # Action type -> the fields of the default answers, in order of preference:
    # the first one the rules accept is assumed.
    default_answers: Mapping[str, tuple[dict[str, Any], ...]] = {}

    def label(self, event: Event) -> str | None:
        """How one event reads as (part of) an outcome; None when it is not one."""
        label = self.labels.get(event["code"])
        if label == "hit" and event["params"].get("critical"):
            return "critical hit"
        return label

    def concerns(self, event: Event, action: Action) -> bool:
        """Whether an event is part of the outcome of the proposed action.

        An action may resolve more than itself (a dark-earth tour resolves
        every fighter's blows): keep the events of its actor's attack and what
        befalls its target.
        """
        params = event["params"]
        attacker = next((params[p] for p in ATTACKER_PARAMS if p in params), None)
        if attacker is not None:
            return bool(attacker == action["actor"])
        target = action.get("target")
        if target is None:
            return True
        return any(params.get(p) == target for p in TARGET_PARAMS)

    def outcome(self, events: list[Event], action: Action) -> str:
        """The outcome class of one leaf: its labels, in the order they happened."""
        seen: list[str] = []
        for event in events:
            if not self.concerns(event, action):
                continue
            label = self.label(event)
            if label is not None and label not in seen:
                seen.append(label)
        return ", ".join(seen) or NOTHING

    def damage(self, before: Combat[Any], after: Combat[Any]) -> dict[str, int]:
        """Health lost by each combatant (gains count as negative)."""
        lost: dict[str, int] = {}
        # A join adds its newcomer after the others: only those there before can have lost health.
        for old, new in zip(before["combatants"], after["combatants"], strict=False):
            old_health, new_health = old.get(self.health), new.get(self.health)
            if isinstance(old_health, int) and isinstance(new_health, int) and old_health != new_health:
                lost[old["id"]] = old_health - new_health
        return lost

    def answered_types(self) -> frozenset[str]:
        """The action types the default answers are made of (the prompts the odds look at)."""
        return frozenset(self.default_answers)

    def answers(self, state: Combat[Any], proposed: Action) -> list[Action]:
        """Default answers to what ``state`` waits for, in order of preference (none: stop)."""
        for waiting in state.get("awaiting", ()):
            for action_type in waiting["actions"]:
                if action_type in self.default_answers:
                    return [
                        {"type": action_type, "actor": waiting["actor"], **fields}
                        for fields in self.default_answers[action_type]
                    ]
        return []

    def assumed_state(self, state: Combat[Any], viewer: Viewer) -> Combat[Any]:
        """The state the odds start from: what ``viewer`` may not know is replaced by defaults."""
        return state
