"""What a combatant's state holds in each ruleset, for the OpenAPI document.

The rules core builds a combatant's state in ``Ruleset.new_combatant`` and
each ruleset declares the fields it adds there as a marshmallow schema,
``Ruleset.combatant_state`` (its health...); :func:`combatant_schema`
publishes the common core (``schemas.Combatant``) plus those fields as
``<Prefix>Combatant``, and ``contract.split_by_ruleset`` publishes a Combat
per ruleset, discriminated by ``ruleset``. tests/api/test_openapi.py and the
ruleset kit validate the states of every ruleset's example fight against them.
"""

from __future__ import annotations

from typing import Any

from .schemas import Combatant

_BUILT: dict[tuple[str, Any], type[Combatant]] = {}


def combatant_schema(ruleset: Any) -> type[Combatant]:
    """The ruleset's combatant state schema: the common core plus its ``combatant_state`` (none: the core alone)."""
    key = (ruleset.schema_prefix, ruleset.combatant_state)
    found = _BUILT.get(key)
    if found is None:
        own = ruleset.combatant_state().fields.items() if ruleset.combatant_state is not None else ()
        found = _BUILT[key] = type(
            f"{ruleset.schema_prefix}Combatant",
            (Combatant,),
            {"__doc__": Combatant.__doc__, "__module__": __name__, **dict(own)},
        )
    return found
