"""Property: the prompts and the legal-actions listing match what the engine accepts, for every ruleset.

From each ruleset's example fight (and fights with more weapons and fighters
where the example leaves rules unexercised), hypothesis plays random listed
actions (a combatant's or the GM's), for every ruleset's players and GM. At
every step:

- ``/options`` lists something for a combatant exactly when ``awaiting``
  names it, and exactly the action types ``awaiting`` gives it;
- every awaited action type, built from parameters ``/options`` lists, is
  accepted (no RulesError, no invalid field);
- an action type that is not listed for a combatant, built with its required
  fields, is refused with a RulesError;
- once at most one side stands, the game master is awaited (last), to end the fight.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from melee_testing.listing import walk
from service.rules.engine import create_combat

STEPS = 12


def _dark_earth_armoury() -> dict:
    """Kael with a sword, a bow and a crossbow (shots at a distance, in contact, reloads), not yet in contact."""
    from ..dark_earth.fixtures import goule, kael

    return {"ruleset": "dark-earth", "combatants": [kael(), goule(), goule(id="goule2", name="Goule 2")]}


def _dark_earth_bouffons() -> dict:
    """Kael against two bouffons (the optional rule), one of them in contact."""
    from ..dark_earth.fixtures import kael

    bouffons = [
        {
            "id": f"brigand{n}",
            "name": f"Brigand {n}",
            "side": "ombres",
            "bouffon": {"diff": n + 1, "damage": 3, "defense": n},
        }
        for n in (1, 2)
    ]
    return {
        "ruleset": "dark-earth",
        "combatants": [kael(contact_with=["brigand1"]), *bouffons],
        "options": {"bouffons": True},
    }


def _space_opera_armoury() -> dict:
    """Kira's seven weapons (stun, paralyse, shots, shields) against a guard and a droid."""
    from ..space_opera_d100.fixtures import garde, kira

    droid = garde(id="droide", name="Droïde", kind="droid")
    return {"ruleset": "space-opera-d100", "combatants": [kira(), garde(), droid], "options": {"auto_end": True}}


def _age_du_silicium_trio() -> dict:
    """Three fighters, two actions a round, martial training (maneuvers), a burst weapon, a Calme test."""
    from ..age_du_silicium.fixtures import ana, bob, cy

    smg = {"id": "smg", "kind": "ranged", "skill": "Armes de poing", "damage": 6, "burst": True}
    return {
        "ruleset": "age-du-silicium",
        "combatants": [
            ana(actions=2, skill_levels={"Bagarre": 1, "Armes tranchantes": 1}),
            bob(weapons=[smg]),
            cy(calme=5),
        ],
    }


def _duel_armoury() -> dict:
    """Three fighters (one free), guns with ammunition and an automatic, a chain,
    a shield, martial arts, optional rules on."""
    from ..duel_2d6.fixtures import ana, bob, sheet

    guns = [
        {"id": "pistolet", "catalog": "pistolet_9mm"},
        {"id": "fusil", "catalog": "fusil_assaut"},
        {"id": "shuriken", "catalog": "shuriken"},
        {"id": "epee", "catalog": "epee_courte"},
    ]
    fighter = {
        "skills": {"Bagarre": 2, "Karaté": 2},
        "martial_art": "Karaté",
        "defensive_item": "bouclier_petit",
        "weapons": [{"id": "chaine", "catalog": "chaine"}, {"id": "dague", "catalog": "dague"}],
    }
    return {
        "ruleset": "duel-2d6",
        "combatants": [ana(weapons=guns, pv=12), bob(**fighter, pv=12), sheet("cy", "villains", pv=12)],
        "options": {"hit_location": True, "coup_mortel_rule": True},
    }


# Fights besides each ruleset's example (the ruleset kit walks the examples, tests/kit/),
# where the example leaves rules unexercised.
MORE_FIGHTS = {
    "age-du-silicium trio": _age_du_silicium_trio,
    "dark-earth armoury": _dark_earth_armoury,
    "dark-earth bouffons": _dark_earth_bouffons,
    "duel-2d6 armoury": _duel_armoury,
    "space-opera-d100 armoury": _space_opera_armoury,
}
FIGHTS = sorted(MORE_FIGHTS)


def _fight(fight: str) -> dict:
    body = MORE_FIGHTS[fight]()
    state, _ = create_combat(body, combat_id="prop", seed=11)
    return state


@pytest.mark.parametrize("fight", FIGHTS)
# No "explain" phase: replaying a whole fight per explanation is slow and adds nothing here.
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
)
@given(data=st.data())
def test_listed_actions_are_accepted_and_unlisted_refused(fight, data):
    walk(data, _fight(fight), STEPS)
