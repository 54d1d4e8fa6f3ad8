"""Duel 2D6 (seed 000, French): 2D6 roll-under duels where the attacker keeps the initiative."""

from typing import Any

from ..errors import InvalidAction, refusal
from ..ruleset import GM, Choice, Ruleset
from ..state import Action, Awaiting
from . import actions, duels, legal
from .conditions import DEAD, PRONE, STUNNED, UNCONSCIOUS, is_out
from .messages import LABELS, MESSAGES
from .odds import DuelOdds
from .schemas import ACTIONS, CombatantState, Options, Sheet
from .state import DuelCombat, DuelCombatant, Res
from .tables import CATALOG, WOUNDS
from .tactic import TACTIC


class Duel2d6(Ruleset[DuelCombat, DuelCombatant]):
    id = "duel-2d6"
    name = "Duel 2D6"
    language = "fr"
    seed = "000_f0ffa6912f686195.txt"
    summary = (
        "2D6 under 7 + skill with four result levels and the doubled die (Dd); every fight is a set of duels "
        "where the attacker keeps the initiative until he fails or is outdone; melee maneuvers and martial arts, "
        "shots by distance band, block absorption, armour IP and wounds compared with PV."
    )
    sheet_schema = Sheet
    options_schema = Options
    action_schemas = ACTIONS
    combatant_state = CombatantState
    catalog = CATALOG
    messages = MESSAGES
    labels = LABELS
    # The GM's join brings a newcomer; the newcomer's player then joins a duel (interruption roll).
    gm_and_player_actions = frozenset({"join"})
    gm_conditions = frozenset({PRONE, STUNNED, UNCONSCIOUS, DEAD})
    damage_event = ("wounded", "loss")
    wound_events = frozenset({"wounded"})
    odds = DuelOdds()
    tactic = TACTIC

    def new_combatant(self, sheet: dict[str, Any], options: dict[str, Any]) -> DuelCombatant:
        return {
            "id": sheet["id"],
            "name": sheet["name"],
            "side": sheet["side"],
            "pv": sheet["pv"],
            "pv_max": sheet["pv"],
            "wound": "aucune",
            "malus": 0,
            "conditions": [],
            "facing": [],
            "last_dive_round": None,
            "ammo": {w["id"]: w["ammo"] for w in sheet["weapons"] if w.get("ammo")},
            "jammed": [],
            "dropped": [],
            "sheet": {key: value for key, value in sheet.items() if key not in ("id", "name", "side", "pv")},
        }

    def start(self, res: Res) -> None:
        duels.start_duels(res)

    def resolve(self, res: Res, action: Action) -> None:
        actions.resolve(res, action)

    def prompts(self, state: DuelCombat) -> list[Awaiting]:
        return duels.awaiting(state)

    def is_standing(self, combatant: DuelCombatant) -> bool:
        return not is_out(combatant)

    def adjusted(self, res: Res, target: DuelCombatant, action: Action, changes: dict[str, Any]) -> bool:
        return actions.adjusted(res, target, action, changes)

    def check_value(self, combatant: DuelCombatant, path: str, value: Any, field: str) -> None:
        if path == "wound" and value not in WOUNDS:
            raise InvalidAction(refusal("wound levels are: {levels}", levels=", ".join(WOUNDS)), field=field)
        if path == "last_dive_round" and value is not None and (type(value) is not int or value < 1):
            raise InvalidAction(
                refusal("the round of the last Plongeon is a round number (1 or more), or null"), field=field
            )

    def condition_changed(self, res: Res, target: DuelCombatant, code: str, added: bool) -> None:
        # A fighter stunned or thrown down by the GM loses the initiative, as by the rules.
        if added and code in (STUNNED, PRONE) and not is_out(target):
            duels.lose_initiative_everywhere(res, target, code)

    def on_join(self, res: Res, newcomer: DuelCombatant) -> None:
        """A newcomer is a free fighter: his player's `join` makes the interruption roll (E-5)."""

    def on_leave(self, res: Res, leaver: DuelCombatant) -> None:
        duels.leave_fight(res, leaver)

    def settle(self, res: Res) -> None:
        actions.settle(res)

    def refined_choices(self, state: DuelCombat, actor_id: str, action_type: str) -> list[Choice] | None:
        return legal.choices(self, state, actor_id, action_type)

    def example(self) -> dict[str, Any]:
        thug = {
            "id": "truand",
            "name": "Le truand",
            "side": "truands",
            "pv": 4,
            "attributes": {"FOR": 0, "DEX": 1, "CON": 0, "SEN": 0},
            "skills": {"Bagarre": 1},
            "specializations": ["bloquer"],
        }
        philip = {
            "id": "philip",
            "name": "Philip",
            "side": "heros",
            "pv": 5,
            "attributes": {"FOR": 0, "DEX": 1, "CON": 0, "SEN": 1},
        }
        return {
            "combat": {
                "ruleset": self.id,
                "lang": "fr",
                # Seed 1900's server dice are example F's: the thug's punch 2+1, Philip's kick 2+2 and its
                # 1D3 2 (tests/api/test_duel_2d6.py::test_the_example_plays_the_seeds_worked_example_f).
                "seed": 1900,
                # Initiative 2+DEX: the thug rolls 1+2 (critical-free success), Philip 5+6 (failure).
                "dice": [1, 2, 5, 6],
                "combatants": [thug, philip],
            },
            # The exchange is rolled when the defender answers: each player supplies only his own
            # combatant's dice (dice policy 'own'), and the server rolls the attacker's (seed 1900).
            "actions": [
                {"type": "attack", "actor": "truand", "target": "philip", "maneuver": "coup_simple", "weapon": "poing"},
                {"type": "defend", "actor": "philip", "defense": "esquiver", "dice": [3, 3]},
                {"type": "attack", "actor": "philip", "target": "truand", "weapon": "pied"},
                {"type": "defend", "actor": "truand", "defense": "bloquer", "dice": [4, 6]},
            ],
        }


RULESET = Duel2d6()
__all__ = ["RULESET", "GM"]
