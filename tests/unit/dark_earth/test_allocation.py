"""Seed: the POT, its secret split into INIT / ATT / DEF, and the shooters' cases."""

import pytest
from marshmallow import ValidationError

from service.rules.errors import ActionNotAllowed, InvalidAction, NotYourTurn, UnusedDice

from ..rules_helpers import combatant, params, start, step
from .fixtures import RULESET, allocate, goule, kael, refused


def duel(**options):
    return start(RULESET, [kael(contact_with=["goule"]), goule()], options=options or None)[0]


def test_every_fighter_standing_must_allocate_and_nothing_is_rolled_before():
    state, entry = start(RULESET, [kael(contact_with=["goule"]), goule()])
    assert entry["rolls"] == []
    assert state["contacts"] == [["goule", "kael"]]
    assert state["awaiting"] == [
        {"actor": "kael", "actions": ["allocate"], "reason": "allocation"},
        {"actor": "goule", "actions": ["allocate"], "reason": "allocation"},
    ]


def test_the_first_allocation_waits_for_the_others():
    state, entry = step(duel(), allocate("kael", "goule", (2, 3, 2)))
    assert entry["rolls"] == [] and params(entry, "allocation_received") == {"combatant": "kael", "round": 1, "waiting": 1}
    assert state["awaiting"] == [{"actor": "goule", "actions": ["allocate"], "reason": "allocation"}]
    assert state["round"] == 1 and list(state["allocations"]) == ["kael"]


def test_the_melee_pot_is_mel_plus_the_weapon_skill():
    state, _ = step(duel(), allocate("kael", "goule", (2, 3, 2)))  # POT 4 + 3 = 7
    assert state["allocations"]["kael"]["pot"] == 7


@pytest.mark.parametrize("split", [(2, 3, 1), (3, 3, 2), (0, 0, 0)])
def test_a_split_that_does_not_add_up_to_the_pot_is_refused(split):
    error = refused(duel(), allocate("kael", "goule", split), InvalidAction)
    assert error.field == "split" and "POT is 7" in error.detail


def test_a_negative_split_is_refused_by_the_schema():
    with pytest.raises(ValidationError) as caught:
        step(duel(), allocate("kael", "goule", (5, 3, -1)))
    assert "def" in caught.value.messages["split"]


def test_melee_without_a_split_is_refused():
    assert refused(duel(), allocate("kael", "goule"), InvalidAction).field == "split"


def test_a_fighter_allocates_once_per_tour():
    state, _ = step(duel(), allocate("kael", "goule", (2, 3, 2)))
    assert refused(state, allocate("kael", "goule", (2, 3, 2)), ActionNotAllowed).field == "actor"


def test_a_shooter_facing_nobody_in_contact_does_not_split():
    state, _ = start(RULESET, [kael(), goule()])
    error = refused(state, allocate("kael", "goule", (1, 2, 2), weapon="arc"), InvalidAction)
    assert error.field == "split"
    state, _ = step(state, allocate("kael", "goule", weapon="arc"))
    assert state["allocations"]["kael"]["split"] is None and state["allocations"]["kael"]["pot"] == 5


def test_a_shooter_in_contact_cannot_use_a_non_mechanical_weapon():
    error = refused(duel(), allocate("kael", "goule", (1, 2, 2), weapon="arc"), ActionNotAllowed)
    assert error.field == "weapon" and "mechanical" in error.detail


def test_a_mechanical_weapon_in_contact_splits_with_plus_2_init_and_minus_2_def():
    # Kael: POT de Tir 5 split 1/2/2 -> INIT 3, DEF 0; the Goule's INIT 2 comes after.
    state, _ = step(duel(), allocate("kael", "goule", (1, 2, 2), weapon="arbalete"))
    # Dice: Kael ATT [1, 2] (0) vs Goule DEF [4, 4] (2): bonus 2; Goule ATT 2 + 2 dice
    # [1, 1, 1, 1] (0) vs Kael's DEF: no dice (2 - 2 = 0).
    state, entry = step(state, allocate("goule", "kael", (2, 2, 2), dice=[1, 2, 4, 4, 1, 1, 1, 1]))
    revealed = params(entry, "allocation_revealed", 0)
    assert (revealed["mode"], revealed["pot"], revealed["init"], revealed["att"], revealed["defense"]) == ("contact_shot", 5, 3, 2, 0)
    assert params(entry, "turn_order") == {"order": [["kael"], ["goule"]]}
    assert params(entry, "attack_rolled", 0)["dice"] == [1, 2]
    assert params(entry, "defense_rolled", 1) == {"defender": "kael", "pool": 0, "dice": [], "successes": 0, "fumble": False}
    assert combatant(state, "kael")["loaded"] == {"arbalete": False}


