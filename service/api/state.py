"""What a combatant's state holds in each ruleset, for the OpenAPI document.

The rules core builds a combatant's state in ``Ruleset.new_combatant``; these
schemas describe it (a common core, then each ruleset's own health and
fields), and ``contract.split_by_ruleset`` publishes a Combat per ruleset,
discriminated by ``ruleset``. tests/api/test_openapi.py validates the states
of every ruleset's example fight against them.
"""

from marshmallow import fields, validate

from .schemas import Combatant
from .shapes import field_of

COUNT = {"validate": validate.Range(min=0)}


class Duel2d6Combatant(Combatant):
    pv = fields.Integer(required=True, metadata={"description": "Health left."})
    pv_max = fields.Integer(required=True)
    wound = fields.String(required=True, metadata={"description": "The worst wound: aucune, egratignure, legere or grave."})
    malus = fields.Integer(required=True, metadata={"description": "The wounds' malus on the combatant's rolls (0 or less)."})
    facing = fields.List(fields.String(), required=True, metadata={"description": "The opponents this combatant is in a duel with."})
    last_dive_round = fields.Integer(allow_none=True, required=True)
    ammo = fields.Dict(keys=fields.String(), values=fields.Integer(**COUNT), required=True, metadata={"description": "Shots left, by weapon id."})
    jammed = fields.List(fields.String(), required=True, metadata={"description": "Ids of jammed weapons."})
    dropped = fields.List(fields.String(), required=True, metadata={"description": "Ids of dropped weapons."})


class DarkEarthCombatant(Combatant):
    pv = fields.Integer(required=True, metadata={"description": "Health left."})
    pv_max = fields.Integer(required=True)
    wounds = fields.Integer(required=True, **COUNT)
    choc = fields.Integer(required=True, **COUNT)
    wound_level = fields.String(allow_none=True, required=True, metadata={"description": "null, grave or critique."})
    loaded = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True, metadata={"description": "Mechanical weapons' load, by weapon id."})


class SpaceOperaD100Combatant(Combatant):
    kind = fields.String(required=True, metadata={"description": "living or droid."})
    pv = fields.Integer(required=True, metadata={"description": "Health left."})
    pv_max = fields.Integer(required=True)
    san = fields.Integer(allow_none=True, required=True, metadata={"description": "Sanity, when the sheet has it."})
    items = fields.Dict(required=True, metadata={"description": "Items in use (a held shield...)."})
    wielding = fields.String(allow_none=True, required=True, metadata={"description": "The weapon id in hand."})
    round = fields.Dict(required=True, metadata={"description": "This round: initiative, attacks left, dodges, damage taken."})


class AgeDuSiliciumCombatant(Combatant):
    initiative = fields.Integer(required=True)
    blessures = fields.Integer(required=True, metadata={"description": "Health left (blessures points)."})
    blessures_max = fields.Integer(required=True)
    aim = fields.Integer(required=True, **COUNT, metadata={"description": "Rounds spent aiming."})
    retested_round = fields.Integer(allow_none=True, required=True)


class Sistema2d6Combatant(Combatant):
    pv = fields.Integer(required=True, metadata={"description": "Health left; 0 or less: dying or dead."})
    pv_max = fields.Integer(required=True)
    death_failures = fields.Integer(required=True, **COUNT)
    initiative = fields.Integer(allow_none=True, required=True)


COMBATANTS = {
    "duel-2d6": Duel2d6Combatant,
    "dark-earth": DarkEarthCombatant,
    "space-opera-d100": SpaceOperaD100Combatant,
    "age-du-silicium": AgeDuSiliciumCombatant,
    "sistema-2d6": Sistema2d6Combatant,
}


def combatant_schema(ruleset) -> type[Combatant]:
    """The ruleset's combatant state schema: a built-in ruleset's above; a plugin's, the common core
    plus the fields its ``combatant_state`` shape declares (none declared: the common core alone), under its own name."""
    known = COMBATANTS.get(ruleset.id)
    if known is not None:
        return known
    own = ruleset.combatant_state().fields.items() if ruleset.combatant_state is not None else ()
    return type(
        f"{ruleset.schema_prefix}Combatant",
        (Combatant,),
        {"__doc__": (ruleset.combatant_state or Combatant).__doc__, **{name: field_of(field) for name, field in own}},
    )
