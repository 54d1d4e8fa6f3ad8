"""Space opera d100: the combatant sheet, the combat options and the actions."""

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from ..authority import answered_by, gm_decides
from ..errors import refusal
from ..schemas import (
    ActionBase,
    CombatantBase,
    CommonOptions,
    DiceExpressionField,
    StrictInt,
    auto_end,
    choice,
    flag,
    identifier,
    name,
    number,
)
from .tables import ARMOUR, FUMBLE_TABLES, ITEM_CLASSES, LOCATIONS, WEAPONS

KINDS = ("living", "droid")
MODIFIER = validate.Range(-200, 200)
SKILL_NAME = validate.Length(1, 40)
WEAPON_FIELDS = (
    "name",
    "skill",
    "damage",
    "class",
    "edged",
    "vibro",
    "paralysing",
    "ranged",
    "armour_piercing",
    "stun_bonus",
    "bonus",
)
WEAPON_DEFAULTS = {
    "class": "simple",
    "edged": False,
    "vibro": None,
    "paralysing": False,
    "ranged": False,
    "armour_piercing": 0,
    "stun_bonus": 0,
    "bonus": 0,
}


class Weapon(Schema):
    id = identifier(required=True)
    catalog = fields.String(
        validate=validate.OneOf(sorted(WEAPONS)),
        load_default=None,
        metadata={"description": "Catalog weapon this one is based on; fields given here override it."},
    )
    name = name(load_default=None)
    skill = fields.String(
        validate=SKILL_NAME, load_default=None, metadata={"description": "The sheet skill used to attack with it."}
    )
    damage = DiceExpressionField(load_default=None, metadata={"description": "Damage dice, such as 1d8+1."})
    bonus = StrictInt(
        validate=validate.Range(-50, 50),
        load_default=None,
        metadata={"description": "Weapon bonus to attack and parry."},
    )
    edged = fields.Boolean(load_default=None)
    vibro = DiceExpressionField(load_default=None, metadata={"description": "Extra damage while vibro mode works."})
    paralysing = fields.Boolean(load_default=None)
    ranged = fields.Boolean(load_default=None)
    armour_piercing = StrictInt(validate=validate.Range(0, 50), load_default=None)
    stun_bonus = StrictInt(validate=validate.Range(0, 100), load_default=None)
    weapon_class = fields.String(
        data_key="class",
        attribute="class",
        validate=validate.OneOf(ITEM_CLASSES),
        load_default=None,
        metadata={
            "description": "light / simple / heavy / shield (destroyed at the 1st / 2nd / 3rd / 5th damage step); "
            "natural never breaks."
        },
    )

    @validates_schema
    def _damage_known(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("damage") is None and data.get("catalog") is None:
            raise ValidationError(refusal("give a damage expression or a catalog weapon"), "damage")

    @post_load
    def _merge_catalog(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        base = {**WEAPON_DEFAULTS, **(WEAPONS[data["catalog"]] if data["catalog"] else {})}
        # A catalog weapon the sheet does not name is called, in sentences, by the
        # catalog's name in the combat's language (the "weapon" labels).
        data["named"] = data["name"] is not None or not data["catalog"]
        for key in WEAPON_FIELDS:
            if data.get(key) is None:
                data[key] = base.get(key)
        data["name"] = data["name"] or data["id"]
        data["skill"] = data["skill"] or data["name"]
        return data


class Sheet(CombatantBase):
    kind = fields.String(
        validate=validate.OneOf(KINDS),
        load_default="living",
        metadata={"description": "Droids cannot be stunned and do not faint (CON x 5 tests)."},
    )
    attributes = fields.Dict(
        keys=fields.String(validate=validate.Regexp(r"^[A-Z]{2,4}$")),
        values=StrictInt(validate=validate.Range(0, 30)),
        required=True,
        metadata={"description": "At least DEX and CON."},
    )
    skills = fields.Dict(
        keys=fields.String(validate=SKILL_NAME),
        values=StrictInt(validate=validate.Range(0, 200)),
        load_default=dict,
        metadata={
            "description": "Percentages: Esquive, Bloquer, Arts martiaux and the weapons' skills. A missing skill is 0."
        },
    )
    pv = StrictInt(validate=validate.Range(1, 500), required=True)
    san = StrictInt(validate=validate.Range(0, 200), load_default=None)
    chance = StrictInt(
        validate=validate.Range(0, 200),
        load_default=40,
        metadata={"description": "Chance: moves every fumble roll by -(Chance - 40) / 2."},
    )
    armour = StrictInt(validate=validate.Range(0, 50), load_default=None, metadata={"description": "Armour points."})
    armour_catalog = fields.String(validate=validate.OneOf(sorted(ARMOUR)), load_default=None)
    damage_bonus = DiceExpressionField(
        load_default="0", metadata={"description": "Bonus aux dommages, added to melee damage and parries."}
    )
    max_attacks = StrictInt(
        validate=validate.Range(1, 6),
        load_default=1,
        metadata={"description": "Attacks per round the GM allows (talent or easy weapon)."},
    )
    weapons = fields.List(fields.Nested(Weapon), validate=validate.Length(max=20), load_default=list)

    @validates_schema
    def _check(self, data: dict[str, Any], **kwargs: Any) -> None:
        missing = [a for a in ("DEX", "CON") if a not in data.get("attributes", {})]
        if missing:
            raise ValidationError(refusal("missing attributes: {attributes}", attributes=missing), "attributes")
        ids = [w["id"] for w in data.get("weapons", [])]
        if len(ids) != len(set(ids)):
            raise ValidationError(refusal("weapon ids must be unique"), "weapons")
        if data.get("armour") is not None and data.get("armour_catalog") is not None:
            raise ValidationError(refusal("give armour points or an armour catalog entry, not both"), "armour")

    @post_load
    def _armour_points(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if data["armour"] is None:
            data["armour"] = ARMOUR[data["armour_catalog"] or "none"]["points"]
        return data


class Options(CommonOptions):
    ask_reactions = flag(
        True,
        "Wait for the target's dodge/parry declaration (react) before rolling; false: attacks resolve at once unless a "
        "reaction is inline.",
    )
    high_rolls_always_fumble = flag(
        False, "96-00 is a fumble even under the skill (false: only when it fails, as the seed reads)."
    )
    after_dodge_penalty = choice(
        ["flat", "per_dodge"], "flat", "Actions after a dodge in the round: -20 once (flat) or -20 per dodge made."
    )
    dodge_effects = choice(
        ["seed", "ranged_page"],
        "seed",
        "Dodging a shot: the seed's -40/-60 (as in melee), or the site's ranged page -30/-50.",
    )
    parry_ranged_with = choice(["nothing", "shields", "anything"], "shields", "What may parry a shot.")
    parry_points = choice(
        ["rolled", "average"], "rolled", "Parry points: roll the item's damage, or take its average (rounded down)."
    )
    parry_stops_effects = flag(True, "A successful parry stops a paralysing touch and a disarm.")
    stun_chance_basis = choice(
        ["damage_roll", "after_armour"],
        "damage_roll",
        "Stun % from the damage roll (after parries) or from the damage left after armour.",
    )
    melee_fumble_table = choice(
        [*sorted(FUMBLE_TABLES), "none"],
        "melee_house",
        "Melee fumble table (catalog fumble_tables); none: the GM decides.",
    )
    ranged_fumble_table = choice(
        [*sorted(FUMBLE_TABLES), "none"], "jam", "Shooting fumble table (catalog fumble_tables); none: the GM decides."
    )
    fumble_chance_adjustment = flag(True, "Move fumble rolls by -(Chance - 40) / 2.")
    paralyse_droids = flag(True, "Paralysing weapons work on droids.")
    armed_martial_arts = choice(
        ["edged", "any_melee"],
        "edged",
        "Martial arts with a weapon: a bladed one only (the seed's arme blanche), or any melee weapon (clubs, "
        "shields).",
    )
    ranged_stun_and_disarm = flag(
        False, "Shots may stun or disarm (false: only melee blows do, as the seed's melee page describes them)."
    )
    round_seconds = number(
        None, "Length of a round; when set, timed states (minutes, hours) end by themselves.", 1, 600
    )
    auto_end = auto_end()


# Who decides (service/rules/authority.py): the seed has the attacker choose how he
# attacks, the target announce his dodge or parry; the situational bonuses and
# maluses ("différents bonus et malus possible") and whether an approach went
# unnoticed are the game master's judgement.
GM_MODIFIER = gm_decides(
    'the game master judges the situation: "en prenant en compte des différents bonus et malus possible"'
)


class Reaction(Schema):
    kind = fields.String(validate=validate.OneOf(["dodge", "parry", "none"]), required=True)
    item = identifier(load_default=None, metadata={"description": "Parry: the weapon or shield id."})
    off_hand = fields.Boolean(
        load_default=False, metadata={"description": "Parry with the off hand: -20 (not shields)."}
    )
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )


class AttackAction(ActionBase):
    target = identifier(required=True)
    weapon = identifier(
        load_default="unarmed", metadata={"description": "A weapon id of the actor's sheet, or unarmed (bare hands)."}
    )
    mode = fields.String(validate=validate.OneOf(["kill", "stun", "paralyse", "disarm"]), load_default="kill")
    attacks = StrictInt(
        validate=validate.Range(1, 6),
        load_default=None,
        metadata={"description": "Attacks declared for this round (first attack of the turn)."},
    )
    location = fields.String(
        validate=validate.OneOf(LOCATIONS), load_default=None, metadata={"description": "Called shot: -20."}
    )
    sneak = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Unnoticed: skill x 2, no reaction.",
            **gm_decides(
                'the game master judges whether the approach went unnoticed: "sans que son ennemi s\'en aperçoive"'
            ),
        },
    )
    off_hand = fields.Boolean(load_default=False, metadata={"description": "Off-hand weapon: -20."})
    martial_arts = fields.Boolean(load_default=False, metadata={"description": "Roll Arts martiaux for the damage."})
    vibro = fields.Boolean(
        load_default=True, metadata={"description": "Use the vibro mode if the weapon has a working one."}
    )
    target_weapon = identifier(
        load_default=None,
        metadata={
            "description": "Disarm: a weapon of the target's sheet (default: the one it last used, else its first)."
        },
    )
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )
    reaction = fields.Nested(
        Reaction,
        load_default=None,
        metadata={
            "description": "The target's declaration, inline (from the target's or the GM's token).",
            **answered_by(
                "target",
                "the defender announces it: \"il faut annoncer l'esquive / la parade avant que l'attaque ne soit "
                'portée"',
            ),
        },
    )


