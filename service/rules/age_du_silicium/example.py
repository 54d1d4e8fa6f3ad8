"""A short fight that plays: both keep their Calme, declare, and shoot it out."""

EXAMPLE = {
    "combat": {
        "ruleset": "age-du-silicium",
        "lang": "fr",
        "seed": 2077,
        # Calme tests, in sheet order: Ana 20 <= 60, Krieg 30 <= 50.
        "dice": [20, 30],
        "combatants": [
            {
                "id": "ana",
                "name": "Ana",
                "side": "runners",
                "initiative": 60,
                "vigilance": 55,
                "calme": 60,
                "endurance": 3,
                "blessures": 18,
                "skills": {"Armes de poing": 60, "Esquive": 40, "Bagarre": 30},
                "weapons": [
                    {
                        "id": "pistolet",
                        "name": "Pistolet lourd",
                        "kind": "ranged",
                        "skill": "Armes de poing",
                        "damage": 8,
                    }
                ],
                "armor": {"*": {"energy": 1, "ballistic": 2, "impact": 1}},
            },
            {
                "id": "krieg",
                "name": "Krieg",
                "side": "corpo",
                "initiative": 45,
                "vigilance": 40,
                "calme": 50,
                "experience": "hardened",
                "endurance": 4,
                "blessures": 20,
                "skills": {"Armes tranchantes": 55, "Esquive": 30, "Bagarre": 50},
                "weapons": [
                    {"id": "lame", "name": "Lame mono", "kind": "melee", "skill": "Armes tranchantes", "damage": 7}
                ],
                "armor": {"torso": {"energy": 2, "ballistic": 3, "impact": 2}},
            },
        ],
    },
    "actions": [
        # Declarations in increasing Initiative: Krieg (45), then Ana (60).
        {"type": "declare", "actor": "krieg", "actions": [{"kind": "attack", "target": "ana"}]},
        {"type": "declare", "actor": "ana", "actions": [{"kind": "attack", "target": "krieg"}]},
        # Resolution in decreasing Initiative: Ana first. 25 <= 60 hits; d10 3 = torso;
        # wound 8 - (4 + 3) + 4 = 5.
        {"type": "attack", "actor": "ana", "target": "krieg", "range": "short", "dice": [25, 3, 4]},
        # Krieg: 80 > 55 misses.
        {"type": "attack", "actor": "krieg", "target": "ana", "dice": [80]},
    ],
}
