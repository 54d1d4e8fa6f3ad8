"""L'Âge du Silicium (seed 003, French): surprise, declared actions, stress, d100 attacks."""

from ..ruleset import Resolution, Ruleset
from . import actions, legal, opening, rounds
from .status import CORNERED, DEAD, DISARMED, IMMOBILISED, OUT_OF_ACTION, PRONE, is_standing
from .messages import LABELS, MESSAGES
from .schemas import ACTIONS, CombatantState, Options, Sheet
from .tables import CATALOG
from .example import EXAMPLE
from .odds import AgeDuSiliciumOdds
from .tactic import TACTIC


class AgeDuSilicium(Ruleset):
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

    def new_combatant(self, sheet: dict, options: dict) -> dict:
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

    def start(self, res: Resolution) -> None:
        opening.surprise_tests(res)
        if res.options["stress_test"]:
            opening.stress_tests(res)
        rounds.begin_round(res)
        rounds.run(res)

    def resolve(self, res: Resolution, action: dict) -> None:
        actions.resolve(res, action)

    def prompts(self, state: dict) -> list[dict]:
        return rounds.awaiting(state)

    def is_standing(self, combatant: dict) -> bool:
        return is_standing(combatant)

    def adjusted(self, res: Resolution, target: dict, action: dict, changes: dict) -> bool:
        return actions.adjusted(res, target, action, changes)

    def on_join(self, res: Resolution, newcomer: dict) -> None:
        """The newcomer's Initiative is on his sheet: he declares from the next round on (seed, "Initiative").

        Seed, "Stress": everyone in the first round of a fight tests Calme, a
        newcomer of that round too (a failure's frenzy is chosen when it declares).
        """
        if res.state["round"] == 1 and res.options["stress_test"]:
            opening.stress_test(res, newcomer)

    def settle(self, res: Resolution) -> None:
        actions.settle(res)

    def refined_choices(self, state: dict, actor_id: str, action_type: str) -> list[dict] | None:
        return legal.choices(self, state, actor_id, action_type)

    def example(self) -> dict:
        return EXAMPLE


RULESET = AgeDuSilicium()
