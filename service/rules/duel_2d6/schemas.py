"""Duel 2D6: the combatant sheet, the combat options and the actions."""

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from ..authority import answered_by, gm_decides
from ..errors import refusal
from ..gm import schemas as gm
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
from .tables import (
    ARMOURS,
    ATTRIBUTES,
    BRAWL,
    DEFENSES,
    DEFENSIVE_ITEMS,
    HANDLINGS,
    HOLD_PARTS,
    LOCATION_NAMES,
    MELEE_ATTACKS,
    RANGED_SHOTS,
    WEAPONS,
)

LEVEL = validate.Range(-5, 10)
MODIFIER = validate.Range(-20, 20)
SKILL_NAME = validate.Length(1, 40)
MANEUVERS = sorted(MELEE_ATTACKS)
SPECIALIZABLE = sorted(set(MELEE_ATTACKS) | set(DEFENSES) | set(RANGED_SHOTS) | {"menacer"})

# Who decides (service/rules/authority.py). The seed names the attacker's and the
# defender's choices; the situational modifiers ("modificateurs éventuels") are the
# game master's, as the judge of the scene.
GM_MODIFIER = gm_decides('the game master judges the situation: "avec modificateurs éventuels"')
GM_COVER = gm_decides(
    'the game master judges the cover: "si la protection qui couvre le défenseur peut être surpassée par les dommages '
    "de l'arme\""
)


