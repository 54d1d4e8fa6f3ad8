"""Dark Earth rules in Agone (dK-Gone, seed 001, French): dice pools, secret split of the POT."""

from ..errors import InvalidAction
from ..viewer import Viewer
from ..ruleset import Resolution, Ruleset
from . import actions, turns, visibility
from .contacts import engage
from .health import clear_choc
from .messages import MESSAGES
from .schemas import ACTIONS, GM_ACTIONS, Options, Sheet
from .tables import CATALOG
from .odds import DarkEarthOdds


class DarkEarth(Ruleset):
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
    gm_actions = GM_ACTIONS
    catalog = CATALOG
    messages = MESSAGES
    odds = DarkEarthOdds()

    def new_combatant(self, sheet: dict, options: dict) -> dict:
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

    def start(self, res: Resolution) -> None:
        res.state["allocations"] = {}
        res.state["contacts"] = []
        ids = {c["id"] for c in res.state["combatants"]}
        for index, (combatant, sheet_contacts) in enumerate(zip(res.state["combatants"], self._contacts(res))):
            for other in sheet_contacts:
                if other not in ids or other == combatant["id"]:
                    raise InvalidAction(
                        f"{combatant['name']} cannot be in contact with {other!r}: give the id of another combatant",
                        field=f"combatants.{index}.contact_with",
                    )
                engage(res, combatant["id"], other)
        res.emit("round_started", round=res.state["round"])

    @staticmethod
    def _contacts(res: Resolution) -> list[list[str]]:
        # Contacts live in the state's "contacts" from now on, not in the sheet.
        return [c["sheet"].pop("contact_with", []) for c in res.state["combatants"]]

    def resolve(self, res: Resolution, action: dict) -> None:
        actions.resolve(res, action)

    def awaiting(self, state: dict) -> list[dict]:
        return turns.awaiting(state)

    def on_combat_end(self, res: Resolution) -> None:
        res.state["allocations"] = {}
        clear_choc(res)

    def visible_state(self, state: dict, viewer: Viewer) -> dict:
        return visibility.visible_state(state, viewer)

    def visible_entry(self, state: dict, entry: dict, viewer: Viewer) -> dict:
        return visibility.visible_entry(state, entry, viewer)

    def example(self) -> dict:
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
                        "weapons": [{"id": "griffes", "name": "Griffes", "kind": "melee", "skill": "Griffes", "damage": 1}],
                    },
                ],
            },
            "actions": [
                {"type": "allocate", "actor": "kael", "target": "goule", "split": {"init": 2, "att": 3, "def": 2}},
                {"type": "allocate", "actor": "goule", "target": "kael", "split": {"init": 1, "att": 3, "def": 2}},
            ],
        }


RULESET = DarkEarth()
