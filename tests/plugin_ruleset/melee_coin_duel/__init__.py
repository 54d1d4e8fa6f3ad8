"""Coin duel: the smallest ruleset, a plugin distribution of its own.

Whoever's turn it is attacks an enemy: each rolls a six-sided die (plus the
game master's modifiers); a higher attack takes one hit point. At 0 a fighter
is down. Turns go round the standing fighters in sheet order.
"""

from __future__ import annotations

from collections.abc import Iterator

from marshmallow import Schema, fields, validate

from service.rules.conditions import add, has, next_round, remove, roll_bonus
from service.rules.errors import InvalidAction
from service.rules.gm.legal import describe
from service.rules.ruleset import Resolution, Ruleset
from service.rules.schemas import ActionBase, CombatantBase, CommonOptions, StrictInt, auto_end, identifier
from service.rules.tactics import DefaultTactic, Tactic, choose_target

DOWN = "down"


class Sheet(CombatantBase):
    pv = StrictInt(validate=validate.Range(1, 20), load_default=3, metadata={"description": "Hit points."})


class Options(CommonOptions):
    auto_end = auto_end()


class CombatantState(Schema):
    """A coin-duel fighter: the common fields, and its hit points."""

    pv = fields.Integer(required=True, metadata={"description": "Hit points left; at 0 or less the fighter is down."})
    pv_max = fields.Integer(required=True, metadata={"description": "Hit points at the start."})


class Attack(ActionBase):
    type = fields.String(required=True, validate=validate.Equal("attack"))
    target = identifier(required=True)


def is_standing(combatant: dict) -> bool:
    return not has(combatant, DOWN) and not has(combatant, "left")


def _enemies(state: dict, actor: dict) -> list[dict]:
    return [c for c in state["combatants"] if c["side"] != actor["side"] and is_standing(c)]


def _next_turn(res: Resolution, after: str) -> None:
    """The turn goes to the next standing fighter in sheet order; a new round when it wraps."""
    ids = [c["id"] for c in res.state["combatants"]]
    start = ids.index(after)
    for step in range(1, len(ids) + 1):
        candidate = res.state["combatants"][(start + step) % len(ids)]
        if is_standing(candidate):
            if start + step >= len(ids):
                next_round(res)
            res.state["turn"] = candidate["id"]
            return
    res.state["turn"] = None


def _candidates(state: dict, actor: dict, waiting: dict, tactic: Tactic) -> Iterator[dict]:
    target = choose_target(state, actor, is_standing, "pv", tactic)
    if target and "attack" in waiting["actions"]:
        yield {"type": "attack", "actor": actor["id"], "target": target["id"]}


MESSAGES = {
    "en": {
        "coin_hit": "{attacker} rolls {attack} against {defense} for {defender}: a hit.",
        "coin_missed": "{attacker} rolls {attack} against {defense} for {defender}: no hit.",
        "coin_down": "{combatant} is down.",
    }
}


# Words for the ids event params carry (translated in locales/ like the messages).
LABELS = {"condition": {DOWN: "out of the fight"}, "value": {"pv": "hit points", "pv_max": "most hit points"}}


class CoinDuel(Ruleset):
    id = "coin-duel"
    name = "Coin duel"
    language = "en"
    seed = "none: a test ruleset"
    summary = "A six-sided die each, the higher hits; three hit points."
    sheet_schema = Sheet
    options_schema = Options
    action_schemas = {"attack": Attack}
    combatant_state = CombatantState
    catalog = {}
    messages = MESSAGES
    labels = LABELS
    supports_override = False  # no roll succeeds or fails by itself: a die is only compared
    gm_conditions = frozenset({DOWN})
    tactic = DefaultTactic("pv", _candidates, "Attack the target; style has no effect.")

    def new_combatant(self, sheet: dict, options: dict) -> dict:
        return {
            "id": sheet["id"],
            "name": sheet["name"],
            "side": sheet["side"],
            "pv": sheet["pv"],
            "pv_max": sheet["pv"],
            "conditions": [],
            "sheet": {},
        }

    def start(self, res: Resolution) -> None:
        res.state["turn"] = res.state["combatants"][0]["id"]

    def prompts(self, state: dict) -> list[dict]:
        return [{"actor": state["turn"], "actions": ["attack"], "reason": "turn"}] if state.get("turn") else []

    def is_standing(self, combatant: dict) -> bool:
        return is_standing(combatant)

    def refined_choices(self, state: dict, actor_id: str, action_type: str) -> list[dict] | None:
        if action_type != "attack" or actor_id != state.get("turn"):
            return None if action_type != "attack" else []
        actor = next(c for c in state["combatants"] if c["id"] == actor_id)
        enemies = [c["id"] for c in _enemies(state, actor)]
        return (
            [describe(self, state, actor_id, "attack", target={"type": "string", "choices": enemies})]
            if enemies
            else []
        )

    def resolve(self, res: Resolution, action: dict) -> None:
        attacker = res.combatant(action["actor"], field="actor")
        if res.state.get("turn") != attacker["id"]:
            raise InvalidAction(f"it is not {attacker['name']}'s turn", field="actor")
        defender = res.combatant(action["target"])
        if defender["side"] == attacker["side"] or not is_standing(defender):
            raise InvalidAction(f"{defender['name']} is not a standing enemy", field="target")
        attack = res.dice.roll(6, "attack", attacker["id"]) + roll_bonus(attacker)
        defense = res.dice.roll(6, "defense", defender["id"]) + roll_bonus(defender)
        params = {"attacker": attacker["id"], "defender": defender["id"], "attack": attack, "defense": defense}
        if attack > defense:
            res.emit("coin_hit", **params)
            defender["pv"] -= 1
            self._check_down(res, defender)
        else:
            res.emit("coin_missed", **params)
        _next_turn(res, attacker["id"])

    def _check_down(self, res: Resolution, combatant: dict) -> None:
        if combatant["pv"] <= 0 and add(res, combatant, DOWN):
            res.emit("coin_down", combatant=combatant["id"])
        elif combatant["pv"] > 0:
            remove(combatant, DOWN)

    def adjusted(self, res: Resolution, target: dict, action: dict, changes: dict) -> bool:
        if "pv" in changes:
            self._check_down(res, target)
        return False

    def condition_changed(self, res: Resolution, target: dict, code: str, added: bool) -> None:
        self.settle(res)

    def on_join(self, res: Resolution, newcomer: dict) -> None:
        """A newcomer waits for the turn to come round to it (sheet order)."""

    def settle(self, res: Resolution) -> None:
        turn = res.state.get("turn")
        holder = next((c for c in res.state["combatants"] if c["id"] == turn), None)
        if holder is not None and not is_standing(holder):
            _next_turn(res, turn)

    def example(self) -> dict:
        return {
            "combat": {
                "ruleset": self.id,
                "seed": 6,
                "combatants": [
                    {"id": "ann", "name": "Ann", "side": "heads"},
                    {"id": "bob", "name": "Bob", "side": "tails", "pv": 1},
                ],
            },
            "actions": [{"type": "attack", "actor": "ann", "target": "bob", "dice": [6]}],
        }


RULESET = CoinDuel()
