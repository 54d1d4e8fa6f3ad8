"""The rulesets Melee knows. Adding a ruleset: one package, one line here."""

from marshmallow import ValidationError

from .age_du_silicium import RULESET as AGE_DU_SILICIUM
from .ruleset import Ruleset
from .sistema_2d6 import RULESET as SISTEMA_2D6

RULESETS: dict[str, Ruleset] = {ruleset.id: ruleset for ruleset in (SISTEMA_2D6, AGE_DU_SILICIUM)}


def get_ruleset(ruleset_id) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULESETS))
        raise ValidationError({"ruleset": [f"unknown ruleset {ruleset_id!r}; one of: {known}"]}) from None
