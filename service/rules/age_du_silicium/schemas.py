"""L'Âge du Silicium: the combatant sheet, the combat options and the actions."""

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from ..authority import gm_decides
from ..errors import refusal
from ..gm import schemas as gm
from ..schemas import (
    ActionBase,
    CombatantBase,
    CommonOptions,
    StrictInt,
    auto_end,
    choice,
    flag,
    identifier,
    name,
    number,
)
from .tables import (
    AIM_CHOICES,
    COVER,
    DAMAGE_TYPES,
    DECLARED_KINDS,
    DEFAULT_DAMAGE_TYPE,
    EXPERIENCE,
    FRENZY_BEHAVIOURS,
    FULL_AUTO,
    GM_CONDITIONS,
    LOCATIONS,
    MANEUVERS,
    MAX_ACTIONS,
    MAX_AIM,
    MAX_EXTRA_SHOTS,
    RANGE_BANDS,
    RELATIVE_SPEED,
    RESTRICTED_SPACE,
    SHOOTER_PACE,
    SITUATION,
    TARGET_PACE,
    VISIBILITY,
    VISION,
    WEAPON_KINDS,
)

PERCENT = validate.Range(0, 200)
MODIFIER = validate.Range(-100, 100)
SKILL_NAME = validate.Length(1, 40)


# Who decides (service/rules/authority.py). The seed gives each combatant his own
# declarations and choices ("les joueurs annoncent les actions de leurs personnages");
# the circumstances he cannot see from his sheet or his own position (the light, the
# target's pace and cover, the space, the situation) and every situational modifier
# ("les malus applicables à la situation") are the game master's. The range is
# measured on the table, so the shooter names it.
GM_MODIFIER = gm_decides('the game master judges the situation: "avec les malus applicables à la situation"')
GM_CIRCUMSTANCE = gm_decides("the game master describes the circumstances of the scene the attacker acts in")


def _one_of(table: Any) -> validate.OneOf:
    return validate.OneOf(sorted(table))


class Protection(Schema):
    energy = StrictInt(validate=validate.Range(0, 50), load_default=0)
    ballistic = StrictInt(validate=validate.Range(0, 50), load_default=0)
    impact = StrictInt(validate=validate.Range(0, 50), load_default=0)


class Weapon(Schema):
    id = identifier(required=True)
    name = name(load_default=None)
    kind = fields.String(
        validate=_one_of(WEAPON_KINDS), required=True, metadata={"description": "melee, thrown or ranged."}
    )
    skill = fields.String(
        validate=SKILL_NAME, required=True, metadata={"description": "Bagarre, Armes tranchantes, Fusils..."}
    )
    damage = StrictInt(
        validate=validate.Range(0, 50),
        required=True,
        metadata={"description": "The weapon's damage (the D of the wound formula)."},
    )
    damage_type = fields.String(
        validate=_one_of(DAMAGE_TYPES),
        load_default=None,
        metadata={"description": "Default: impact for melee and thrown, ballistic for ranged."},
    )
    burst = fields.Boolean(load_default=False, metadata={"description": "Can fire bursts (Tir en rafale)."})
    full_auto = fields.Boolean(
        load_default=False,
        metadata={"description": "Can fire full automatic (Tir automatique), with the option full_auto."},
    )
    interface = fields.Boolean(load_default=False, metadata={"description": "Weapon interface: +10."})
    laser_sight = fields.Boolean(load_default=False, metadata={"description": "Laser sight: +5."})
    goggles = fields.Boolean(load_default=False, metadata={"description": "Linked goggles: +5."})
    unarmed = fields.Boolean(load_default=False)

    @post_load
    def _defaults(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data["name"] = data["name"] or data["id"]
        data["damage_type"] = data["damage_type"] or DEFAULT_DAMAGE_TYPE[data["kind"]]
        return data


class Sheet(CombatantBase):
    initiative = StrictInt(
        validate=validate.Range(0, 200), required=True, metadata={"description": "The Initiative score."}
    )
    initiative_modifier = StrictInt(validate=MODIFIER, load_default=0, metadata={"description": "Implants, drugs..."})
    actions = StrictInt(
        validate=validate.Range(1, MAX_ACTIONS),
        load_default=1,
        metadata={"description": "Actions per round (at I, I-10, I-20...)."},
    )
    vigilance = StrictInt(validate=PERCENT, required=True)
    calme = StrictInt(validate=PERCENT, required=True)
    sixth_sense = StrictInt(
        validate=validate.Range(0, 10), load_default=0, metadata={"description": "6ème Sens level."}
    )
    on_guard = StrictInt(
        validate=validate.Range(0, 200),
        load_default=0,
        metadata={"description": "How much being on guard lowers the surprise difficulty."},
    )
    surprise_difficulty = StrictInt(
        validate=validate.Range(0, 200),
        load_default=None,
        metadata={"description": "This combatant's surprise difficulty; default: the option's."},
    )
    ambusher = fields.Boolean(
        load_default=False, metadata={"description": "Sets the ambush: never tested for surprise."}
    )
    experience = fields.String(validate=_one_of(EXPERIENCE), load_default="experienced")
    calme_modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's modifier to the first-round Calme test."}
    )
    endurance = StrictInt(validate=validate.Range(0, 50), required=True)
    blessures = StrictInt(validate=validate.Range(1, 200), required=True, metadata={"description": "Blessure points."})
    vision = fields.String(validate=validate.OneOf(VISION), load_default="normal")
    skills = fields.Dict(keys=fields.String(validate=SKILL_NAME), values=StrictInt(validate=PERCENT), load_default=dict)
    skill_levels = fields.Dict(
        keys=fields.String(validate=SKILL_NAME),
        values=StrictInt(validate=validate.Range(0, 10)),
        load_default=dict,
        metadata={"description": "Skill levels; special maneuvers need level 1 in the weapon's skill."},
    )
    weapons = fields.List(fields.Nested(Weapon), validate=validate.Length(max=20), load_default=list)
    armor = fields.Dict(
        keys=fields.String(validate=validate.OneOf(["*", *LOCATIONS])),
        values=fields.Nested(Protection),
        load_default=dict,
        metadata={"description": "Protection by location ('*' = every location not named)."},
    )

    @validates_schema
    def _unique_weapons(self, data: dict[str, Any], **kwargs: Any) -> None:
        ids = [w["id"] for w in data.get("weapons", [])]
        if len(ids) != len(set(ids)) or "unarmed" in ids:
            raise ValidationError(
                refusal("weapon ids must be unique and not 'unarmed' (bare hands are always available)"), "weapons"
            )


