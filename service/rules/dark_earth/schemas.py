"""Dark Earth: the combatant sheet, the combat options and the actions."""

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from ..authority import gm_decides
from ..errors import refusal
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
    ARMOURS,
    COVER_MODIFIERS,
    RANGE_MODIFIERS,
    SHOOTER_PACE_MODIFIERS,
    TARGET_MOVEMENT_MODIFIERS,
    WEAPONS,
)

SCORE = validate.Range(0, 20)
SKILL_NAME = validate.Length(1, 40)


class Attributes(Schema):
    MEL = StrictInt(required=True, validate=SCORE, metadata={"description": "MELée: melee POT = MEL + weapon skill."})
    TIR = StrictInt(required=True, validate=SCORE, metadata={"description": "TIR: shooting POT = TIR + weapon skill."})
    AGI = StrictInt(required=True, validate=SCORE, metadata={"description": "AGIlité: shooters' order, evasion roll."})
    FOR = StrictInt(required=True, validate=SCORE, metadata={"description": "FORce: added to the damage of the blows."})
    RES = StrictInt(
        required=True, validate=SCORE, metadata={"description": "RESistance: dice rolled against each blow."}
    )
    TAI = StrictInt(
        validate=validate.Range(-5, 5), load_default=0, metadata={"description": "TAIlle: size; shooting DIFF -TAI."}
    )