class Weapon(Schema):
    id = identifier(required=True)
    catalog = fields.String(
        validate=validate.OneOf(sorted(WEAPONS)),
        load_default=None,
        metadata={"description": "Catalog weapon this one is based on; fields given here override it."},
    )
    name = name(load_default=None)
    skill = fields.String(
        validate=SKILL_NAME, load_default=None, metadata={"description": "Skill used to attack and block with it."}
    )
    damage = DiceExpressionField(load_default=None)
    hit = StrictInt(validate=validate.Range(-5, 5), load_default=None, metadata={"description": "Modifier to hit."})
    kind = fields.String(validate=validate.OneOf(["natural", "melee", "firearm", "bow", "thrown"]), load_default=None)
    handling = fields.String(validate=validate.OneOf(HANDLINGS), load_default=None)
    ammo = StrictInt(
        validate=validate.Range(1, 500), load_default=None, metadata={"description": "Capacity; null = not counted."}
    )
    jams = fields.Boolean(load_default=None)
    automatic = fields.Boolean(load_default=None, metadata={"description": "Fires long bursts (suppression)."})

    @validates_schema
    def _known(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("catalog") is None and (data.get("damage") is None or data.get("kind") is None):
            raise ValidationError(refusal("give a catalog weapon, or a damage expression and a kind"), "catalog")

    @post_load
    def _merge_catalog(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        base = WEAPONS.get(data["catalog"] or "", {})
        merged = {**base, **{k: v for k, v in data.items() if v is not None}}
        # A catalog weapon the sheet does not name is called, in sentences, by the
        # catalog's name in the combat's language (the "weapon_in_sentence" labels).
        merged["named"] = data["name"] is not None or not data["catalog"]
        merged.setdefault("name", data["id"])
        merged.setdefault("hit", 0)
        merged.setdefault("skill", {"natural": BRAWL}.get(merged["kind"], merged["name"]))
        if merged["kind"] not in ("natural", "melee"):
            merged.setdefault("handling", "une_main")
        return merged


class Armour(Schema):
    catalog = fields.String(validate=validate.OneOf(sorted(ARMOURS)), load_default=None)
    name = name(load_default=None)
    ip = StrictInt(validate=validate.Range(0, 30), load_default=None)
    fragments_only = fields.Boolean(
        load_default=None, metadata={"description": "Protects only against explosion fragments (helmet)."}
    )
    encumbers = fields.Boolean(
        load_default=None,
        metadata={
            "description": "Its IP counts for encumbrance (-1 if IP > FOR); default: yes, except a fragments-only "
            "piece (the helmet)."
        },
    )

    @validates_schema
    def _known(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("catalog") is None and data.get("ip") is None:
            raise ValidationError(refusal("give a catalog armour or an IP"), "catalog")

    @post_load
    def _merge_catalog(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        base = ARMOURS.get(data.pop("catalog") or "", {})
        merged = {**base, **{k: v for k, v in data.items() if v is not None}}
        merged.setdefault("name", "armure")
        merged.setdefault("fragments_only", False)
        merged.setdefault("encumbers", not merged["fragments_only"])
        return merged


class Sheet(CombatantBase):
    attributes = fields.Dict(
        keys=fields.String(validate=validate.OneOf(ATTRIBUTES)),
        values=StrictInt(validate=LEVEL),
        required=True,
        metadata={"description": "FOR, DEX, CON and SEN levels (FOR is also the damage bonus)."},
    )
    pv = StrictInt(validate=validate.Range(1, 200), required=True, metadata={"description": "The PV attribute."})
    skills = fields.Dict(
        keys=fields.String(validate=SKILL_NAME),
        values=StrictInt(validate=LEVEL),
        load_default=dict,
        metadata={"description": "Skill levels; a missing skill is at the base (0)."},
    )
    martial_art = fields.String(
        validate=SKILL_NAME,
        load_default=None,
        metadata={"description": "Name of the martial-art skill; without one, * maneuvers roll 2 + Bagarre."},
    )
    specializations = fields.List(
        fields.String(validate=validate.OneOf(SPECIALIZABLE)),
        validate=validate.Length(max=40),
        load_default=list,
        metadata={"description": "Maneuvers with +1 (specialisation)."},
    )
    weapons = fields.List(fields.Nested(Weapon), validate=validate.Length(max=20), load_default=list)
    defensive_item = fields.String(validate=validate.OneOf(sorted(DEFENSIVE_ITEMS)), load_default=None)
    armour = fields.List(fields.Nested(Armour), validate=validate.Length(max=5), load_default=list)
    initiative = fields.String(
        validate=validate.OneOf(["SEN", "DEX", "weapon"]),
        load_default=None,
        metadata={"description": "This combatant's initiative roll; null = the combat option."},
    )
    dodge_skill = fields.String(
        validate=SKILL_NAME,
        load_default=BRAWL,
        metadata={"description": "Skill for dodging shots (Mouvement à couvert, Plongeon, Zigzag)."},
    )

    @validates_schema
    def _core(self, data: dict[str, Any], **kwargs: Any) -> None:
        missing = [a for a in ATTRIBUTES if a not in data.get("attributes", {})]
        if missing:
            raise ValidationError(refusal("missing attributes: {missing}", missing=", ".join(missing)), "attributes")
        ids = [w["id"] for w in data.get("weapons", [])]
        if len(ids) != len(set(ids)):
            raise ValidationError(refusal("weapon ids must be unique"), "weapons")
        art = data.get("martial_art")
        if art is not None and art not in data.get("skills", {}):
            raise ValidationError(refusal("martial_art '{art}' must be one of the skills", art=art), "martial_art")


class Options(CommonOptions):
    initiative_roll = choice(
        ["DEX", "SEN", "weapon"], "DEX", "Initiative roll: 2+DEX, 2+SEN or 7 + the first weapon's skill."
    )
    surprise = fields.List(
        identifier(),
        validate=validate.Length(max=50),
        load_default=list,
        metadata={"description": "Combatants who have surprise: they start as attacker without a roll."},
    )
    hit_location = flag(False, "Optional rule C-5: 2D6 hit location.")
    coup_mortel_rule = flag(False, "Optional rule C-6: +1 damage per -2 to hit.")
    ma_dodge = choice(
        ["no_dd", "avoid"],
        "no_dd",
        "Esquiver MA simple success vs a critical: the blow lands without Dd, or is avoided.",
    )
    failed_counter_keeps_initiative = flag(
        True, "After a failed counter-attack the attacker keeps the initiative even if his blow misses."
    )
    fall_damage = flag(True, "Balayage and Projection deal the attacker's damage.")
    stun_rounds = number(1, "Rounds a stun lasts after the current one.", 1, 10)
    death = choice(["negative", "zero"], "negative", "Dead below 0 PV (0 = out of the fight), or already at 0.")
    auto_end = auto_end()


class Counter(Schema):
    maneuver = fields.String(validate=validate.OneOf(MANEUVERS), load_default="coup_simple")
    weapon = identifier(load_default="poing")
    part = fields.String(validate=validate.OneOf(sorted(HOLD_PARTS)), load_default=None)
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )
    distance = StrictInt(
        validate=validate.Range(0, 100000), load_default=None, metadata={"description": "Shooting back: metres."}
    )


class DefenseFields(Schema):
    defense = fields.String(validate=validate.OneOf(sorted(DEFENSES)), required=True)
    using = identifier(
        load_default=None, metadata={"description": "Bloquer with this weapon id or defensive item; null = bare hands."}
    )
    counter = fields.Nested(
        Counter, load_default=None, metadata={"description": "The counter-attack, for contre_attaque."}
    )
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )
    skill = fields.String(
        validate=SKILL_NAME, load_default=None, metadata={"description": "Overrides the skill of a shot dodge."}
    )
    cover_ip = StrictInt(
        validate=validate.Range(0, 30),
        load_default=None,
        metadata={"description": "Couvert: IP of a cover the weapon can pierce; null = it cannot.", **GM_COVER},
    )
    blind_modifier = StrictInt(
        validate=validate.Range(-10, 0),
        load_default=-4,
        metadata={
            "description": "Couvert: the shooter's malus when the cover can be pierced (-3 to -5).",
            **gm_decides('the game master sets it: "entre -3 et -5 en général, si il peut deviner où il se trouve"'),
        },
    )
    second_defense = fields.String(
        validate=validate.OneOf(sorted(DEFENSES)),
        load_default=None,
        metadata={"description": "Defense against the second blow of a Double Manoeuvre."},
    )

    @validates_schema
    def _counter(self, data: dict[str, Any], **kwargs: Any) -> None:
        if (data.get("defense") == "contre_attaque") != (data.get("counter") is not None):
            raise ValidationError(refusal("give counter exactly when the defense is contre_attaque"), "counter")


class DefenseDeclaration(DefenseFields):
    """The defender's declaration sent inline with an attack."""


class Second(Schema):
    maneuver = fields.String(validate=validate.OneOf(MANEUVERS), required=True)
    weapon = identifier(load_default="poing")
    part = fields.String(validate=validate.OneOf(sorted(HOLD_PARTS)), load_default=None)


class Aimed(Schema):
    target = identifier(required=True)
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )
    coup_mortel_steps = StrictInt(
        validate=validate.Range(0, 5),
        load_default=0,
        metadata={"description": "Optional rule C-6: each step is -2 to hit and +1 damage."},
    )
    aim = fields.String(
        validate=validate.OneOf(sorted(LOCATION_NAMES)),
        load_default=None,
        metadata={"description": "Hit location sought (shifts the location roll by up to the skill level)."},
    )
    defense = fields.Nested(
        DefenseDeclaration,
        load_default=None,
        metadata={
            "description": "The defender's declaration, inline (from the defender's or the GM's token).",
            **answered_by("target", 'the defender chooses: "puis le défenseur décide du type de défense"'),
        },
    )


class AttackAction(ActionBase, Aimed):
    maneuver = fields.String(validate=validate.OneOf(MANEUVERS), load_default="coup_simple")
    weapon = identifier(load_default="poing", metadata={"description": "A weapon id of the sheet, or poing/pied."})
    part = fields.String(
        validate=validate.OneOf(sorted(HOLD_PARTS)),
        load_default=None,
        metadata={"description": "Prise: tete, corps or membre."},
    )
    second = fields.Nested(
        Second, load_default=None, metadata={"description": "Double Manoeuvre: the second maneuver."}
    )


class ShootAction(ActionBase, Aimed):
    shot = fields.String(validate=validate.OneOf(sorted(RANGED_SHOTS)), load_default="tir_simple")
    weapon = identifier(required=True)
    distance = StrictInt(
        validate=validate.Range(0, 100000), required=True, metadata={"description": "Metres to the target."}
    )
    cover = StrictInt(
        validate=validate.Range(1, 10), load_default=None, metadata={"description": "Tir à couvert: the malus (1-10)."}
    )
    zone_width = StrictInt(
        validate=validate.Range(1, 200),
        load_default=None,
        metadata={"description": "Tir de suppression: metres covered."},
    )
    zone = fields.List(
        identifier(),
        validate=validate.Length(max=50),
        load_default=list,
        metadata={"description": "Tir de suppression: combatants in the covered zone."},
    )
    bursts = StrictInt(
        validate=validate.Range(1, 10), load_default=1, metadata={"description": "Tir de suppression: bursts fired."}
    )
    fragments = fields.Boolean(load_default=False, metadata={"description": "Explosion fragments (a helmet protects)."})


class ThreatenAction(ActionBase):
    target = identifier(required=True)
    weapon = identifier(load_default="poing")
    distance = StrictInt(
        validate=validate.Range(0, 100000), load_default=None, metadata={"description": "Metres, with a ranged weapon."}
    )
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )


