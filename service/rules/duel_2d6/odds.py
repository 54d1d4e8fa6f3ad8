"""How duel-2d6 outcomes read in the odds: roll levels and wound levels; the default defense."""

from ..odds.profile import OddsProfile
from ..state import Event
from .tables import CRITICAL, FUMBLE, LEVELS

ROLLED: dict[str | None, str] = {LEVELS[CRITICAL]: "critical", LEVELS[FUMBLE]: "fumble"}


class DuelOdds(OddsProfile):
    # The defender dodges (Esquiver), the defense every fighter has.
    default_answers = {"defend": ({"defense": "esquiver"},)}

    def label(self, event: Event) -> str | None:
        params = event["params"]
        if event["code"] in ("attack_rolled", "shot_rolled"):
            return ROLLED.get(params.get("level"))
        if event["code"] == "wounded":
            return f"wound {params['level']}"
        return super().label(event)
