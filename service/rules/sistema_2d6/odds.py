"""How Sistema +2d6 outcomes read in the odds; the defender's default answer."""

from ..odds.profile import OddsProfile


class SistemaOdds(OddsProfile):
    # The defender defends actively with the sheet's defense skill.
    default_answers = {"defend": ({},)}
