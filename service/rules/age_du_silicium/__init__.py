"""L'Âge du Silicium (seed 003, French): surprise, declared actions, stress, d100 attacks."""

from typing import Any

from ..ruleset import Choice, Ruleset
from ..state import Action, Awaiting
from . import actions, legal, opening, rounds
from .example import EXAMPLE
from .messages import LABELS, MESSAGES
from .odds import AgeDuSiliciumOdds
from .schemas import ACTIONS, CombatantState, Options, Sheet
from .state import Res, SiliciumCombat, SiliciumCombatant
from .status import CORNERED, DEAD, DISARMED, IMMOBILISED, OUT_OF_ACTION, PRONE, is_standing
from .tables import CATALOG
from .tactic import TACTIC


class AgeDuSilicium(Ruleset[SiliciumCombat, SiliciumCombatant]):
    id = "age-du-silicium"
    name = "L'Âge du Silicium"
    language = "fr"
    seed = "003_f4b1b2a775a6f348.txt"
    summary = (
        "Cyberpunk d100 roll-under: surprise (Vigilance), declarations in increasing and resolution in "
        "decreasing Initiative with extra actions at I-10, held actions as reactions, first-round Calme "
        "test and frenzy, melee and ranged modifier tables, wounds against Endurance + armour by damage type."
    )
    sheet_schema = Sheet
    options_schema = Options
    action_schemas = ACTIONS
    combatant_state = CombatantState
    catalog = CATALOG
    messages = MESSAGES
    labels = LABELS
    gm_conditions = frozenset({CORNERED, PRONE, IMMOBILISED, DISARMED, OUT_OF_ACTION, DEAD})
    damage_event = ("wounded", "amount")
    wound_events = frozenset({"wounded", "critical_wound"})
    odds = AgeDuSiliciumOdds()
    tactic = TACTIC

    def new_combatant(self, sheet: dict[str, Any], options: dict[str, Any]) -> SiliciumCombatant:
        return {
            "id": sheet["id"],
            "name": sheet["name"],
            "side": sheet["side"],
            "conditions": [],
            "initiative": sheet["initiative"] + sheet["initiative_modifier"],
            "blessures": sheet["blessures"],
            "blessures_max": sheet["blessures"],
            "aim": 0,
            "retested_round": None,
            "sheet": {key: value for key, value in sheet.items() if key not in ("id", "name", "side")},
        }

    def start(self, res: Res) -> None:
        opening.surprise_tests(res)
        if res.options["stress_test"]:
            opening.stress_tests(res)
        rounds.begin_round(res)
        rounds.run(res)

    def resolve(self, res: Res, action: Action) -> None:
        actions.resolve(res, action)

    def prompts(self, state: SiliciumCombat) -> list[Awaiting]:
        return rounds.awaiting(state)

    def is_standing(self, combatant: SiliciumCombatant) -> bool:
        return is_standing(combatant)

    def adjusted(self, res: Res, target: SiliciumCombatant, action: Action, changes: dict[str, Any]) -> bool:
        return actions.adjusted(res, target, action, changes)

    def on_join(self, res: Res, newcomer: SiliciumCombatant) -> None:
        """The newcomer's Initiative is on his sheet: he declares from the next round on (seed, "Initiative").

        Seed, "Stress": everyone in the first round of a fight tests Calme, a
        newcomer of that round too (a failure's frenzy is chosen when it declares).
        """
        if res.state["round"] == 1 and res.options["stress_test"]:
            opening.stress_test(res, newcomer)

    def settle(self, res: Res) -> None:
        actions.settle(res)

    def refined_choices(self, state: SiliciumCombat, actor_id: str, action_type: str) -> list[Choice] | None:
        return legal.choices(self, state, actor_id, action_type)

    def example(self) -> dict[str, Any]:
        return EXAMPLE


RULESET = AgeDuSilicium()
