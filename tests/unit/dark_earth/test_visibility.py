"""The allocations stay secret until their tour resolves (ruleset hooks)."""

from service.rules.dark_earth import RULESET as DARK_EARTH
from service.rules.viewer import GM_VIEWER, Viewer

from ..rules_helpers import start, step
from .fixtures import RULESET, allocate, goule, kael

OPPONENT = Viewer(combatant="goule")


def test_the_state_shows_who_has_allocated_never_what():
    state, _ = start(RULESET, [kael(contact_with=["goule"]), goule()])
    state, entry = step(state, allocate("kael", "goule", (2, 3, 2), maneuver="feinte"))
    visible = DARK_EARTH.visible_state(state, OPPONENT)
    assert "allocations" not in visible and visible["allocated"] == ["kael"]
    assert "feinte" not in str(visible) and "feinte" not in str(DARK_EARTH.visible_entry(state, entry, OPPONENT))
    assert DARK_EARTH.visible_entry(state, entry, OPPONENT)["action"] == {"type": "allocate", "actor": "kael"}


def test_the_whole_allocation_is_shown_once_its_tour_resolved():
    state, _ = start(RULESET, [kael(contact_with=["goule"]), goule()])
    state, first = step(state, allocate("kael", "goule", (2, 3, 2)))
    state, last = step(state, allocate("goule", "kael", (1, 3, 2)))
    assert DARK_EARTH.visible_entry(state, first, OPPONENT)["action"]["split"] == {"init": 2, "att": 3, "def": 2}
    assert DARK_EARTH.visible_entry(state, last, OPPONENT) == last
    assert DARK_EARTH.visible_state(state, OPPONENT)["allocated"] == []


def test_an_allocation_is_shown_when_the_gm_ends_the_fight_mid_tour():
    state, _ = start(RULESET, [kael(contact_with=["goule"]), goule()])
    state, first = step(state, allocate("kael", "goule", (2, 3, 2)))
    state, _ = step(state, {"type": "end_combat", "actor": "gm"})
    assert DARK_EARTH.visible_entry(state, first, OPPONENT)["action"]["target"] == "goule"


def test_the_owner_and_the_gm_see_the_allocation_before_the_tour_resolves():
    state, _ = start(RULESET, [kael(contact_with=["goule"]), goule()])
    state, entry = step(state, allocate("kael", "goule", (2, 3, 2), maneuver="feinte"))
    for viewer in (Viewer(combatant="kael"), GM_VIEWER):
        assert "kael" in DARK_EARTH.visible_state(state, viewer)["allocations"]
        assert DARK_EARTH.visible_entry(state, entry, viewer) == entry
    assert "allocations" not in DARK_EARTH.visible_state(state, OPPONENT)