class ReactAction(ActionBase):
    kind = fields.String(validate=validate.OneOf(["dodge", "parry", "none"]), required=True)
    item = identifier(load_default=None, metadata={"description": "Parry: the weapon or shield id."})
    off_hand = fields.Boolean(
        load_default=False, metadata={"description": "Parry with the off hand: -20 (not shields)."}
    )
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )


class PassAction(ActionBase):
    description = fields.String(validate=validate.Length(max=200), load_default=None)


class RecoverAction(ActionBase):
    weapon = identifier(required=True, metadata={"description": "Pick up a dropped weapon or work on a jammed one."})


class ClearConditionAction(ActionBase):
    target = identifier(required=True)
    condition = fields.String(validate=validate.Length(1, 40), required=True)
    reason = fields.String(
        validate=validate.Length(max=200),
        load_default=None,
        metadata={"description": "Why, in the GM's words (shown in the log)."},
    )


# What new_combatant adds to every combatant's state (published as SpaceOperaD100Combatant; never loaded).
class CombatantState(Schema):
    """The state's own fields besides id, name, side, conditions and sheet."""

    kind = fields.String(required=True, metadata={"description": "living or droid."})
    pv = fields.Integer(required=True, metadata={"description": "Health left."})
    pv_max = fields.Integer(required=True)
    san = fields.Integer(allow_none=True, required=True, metadata={"description": "Sanity, when the sheet has it."})
    items = fields.Dict(required=True, metadata={"description": "Items in use (a held shield...)."})
    wielding = fields.String(allow_none=True, required=True, metadata={"description": "The weapon id in hand."})
    round = fields.Dict(
        required=True, metadata={"description": "This round: initiative, attacks left, dodges, damage taken."}
    )


ACTIONS = {
    "attack": AttackAction,
    "react": ReactAction,
    "pass": PassAction,
    "recover": RecoverAction,
    "clear_condition": ClearConditionAction,
}
