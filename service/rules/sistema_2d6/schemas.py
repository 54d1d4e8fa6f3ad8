"""Sistema +2d6: the combatant sheet, the combat options and the actions."""

import re
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
)
from .tables import ATTRIBUTES_REQUIRED, CATALOG, LOCATION_PENALTIES

ATTRIBUTE = validate.Regexp(r"^[A-Z]{2,4}$", error="attributes are 2-4 capital letters, such as FOR or DES")
FOR_DAMAGE_PATTERN = re.compile(r"^FOR(?:([+-])(\d{1,2}))?$")
MODIFIER = validate.Range(-20, 20)

# Who decides (service/rules/authority.py), in the seed's words.
GM_MODIFIER = gm_decides(
    'the game master sets the situational modifier: "o mestre define a penalidade (modificador de ocasião)"'
)
GM_DIFFICULTY = gm_decides('the game master sets the difficulty: "contra uma dificuldade determinada pelo mestre"')


def is_damage(text: str) -> bool:
    return bool(FOR_DAMAGE_PATTERN.match(text))


class DamageField(DiceExpressionField):
    """A dice expression, or ``FOR+N``: the FOR damage table plus N."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and is_damage(value.strip()):
            return value.strip()
        return super()._deserialize(value, attr, data, **kwargs)


class Weapon(Schema):
    id = identifier(required=True)
    catalog = fields.String(
        validate=validate.OneOf(sorted(CATALOG["weapons"])),
        load_default=None,
        metadata={"description": "Catalog weapon this one is based on; fields given here override it."},
    )
    name = name(load_default=None)
    skill = fields.String(validate=validate.Length(1, 40), load_default=None)
    attribute = fields.String(validate=ATTRIBUTE, load_default="DES")
    precision = StrictInt(validate=validate.Range(-5, 5), load_default=0)
    damage = DamageField(load_default=None, metadata={"description": "1d6+3, 2d6, FOR+2 (FOR damage table + 2)..."})
    damage_type = fields.String(validate=validate.Length(1, 30), load_default=None)
    lethal = fields.Boolean(load_default=True)
    automatic = fields.Boolean(load_default=False, metadata={"description": "May fire bursts (optional rule)."})

    @validates_schema
    def _damage_known(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("damage") is None and data.get("catalog") is None:
            raise ValidationError(refusal("give a damage expression or a catalog weapon"), "damage")

    @post_load
    def _merge_catalog(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        base = CATALOG["weapons"].get(data["catalog"], {}) if data["catalog"] else {}
        # A catalog weapon the sheet does not name is called, in sentences, by the
        # catalog's name in the combat's language (the "weapon_in_sentence" labels).
        data["named"] = data["name"] is not None or not data["catalog"]
        for key in ("name", "skill", "damage", "damage_type"):
            if data[key] is None:
                data[key] = base.get(key)
        data["name"] = data["name"] or data["id"]
        data["damage_type"] = data["damage_type"] or "contundente"
        return data


class Armor(Schema):
    catalog = fields.String(validate=validate.OneOf(sorted(CATALOG["armor"])), load_default=None)
    name = name(load_default=None)
    rd = fields.Dict(
        keys=fields.String(validate=validate.Length(1, 30)),
        values=StrictInt(validate=validate.Range(0, 50)),
        load_default=None,
        metadata={"description": "Damage reduction by damage type; the key '*' stops every type."},
    )

    @post_load
    def _merge_catalog(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        base = CATALOG["armor"].get(data["catalog"], {}) if data["catalog"] else {}
        data["name"] = data["name"] or base.get("name") or "armor"
        data["rd"] = data["rd"] if data["rd"] is not None else dict(base.get("rd", {}))
        return data


class Sheet(CombatantBase):
    attributes = fields.Dict(
        keys=fields.String(validate=ATTRIBUTE),
        values=StrictInt(validate=validate.Range(0, 10)),
        required=True,
        metadata={"description": "At least FOR, DES and CON (0-5 human, 6-10 superhuman)."},
    )
    skills = fields.Dict(
        keys=fields.String(validate=validate.Length(1, 40)),
        values=StrictInt(validate=validate.Range(0, 10)),
        load_default=dict,
    )
    pv = StrictInt(
        validate=validate.Range(1, 500),
        load_default=None,
        metadata={"description": "Maximum PV; default from the options' formula."},
    )
    weapons = fields.List(fields.Nested(Weapon), validate=validate.Length(max=20), load_default=list)
    armor = fields.Nested(Armor, load_default=None)
    defense_skill = fields.String(
        validate=validate.Length(1, 40),
        load_default=None,
        metadata={"description": "Skill used for active defense when the defender names none (DES + skill)."},
    )

    @validates_schema
    def _core_attributes(self, data: dict[str, Any], **kwargs: Any) -> None:
        missing = [a for a in ATTRIBUTES_REQUIRED if a not in data.get("attributes", {})]
        if missing:
            raise ValidationError(refusal("missing attributes: {attributes}", attributes=missing), "attributes")
        ids = [w["id"] for w in data.get("weapons", [])]
        if len(ids) != len(set(ids)):
            raise ValidationError(refusal("weapon ids must be unique"), "weapons")


class Options(CommonOptions):
    death_threshold = choice(
        ["realistic", "heroic"], "realistic", "Instant death at PV <= -(CON+FOR) (realistic) or -(CON+FOR+10) (heroic)."
    )
    death_tests_at_zero = flag(True, "A character at exactly 0 PV is dying (true) or only unconscious (false).")
    critical_rolls = flag(True, "6+6 succeeds and doubles damage, 1+1 fails (source rule).")
    opposed_tie = choice(["defender", "attacker"], "defender", "Who wins an opposed test with equal totals.")
    pv_formula = choice(
        ["standard", "action"],
        "standard",
        "Default PV: 10 + CON + FOR (standard) or 20 + CON + FOR (action games), + extra PV for CON 3-10.",
    )
    for_damage = choice(
        ["seed", "source"],
        "seed",
        "FOR damage: the seed's (FOR 1 punches 1d6: the source's row + 4) or the source book's table (FOR 1 = 1d6-4).",
    )
    bonus_cap = choice(
        ["total", "precision"],
        "total",
        "The source's +5 ceiling: on the sum of a roll's bonuses (precision, GM...), or on the precision alone.",
    )
    initiative_each_round = flag(False, "Reroll initiative every round.")
    automatic_fire = flag(True, "Allow bursts from automatic weapons.")
    auto_end = auto_end()


class DefenseRoll(Schema):
    skill = fields.String(validate=validate.Length(1, 40), load_default=None)
    attribute = fields.String(validate=ATTRIBUTE, load_default="DES")
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )


class AttackAction(ActionBase):
    target = identifier(required=True)
    weapon = identifier(
        load_default="soco", metadata={"description": "A weapon id of the actor's sheet, or a catalog weapon."}
    )
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )
    location = fields.String(
        validate=validate.Length(1, 40),
        load_default=None,
        metadata={
            "description": "Localized damage: the area the attacker aims at, one of the seed's suggestions ("
            + ", ".join(f"{area} {penalty}" for area, penalty in LOCATION_PENALTIES.items())
            + ") or any other, whose penalty the GM sets (location_penalty)."
        },
    )
    location_penalty = StrictInt(
        validate=validate.Range(-10, 0),
        load_default=None,
        metadata={
            "description": "The penalty of the aimed area: needed for an area the seed does not suggest, "
            "and replaces a suggestion's.",
            **gm_decides(
                'the game master sets the penalty of the area: "o mestre define a penalidade (modificador de '
                'ocasião) do atacante, dependendo da dificuldade do local específico do ataque"'
            ),
        },
    )
    condition = fields.String(
        validate=validate.Length(1, 60),
        load_default=None,
        metadata={
            "description": "Condition tag a localized hit inflicts (blind, limping...).",
            **gm_decides(
                'the game master narrates what a localized hit does: "o mestre define narrativamente qual foi a '
                'consequência do ataque"'
            ),
        },
    )
    difficulty = StrictInt(
        validate=validate.Range(2, 40),
        load_default=None,
        metadata={
            "description": "Passive defense: the CD the GM sets.",
            **gm_decides(
                'the game master sets the difficulty when the target cannot defend: "o Mestre determina a dificuldade '
                'de acertar"'
            ),
        },
    )
    defense = fields.Nested(
        DefenseRoll,
        load_default=None,
        metadata={
            "description": "The defender's active defense, inline (from the defender's or the GM's token).",
            **answered_by(
                "target", 'the defender rolls the defense: "se um personagem puder se defender, rola o teste oposto"'
            ),
        },
    )
    burst = fields.Boolean(load_default=False, metadata={"description": "Automatic fire: -4, 1d6-3 hits (min 1)."})
    lethal = fields.Boolean(
        load_default=None,
        metadata={
            "description": "Override the weapon's lethality (the GM decides).",
            **gm_decides('the game master decides: "o dano pode ser Letal ou Não-Letal, determinado pelo Mestre"'),
        },
    )


class DefendAction(ActionBase):
    skill = fields.String(validate=validate.Length(1, 40), load_default=None)
    attribute = fields.String(validate=ATTRIBUTE, load_default="DES")
    modifier = StrictInt(
        validate=MODIFIER, load_default=0, metadata={"description": "GM's situational modifier.", **GM_MODIFIER}
    )
    difficulty = StrictInt(
        validate=validate.Range(2, 40),
        load_default=None,
        metadata={"description": "The defender cannot defend: the GM's CD.", **GM_DIFFICULTY},
    )


class DeathTestAction(ActionBase):
    pass


class StabilizeAction(ActionBase):
    target = identifier(required=True)
    skill = fields.String(validate=validate.Length(1, 40), load_default=None)
    attribute = fields.String(validate=ATTRIBUTE, load_default="INT")
    difficulty = StrictInt(validate=validate.Range(2, 40), required=True, metadata=GM_DIFFICULTY)
    modifier = StrictInt(validate=MODIFIER, load_default=0, metadata=GM_MODIFIER)


class SkillTestAction(ActionBase):
    attribute = fields.String(validate=ATTRIBUTE, required=True)
    skill = fields.String(validate=validate.Length(1, 40), load_default=None)
    difficulty = StrictInt(validate=validate.Range(2, 40), required=True, metadata=GM_DIFFICULTY)
    modifier = StrictInt(validate=MODIFIER, load_default=0, metadata=GM_MODIFIER)
    description = fields.String(validate=validate.Length(max=200), load_default=None)


class PassAction(ActionBase):
    description = fields.String(validate=validate.Length(max=200), load_default=None)


COUNT = validate.Range(min=0)


# What new_combatant adds to every combatant's state (published as Sistema2d6Combatant; never loaded).
class CombatantState(Schema):
    """The state's own fields besides id, name, side, conditions and sheet."""

    pv = fields.Integer(required=True, metadata={"description": "Health left; 0 or less: dying or dead."})
    pv_max = fields.Integer(required=True)
    death_failures = fields.Integer(required=True, validate=COUNT)
    initiative = fields.Integer(allow_none=True, required=True)


ACTIONS = {
    "attack": AttackAction,
    "defend": DefendAction,
    "death_test": DeathTestAction,
    "stabilize": StabilizeAction,
    "test": SkillTestAction,
    "pass": PassAction,
}
