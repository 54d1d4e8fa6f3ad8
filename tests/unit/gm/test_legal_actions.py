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
from marshmallow import ValidationError

from service.rules.ending import decided
from service.rules.engine import apply_action, create_combat
from service.rules.errors import RulesError
from service.rules.gm.legal import describe
from service.rules.registry import RULESETS, get_ruleset
from service.rules.viewer import GM_VIEWER, Viewer

from .build import draw_action, instantiable, value_strategy

STEPS = 12


def _dark_earth_armoury() -> dict:
    """Kael with a sword, a bow and a crossbow (shots at a distance, in contact, reloads), not yet in contact."""
    from ..dark_earth.fixtures import goule, kael

    return {"ruleset": "dark-earth", "combatants": [kael(), goule(), goule(id="goule2", name="Goule 2")]}


def _dark_earth_bouffons() -> dict:
    """Kael against two bouffons (the optional rule), one of them in contact."""
    from ..dark_earth.fixtures import kael

    bouffons = [{"id": f"brigand{n}", "name": f"Brigand {n}", "side": "ombres", "bouffon": {"diff": n + 1, "damage": 3, "defense": n}}
                for n in (1, 2)]
    return {"ruleset": "dark-earth", "combatants": [kael(contact_with=["brigand1"]), *bouffons], "options": {"bouffons": True}}


def _space_opera_armoury() -> dict:
    """Kira's seven weapons (stun, paralyse, shots, shields) against a guard and a droid."""
    from ..space_opera_d100.fixtures import garde, kira

    droid = garde(id="droide", name="Droïde", kind="droid")
    return {"ruleset": "space-opera-d100", "combatants": [kira(), garde(), droid], "options": {"auto_end": True}}


def _age_du_silicium_trio() -> dict:
    """Three fighters, two actions a round, martial training (maneuvers), a burst weapon, a Calme test."""
    from ..age_du_silicium.fixtures import ana, bob, cy

    smg = {"id": "smg", "kind": "ranged", "skill": "Armes de poing", "damage": 6, "burst": True}
    return {"ruleset": "age-du-silicium", "combatants": [
        ana(actions=2, skill_levels={"Bagarre": 1, "Armes tranchantes": 1}), bob(weapons=[smg]), cy(calme=5)]}


def _duel_armoury() -> dict:
    """Three fighters (one free), guns with ammunition and an automatic, a chain, a shield, martial arts, optional rules on."""
    from ..duel_2d6.fixtures import ana, bob, sheet

    guns = [{"id": "pistolet", "catalog": "pistolet_9mm"}, {"id": "fusil", "catalog": "fusil_assaut"},
            {"id": "shuriken", "catalog": "shuriken"}, {"id": "epee", "catalog": "epee_courte"}]
    fighter = {"skills": {"Bagarre": 2, "Karaté": 2}, "martial_art": "Karaté", "defensive_item": "bouclier_petit",
               "weapons": [{"id": "chaine", "catalog": "chaine"}, {"id": "dague", "catalog": "dague"}]}
    return {"ruleset": "duel-2d6", "combatants": [ana(weapons=guns, pv=12), bob(**fighter, pv=12), sheet("cy", "villains", pv=12)],
            "options": {"hit_location": True, "coup_mortel_rule": True}}


# Fights besides each ruleset's example, where the example leaves rules unexercised.
MORE_FIGHTS = {
    "age-du-silicium trio": _age_du_silicium_trio,
    "dark-earth armoury": _dark_earth_armoury,
    "dark-earth bouffons": _dark_earth_bouffons,
    "duel-2d6 armoury": _duel_armoury,
    "space-opera-d100 armoury": _space_opera_armoury,
}
FIGHTS = sorted(RULESETS) + sorted(MORE_FIGHTS)


def _fight(fight: str) -> dict:
    body = MORE_FIGHTS[fight]() if fight in MORE_FIGHTS else dict(get_ruleset(fight).example()["combat"])
    body.pop("dice", None)  # the server's seeded dice
    state, _ = create_combat(body, combat_id="prop", seed=11)
    return state


