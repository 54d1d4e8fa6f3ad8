"""Seed: the POT, its secret split into INIT / ATT / DEF, and the shooters' cases."""

import pytest

from service.rules.dark_earth import RULESET as RULESET_OBJECT
from service.rules.errors import ActionNotAllowed, InvalidAction, InvalidInput, NotYourTurn, UnusedDice

from ..rules_helpers import codes, combatant, params, start, step
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
    assert entry["rolls"] == [] and params(entry, "allocation_received") == {
        "combatant": "kael",
        "round": 1,
        "waiting": 1,
    }
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
    with pytest.raises(InvalidInput) as caught:
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


def test_a_bow_wielder_in_contact_cannot_defend_with_his_pot_de_tir():
    # Seed: in contact "il ne peut pas utiliser son arme, à moins que celle-ci ne soit mécanique et chargée":
    # the bow gives no POT (TIR 3 + Arc 2 = 5) to split, attacking or not.
    error = refused(duel(), allocate("kael", None, (1, 2, 2), weapon="arc"), ActionNotAllowed)
    assert error.field == "weapon" and "mains_nues" in error.detail


def test_a_shooter_caught_in_contact_fights_bare_handed_with_mel_plus_bagarre():
    # POT de combat = MEL 4 + Bagarre 0 = 4, split 1/2/1 (no +2/-2: that is for the POT de Tir).
    state, _ = step(duel(), allocate("kael", "goule", (1, 2, 1), weapon="mains_nues"))
    # Goule INIT 2 first: ATT [1, 2] = 0 vs Kael DEF 1 die [4] = 1: fails, riposte bonus 1.
    # Kael: ATT 2 + 1 = 3 dice [6, 4, 1] = 3 vs Goule DEF [1, 2] = 0: DEG 3;
    # Goule RES [1, 1, 2] = 0: 3 + DOM 0 (bare hands) + FOR 2 - PROT 0 - 0 = 5 -> PV 10 - 5 = 5.
    state, entry = step(state, allocate("goule", "kael", (2, 2, 2), dice=[1, 2, 4, 6, 4, 1, 1, 2, 1, 1, 2]))
    revealed = params(entry, "allocation_revealed", 0)
    assert (
        revealed["weapon"],
        revealed["mode"],
        revealed["pot"],
        revealed["init"],
        revealed["att"],
        revealed["defense"],
    ) == ("mains_nues", "melee", 4, 1, 2, 1)
    assert params(entry, "defense_rolled", 0) == {
        "defender": "kael",
        "pool": 1,
        "terms": None,
        "gm": 0,
        "dice": [4],
        "successes": 1,
        "fumble": False,
    }
    assert params(entry, "blow_scored") == {
        "attacker": "kael",
        "target": "goule",
        "deg": 3,
        "weapon_damage": 0,
        "strength": 2,
        "protection": 0,
        "resistance": 0,
        "score": 5,
    }
    assert combatant(state, "goule")["pv"] == 5


def test_a_loaded_crossbow_in_contact_splits_the_pot_de_tir_with_plus_2_minus_2_even_without_shooting():
    # POT de Tir 3 + Arbalète 2 = 5, split 1/2/2 -> INIT 3, DEF 2 - 2 = 0, whether Kael shoots or not.
    state, _ = step(duel(), allocate("kael", None, (1, 2, 2), weapon="arbalete"))
    # Goule: ATT [6, 6] = 4 vs Kael's DEF, no dice: DEG 4; RES [1, 2, 3] = 0: 4 + DOM 1 + FOR 3 = 8 -> PV 12 - 8 = 4.
    state, entry = step(state, allocate("goule", "kael", (2, 2, 2), dice=[6, 6, 1, 2, 3]))
    revealed = params(entry, "allocation_revealed", 0)
    assert (revealed["mode"], revealed["pot"], revealed["init"], revealed["defense"]) == ("none", 5, 3, 0)
    assert params(entry, "defense_rolled") == {
        "defender": "kael",
        "pool": 0,
        "terms": None,
        "gm": 0,
        "dice": [],
        "successes": 0,
        "fumble": False,
    }
    assert combatant(state, "kael")["pv"] == 4 and combatant(state, "kael")["loaded"] == {"arbalete": True}


