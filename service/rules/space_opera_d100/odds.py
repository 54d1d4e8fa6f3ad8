"""How space-opera-d100 outcomes read in the odds: death-table wounds; the default reaction."""

from ..odds.profile import OddsProfile
from ..state import Event


class SpaceOperaOdds(OddsProfile):
    # The target dodges; when the rules refuse it (no dodge left), it does not react.
    default_answers = {"react": ({"kind": "dodge"}, {"kind": "none"})}

    def label(self, event: Event) -> str | None:
        if event["code"] == "wound":
            return f"wound {event['params']['severity']}"
        return super().label(event)