def _unlisted_is_refused(data, ruleset, state: dict, actor: str, listed: set[str], caller: Viewer) -> None:
    candidates = sorted(set(ruleset.all_action_schemas) - listed - ruleset.gm_only_actions)
    if not candidates:
        return
    kind = data.draw(st.sampled_from(candidates), label="unlisted type")
    action = {"type": kind, "actor": actor}
    for name, spec in describe(ruleset, state, actor, kind).items():
        if spec["required"]:
            strategy = value_strategy(ruleset.id, state, spec)
            if strategy is None:
                return  # nothing legal to put there: the schema refuses it already
            action[name] = data.draw(strategy, label=f"unlisted {kind}.{name}")
    with pytest.raises((RulesError, ValidationError)) as refused:
        apply_action(state, action, caller=caller)
    if isinstance(refused.value, ValidationError):
        # Only the type-specific shape may fail (e.g. duel-2d6's join without a sheet); never silently accepted.
        assert refused.value.messages


def _accepted(state: dict, action: dict, caller=GM_VIEWER) -> dict:
    try:
        return apply_action(state, action, caller=caller)[0]
    except (RulesError, ValidationError) as error:
        raise AssertionError(f"listed action refused: {action}: {error}") from error


def _prompts_match_the_listing(ruleset, state: dict) -> None:
    awaited = {}
    for entry in state["awaiting"]:
        awaited.setdefault(entry["actor"], set()).update(entry["actions"])
    reason = decided(ruleset.standing_sides(state))
    if reason:
        last = state["awaiting"][-1]
        assert (last["actor"], last["actions"][0], last["reason"]) == ("gm", "end_combat", reason)
    assert awaited, "nobody is awaited in an active fight"
    for combatant in state["combatants"]:
        listed = {o["type"] for o in ruleset.legal_actions(state, combatant["id"])}
        assert listed == awaited.get(combatant["id"], set()), f"{combatant['id']}: listed {listed}, awaited {awaited.get(combatant['id'])}"


@pytest.mark.parametrize("fight", FIGHTS)
# No "explain" phase: replaying a whole fight per explanation is slow and adds nothing here.
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink])
@given(data=st.data())
def test_listed_actions_are_accepted_and_unlisted_refused(fight, data):
    state = _fight(fight)
    ruleset_id = state["ruleset"]
    ruleset = get_ruleset(ruleset_id)
    for _ in range(STEPS):
        if state["status"] != "active":
            break
        _prompts_match_the_listing(ruleset, state)
        actors = [
            entry["actor"] for entry in state["awaiting"]
            # A combatant awaited for a choice only the GM may fill (sistema-2d6's difficulty for a
            # defender who cannot defend) has nothing listed for his own token: the GM plays it.
            if entry["actor"] != "gm" and ruleset.legal_actions(state, entry["actor"], Viewer(combatant=entry["actor"]))
        ]
        actor = data.draw(st.sampled_from(actors + ["gm"]) if actors else st.just("gm"), label="actor")
        # Each combatant's options as his own player's token sees them: what is listed, that token may send.
        caller = GM_VIEWER if actor == "gm" else Viewer(combatant=actor)
        options = ruleset.legal_actions(state, actor, caller)
        if actor != "gm":
            _unlisted_is_refused(data, ruleset, state, actor, {o["type"] for o in options}, caller)
            # Every awaited type is accepted with some listed parameters, not only the one played on.
            for kind in sorted({o["type"] for o in options}):
                of_kind = [o for o in options if o["type"] == kind]
                _accepted(state, draw_action(data, ruleset_id, state, actor, data.draw(st.sampled_from(of_kind), label=f"some {kind}")), caller)
        else:
            # Ending would stop the walk (the summary tests end fights).
            options = [o for o in options if o["type"] != "end_combat"]
        assert options, f"{actor} is awaited but nothing is listed"
        undrawable = [o for o in options if not instantiable(ruleset_id, state, o)]
        assert not undrawable, f"not drawable from the listing: {undrawable}"
        option = data.draw(st.sampled_from(options), label="option")
        state = _accepted(state, draw_action(data, ruleset_id, state, actor, option), caller)
