"""Space opera d100 (seed 002, French): d100 roll-under, stun, paralysis, vibro, droids."""

from typing import Any

from ..errors import InvalidAction, refusal
from ..ruleset import Choice, Ruleset
from ..state import Action, Awaiting
from . import actions, legal, turns, wounds
from .conditions import CONTRACTED, DEAD, KNOCKED_OUT, LOSES_NEXT_ACTION, OFF_BALANCE, PARALYSED, UNCONSCIOUS, can_act
from .messages import LABELS, MESSAGES
from .odds import SpaceOperaOdds
from .schemas import ACTIONS, KINDS, CombatantState, Options, Sheet
from .state import Res, SpaceOperaCombat, SpaceOperaCombatant
from .tables import CATALOG
from .tactic import TACTIC

OWN_KEYS = ("id", "name", "side", "pv", "san", "kind")


class SpaceOperaD100(Ruleset[SpaceOperaCombat, SpaceOperaCombatant]):
    id = "space-opera-d100"
    name = "Space opera d100"
    language = "fr"
    seed = "002_3d8f5c5895775c4c.txt"
    summary = (
        "d100 under the skill; D12 + DEX initiative every round; kill, stun or paralyse; several attacks; "
        "dodge and parry declared before the roll; item damage steps; criticals and fumble tables; the death table."
    )
    sheet_schema = Sheet
    options_schema = Options
    action_schemas = ACTIONS
    combatant_state = CombatantState
    catalog = CATALOG
    messages = MESSAGES
    labels = LABELS
    extra_gm_actions = frozenset({"clear_condition"})
    gm_conditions = frozenset({UNCONSCIOUS, KNOCKED_OUT, PARALYSED, CONTRACTED, OFF_BALANCE, LOSES_NEXT_ACTION, DEAD})
    wound_events = frozenset({"wound"})
    odds = SpaceOperaOdds()
    tactic = TACTIC

    def new_combatant(self, sheet: dict[str, Any], options: dict[str, Any]) -> SpaceOperaCombatant:
        return {
            "id": sheet["id"],
            "name": sheet["name"],
            "side": sheet["side"],
            "kind": sheet["kind"],
            "pv": sheet["pv"],
            "pv_max": sheet["pv"],
            "san": sheet["san"],
            "conditions": [],
            "items": {},
            "wielding": None,
            "round": turns.fresh_round(),
            "sheet": {key: value for key, value in sheet.items() if key not in OWN_KEYS},
        }

    def start(self, res: Res) -> None:
        turns.roll_initiative(res)

    def resolve(self, res: Res, action: Action) -> None:
        actions.resolve(res, action)

    def prompts(self, state: SpaceOperaCombat) -> list[Awaiting]:
        return turns.awaiting(state)

    def is_standing(self, combatant: SpaceOperaCombatant) -> bool:
        return can_act(combatant)

    def check_value(self, combatant: SpaceOperaCombatant, path: str, value: Any, field: str) -> None:
        """A kind is living or droid; the weapon in hand one of the sheet's, or none; only round.done
        takes true or false, and nothing else."""
        if path == "wielding" and value is not None and value not in {w["id"] for w in combatant["sheet"]["weapons"]}:
            raise InvalidAction(
                refusal("{target} has no weapon '{weapon_id}' on the sheet", target=combatant["name"], weapon_id=value),
                field=field,
            )
        if path == "kind" and value not in KINDS:
            raise InvalidAction(refusal("kind is 'living' or 'droid'"), field=field)
        if path == "round.done" and not isinstance(value, bool):
            raise InvalidAction(refusal("{path} takes true or false", path=path), field=field)
        if path != "round.done" and isinstance(value, bool):
            raise InvalidAction(refusal("{path} takes a number or a name, not true or false", path=path), field=field)

    def adjusted(self, res: Res, target: SpaceOperaCombatant, action: Action, changes: dict[str, Any]) -> bool:
        if "pv" in changes:
            wounds.pv_adjusted(res, target, changes["pv"])
        return False

    def on_join(self, res: Res, newcomer: SpaceOperaCombatant) -> None:
        turns.roll_one(res, newcomer)

    def on_leave(self, res: Res, leaver: SpaceOperaCombatant) -> None:
        pending = res.state.get("pending")
        if pending and leaver["id"] in (pending["attacker"], pending["target"]):
            # The declared attack is void; the attacker's attack is spent.
            del res.state["pending"]
            turns.spend_attack(res, res.combatant(pending["attacker"]))

    def settle(self, res: Res) -> None:
        turns.settle(res)

    def refined_choices(self, state: SpaceOperaCombat, actor_id: str, action_type: str) -> list[Choice] | None:
        return legal.choices(self, state, actor_id, action_type)

    def example(self) -> dict[str, Any]:
        return {
            "combat": {
                "ruleset": self.id,
                "lang": "fr",
                "seed": 15,
                # Initiative: Kira D12 9 + DEX 14 = 23, Garde D12 2 + DEX 11 = 13.
                "dice": [9, 2],
                "combatants": [
                    {
                        "id": "kira",
                        "name": "Kira",
                        "side": "rebelles",
                        "attributes": {"DEX": 14, "CON": 12},
                        "skills": {
                            "Armes blanches": 60,
                            "Armes contondantes": 55,
                            "Esquive": 45,
                            "Bloquer": 40,
                            "Arts martiaux": 30,
                        },
                        "pv": 13,
                        "armour_catalog": "combinaison",
                        "max_attacks": 2,
                        "weapons": [
                            {"id": "vibro", "catalog": "vibro_couteau"},
                            {"id": "matraque", "catalog": "matraque_paralysante"},
                        ],
                    },
                    {
                        "id": "garde",
                        "name": "Garde",
                        "side": "empire",
                        "attributes": {"DEX": 11, "CON": 13},
                        "skills": {"Armes blanches": 50, "Esquive": 30, "Bloquer": 50},
                        "pv": 14,
                        "armour_catalog": "armure_legere",
                        "weapons": [{"id": "epee", "catalog": "epee"}, {"id": "bouclier", "catalog": "bouclier"}],
                    },
                ],
            },
            # Each player supplies only his own combatant's dice (dice policy 'own'): the Garde's
            # parry, dodge and paralysis tests; the server rolls Kira's attacks and damage (seed 15).
            "actions": [
                {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", "attacks": 2},
                {"type": "react", "actor": "garde", "kind": "parry", "item": "bouclier", "dice": [70]},
                {"type": "attack", "actor": "kira", "target": "garde", "weapon": "matraque", "mode": "paralyse"},
                {"type": "react", "actor": "garde", "kind": "dodge", "dice": [80, 2, 40]},
            ],
        }


RULESET = SpaceOperaD100()
