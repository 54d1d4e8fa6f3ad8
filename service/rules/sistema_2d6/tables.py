"""Sistema +2d6 tables, as data (seed 004 and its source, nerun/sistema2d6)."""

from typing import Any

from ..dice import DiceExpression

# Seed: "DES 3 - bônus de iniciativa +1, DES 4 - +2, DES 5 - +3, etc."; the
# source's table goes on non-linearly from DES 6 (rules-notes 5.2).
INITIATIVE_BONUS = {3: 1, 4: 2, 5: 3, 6: 6, 7: 8, 8: 10, 9: 12, 10: 14}

# Source: melee damage by FOR. FOR 0 is below the table; the seed's lowest
# damage, 1d6-5, is used for it (docs/rules/sistema-2d6.md, gap G4).
FOR_DAMAGE = {
    0: DiceExpression(1, 6, -5),
    1: DiceExpression(1, 6, -4),
    2: DiceExpression(1, 6, -2),
    3: DiceExpression(1, 6, 0),
    4: DiceExpression(1, 6, 1),
    5: DiceExpression(1, 6, 2),
    6: DiceExpression(3, 6, 0),
    7: DiceExpression(4, 6, 0),
    8: DiceExpression(5, 6, 0),
    9: DiceExpression(6, 6, 0),
    10: DiceExpression(7, 6, 0),
}

# Seed, "Soco 1d6 (dano de FOR 1)": FOR 1 hits for 1d6 where the source's table
# says 1d6-4. The seed's reading (option for_damage "seed") keeps the source's
# scale and moves it up by the difference, so every FOR reads its row + 4
# (docs/rules/sistema-2d6.md, gap G3).
SEED_FOR_DAMAGE_SHIFT = 4

# Seed, "Dano Localizado": the GM's suggested penalties per location.
LOCATION_PENALTIES = {
    "eye": -6,
    "ear": -6,
    "finger": -6,
    "head": -4,
    "neck": -4,
    "ankle": -4,
    "shoulder": -2,
    "leg": -2,
    "arm": -2,
}

# Source: difficulty classes (CD) by name, for clients building menus.
DIFFICULTIES = {"facil": 8, "normal": 10, "dificil": 14, "impossivel": 15}

# Source (2_criacao_pcs, CON table): extra PV for a high CON, superhuman levels included.
EXTRA_PV_BY_CON = {3: 5, 4: 10, 5: 15, 6: 20, 7: 30, 8: 40, 9: 50, 10: 60}

# Source (7_equipamentos, "Precisão"): "o valor máximo do bônus total de modificadores será sempre +5".
BONUS_CAP = 5
ATTRIBUTES_REQUIRED = ("FOR", "DES", "CON")
DEATH_TEST_TARGET = 6
DEATH_TEST_STABILISES = 12
DEATH_TEST_FAILURES_TO_DIE = 3
BURST_PENALTY = -4
BURST_HITS = DiceExpression(1, 6, -3)

DAMAGE_TYPES = ("contundente", "corte", "perfuracao", "balistico", "explosao", "acido", "fogo", "energia")

# Seed, "Exemplos de dano" and "Exemplos de Redução de Dano". "FOR+N" means
# the FOR damage table plus N (the seed's punch and kick; rules-notes 5.2).
CATALOG: dict[str, Any] = {
    "weapons": {
        "soco": {"name": "Soco", "damage": "FOR+0", "damage_type": "contundente", "skill": "Briga"},
        "chute": {"name": "Chute", "damage": "FOR+1", "damage_type": "contundente", "skill": "Briga"},
        "tiro": {"name": "Tiro", "damage": "1d6+3", "damage_type": "balistico", "skill": "Armas de Fogo"},
        "escopeta": {"name": "Escopeta", "damage": "2d6+4", "damage_type": "balistico", "skill": "Armas de Fogo"},
        "serra_eletrica": {
            "name": "Serra Elétrica",
            "damage": "3d6+3",
            "damage_type": "corte",
            "skill": "Armas Brancas",
        },
        "dinamite": {"name": "Dinamite", "damage": "4d6+4", "damage_type": "explosao", "skill": "Arremesso"},
        "bazuca": {"name": "Bazuca", "damage": "5d6+6", "damage_type": "explosao", "skill": "Armas Pesadas"},
    },
    "armor": {
        "colete_balas": {"name": "Colete à prova de balas", "rd": {"balistico": 3}},
        "campo_de_forca": {"name": "Poder de Campo de Força", "rd": {"*": 4}},
        "armadura_aco": {"name": "Armadura Medieval Completa de Aço", "rd": {"corte": 4}},
    },
    "initiative_bonus": {str(k): v for k, v in INITIATIVE_BONUS.items()},
    "for_damage": {str(k): str(v) for k, v in FOR_DAMAGE.items()},
    "for_damage_seed": {str(k): str(v.plus(SEED_FOR_DAMAGE_SHIFT)) for k, v in FOR_DAMAGE.items()},
    "location_penalties": LOCATION_PENALTIES,
    "difficulties": DIFFICULTIES,
    "damage_types": list(DAMAGE_TYPES),
}