class Options(CommonOptions):
    surprise_difficulty = StrictInt(
        validate=validate.Range(0, 200),
        load_default=None,
        allow_none=True,
        metadata={
            "description": "Context difficulty of the surprise test for every non-ambusher; null: nobody is tested."
        },
    )
    sixth_sense_step = number(10, "Points of surprise difficulty each 6ème Sens level cancels.", 1, 100)
    stress_test = flag(True, "Everyone tests Calme in the first round.")
    retest_modifiers = choice(
        ["situation", "gm_only"],
        "situation",
        "Calme retest: experience and current numbers + GM modifier, or the GM modifier only.",
    )
    criticals = flag(True, "01-05 always succeeds.")
    fumbles = flag(True, "96-00 always fails (a fumble).")
    critical_hit = choice(
        ["none", "no_reaction"], "none", "What a critical hit adds: nothing, or it cannot be dodged or parried."
    )
    critical_wound = choice(
        ["death_over_endurance", "out_of_action"],
        "death_over_endurance",
        "Blessure critique: out of action, and dead when the excess exceeds Endurance; or out of action only.",
    )
    defend_ready = choice(
        ["round_start", "rank"],
        "round_start",
        "A declared defensive action can be used from the start of the resolution, or only from its rank.",
    )
    auto_end = auto_end()
    full_auto = choice(
        ["off", "bursts"],
        "off",
        "Tir automatique (TA), whose source text is lost: not played (off), or several bursts in one action, "
        "each a Tir en rafale with the recoil of an extra shot (bursts).",
    )


class Declared(Schema):
    kind = fields.String(validate=validate.OneOf(DECLARED_KINDS), required=True)
    target = identifier(load_default=None, metadata={"description": "Attack: the target; reason: the frenzied ally."})
    weapon = identifier(load_default=None)
    description = fields.String(validate=validate.Length(max=200), load_default=None)


class DeclareAction(ActionBase):
    actions = fields.List(
        fields.Nested(Declared),
        required=True,
        validate=validate.Length(0, MAX_ACTIONS),
        metadata={"description": "One entry per action this round, in order (1st at I, 2nd at I-10...)."},
    )


class ChooseFrenzyAction(ActionBase):
    behaviour = fields.String(validate=_one_of(FRENZY_BEHAVIOURS), required=True)


