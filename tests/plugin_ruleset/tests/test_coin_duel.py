"""What a ruleset plugin's own tests hold: the shared ruleset kit, on its ruleset."""

from melee_testing.ruleset_kit import RulesetKit


class TestCoinDuel(RulesetKit):
    ruleset_id = "coin-duel"

    def test_the_combatant_state_is_typed_in_the_openapi_document(self, table):
        # The plugin declares what new_combatant adds (combatant_state): pv and pv_max, besides the common fields.
        combatant = table.http.get("/openapi.json").get_json()["components"]["schemas"]["CoinDuelCombatant"]
        assert combatant["properties"]["pv"] == {
            "type": "integer",
            "description": "Hit points left; at 0 or less the fighter is down.",
        }
        assert combatant["properties"]["pv_max"]["type"] == "integer"
        assert set(combatant["required"]) == {"id", "name", "side", "conditions", "pv", "pv_max"}
