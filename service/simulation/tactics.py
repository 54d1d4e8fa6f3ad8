"""The tactic a simulation plays each ruleset with: the ruleset's own.

Each ruleset declares its default tactic (:attr:`Ruleset.tactic`, contract in
service/rules/tactics.py) and what "standing" means (:meth:`Ruleset.is_standing`);
this module binds the two for the simulator, for every ruleset the registry
knows, built-in or plugin.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from ..rules.registry import RULESETS, get_ruleset
from ..rules.ruleset import Ruleset
from ..rules.tactics import STYLES, TARGETS, Candidates, Tactic

__all__ = ["RULESET_TACTICS", "STYLES", "TARGETS", "RulesetTactics", "Tactic", "tactics_of"]


@dataclass(frozen=True)
class RulesetTactics:
    standing: Callable[[dict], bool]
    health: str  # the combatant's key for the health points left
    candidates: Candidates
    description: str


def tactics_of(ruleset: Ruleset) -> RulesetTactics:
    tactic = ruleset.tactic
    return RulesetTactics(ruleset.is_standing, tactic.health, tactic.candidates, tactic.description)


class _ByRuleset(Mapping):
    """``RULESET_TACTICS[ruleset_id]``: read from the registry, so a plugin needs no entry here."""

    def __getitem__(self, ruleset_id: str) -> RulesetTactics:
        if ruleset_id not in RULESETS:
            raise KeyError(ruleset_id)
        return tactics_of(get_ruleset(ruleset_id))

    def __iter__(self) -> Iterator[str]:
        return iter(RULESETS)

    def __len__(self) -> int:
        return len(RULESETS)


RULESET_TACTICS: Mapping[str, RulesetTactics] = _ByRuleset()