class Weapon(Schema):
    id = identifier(required=True)
    catalog = fields.String(validate=validate.OneOf(sorted(WEAPONS)), load_default=None)
    name = name(load_default=None)
    kind = fields.String(validate=validate.OneOf(["melee", "ranged"]), load_default=None)
    skill = fields.String(
        validate=SKILL_NAME, load_default=None, metadata={"description": "Combat skill added to MEL or TIR."}
    )
    damage = StrictInt(
        validate=validate.Range(-5, 30), load_default=None, metadata={"description": "The weapon's DOM."}
    )
    mechanical = fields.Boolean(
        load_default=None,
        metadata={"description": "Mechanical ranged weapon (crossbow, ballista): may shoot in contact when loaded."},
    )
    loaded = fields.Boolean(load_default=True, metadata={"description": "A mechanical weapon's load at the start."})

    @post_load
    def _merge_catalog(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        base = WEAPONS.get(data["catalog"], {}) if data["catalog"] else {}
        for key, default in (
            ("name", data["id"]),
            ("kind", "melee"),
            ("skill", None),
            ("damage", 0),
            ("mechanical", False),
        ):
            if data[key] is None:
                data[key] = base.get(key, default)
        return data


class Armour(Schema):
    catalog = fields.String(validate=validate.OneOf(sorted(ARMOURS)), load_default=None)
    name = name(load_default=None)
    prot = StrictInt(validate=validate.Range(0, 20), load_default=None, metadata={"description": "PROTection."})
    coverage = fields.String(
        validate=validate.OneOf(["complete", "partial"]),
        load_default=None,
        metadata={"description": "complete: subtract PROT; partial: roll PROT dice and subtract the successes."},
    )
    agi_malus = StrictInt(
        validate=validate.Range(0, 10), load_default=None, metadata={"description": "Dice off AGI rolls."}
    )

    @validates_schema
    def _known(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("prot") is None and data.get("catalog") is None:
            raise ValidationError(refusal("give a PROT or a catalog armour"), "prot")

    @post_load
    def _merge_catalog(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        base = ARMOURS.get(data["catalog"], {}) if data["catalog"] else {}
        for key, default in (("name", "armour"), ("prot", 0), ("coverage", "complete"), ("agi_malus", 0)):
            if data[key] is None:
                data[key] = base.get(key, default)
        return data


class Bouffon(Schema):
    """The optional Bouffons rule (dk-gone:regles_optionnelles): a mook in three numbers."""

    diff = StrictInt(
        required=True,
        validate=validate.Range(1, 4),
        metadata={"description": "DIFFiculté in dice: its INIT, ATT and DEF (1D child ... 4D professional)."},
    )
    damage = StrictInt(
        validate=validate.Range(0, 30),
        load_default=0,
        metadata={"description": "Bonus aux dommages (+Dom): its FOR and weapon, the DOM of its blows."},
    )
    defense = StrictInt(
        validate=validate.Range(0, 3),
        load_default=0,
        metadata={"description": "Défense: points taken off the damage of a blow on it."},
    )
    tai = StrictInt(
        validate=validate.Range(-5, 5),
        load_default=0,
        metadata={"description": "TAIlle: the shooting DIFF's size row."},
    )


BOUFFON_ATTRIBUTES = {"MEL": 0, "TIR": 0, "AGI": 0, "FOR": 0, "RES": 0}


class Sheet(CombatantBase):
    attributes = fields.Nested(
        Attributes, load_default=None, metadata={"description": "Required, except for a bouffon (only its TAI counts)."}
    )
    skills = fields.Dict(keys=fields.String(validate=SKILL_NAME), values=StrictInt(validate=SCORE), load_default=dict)
    pv = StrictInt(
        validate=validate.Range(1, 200),
        load_default=None,
        metadata={"description": "Points de vie (required, except for a bouffon)."},
    )
    bouffon = fields.Nested(
        Bouffon, load_default=None, metadata={"description": "Makes this combatant a bouffon (combat option bouffons)."}
    )
    weapons = fields.List(
        fields.Nested(Weapon),
        validate=validate.Length(max=20),
        load_default=list,
        metadata={"description": "The first is used when an allocation names none; bare hands when empty."},
    )
    armour = fields.Nested(Armour, load_default=None)
    dodge_skill = fields.String(
        validate=SKILL_NAME, load_default="Esquive", metadata={"description": "Skill of the evasion roll (AGI + it)."}
    )
    contact_with = fields.List(
        identifier(),
        validate=validate.Length(max=49),
        load_default=list,
        metadata={"description": "Ids of the enemies already in contact (melee) at the start."},
    )

    @validates_schema
    def _unique_weapons(self, data: dict[str, Any], **kwargs: Any) -> None:
        ids = [w["id"] for w in data.get("weapons", [])]
        if len(ids) != len(set(ids)):
            raise ValidationError(refusal("weapon ids must be unique"), "weapons")

    @validates_schema
    def _fighter_or_bouffon(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("bouffon") is None:
            missing = {
                key: ["Missing data for required field."] for key in ("attributes", "pv") if data.get(key) is None
            }
            if missing:
                raise ValidationError(missing)
        elif data.get("weapons"):
            raise ValidationError(refusal("a bouffon's weapon is its damage bonus: give no weapons"), "weapons")
        elif data.get("attributes") is not None:
            raise ValidationError(
                refusal("a bouffon is its DIFF, damage and defense: give no attributes (its size is bouffon.tai)"),
                "attributes",
            )

    @post_load
    def _bouffon_numbers(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        # A bouffon has no attributes of its own but its size, and no PV: the first blow through takes it out.
        if data["bouffon"] is not None:
            data["attributes"] = {**BOUFFON_ATTRIBUTES, "TAI": data["bouffon"]["tai"]}
            data["pv"] = data["pv"] or 1
        return data


class Options(CommonOptions):
    riposte_bonus = choice(
        ["dice", "successes"],
        "dice",
        "The failed attack's difference is added to the riposte as extra dice, or as successes.",
    )
    several_attackers_defense = choice(
        ["same_roll", "each_attack"],
        "same_roll",
        "A fighter attacked several times in a tour rolls his DEF (or evasion) once, or for each attack.",
    )
    evasion_uses_attack = flag(True, "A fighter who actively evades shots gives up his own attack that tour.")
    strength_on_ranged = flag(True, "Add the shooter's FOR to the damage of shots (the seed's letter).")
    pain_malus = flag(True, "Grave wound -2D, critique -5D on the fighter's rolls (dk-gone:sante).")
    grave_wound_res_multiple = number(1, "A single wound of at least this many times RES is a blessure grave.", 1, 10)
    critical_wound_res_multiple = number(
        2, "A single wound of at least this many times RES is a blessure critique.", 1, 20
    )
    reload_in_contact = choice(
        ["allowed", "forbidden"],
        "allowed",
        "A shooter in contact may reload his mechanical weapon, splitting his bare-hands POT (MEL + Bagarre) without "
        "attacking, or may not.",
    )
    bouffons = flag(
        False, "The optional Bouffons rule (dk-gone:regles_optionnelles): sheets with a bouffon block are mooks."
    )
    bouffon_initiative = choice(
        ["diff", "last"],
        "diff",
        "A bouffon's INIT is its DIFF (its adresse), or 0: it acts after every fighter with INIT dice.",
    )
    death_threshold = choice(
        ["minus_res", "gm"], "minus_res", "Death at PV <= -RES (dk-gone:sante), or never automatic (the GM decides)."
    )
    pain_beyond_pot = choice(
        ["fights_on", "out"],
        "fights_on",
        "A fighter whose pain is at least his best POT (any weapon, bare hands) fights on, rolling no ATT die, "
        "or is out of the fight (condition incapacitated).",
    )
    auto_end = auto_end()

    @validates_schema
    def _ordered_thresholds(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["critical_wound_res_multiple"] < data["grave_wound_res_multiple"]:
            raise ValidationError(
                refusal("a critique wound cannot need less than a grave one"), "critical_wound_res_multiple"
            )


class Split(Schema):
    init = StrictInt(
        required=True,
        validate=validate.Range(0, 100),
        metadata={"description": "INITiative dice (counted, not rolled)."},
    )
    att = StrictInt(required=True, validate=validate.Range(0, 100), metadata={"description": "ATTaque dice."})
    def_ = StrictInt(
        required=True, data_key="def", validate=validate.Range(0, 100), metadata={"description": "DEFense dice."}
    )

    @post_load
    def _as_sent(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        # "def" is a Python keyword, not a JSON one: keep the client's name in the state and the log.
        return {"init": data["init"], "att": data["att"], "def": data["def_"]}


# Who decides (service/rules/authority.py): the shooter his range and his own pace,
# the game master what he sees of the target and of the scene.
GM_DIFF = refusal(
    "the game master judges the target's situation: \"une difficulté de 3, à laquelle s'ajoute les modificateurs "
    'suivants"'
)


class ShotModifiers(Schema):
    range = fields.String(validate=validate.OneOf(sorted(RANGE_MODIFIERS)), load_default="moyenne")
    cover = fields.String(
        validate=validate.OneOf(sorted(COVER_MODIFIERS)), load_default="none", metadata=gm_decides(GM_DIFF)
    )
    target_movement = fields.String(
        validate=validate.OneOf(sorted(TARGET_MOVEMENT_MODIFIERS)), load_default="normal", metadata=gm_decides(GM_DIFF)
    )
    shooter_pace = fields.String(validate=validate.OneOf(sorted(SHOOTER_PACE_MODIFIERS)), load_default="still")
    modifier = StrictInt(
        validate=validate.Range(-10, 10),
        load_default=0,
        metadata={"description": "The GM's other DIFF modifiers (darkness...).", **gm_decides(GM_DIFF)},
    )


class AllocateAction(ActionBase):
    """A fighter's secret choices for the tour; the tour resolves when the last one arrives."""

    weapon = identifier(
        load_default=None, metadata={"description": "A weapon id of the sheet; default the first (or bare hands)."}
    )
    target = identifier(
        load_default=None, metadata={"description": "Whom the fighter attacks or shoots; none: no attack."}
    )
    split = fields.Nested(
        Split,
        load_default=None,
        metadata={
            "description": "INIT/ATT/DEF adding up to the POT; required unless a shooter faces nobody in contact."
        },
    )
    evade = fields.Boolean(
        load_default=False, metadata={"description": "Actively evade the shots this tour (AGI + Esquive)."}
    )
    reload = fields.Boolean(
        load_default=False, metadata={"description": "Reload the (mechanical) weapon instead of attacking."}
    )
    shot = fields.Nested(
        ShotModifiers, load_default=None, metadata={"description": "Shooting modifiers (a shot at a distance only)."}
    )
    dice_modifier = StrictInt(
        validate=validate.Range(-20, 20),
        load_default=0,
        metadata={
            "description": "Dice the GM adds to (or takes from) this attack or shot: a maneuver, the situation.",
            **gm_decides(
                refusal(
                    "the fighter announces his maneuver (\"les combattants annoncent s'ils souhaitent utiliser une "
                    'manœuvre"); '
                    "the game master rules on the dice it is worth"
                )
            ),
        },
    )
    maneuver = fields.String(
        validate=validate.Length(1, 80), load_default=None, metadata={"description": "Maneuver announced now."}
    )


class ContactAction(ActionBase):
    """GM: two fighters come into contact (melee) or break off, between tours."""

    combatant = identifier(required=True)
    target = identifier(required=True)
    engaged = fields.Boolean(load_default=True)
    reason = fields.String(
        validate=validate.Length(max=200),
        load_default=None,
        metadata={"description": "Why, in the GM's words (shown in the log)."},
    )


class WorsenWoundAction(ActionBase):
    """GM: an untreated wound worsens (grave +1 PV per minute, critique +1 per 10 minutes)."""

    target = identifier(required=True)
    amount = StrictInt(validate=validate.Range(1, 50), load_default=1)
    reason = fields.String(validate=validate.Length(max=200), load_default=None)


COUNT = validate.Range(min=0)


# What new_combatant adds to every combatant's state (published as DarkEarthCombatant; never loaded).
class CombatantState(Schema):
    """The state's own fields besides id, name, side, conditions and sheet."""

    pv = fields.Integer(required=True, metadata={"description": "Health left."})
    pv_max = fields.Integer(required=True)
    wounds = fields.Integer(required=True, validate=COUNT)
    choc = fields.Integer(required=True, validate=COUNT)
    wound_level = fields.String(allow_none=True, required=True, metadata={"description": "null, grave or critique."})
    loaded = fields.Dict(
        keys=fields.String(),
        values=fields.Field(),
        required=True,
        metadata={"description": "Mechanical weapons' load, by weapon id."},
    )


ACTIONS = {"allocate": AllocateAction, "contact": ContactAction, "worsen_wound": WorsenWoundAction}
GM_ACTIONS = frozenset({"contact", "worsen_wound"})  # besides the shared ones (gm/)