def test_a_contact_shot_needs_the_split():
    assert refused(duel(), allocate("kael", "goule", weapon="arbalete"), InvalidAction).field == "split"


def test_an_unloaded_mechanical_weapon_cannot_shoot_until_reloaded():
    state, _ = start(RULESET, [kael(weapons=[kael()["weapons"][2] | {"loaded": False}]), goule()])
    assert refused(state, allocate("kael", "goule", weapon="arbalete"), ActionNotAllowed).field == "weapon"
    state, _ = step(state, allocate("kael", weapon="arbalete", reload=True))
    state, entry = step(state, allocate("goule", split=(2, 0, 4)))
    assert params(entry, "weapon_reloaded") == {"combatant": "kael", "weapon": "arbalete"}
    assert combatant(state, "kael")["loaded"] == {"arbalete": True}
    assert refused(state, allocate("kael", weapon="arbalete", reload=True), ActionNotAllowed).field == "reload"


def test_reloading_is_for_mechanical_weapons_and_gives_up_the_attack():
    state, _ = start(RULESET, [kael(), goule()])
    assert refused(state, allocate("kael", weapon="arc", reload=True), InvalidAction).field == "reload"
    assert refused(state, allocate("kael", "goule", weapon="arbalete", reload=True), InvalidAction).field == "target"


def test_evading_gives_up_the_attack_unless_the_option_says_otherwise():
    state = duel()
    assert refused(state, allocate("goule", "kael", (2, 2, 2), evade=True), InvalidAction).field == "target"
    state = duel(evasion_uses_attack=False)
    state, _ = step(state, allocate("goule", "kael", (2, 2, 2), evade=True))
    assert state["allocations"]["goule"]["evade"] is True


@pytest.mark.parametrize(
    ("action", "error", "field"),
    [
        (allocate("kael", "goule", (2, 3, 2), weapon="hache"), InvalidAction, "weapon"),
        (allocate("kael", "kael", (2, 3, 2)), InvalidAction, "target"),
        (allocate("kael", "nobody", (2, 3, 2)), InvalidAction, "target"),
        (allocate("kael", "goule", (2, 3, 2), shot={"range": "courte"}), InvalidAction, "shot"),
        (allocate("nobody", "goule", (2, 3, 2)), InvalidAction, "actor"),
        (allocate("gm", "goule", (2, 3, 2)), InvalidAction, "actor"),
    ],
)
def test_malformed_allocations_name_the_field(action, error, field):
    assert refused(duel(), action, error).field == field


def test_a_fighter_out_of_the_fight_neither_allocates_nor_is_targeted():
    state, _ = start(RULESET, [kael(), goule(), goule(id="goule2", name="Goule 2")])
    state["combatants"][1]["conditions"].append({"code": "coma"})
    assert refused(state, allocate("goule", "kael", (2, 2, 2)), ActionNotAllowed).field == "actor"
    assert refused(state, allocate("kael", "goule", weapon="arc"), ActionNotAllowed).field == "target"


def test_dice_sent_before_the_tour_resolves_are_refused():
    assert refused(duel(), allocate("kael", "goule", (2, 3, 2), dice=[6]), UnusedDice).field == "dice.0"


def test_bare_hands_when_the_sheet_has_no_weapon():
    state, _ = start(RULESET, [kael(weapons=[]), goule()])
    state, _ = step(state, allocate("kael", "goule", (2, 2, 0)))  # MEL 4 + Bagarre 0
    assert state["allocations"]["kael"]["weapon"] == "mains_nues" and state["allocations"]["kael"]["pot"] == 4


def test_gm_actions_are_refused_to_players():
    state = duel()
    error = refused(state, {"type": "contact", "actor": "kael", "combatant": "kael", "target": "goule", "engaged": False}, ActionNotAllowed)
    assert error.field == "actor" and not isinstance(error, NotYourTurn)