class AttackAction(ActionBase):
    target = identifier(required=True)
    weapon = identifier(
        load_default=None, metadata={"description": "Default: the declared weapon, else the first one."}
    )
    reaction = fields.Boolean(
        load_default=False, metadata={"description": "Spend a held action (a reaction) on this attack."}
    )
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )
    visibility = fields.String(validate=_one_of(VISIBILITY), load_default="normal", metadata=GM_CIRCUMSTANCE)
    situation = fields.List(
        fields.String(validate=_one_of(SITUATION)),
        validate=validate.Length(max=10),
        load_default=list,
        metadata=GM_CIRCUMSTANCE,
    )
    restricted_space = StrictInt(
        validate=validate.Range(RESTRICTED_SPACE[0], 0), load_default=0, metadata=GM_CIRCUMSTANCE
    )
    maneuver = fields.String(validate=_one_of(MANEUVERS), load_default=None)
    range = fields.String(validate=_one_of(RANGE_BANDS), load_default="medium")
    target_pace = fields.String(validate=_one_of(TARGET_PACE), load_default="normal", metadata=GM_CIRCUMSTANCE)
    shooter_pace = fields.String(validate=_one_of(SHOOTER_PACE), load_default="careful")
    in_vehicle = fields.Boolean(load_default=False)
    relative_speed = fields.String(validate=_one_of(RELATIVE_SPEED), load_default="within_50", metadata=GM_CIRCUMSTANCE)
    cover = StrictInt(
        validate=validate.Range(0, COVER[1]),
        load_default=0,
        metadata={"description": "Cible protégée: 10 to 50.", **GM_CIRCUMSTANCE},
    )
    secondary_targets = StrictInt(validate=validate.Range(0, 10), load_default=0)
    burst = fields.Boolean(load_default=False)
    extra_shots = StrictInt(validate=validate.Range(0, MAX_EXTRA_SHOTS), load_default=0)
    full_auto = StrictInt(
        validate=validate.Range(FULL_AUTO["bursts"]["min"], FULL_AUTO["bursts"]["max"]),
        load_default=None,
        allow_none=True,
        metadata={"description": "Tir automatique: the number of bursts fired in this action (option full_auto)."},
    )
    aim = fields.List(
        fields.String(validate=_one_of(AIM_CHOICES)), validate=validate.Length(max=MAX_AIM), load_default=list
    )
    location = fields.String(
        validate=_one_of(LOCATIONS), load_default=None, metadata={"description": "Needs an aim spent on 'location'."}
    )


class ReasonAction(ActionBase):
    target = identifier(required=True)
    modifier = StrictInt(
        validate=validate.Range(MODIFIER.min, 0),
        load_default=0,
        metadata={
            **GM_MODIFIER,
            "description": "GM's malus for the situation (the seed gives the retest maluses only).",
        },
    )


class BreakFreeAction(ActionBase):
    modifier = StrictInt(validate=MODIFIER, load_default=0, metadata=GM_MODIFIER)


class ReactAction(ActionBase):
    reaction = fields.String(validate=validate.OneOf(["dodge", "parry", "none"]), required=True)
    weapon = identifier(
        load_default=None, metadata={"description": "Parry: the weapon (default: the first melee weapon)."}
    )
    modifier = StrictInt(validate=MODIFIER, load_default=0, metadata=GM_MODIFIER)


class HoldAction(ActionBase):
    pass


class ForgoAction(ActionBase):
    description = fields.String(validate=validate.Length(max=200), load_default=None)


class AdjustAction(gm.AdjustAction):
    """The shared set/change, and this ruleset's older fields (combatant, add, remove, blessures)."""

    target = identifier(
        load_default=None, metadata={"description": "The combatant concerned ('combatant' is the older name)."}
    )
    combatant = identifier(load_default=None)
    add = fields.List(fields.String(validate=validate.OneOf(GM_CONDITIONS)), load_default=list)
    remove = fields.List(fields.String(validate=validate.OneOf(GM_CONDITIONS)), load_default=list)
    blessures = StrictInt(validate=validate.Range(0, 200), load_default=None)

    @post_load
    def _one_target(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data["target"] = data["target"] or data["combatant"]
        if data["target"] is None:
            raise ValidationError(refusal("give the combatant to adjust"), "target")
        return data


COUNT = validate.Range(min=0)


# What new_combatant adds to every combatant's state (published as AgeDuSiliciumCombatant; never loaded).
class CombatantState(Schema):
    """The state's own fields besides id, name, side, conditions and sheet."""

    initiative = fields.Integer(required=True)
    blessures = fields.Integer(required=True, metadata={"description": "Health left (blessures points)."})
    blessures_max = fields.Integer(required=True)
    aim = fields.Integer(required=True, validate=COUNT, metadata={"description": "Rounds spent aiming."})
    retested_round = fields.Integer(allow_none=True, required=True)


ACTIONS = {
    "choose_frenzy": ChooseFrenzyAction,
    "declare": DeclareAction,
    "attack": AttackAction,
    "reason": ReasonAction,
    "break_free": BreakFreeAction,
    "react": ReactAction,
    "hold": HoldAction,
    "forgo": ForgoAction,
    "adjust": AdjustAction,
}