class DefendAction(ActionBase, DefenseFields):
    face = fields.List(
        identifier(),
        validate=validate.Length(min=1, max=50),
        load_default=None,
        metadata={
            "description": "Opponents to face from now on (E-5), chosen with this defense; must include the attacker "
            "(at most DEX)."
        },
    )


class CounterAction(ActionBase, Counter):
    """The threatened combatant tries to get out of a Menacer."""


class JoinAction(gm.JoinAction):
    """A player: his free fighter engages an opponent (interruption roll). The GM: a newcomer enters."""

    target = identifier(
        load_default=None, metadata={"description": "The opponent the newcomer engages (a player's join)."}
    )
    combatant = fields.Dict(
        load_default=None,
        metadata={
            "description": "The newcomer's sheet (the GM's join).",
            **gm_decides("the game master brings newcomers into the fight"),
        },
    )

    @validates_schema
    def _one_of_the_two(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("actor") == "gm" and data.get("combatant") is None:
            raise ValidationError(refusal("the GM's join brings a newcomer: give its sheet"), "combatant")
        if data.get("actor") != "gm" and data.get("target") is None:
            raise ValidationError(refusal("a fighter joins against an opponent: give the target"), "target")


class FaceAction(ActionBase):
    opponents = fields.List(
        identifier(),
        required=True,
        validate=validate.Length(min=1, max=50),
        metadata={"description": "Opponents this combatant attacks and defends against (at most DEX)."},
    )


class PassAction(ActionBase):
    target = identifier(load_default=None, metadata={"description": "End the exchange with this opponent only."})
    description = fields.String(validate=validate.Length(max=200), load_default=None)


class ReloadAction(ActionBase):
    weapon = identifier(required=True)


class BreakFreeAction(ActionBase):
    method = fields.String(validate=validate.OneOf(["degagement", "jet_for"]), load_default="degagement")
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )


