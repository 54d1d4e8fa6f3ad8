"""What a ruleset plugin's own tests hold: the shared ruleset kit, on its ruleset."""

from service.testing.ruleset_kit import RulesetKit


class TestCoinDuel(RulesetKit):
    ruleset_id = "coin-duel"
