"""The rulesets Melee knows: every entry point of the ``melee.rulesets`` group.

The five built-in rulesets are declared in Melee's own pyproject.toml; a
third-party ruleset package declares the same kind of line in its own
(docs/rulesets.md), and is found once it is installed next to Melee: the
entry point's name is the ruleset's id, its object the Ruleset instance.

A plugin that does not load, is not a Ruleset, lacks part of the contract or
takes an id already taken stops the service at start-up with a
:class:`RulesetPluginError` naming it and its distribution.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

from .errors import InvalidInput
from .ruleset import AnyRuleset, Ruleset

GROUP = "melee.rulesets"

# Filled in place (importers keep this very dict), by load_rulesets().
RULESETS: dict[str, AnyRuleset] = {}


class RulesetPluginError(RuntimeError):
    """A ruleset plugin Melee cannot offer; the message names it."""


def _origin(entry: EntryPoint) -> str:
    dist = entry.dist
    where = f"{dist.metadata['Name']} {dist.version}" if dist is not None else "an unknown distribution"
    return f"{entry.name} = {entry.value!r} (group {GROUP}, from {where})"


def _load(entry: EntryPoint) -> AnyRuleset:
    try:
        ruleset = entry.load()
    except Exception as error:
        raise RulesetPluginError(f"the ruleset plugin {_origin(entry)} does not load: {error!r}") from error
    if not isinstance(ruleset, Ruleset):
        raise RulesetPluginError(
            f"the ruleset plugin {_origin(entry)} is a {type(ruleset).__name__}, "
            "not an instance of service.rules.ruleset.Ruleset"
        )
    missing = ruleset.missing()
    if missing:
        raise RulesetPluginError(f"the ruleset plugin {_origin(entry)} lacks: {', '.join(missing)} (docs/rulesets.md)")
    if ruleset.id != entry.name:
        raise RulesetPluginError(
            f"the ruleset plugin {_origin(entry)} has the id {ruleset.id!r}: the entry point's name must be its id"
        )
    return ruleset


def discover() -> dict[str, AnyRuleset]:
    """Every ruleset installed, by id, in a stable order (by id)."""
    found: dict[str, tuple[AnyRuleset, EntryPoint]] = {}
    for entry in entry_points(group=GROUP):
        ruleset = _load(entry)
        if ruleset.id in found:
            _, first = found[ruleset.id]
            raise RulesetPluginError(
                f"two ruleset plugins take the id {ruleset.id!r}: {_origin(first)} and {_origin(entry)}"
            )
        found[ruleset.id] = (ruleset, entry)
    if not found:
        raise RulesetPluginError(
            f"no ruleset is installed (entry-point group {GROUP}): install Melee itself, e.g. pip install -e ."
        )
    return {ruleset_id: found[ruleset_id][0] for ruleset_id in sorted(found)}


def load_rulesets() -> dict[str, AnyRuleset]:
    """(Re)read the installed rulesets into RULESETS, e.g. after installing a plugin in a running test."""
    found = discover()
    RULESETS.clear()
    RULESETS.update(found)
    return RULESETS


def ruleset_of_module(module: str) -> AnyRuleset | None:
    """The ruleset whose package holds ``module`` (its schemas' components take its prefix)."""
    for ruleset in RULESETS.values():
        package = type(ruleset).__module__
        if module == package or module.startswith(package + "."):
            return ruleset
    return None


def get_ruleset(ruleset_id: Any) -> AnyRuleset:
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULESETS))
        raise InvalidInput({"ruleset": [f"unknown ruleset {ruleset_id!r}; one of: {known}"]}) from None


load_rulesets()