class AdjustAction(gm.AdjustAction):
    """Game master: the shared set/change, and this ruleset's older shortcuts (pv, remove, initiative)."""

    pv = StrictInt(validate=validate.Range(-200, 200), load_default=None)
    remove = fields.List(
        fields.String(validate=validate.Length(1, 30)),
        load_default=list,
        metadata={"description": "Condition codes to remove (prone, stunned...)."},
    )
    initiative_against = identifier(
        load_default=None, metadata={"description": "Give the target the initiative against this opponent."}
    )


COUNT = validate.Range(min=0)


# What new_combatant adds to every combatant's state (published as Duel2d6Combatant; never loaded).
class CombatantState(Schema):
    """The state's own fields besides id, name, side, conditions and sheet."""

    pv = fields.Integer(required=True, metadata={"description": "Health left."})
    pv_max = fields.Integer(required=True)
    wound = fields.String(
        required=True, metadata={"description": "The worst wound: aucune, egratignure, legere or grave."}
    )
    malus = fields.Integer(
        required=True, metadata={"description": "The wounds' malus on the combatant's rolls (0 or less)."}
    )
    facing = fields.List(
        fields.String(), required=True, metadata={"description": "The opponents this combatant is in a duel with."}
    )
    last_dive_round = fields.Integer(allow_none=True, required=True)
    ammo = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(validate=COUNT),
        required=True,
        metadata={"description": "Shots left, by weapon id."},
    )
    jammed = fields.List(fields.String(), required=True, metadata={"description": "Ids of jammed weapons."})
    dropped = fields.List(fields.String(), required=True, metadata={"description": "Ids of dropped weapons."})


ACTIONS = {
    "attack": AttackAction,
    "shoot": ShootAction,
    "threaten": ThreatenAction,
    "defend": DefendAction,
    "counter": CounterAction,
    "join": JoinAction,
    "face": FaceAction,
    "pass": PassAction,
    "reload": ReloadAction,
    "break_free": BreakFreeAction,
    "adjust": AdjustAction,
}
