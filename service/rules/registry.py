"""The rulesets Melee knows. Adding a ruleset: one package, one line here."""

from marshmallow import ValidationError

from .age_du_silicium import RULESET as AGE_DU_SILICIUM
from .dark_earth import RULESET as DARK_EARTH
from .duel_2d6 import RULESET as DUEL_2D6
from .ruleset import Ruleset
from .sistema_2d6 import RULESET as SISTEMA_2D6
from .space_opera_d100 import RULESET as SPACE_OPERA_D100

RULESETS: dict[str, Ruleset] = {
    ruleset.id: ruleset
    for ruleset in (
        DUEL_2D6,
        DARK_EARTH,
        SPACE_OPERA_D100,
        AGE_DU_SILICIUM,
        SISTEMA_2D6,
    )
}


def get_ruleset(ruleset_id) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(RULESETS))
        raise ValidationError({"ruleset": [f"unknown ruleset {ruleset_id!r}; one of: {known}"]}) from None
