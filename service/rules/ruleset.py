"""What a ruleset is: its declarations and its resolver.

A ruleset declares its combatant sheet, its options, its action types and its
catalog as data, and resolves one action at a time against a working copy of
the combat state, taking every die from the :class:`Resolution`'s dice box.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, Generic, cast

from marshmallow import Schema, ValidationError, fields, validate

from . import authority
from .errors import InvalidInput
from .gm.legal import awaited, default_legal_actions, describe, gm_choices
from .gm.schemas import GM_ACTIONS
from .odds.profile import OddsProfile

# Re-exported: a ruleset package (built-in or a plugin) imports what it resolves
# against from here, with the base class (docs/rulesets.md).
from .resolution import GM as GM
from .resolution import AnyResolution as AnyResolution
from .resolution import Choice as Choice
from .resolution import CombatantT as CombatantT
from .resolution import CombatT as CombatT
from .resolution import Resolution as Resolution
from .schemas import LANGUAGES, MAX_SUPPLIED_DICE, StrictInt
from .state import Action, Awaiting
from .tactics import DefaultTactic
from .viewer import GM_VIEWER, Viewer

MAX_COMBATANTS = 50


class Ruleset(Generic[CombatT, CombatantT]):
    """Base class: subclasses fill the declarations and the hooks that raise NotImplementedError.

    docs/rulesets.md is the contract for a ruleset package (built-in or a
    plugin registered under the ``melee.rulesets`` entry-point group).
    """

    id: str
    name: str
    language: str
    seed: str
    summary: str
    sheet_schema: type[Schema]
    options_schema: type[Schema]
    action_schemas: Mapping[str, type[Schema]]
    catalog: Mapping[str, Any]
    messages: Mapping[str, Mapping[str, str]]
    # Words for ids an event param carries (param -> id -> English), e.g. a result level.
    labels: Mapping[str, Mapping[str, str]] = {}
    # GM action types of this ruleset only (dark-earth's contact...); the shared ones are in gm/.
    extra_gm_actions: frozenset[str] = frozenset()
    # Types both the GM and a player may send (duel-2d6's join: a GM brings a newcomer, a player engages).
    gm_and_player_actions: frozenset[str] = frozenset()
    # Conditions the GM's `condition` action may add (any present one may be removed).
    gm_conditions: frozenset[str] = frozenset()
    # For the end summary: the event that lowers a combatant's PV and its amount param; wound events.
    damage_event: tuple[str, str] = ("damage_taken", "amount")
    wound_events: frozenset[str] = frozenset()
    # False where rolls have no success of their own (dark-earth's opposed pools): `override` is refused.
    supports_override: bool = True
    # How outcomes read in the odds, and who answers what by default (service/rules/odds/profile.py).
    odds: OddsProfile = OddsProfile()
    # What a simulated fighter does (service/rules/tactics.py).
    tactic: DefaultTactic[CombatT, CombatantT]
    # Optional: the shape of the fields new_combatant adds to every combatant's state besides id, name, side,
    # conditions and sheet (its health...), for the OpenAPI document's <Prefix>Combatant; None: only those five.
    # Describes, never loads: the state is the rules' own.
    combatant_state: type[Schema] | None = None

    # Declarations without a default: the registry refuses a ruleset lacking one.
    REQUIRED = (
        "id",
        "name",
        "language",
        "seed",
        "summary",
        "sheet_schema",
        "options_schema",
        "action_schemas",
        "catalog",
        "messages",
        "tactic",
    )
    HOOKS = ("new_combatant", "start", "resolve", "prompts", "is_standing", "example", "on_join")

    @property
    def locales(self) -> Path:
        """The folder of this ruleset's translations (``<lang>.po``): ``locales/`` next to its class's module."""
        return Path(inspect.getfile(type(self))).resolve().parent / "locales"

    def missing(self) -> list[str]:
        """What this ruleset lacks of the contract: declarations, and hooks it does not implement."""
        lacking = [name for name in self.REQUIRED if not hasattr(self, name)]
        lacking += [f"{name}()" for name in self.HOOKS if getattr(type(self), name) is getattr(Ruleset, name)]
        if hasattr(self, "messages") and "en" not in self.messages:
            lacking.append("messages['en']")
        # Schemas are marshmallow schema classes (anything else would fail at the first request instead).
        declared = {name: getattr(self, name) for name in ("sheet_schema", "options_schema") if hasattr(self, name)}
        declared.update(
            {f"action_schemas[{kind!r}]": schema for kind, schema in getattr(self, "action_schemas", {}).items()}
        )
        if self.combatant_state is not None:
            declared["combatant_state"] = self.combatant_state
        lacking += [
            f"{name} as a marshmallow Schema subclass"
            for name, schema in declared.items()
            if not (isinstance(schema, type) and issubclass(schema, Schema))
        ]
        options = declared.get("options_schema")
        if isinstance(options, type) and issubclass(options, Schema) and "auto_end" not in options().fields:
            lacking.append("the option auto_end (schemas.auto_end(), read by ending.py)")
        return lacking

    # -- hooks a ruleset implements -------------------------------------------------
    def new_combatant(self, sheet: dict[str, Any], options: dict[str, Any]) -> CombatantT:
        """The combatant's state at the start of the fight."""
        raise NotImplementedError

    def start(self, res: Resolution[CombatT, CombatantT]) -> None:
        """Roll what the rules roll before the first action (initiative...)."""
        raise NotImplementedError

    def resolve(self, res: Resolution[CombatT, CombatantT], action: Action) -> None:
        """Apply one loaded action to ``res.state``; raise a RulesError to refuse it."""
        raise NotImplementedError

    def prompts(self, state: CombatT) -> list[Awaiting]:
        """Whose turn it is by the turn structure, and the action types it may be asked for.

        Candidates only: :meth:`awaiting` keeps the types with a legal choice now.
        """
        raise NotImplementedError

    def is_standing(self, combatant: CombatantT) -> bool:
        """Still able to fight (not down, dead or gone): ending.py decides the fight on it."""
        raise NotImplementedError

    def standing_sides(self, state: CombatT) -> set[str]:
        """The sides with a fighter still standing (ending.py: at most one decides the fight)."""
        return {c["side"] for c in state["combatants"] if self.is_standing(c)}

    def example(self) -> dict[str, Any]:
        """A complete creation body and a sequence of actions that plays."""
        raise NotImplementedError

    def on_combat_end(self, res: Resolution[CombatT, CombatantT]) -> None:
        """Optional: undo what lasts only for the fight when the GM ends it (default: nothing)."""

    # -- hooks of the shared GM actions (gm/actions.py) ----------------------------------
    def check_value(self, combatant: CombatantT, path: str, value: Any, field: str) -> None:
        """Refuse (InvalidAction on ``field``) a value the rules cannot hold (default: any)."""

    def adjusted(
        self, res: Resolution[CombatT, CombatantT], target: CombatantT, action: Action, changes: dict[str, Any]
    ) -> bool:
        """After a GM adjustment: apply its consequences, and the ruleset's own adjust fields.

        ``changes``: each adjusted value's path and its value before. A change of
        health runs the ruleset's own consequences, as damage (or healing) would.
        True when the ruleset's own fields changed something.
        """
        return False

    def condition_changed(
        self, res: Resolution[CombatT, CombatantT], target: CombatantT, code: str, added: bool
    ) -> None:
        """After the GM added or removed a condition (default: nothing)."""

    def on_join(self, res: Resolution[CombatT, CombatantT], newcomer: CombatantT) -> None:
        """A combatant joined the running fight: the ruleset's rule for entering (initiative...)."""
        raise NotImplementedError

    def on_leave(self, res: Resolution[CombatT, CombatantT], leaver: CombatantT) -> None:
        """A combatant left the fight (condition ``left`` already added): drop it from turns and duels."""

    def settle(self, res: Resolution[CombatT, CombatantT]) -> None:
        """After a GM action: move the turn on if whoever it waited for can no longer act (the end: ending.py)."""

    def awaiting(self, state: CombatT) -> list[Awaiting]:
        """Who the engine waits for, and the action types each may send now (gm/legal.py)."""
        return awaited(self, state)

    def legal_actions(self, state: CombatT, actor_id: str, caller: Viewer = GM_VIEWER) -> list[Choice]:
        """What ``actor_id`` may send now, with the parameters each choice takes (gm/legal.py).

        ``caller``: whose token asks; a player is offered only the parameters
        that are theirs to set (authority.py)."""
        return authority.offered(self, default_legal_actions(self, state, actor_id), caller)

    def refined_choices(self, state: CombatT, actor_id: str, action_type: str) -> list[Choice] | None:
        """Optional: the ruleset's own listing of an action type's choices (None: the generic one)."""
        return None

    def action_choices(self, state: CombatT, actor_id: str, action_type: str) -> list[Choice]:
        """The parameter sets ``actor_id`` may send ``action_type`` with (one dict each; none: not now)."""
        refined = self.refined_choices(state, actor_id, action_type)
        if refined is not None:
            return refined
        if actor_id == GM and action_type in GM_ACTIONS:
            return gm_choices(self, state, action_type)
        return [describe(self, state, actor_id, action_type)]

    def visible_state(self, state: CombatT, viewer: Viewer) -> Mapping[str, Any]:
        """The state as ``viewer`` may see it: hide what the rules keep secret."""
        return state

    def visible_entry(self, state: CombatT, entry: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """A log entry (as stored: plain JSON) as ``viewer`` may see it, given the current state."""
        return entry

    # -- shared machinery -----------------------------------------------------------
    @cached_property
    def all_action_schemas(self) -> dict[str, type[Schema]]:
        # A ruleset's own schema for a shared GM type extends it (older fields kept).
        return {**GM_ACTIONS, **self.action_schemas}

    @cached_property
    def gm_actions(self) -> frozenset[str]:
        return frozenset(GM_ACTIONS) | self.extra_gm_actions

    @cached_property
    def gm_only_actions(self) -> frozenset[str]:
        return self.gm_actions - self.gm_and_player_actions

    @cached_property
    def create_schema(self) -> type[Schema]:
        sheet, options = self.sheet_schema, self.options_schema
        return Schema.from_dict(
            {
                "ruleset": fields.String(required=True, validate=validate.Equal(self.id)),
                "combatants": fields.List(
                    fields.Nested(sheet), required=True, validate=validate.Length(2, MAX_COMBATANTS)
                ),
                "options": fields.Nested(options, load_default=lambda: self._options_loader.load({})),
                "seed": StrictInt(
                    validate=validate.Range(0, 2**63 - 1),
                    load_default=None,
                    metadata={
                        "description": "Seed of the server's dice, for reproducible runs and tests: whoever knows it "
                        "predicts every server die. Leave it out for online play (fresh secret keys)."
                    },
                ),
                "lang": fields.String(validate=validate.OneOf(LANGUAGES), load_default="en"),
                "hidden_sheets": fields.List(
                    fields.String(),
                    validate=validate.Length(max=MAX_COMBATANTS),
                    load_default=list,
                    metadata={"description": "Ids of combatants (NPCs) whose sheets only the GM sees."},
                ),
                "dice": fields.List(
                    StrictInt(validate=validate.Range(1, 100)),
                    validate=validate.Length(max=MAX_SUPPLIED_DICE),
                    load_default=list,
                    metadata={"description": "Physical dice for the rolls made at creation (initiative)."},
                ),
            },
            name=f"{self.schema_prefix}CreateCombat",
        )

    # Schema instances, built once and reused by every load: building a marshmallow
    # schema (it copies and binds its fields) costs more than loading with it, and
    # load() keeps no per-call state on the instance.
    @cached_property
    def _action_loaders(self) -> dict[str, Schema]:
        return {action_type: schema() for action_type, schema in self.all_action_schemas.items()}

    def action_schema(self, action_type: str) -> Schema:
        """The schema instance that loads ``action_type`` (built once)."""
        return self._action_loaders[action_type]

    @cached_property
    def _creation_loader(self) -> Schema:
        return self.create_schema()

    @cached_property
    def _sheet_loader(self) -> Schema:
        return self.sheet_schema()

    @cached_property
    def _options_loader(self) -> Schema:
        return self.options_schema()

    @property
    def schema_prefix(self) -> str:
        return "".join(part.capitalize() for part in self.id.replace("_", "-").split("-"))

    def load_creation(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """The creation body loaded (sheets and options with their defaults), or InvalidInput."""
        data: dict[str, Any] = _loaded(self._creation_loader, body)
        seen: dict[str, int] = {}
        for index, combatant in enumerate(data["combatants"]):
            if combatant["id"] in seen or combatant["id"] == GM:
                raise InvalidInput(
                    {
                        "combatants": {
                            index: {"id": [f"{combatant['id']!r} is already used; ids must be unique and not 'gm'"]}
                        }
                    }
                )
            seen[combatant["id"]] = index
        for index, hidden in enumerate(data["hidden_sheets"]):
            if hidden not in seen:
                raise InvalidInput({"hidden_sheets": {index: [f"there is no combatant {hidden!r}"]}})
        return data

    def load_sheet(self, body: Any) -> dict[str, Any]:
        """One combatant's sheet loaded (the GM's join brings one), or InvalidInput."""
        sheet: dict[str, Any] = _loaded(self._sheet_loader, body)
        return sheet

    def load_action(self, body: Mapping[str, Any]) -> Action:
        """The action loaded by its type's schema, or InvalidInput."""
        if not isinstance(body, Mapping):
            raise InvalidInput({"_schema": ["the action must be a JSON object"]})
        action_type = body.get("type")
        loader = self._action_loaders.get(action_type) if isinstance(action_type, str) else None
        if loader is None:
            known = ", ".join(sorted(self.all_action_schemas))
            raise InvalidInput({"type": [f"unknown action type {action_type!r} for {self.id}; one of: {known}"]})
        action: Action = _loaded(loader, body)
        return action


def _loaded(schema: Schema, body: Any) -> Any:
    """``schema.load(body)``, refused with the core's own error: nothing above the rules core
    sees marshmallow's ValidationError, and the messages (nested by field) are marshmallow's."""
    try:
        return schema.load(body)
    except ValidationError as error:
        raise InvalidInput(cast("dict[Any, Any]", error.messages)) from error  # a schema's: a dict by field


# A ruleset whatever its state types: what the registry hands out and shared code takes.
AnyRuleset = Ruleset[Any, Any]
