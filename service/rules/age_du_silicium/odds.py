"""How age-du-silicium outcomes read in the odds: wounds count down ``blessures``; the default reaction."""

from ..odds.profile import OddsProfile
from ..state import Event


class AgeDuSiliciumOdds(OddsProfile):
    health = "blessures"
    # The target spends its reaction on a dodge; when it cannot, it does not react.
    default_answers = {"react": ({"reaction": "dodge"}, {"reaction": "none"})}

    def label(self, event: Event) -> str | None:
        if event["code"] == "critical_wound":
            return "critical wound"
        return super().label(event)
