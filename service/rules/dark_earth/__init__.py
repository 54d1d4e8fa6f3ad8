"""Dark Earth rules in Agone (dK-Gone, seed 001, French): dice pools, secret split of the POT."""

from typing import Any

from ..conditions import add, remove
from ..errors import InvalidAction, refusal
from ..ruleset import Choice, Ruleset
from ..state import Action, Awaiting
from ..viewer import Viewer
from . import actions, bouffons, legal, turns, visibility
from .contacts import engage, leave_all
from .health import COMA, DEAD, INCAPACITATED, WOUND_CONDITIONS, check_pain, clear_choc, is_standing, pv_adjusted
from .messages import LABELS, MESSAGES
from .odds import DarkEarthOdds
from .schemas import ACTIONS, GM_ACTIONS, CombatantState, Options, Sheet
from .state import DarkEarthCombat, DarkEarthCombatant, Res
from .tables import CATALOG, PAIN_DICE
from .tactic import TACTIC


class DarkEarth(Ruleset[DarkEarthCombat, DarkEarthCombatant]):
    id = "dark-earth"
    name = "Dark Earth (dK-Gone)"
    language = "fr"
    seed = "001_ab0151377264eced.txt"
    summary = (
        "Pools of d6 counting successes (4-5 one, 6 two, all ones a fumble); each tour every fighter secretly "
        "splits his POT into INIT / ATT / DEF; shooters first by AGI, then most INIT dice; ATT against DEF "
        "with riposte bonus; wounds = DEG + DOM + FOR - PROT - RES roll, with CHOC on the next action."
    )
    sheet_schema = Sheet
    options_schema = Options
    action_schemas = ACTIONS
    combatant_state = CombatantState
    extra_gm_actions = GM_ACTIONS
    gm_conditions = frozenset({COMA, DEAD, bouffons.ELIMINATED, INCAPACITATED})
    damage_event = ("wounded", "amount")
    wound_events = frozenset({"wound_severity"})
    # Opposed pools have no success or failure of their own to override.
    supports_override = False
    catalog = CATALOG
    messages = MESSAGES
    labels = LABELS
    odds = DarkEarthOdds()
    tactic = TACTIC

    def new_combatant(self, sheet: dict[str, Any], options: dict[str, Any]) -> DarkEarthCombatant:
        return {
            "id": sheet["id"],
            "name": sheet["name"],
            "side": sheet["side"],
            "conditions": [],
            "pv": sheet["pv"],
            "pv_max": sheet["pv"],
            "wounds": 0,
            "choc": 0,
            "wound_level": None,
            "loaded": {w["id"]: w["loaded"] for w in sheet["weapons"] if w["mechanical"]},
            "sheet": {key: value for key, value in sheet.items() if key not in ("id", "name", "side", "pv")},
        }

    def start(self, res: Res) -> None:
        res.state["allocations"] = {}
        res.state["contacts"] = []
        ids = {c["id"] for c in res.state["combatants"]}
        for index, combatant in enumerate(res.state["combatants"]):
            bouffons.check_enabled(res.options, combatant, field=f"combatants.{index}.bouffon")
        for index, (combatant, sheet_contacts) in enumerate(
            zip(res.state["combatants"], self._contacts(res), strict=True)
        ):
            for other in sheet_contacts:
                if other not in ids or other == combatant["id"]:
                    raise InvalidAction(
                        refusal(
                            "{combatant} cannot be in contact with '{other}': give the id of another combatant",
                            combatant=combatant["name"],
                            other=other,
                        ),
                        field=f"combatants.{index}.contact_with",
                    )
                engage(res, combatant["id"], other)
        res.emit("round_started", round=res.state["round"])

    @staticmethod
    def _contacts(res: Res) -> list[list[str]]:
        # Contacts live in the state's "contacts" from now on, not in the sheet.
        return [c["sheet"].pop("contact_with", []) for c in res.state["combatants"]]

    def check_value(self, combatant: DarkEarthCombatant, path: str, value: Any, field: str) -> None:
        if path == "wound_level" and value not in (None, *WOUND_CONDITIONS):
            raise InvalidAction(
                refusal("wound levels are: null, {levels}", levels=", ".join(WOUND_CONDITIONS)), field=field
            )

    def adjusted(self, res: Res, target: DarkEarthCombatant, action: Action, changes: dict[str, Any]) -> bool:
        if "wound_level" in changes:
            # The wound's condition (and its pain) follows the level the GM set.
            for code in WOUND_CONDITIONS.values():
                remove(target, code)
            if target["wound_level"]:
                add(
                    res,
                    target,
                    WOUND_CONDITIONS[target["wound_level"]],
                    source="gm",
                    pain_dice=PAIN_DICE[target["wound_level"]],
                )
                check_pain(res, target)
        if "pv" in changes:
            pv_adjusted(res, target, changes["pv"])
        return False

    def on_join(self, res: Res, newcomer: DarkEarthCombatant) -> None:
        """No initiative roll here: INIT is part of the POT the newcomer splits, from this tour on."""
        bouffons.check_enabled(res.options, newcomer, field="combatant.bouffon")
        for other in newcomer["sheet"].pop("contact_with", []):
            if other == newcomer["id"] or all(c["id"] != other for c in res.state["combatants"]):
                raise InvalidAction(
                    refusal("{combatant} cannot be in contact with '{other}'", combatant=newcomer["name"], other=other),
                    field="combatant.contact_with",
                )
            engage(res, newcomer["id"], other)

    def on_leave(self, res: Res, leaver: DarkEarthCombatant) -> None:
        leave_all(res, leaver["id"])
        res.state["allocations"].pop(leaver["id"], None)

    def settle(self, res: Res) -> None:
        for combatant in res.state["combatants"]:
            if not is_standing(combatant):
                leave_all(res, combatant["id"])
        if res.state["allocations"] and not turns.waiting_for(res.state):
            turns.after_allocation(res)  # the tour waited only for who is gone

    def refined_choices(self, state: DarkEarthCombat, actor_id: str, action_type: str) -> list[Choice] | None:
        return legal.choices(self, state, actor_id, action_type)

    def resolve(self, res: Res, action: Action) -> None:
        actions.resolve(res, action)

    def prompts(self, state: DarkEarthCombat) -> list[Awaiting]:
        return turns.awaiting(state)

    def is_standing(self, combatant: DarkEarthCombatant) -> bool:
        return is_standing(combatant)

    def on_combat_end(self, res: Res) -> None:
        res.state["allocations"] = {}
        clear_choc(res)

    def visible_state(self, state: DarkEarthCombat, viewer: Viewer) -> dict[str, Any]:
        return visibility.visible_state(state, viewer)

    def visible_entry(self, state: DarkEarthCombat, entry: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        return visibility.visible_entry(state, entry, viewer)

    def example(self) -> dict[str, Any]:
        return {
            "combat": {
                "ruleset": self.id,
                "lang": "fr",
                "seed": 2008,
                "combatants": [
                    {
                        "id": "kael",
                        "name": "Kael",
                        "side": "stallites",
                        "attributes": {"MEL": 4, "TIR": 3, "AGI": 3, "FOR": 2, "RES": 3},
                        "skills": {"Épée": 3, "Esquive": 2},
                        "pv": 12,
                        "weapons": [{"id": "epee", "name": "Épée", "kind": "melee", "skill": "Épée", "damage": 3}],
                        "armour": {"catalog": "cuir_complete"},
                        "contact_with": ["goule"],
                    },
                    {
                        "id": "goule",
                        "name": "Goule",
                        "side": "ombres",
                        "attributes": {"MEL": 3, "TIR": 1, "AGI": 4, "FOR": 3, "RES": 2},
                        "skills": {"Griffes": 3},
                        "pv": 10,
                        "weapons": [
                            {"id": "griffes", "name": "Griffes", "kind": "melee", "skill": "Griffes", "damage": 1}
                        ],
                    },
                ],
            },
            "actions": [
                {"type": "allocate", "actor": "kael", "target": "goule", "split": {"init": 2, "att": 3, "def": 2}},
                {"type": "allocate", "actor": "goule", "target": "kael", "split": {"init": 1, "att": 3, "def": 2}},
            ],
        }


RULESET = DarkEarth()
