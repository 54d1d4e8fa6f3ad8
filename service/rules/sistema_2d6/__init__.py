"""Sistema +2d6 (seed 004, Portuguese): attribute + skill + 2d6, death tests."""

from typing import Any

from ..conditions import LEFT, has
from ..ruleset import Choice, Ruleset
from ..state import Action, Awaiting
from . import actions, legal, turns, wounds
from .conditions import DEAD, DYING, STABLE, UNCONSCIOUS, is_standing
from .messages import LABELS, MESSAGES
from .odds import SistemaOdds
from .schemas import ACTIONS, CombatantState, Options, Sheet
from .state import Res, SistemaCombat, SistemaCombatant
from .tables import CATALOG, EXTRA_PV_BY_CON
from .tactic import TACTIC


class Sistema2d6(Ruleset[SistemaCombat, SistemaCombatant]):
    id = "sistema-2d6"
    name = "Sistema +2d6"
    language = "pt"
    seed = "004_51f267e691a7de10.txt"
    summary = (
        "Attribute + skill + 2d6 against a difficulty or an opposed roll; initiative DES + 2d6 with "
        "simultaneous ties; damage dice with RD per type; dying, death tests and stabilisation."
    )
    sheet_schema = Sheet
    options_schema = Options
    action_schemas = ACTIONS
    combatant_state = CombatantState
    catalog = CATALOG
    messages = MESSAGES
    labels = LABELS
    gm_conditions = frozenset({UNCONSCIOUS, DYING, STABLE, DEAD})
    odds = SistemaOdds()
    tactic = TACTIC

    def new_combatant(self, sheet: dict[str, Any], options: dict[str, Any]) -> SistemaCombatant:
        attributes = sheet["attributes"]
        pv_max = sheet["pv"]
        if pv_max is None:
            base = 20 if options["pv_formula"] == "action" else 10
            con = attributes["CON"]
            pv_max = base + con + attributes["FOR"] + EXTRA_PV_BY_CON.get(con, 0)
        return {
            "id": sheet["id"],
            "name": sheet["name"],
            "side": sheet["side"],
            "pv": pv_max,
            "pv_max": pv_max,
            "conditions": [],
            "death_failures": 0,
            "initiative": None,
            "sheet": {key: value for key, value in sheet.items() if key not in ("id", "name", "side", "pv")},
        }

    def start(self, res: Res) -> None:
        turns.roll_initiative(res)

    def resolve(self, res: Res, action: Action) -> None:
        actions.resolve(res, action)

    def prompts(self, state: SistemaCombat) -> list[Awaiting]:
        return turns.awaiting(state)

    def is_standing(self, combatant: SistemaCombatant) -> bool:
        return is_standing(combatant)

    def adjusted(self, res: Res, target: SistemaCombatant, action: Action, changes: dict[str, Any]) -> bool:
        if "pv" in changes:
            wounds.pv_adjusted(res, target, changes["pv"])
        return False

    def on_join(self, res: Res, newcomer: SistemaCombatant) -> None:
        turns.enter(res, newcomer)

    def settle(self, res: Res) -> None:
        pending = res.state.get("pending")
        if pending and any(has(res.combatant(i), LEFT) for i in (pending["attacker"], pending["target"])):
            # An attack between someone who left and someone else is void; the attacker's action is spent.
            del res.state["pending"]
            turns.advance(res, pending["attacker"])
        else:
            turns.move_on(res)

    def refined_choices(self, state: SistemaCombat, actor_id: str, action_type: str) -> list[Choice] | None:
        return legal.choices(self, state, actor_id, action_type)

    def example(self) -> dict[str, Any]:
        return {
            "combat": {
                "ruleset": self.id,
                "lang": "pt",
                "seed": 42,
                "dice": [6, 5, 1, 2],
                "combatants": [
                    {
                        "id": "ana",
                        "name": "Ana",
                        "side": "heroes",
                        "attributes": {"FOR": 2, "DES": 3, "CON": 2},
                        "skills": {"Armas de Fogo": 2, "Esquiva": 1, "Medicina": 1},
                        "defense_skill": "Esquiva",
                        "weapons": [{"id": "pistola", "name": "Pistola", "catalog": "tiro", "precision": 1}],
                        "armor": {"catalog": "colete_balas"},
                    },
                    {
                        "id": "capanga",
                        "name": "Capanga",
                        "side": "villains",
                        "attributes": {"FOR": 3, "DES": 2, "CON": 2},
                        "skills": {"Briga": 2, "Esquiva": 0},
                        "defense_skill": "Esquiva",
                        "weapons": [
                            {"id": "faca", "name": "Faca", "damage": "FOR+1", "damage_type": "corte", "skill": "Briga"}
                        ],
                    },
                ],
            },
            "actions": [
                {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola", "dice": [5, 4]},
                {"type": "defend", "actor": "capanga", "skill": "Esquiva", "dice": [2, 3]},
            ],
        }


RULESET = Sistema2d6()