def test_reloading_in_contact_splits_the_bare_hands_pot_not_the_pot_de_tir():
    unloaded = kael(contact_with=["goule"], weapons=[kael()["weapons"][2] | {"loaded": False}])
    state, _ = start(RULESET, [unloaded, goule()])
    # The POT de Tir (5) is not the one split; bare hands MEL 4 + Bagarre 0 = 4 is.
    error = refused(state, allocate("kael", None, (1, 2, 2), weapon="arbalete", reload=True), InvalidAction)
    assert error.field == "split" and "POT is 4 dice" in error.detail
    # Unloaded and not reloading, the crossbow is of no use in contact.
    assert refused(state, allocate("kael", None, (0, 0, 4), weapon="arbalete"), ActionNotAllowed).field == "weapon"
    state, _ = step(state, allocate("kael", None, (0, 0, 4), weapon="arbalete", reload=True))
    # Goule ATT [6, 6] = 4 vs Kael DEF 4 dice (no -2) [4, 4, 4, 4] = 4: a tie fails; the crossbow is reloaded.
    state, entry = step(state, allocate("goule", "kael", (2, 2, 2), dice=[6, 6, 4, 4, 4, 4]))
    assert params(entry, "defense_rolled")["pool"] == 4 and "attack_failed" in codes(entry)
    assert params(entry, "weapon_reloaded") == {"combatant": "kael", "weapon": "arbalete"}


def test_the_reload_in_contact_option_forbids_it():
    unloaded = kael(contact_with=["goule"], weapons=[kael()["weapons"][2] | {"loaded": False}])
    state, _ = start(RULESET, [unloaded, goule()], options={"reload_in_contact": "forbidden"})
    assert (
        refused(state, allocate("kael", None, (0, 0, 4), weapon="arbalete", reload=True), ActionNotAllowed).field
        == "reload"
    )


def test_the_listing_in_contact_offers_the_sword_the_loaded_crossbow_and_bare_hands_not_the_bow():
    state = duel()
    listed = RULESET_OBJECT.legal_actions(state, "kael")
    weapons = sorted({entry["params"]["weapon"]["choices"][0] for entry in listed})
    assert weapons == ["arbalete", "epee", "mains_nues"]
    totals = {entry["params"]["weapon"]["choices"][0]: entry["params"]["split"]["total"] for entry in listed}
    assert totals == {
        "epee": 7,
        "arbalete": 5,
        "mains_nues": 4,
    }  # MEL 4 + Épée 3; TIR 3 + Arbalète 2; MEL 4 + Bagarre 0


def test_the_listing_offers_only_the_reload_for_an_unloaded_crossbow_in_contact():
    unloaded = kael(contact_with=["goule"], weapons=[kael()["weapons"][2] | {"loaded": False}])
    state, _ = start(RULESET, [unloaded, goule()])
    crossbow = [
        e["params"]
        for e in RULESET_OBJECT.legal_actions(state, "kael")
        if e["params"]["weapon"]["choices"] == ["arbalete"]
    ]
    assert [(p["reload"]["choices"], p["split"]["total"], "target" in p) for p in crossbow] == [([True], 4, False)]
    state, _ = start(RULESET, [unloaded, goule()], options={"reload_in_contact": "forbidden"})
    assert all(e["params"]["weapon"]["choices"] != ["arbalete"] for e in RULESET_OBJECT.legal_actions(state, "kael"))


def test_a_mechanical_weapon_in_contact_splits_with_plus_2_init_and_minus_2_def():
    # Kael: POT de Tir 5 split 1/2/2 -> INIT 3, DEF 0; the Goule's INIT 2 comes after.
    state, _ = step(duel(), allocate("kael", "goule", (1, 2, 2), weapon="arbalete"))
    # Dice: Kael ATT [1, 2] (0) vs Goule DEF [4, 4] (2): bonus 2; Goule ATT 2 + 2 dice
    # [1, 1, 1, 1] (0) vs Kael's DEF: no dice (2 - 2 = 0).
    state, entry = step(state, allocate("goule", "kael", (2, 2, 2), dice=[1, 2, 4, 4, 1, 1, 1, 1]))
    revealed = params(entry, "allocation_revealed", 0)
    assert (revealed["mode"], revealed["pot"], revealed["init"], revealed["att"], revealed["defense"]) == (
        "contact_shot",
        5,
        3,
        2,
        0,
    )
    assert params(entry, "turn_order") == {"order": [["kael"], ["goule"]]}
    assert params(entry, "attack_rolled", 0)["dice"] == [1, 2]
    assert params(entry, "defense_rolled", 1) == {
        "defender": "kael",
        "pool": 0,
        "terms": None,
        "gm": 0,
        "dice": [],
        "successes": 0,
        "fumble": False,
    }
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
    error = refused(
        state,
        {"type": "contact", "actor": "kael", "combatant": "kael", "target": "goule", "engaged": False},
        ActionNotAllowed,
    )
    assert error.field == "actor" and not isinstance(error, NotYourTurn)
