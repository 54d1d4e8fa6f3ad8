"""Seed A and E-1/E-3: the exchange, the melee attacks and defenses, the counter-attack note."""

from service.rules.errors import ActionNotAllowed, InvalidAction, NotYourTurn

from ..rules_helpers import codes, combatant, params, step
from .fixtures import ana, attack, bob, duel, fight, refused

KARATE = {"skills": {"Bagarre": 1, "Karaté": 2}, "martial_art": "Karaté"}
JUDO = {"skills": {"Bagarre": 1, "Judo": 1}, "martial_art": "Judo"}
DAGUE = [{"id": "dague", "catalog": "dague"}]


# -- the exchange order and the initiative ------------------------------------------------


def test_attack_without_inline_defense_waits_for_the_defender_and_rolls_nothing():
    state = fight()
    state, entry = step(state, attack(defense=None))
    assert entry["rolls"] == [] and codes(entry) == ["awaiting_defense"]
    assert state["awaiting"] == [{"actor": "bob", "actions": ["defend"], "reason": "defense"}]


def test_failed_attack_gives_the_initiative_without_a_defense_roll():
    state = fight()
    state, entry = step(state, attack(dice=[6, 5], defense="esquiver"))
    assert params(entry, "attack_rolled")["level"] == "echec_simple"
    assert len(entry["rolls"]) == 2 and "defense_rolled" not in codes(entry)
    assert params(entry, "initiative_passes") == {"attacker": "bob", "defender": "ana", "reason": "attack_failed"}
    assert duel(state)["attacker"] == "bob" and state["round"] == 2


def test_dodge_of_the_same_level_avoids_and_the_attacker_keeps_the_initiative():
    state = fight()
    state, entry = step(state, attack(dice=[2, 1, 3, 4], defense="esquiver"))
    assert params(entry, "defense_rolled")["level"] == "reussite_simple"
    assert "blow_avoided" in codes(entry) and "damage_rolled" not in codes(entry)
    assert duel(state)["attacker"] == "ana"


def test_dodge_of_a_lower_level_does_not_avoid_a_critical():
    state = fight()
    # Attack 2+2 critical (Dd 2); dodge 1+2 simple; Poing 1D3 = 1, + Dd 2 = 3.
    state, entry = step(state, attack(dice=[2, 2, 1, 2, 1], defense="esquiver"))
    assert params(entry, "damage_rolled")["total"] == 3
    assert params(entry, "wounded")["level"] == "egratignure"


def test_block_absorbs_for_plus_dd_on_a_critical_and_takes_the_initiative():
    state = fight(ana(weapons=DAGUE), bob(attributes={"FOR": 2}))
    # Dague (Armes blanches 0) target 7: 1+2 simple. Block 7+1: 3+3 critical, Dd 3.
    state, entry = step(state, attack(weapon="dague", dice=[1, 2, 3, 3, 6], defense="bloquer"))
    assert params(entry, "blow_blocked") == {
        "defender": "bob",
        "parts": {"FOR": 2, "maneuver": 0, "Dd": 3},
        "absorbed": 5,
    }
    assert params(entry, "wounded")["effective"] == 1
    assert params(entry, "initiative_passes")["reason"] == "better_defense"


def test_block_with_a_shield_adds_its_defense():
    state = fight(ana(weapons=DAGUE), bob(defensive_item="bouclier_petit"))
    state, entry = step(
        state, attack(weapon="dague", dice=[1, 2, 2, 3, 6], defense={"defense": "bloquer", "using": "bouclier_petit"})
    )
    assert params(entry, "blow_blocked")["absorbed"] == 3
    assert params(entry, "wounded")["effective"] == 3


def test_block_with_a_sword_adds_the_weapon_skill_and_rolls_it():
    sword = [{"id": "epee", "catalog": "epee_courte"}]
    state = fight(ana(weapons=DAGUE), bob(weapons=sword, skills={"Bagarre": 0, "Armes blanches": 2}))
    state, entry = step(
        state, attack(weapon="dague", dice=[1, 2, 4, 5, 6], defense={"defense": "bloquer", "using": "epee"})
    )
    assert params(entry, "defense_rolled")["target"] == 9
    assert params(entry, "blow_blocked")["absorbed"] == 2


def test_bloquer_ma_absorbs_one_more_and_amortir_two_more_at_minus_one():
    state = fight(ana(weapons=DAGUE), bob(**JUDO))
    _, entry = step(state, attack(weapon="dague", dice=[1, 2, 2, 3, 6], defense="bloquer_ma"))
    assert params(entry, "blow_blocked")["absorbed"] == 1
    _, entry = step(state, attack(weapon="dague", dice=[1, 2, 2, 3, 6], defense="amortir"))
    assert params(entry, "defense_rolled")["target"] == 7
    assert params(entry, "blow_blocked")["absorbed"] == 2


def test_successful_counter_attack_is_resolved_first_cancels_the_blow_and_takes_the_initiative():
    state = fight()
    counter = {"defense": "contre_attaque", "counter": {"maneuver": "coup_simple", "weapon": "poing"}}
    # Counter 7+1-3 = 5: 1+3 succeeds; Poing 1D3 = 3 to Ana, who cannot defend.
    state, entry = step(state, attack(dice=[1, 3, 3], defense=counter))
    assert params(entry, "counter_rolled")["target"] == 5
    assert "attack_rolled" not in codes(entry) and "defense_rolled" not in codes(entry)
    assert params(entry, "wounded")["target"] == "ana" and combatant(state, "ana")["pv"] == 6
    assert params(entry, "initiative_passes")["reason"] == "counter_attack"


def test_failed_counter_attack_lets_the_blow_land_without_defense_and_keeps_the_initiative():
    state = fight()
    counter = {"defense": "contre_attaque", "counter": {"maneuver": "coup_simple", "weapon": "poing"}}
    state, entry = step(state, attack(dice=[5, 6, 1, 2, 2], defense=counter))
    assert codes(entry).index("counter_failed") < codes(entry).index("attack_rolled")
    assert params(entry, "wounded")["target"] == "bob" and "defense_rolled" not in codes(entry)
    assert duel(state)["attacker"] == "ana"


def test_failed_counter_keeps_the_initiative_even_if_the_blow_misses_unless_the_option_is_off():
    counter = {"defense": "contre_attaque", "counter": {"maneuver": "coup_simple", "weapon": "poing"}}
    state, _ = step(fight(), attack(dice=[5, 6, 6, 5], defense=counter))
    assert duel(state)["attacker"] == "ana"
    state, _ = step(
        fight(options={"failed_counter_keeps_initiative": False}), attack(dice=[5, 6, 6, 5], defense=counter)
    )
    assert duel(state)["attacker"] == "bob"


def test_feint_takes_the_initiative_when_the_attacker_fails_sen_but_the_blow_lands():
    state = fight(ana(), bob(**JUDO))
    # Attack 1+2; feint 7+1-2 = 6: 2+3; Ana's SEN 2+0: 1+3 fails; damage 2.
    state, entry = step(state, attack(dice=[1, 2, 2, 3, 1, 3, 2], defense="feinte"))
    assert params(entry, "defense_rolled")["target"] == 6
    assert params(entry, "feint_check")["target"] == 2 and params(entry, "feint_check")["level"] == "echec_simple"
    assert params(entry, "wounded")["effective"] == 2
    assert params(entry, "initiative_passes")["reason"] == "feint"


def test_martial_arts_dodge_turns_a_critical_into_a_simple_blow():
    state = fight(ana(), bob(**JUDO))
    _, entry = step(state, attack(dice=[2, 2, 1, 2, 3], defense="esquiver_ma"))
    assert params(entry, "critical_downgraded")["dd"] == 2
    assert params(entry, "damage_rolled")["parts"] == {"dice": 3, "FOR": 0}
    state = fight(ana(), bob(**JUDO), options={"ma_dodge": "avoid"})
    _, entry = step(state, attack(dice=[2, 2, 1, 2], defense="esquiver_ma"))
    assert "blow_avoided" in codes(entry) and "damage_rolled" not in codes(entry)


# -- the maneuvers of table E-1 --------------------------------------------------------------------


def test_attaque_ma_adds_one_damage_and_only_with_fist_or_foot():
    state = fight(ana(weapons=DAGUE, **KARATE), bob())
    _, entry = step(state, attack(maneuver="attaque_ma", dice=[1, 2, 2]))
    assert params(entry, "damage_rolled")["parts"] == {"dice": 2, "FOR": 0, "maneuver": 1}
    assert refused(state, attack(maneuver="attaque_ma", weapon="dague"), InvalidAction) == "maneuver"


def test_massue_is_minus_three_to_hit_and_plus_two_damage():
    state = fight(ana(**KARATE), bob())
    _, entry = step(state, attack(maneuver="massue", dice=[1, 2, 3]))
    assert params(entry, "attack_rolled")["target"] == 6
    assert params(entry, "damage_rolled")["total"] == 5


def test_coup_mortel_maneuver_doubles_the_damage_beyond_pv():
    state = fight(ana(**KARATE), bob(pv=2), options={"auto_end": True})
    state, entry = step(state, attack(maneuver="coup_mortel", dice=[1, 2, 3]))
    assert params(entry, "attack_rolled")["target"] == 6
    wounded = params(entry, "wounded")
    assert (wounded["effective"], wounded["level"], wounded["loss"], wounded["pv"]) == (3, "grave", 2, 0)
    assert "out_of_fight" in codes(entry) and state["status"] == "over"


def test_coup_bas_minus_one_damage_and_a_con_roll_with_the_damage_as_malus_or_stunned():
    state = fight(ana(**KARATE), bob())
    # Hit 1+2 under 6; Poing 3 - 1 = 2; CON 2+0-2 = 0: 1+2 fails.
    state, entry = step(state, attack(maneuver="coup_bas", dice=[1, 2, 3, 1, 2]))
    assert params(entry, "damage_rolled")["total"] == 2
    assert params(entry, "stun_check")["target"] == 0
    assert params(entry, "stunned") == {"target": "bob", "until": 2}
    assert {
        "code": "stunned",
        "source": "rules",
        "start": {"round": 1},
        "ends": {"round": 3},
        "modifiers": {},
    } in combatant(state, "bob")["conditions"]
    # Stunned: no defense roll in round 2, the stun ends when round 3 begins.
    state, entry = step(state, attack(dice=[6, 5]))
    assert params(entry, "no_defense") == {"defender": "bob", "reason": "stunned"}
    assert duel(state)["attacker"] == "ana"  # a stunned fighter cannot take the initiative
    assert params(entry, "condition_expired") == {"combatant": "bob", "condition": "stunned"}
    assert params(entry, "round_started") == {"round": 3}


def test_balayage_is_minus_target_for_and_the_target_falls_unless_it_defends():
    state = fight(ana(**KARATE), bob(attributes={"FOR": 1}))
    # Hit 7+2-1 = 8; 2+DEX = 4: 3+4 fails; fall damage Poing 1 + FOR 0.
    state, entry = step(state, attack(maneuver="balayage", dice=[1, 2, 3, 4, 1], defense="jet_dex"))
    assert params(entry, "attack_rolled")["target"] == 8
    assert params(entry, "defense_rolled")["target"] == 4
    assert "falls" in codes(entry) and params(entry, "wounded")["effective"] == 1
    assert [c["code"] for c in combatant(state, "bob")["conditions"]] == ["prone"]
    # On the ground: -3 to every maneuver, until the initiative comes back (= gets up).
    state, entry = step(state, attack(dice=[6, 6]))
    assert "stands_up" in codes(entry) and combatant(state, "bob")["conditions"] == []


def test_prone_defender_rolls_at_minus_three():
    state = fight(ana(**KARATE), bob(attributes={"FOR": 1}))
    state, _ = step(state, attack(maneuver="balayage", dice=[1, 2, 3, 4, 1], defense="jet_dex"))
    _, entry = step(state, attack(dice=[2, 1, 1, 2], defense="esquiver"))
    assert params(entry, "defense_rolled")["modifiers"]["prone"] == -3
    assert params(entry, "defense_rolled")["target"] == 5


def test_chute_controlee_cancels_the_fall_and_its_damage():
    state = fight(ana(**KARATE), bob(**JUDO))
    state, entry = step(state, attack(maneuver="balayage", dice=[1, 2, 1, 2], defense="chute_controlee"))
    assert "blow_avoided" in codes(entry) and "falls" not in codes(entry) and "damage_rolled" not in codes(entry)


def test_fall_damage_option_off():
    state = fight(ana(**KARATE), bob(), options={"fall_damage": False})
    _, entry = step(state, attack(maneuver="balayage", dice=[1, 2, 6, 5], defense="jet_dex"))
    assert "falls" in codes(entry) and "damage_rolled" not in codes(entry)


def test_prise_needs_a_part_and_is_minus_three_two_one():
    state = fight(ana(**KARATE), bob())
    assert refused(state, attack(maneuver="prise"), InvalidAction) == "part"
    for part, target in (("tete", 6), ("corps", 7), ("membre", 8)):
        after, entry = step(state, attack(maneuver="prise", part=part, dice=[1, 2, 6, 5], defense="esquiver"))
        assert params(entry, "attack_rolled")["target"] == target
        assert after["holds"] == [{"holder": "ana", "held": "bob", "part": part, "locked": False}]


def test_cle_without_a_hold_is_refused():
    state = fight(ana(**KARATE), bob())
    assert refused(state, attack(maneuver="cle"), ActionNotAllowed) == "maneuver"
    state, _ = step(state, attack(maneuver="prise", part="tete", dice=[1, 2, 6, 5], defense="esquiver"))
    assert refused(state, attack(maneuver="cle"), ActionNotAllowed) == "maneuver"


def test_cle_after_a_limb_hold_locks_and_disarms():
    state = fight(ana(**KARATE), bob(weapons=DAGUE))
    state, _ = step(state, attack(maneuver="prise", part="membre", dice=[1, 2, 6, 5], defense="esquiver"))
    assert refused(state, attack(maneuver="cle", defense="esquiver"), ActionNotAllowed) == "defense.defense"
    state, entry = step(state, attack(maneuver="cle", dice=[1, 2, 6, 5], defense="jet_for"))
    assert "locked" in codes(entry) and params(entry, "weapon_dropped") == {"target": "bob", "weapon": "dague"}
    assert state["holds"][0]["locked"] is True and combatant(state, "bob")["dropped"] == ["dague"]
    # While locked, only Dégagement or a FOR roll.
    assert refused(state, attack(dice=[1, 2], defense="esquiver"), ActionNotAllowed) == "defense.defense"
    # Ana misses: Bob takes the initiative but can only try to break free.
    state, _ = step(state, attack(maneuver="briser", dice=[6, 5], defense="jet_for"))
    assert state["awaiting"] == [{"actor": "bob", "actions": ["break_free", "pass"], "reason": "initiative"}]
    state, entry = step(state, {"type": "break_free", "actor": "bob", "method": "jet_for", "dice": [1, 1]})
    assert params(entry, "break_free_rolled")["target"] == 2 and "hold_released" in codes(entry)
    assert state["holds"] == []


def test_etrangler_after_a_head_hold_stuns_on_a_failed_con_roll_without_pv_loss():
    state = fight(ana(**KARATE), bob())
    state, _ = step(state, attack(maneuver="prise", part="tete", dice=[1, 2, 6, 5], defense="esquiver"))
    state, entry = step(state, attack(maneuver="etrangler", dice=[1, 2, 6, 5, 3, 1, 1], defense="jet_for"))
    assert params(entry, "stun_check")["target"] == -1
    assert "stunned" in codes(entry) and "wounded" not in codes(entry)
    assert combatant(state, "bob")["pv"] == 6


def test_degagement_frees_from_the_hold():
    state = fight(ana(**KARATE), bob(**JUDO))
    state, _ = step(state, attack(maneuver="prise", part="tete", dice=[1, 2, 6, 5], defense="esquiver"))
    state, entry = step(state, attack(maneuver="etrangler", dice=[1, 2, 1, 2], defense="degagement"))
    assert params(entry, "defense_rolled")["target"] == 8
    assert "hold_released" in codes(entry) and state["holds"] == []


def test_projection_after_a_body_hold_throws_and_releases():
    state = fight(ana(**KARATE), bob())
    state, _ = step(state, attack(maneuver="prise", part="corps", dice=[1, 2, 6, 5], defense="esquiver"))
    state, entry = step(state, attack(maneuver="projection", dice=[1, 2, 6, 5, 2], defense="jet_dex"))
    assert "falls" in codes(entry) and "hold_released" in codes(entry)
    assert params(entry, "wounded")["effective"] == 2 and state["holds"] == []


def test_briser_adds_one_and_doubles_the_damage_beyond_pv():
    state = fight(ana(**KARATE), bob(pv=3))
    state, _ = step(state, attack(maneuver="prise", part="membre", dice=[1, 2, 6, 5], defense="esquiver"))
    state, entry = step(state, attack(maneuver="briser", dice=[1, 2, 6, 5, 3], defense="jet_for"))
    wounded = params(entry, "wounded")
    assert (wounded["damage"], wounded["level"], wounded["loss"], wounded["pv"]) == (4, "grave", 2, 1)


def test_desarmer_for_roll_at_minus_the_damage_and_a_critical_takes_the_weapon():
    state = fight(ana(**KARATE), bob(weapons=DAGUE))
    # Hit 6: 1+1 critical (Dd 1); damage Poing 2 + Dd 1 = 3; FOR roll 2+0-3: 1+2 fails.
    state, entry = step(state, attack(maneuver="desarmer", dice=[1, 1, 2, 1, 2], defense="jet_for"))
    assert params(entry, "defense_rolled")["target"] == -1
    assert params(entry, "weapon_taken") == {"attacker": "ana", "target": "bob", "weapon": "dague"}
    assert "wounded" not in codes(entry)
    assert [w["id"] for w in combatant(state, "ana")["sheet"]["weapons"]] == ["dague"]


def test_double_manoeuvre_prise_then_cle_at_the_lower_level_minus_two_each():
    state = fight(ana(specializations=["prise"], **KARATE), bob())
    action = attack(
        maneuver="prise",
        part="membre",
        second={"maneuver": "cle"},
        defense={"defense": "esquiver", "second_defense": "jet_for"},
        dice=[1, 2, 6, 5, 1, 2, 6, 5],
    )
    state, entry = step(state, action)
    assert params(entry, "attack_rolled", 0)["target"] == 9 - 1 - 2
    assert params(entry, "attack_rolled", 1)["target"] == 9 - 2
    assert state["holds"] == [{"holder": "ana", "held": "bob", "part": "membre", "locked": True}]


def test_double_manoeuvre_needs_a_second_defense():
    state = fight(ana(**KARATE), bob())
    action = attack(maneuver="coup_simple", second={"maneuver": "coup_simple"}, defense="esquiver")
    assert refused(state, action, InvalidAction) == "defense.second_defense"


def test_defense_not_in_the_table_is_refused():
    state = fight(ana(**KARATE), bob())
    assert refused(state, attack(maneuver="balayage", defense="esquiver"), ActionNotAllowed) == "defense.defense"
    assert refused(state, attack(defense="plongeon"), ActionNotAllowed) == "defense.defense"


def test_menacer_keeps_the_initiative_until_a_counter_attack_succeeds():
    state = fight(ana(weapons=DAGUE), bob(skills={"Bagarre": 1, "Judo": 2}, martial_art="Judo"))
    state, entry = step(state, {"type": "threaten", "actor": "ana", "target": "bob", "weapon": "dague", "dice": [1, 2]})
    assert "threat_established" in codes(entry) and "damage_rolled" not in codes(entry)
    assert state["awaiting"][1] == {"actor": "bob", "actions": ["counter"], "reason": "threatened"}
    # A failed counter: the threat goes on and Ana keeps the initiative.
    state, entry = step(state, {"type": "counter", "actor": "bob", "maneuver": "desarmer", "dice": [6, 5]})
    assert params(entry, "counter_rolled")["target"] == 7 + 2 - 3 - 3
    assert duel(state)["threat"] and duel(state)["attacker"] == "ana"
    # Désarmer -3 and counter -3: 1+1 succeeds critically; Ana loses her dagger to Bob.
    state, entry = step(state, {"type": "counter", "actor": "bob", "maneuver": "desarmer", "dice": [1, 1]})
    assert params(entry, "weapon_taken")["attacker"] == "bob"
    assert duel(state)["attacker"] == "bob" and duel(state)["threat"] is None


def test_threatened_defender_gets_no_defense_roll():
    state = fight(ana(weapons=DAGUE), bob())
    state, _ = step(state, {"type": "threaten", "actor": "ana", "target": "bob", "weapon": "dague", "dice": [1, 2]})
    state, entry = step(state, attack(weapon="dague", defense=None, dice=[1, 2, 4]))
    assert params(entry, "no_defense")["reason"] == "threatened"


# -- turns --------------------------------------------------------------------------------------------


def test_only_the_attacker_may_attack_and_only_the_defender_may_defend():
    state = fight()
    assert refused(state, attack(actor="bob", target="ana"), NotYourTurn) == "actor"
    assert refused(state, {"type": "defend", "actor": "bob", "defense": "esquiver"}, NotYourTurn) == "actor"
    state, _ = step(state, attack(defense=None))
    assert refused(state, attack(), NotYourTurn) == "actor"
    assert (
        refused(state, {"type": "defend", "actor": "bob", "defense": "bloquer", "using": "epee"}, InvalidAction)
        == "using"
    )


def test_gm_adjust_sets_pv_removes_conditions_and_gives_the_initiative():
    state = fight()
    state, entry = step(state, {"type": "adjust", "actor": "gm", "target": "bob", "pv": 2, "initiative_against": "ana"})
    assert combatant(state, "bob")["pv"] == 2 and duel(state)["attacker"] == "bob"
    assert refused(state, {"type": "adjust", "actor": "ana", "target": "bob"}, ActionNotAllowed) == "actor"


def test_double_manoeuvre_blows_use_the_lower_of_the_two_maneuvers_levels():
    """Issue 27 item 10: a sword blow in a Double Manoeuvre is not raised to the martial art's level."""
    sword = [{"id": "epee", "catalog": "epee_courte"}]
    skills = {"Bagarre": 1, "Karaté": 3, "Armes blanches": 1}
    state = fight(ana(weapons=sword, skills=skills, martial_art="Karaté"), bob())
    action = attack(
        maneuver="coup_simple",
        weapon="epee",
        second={"maneuver": "attaque_ma", "weapon": "poing"},
        defense={"defense": "esquiver", "second_defense": "esquiver"},
        dice=[6, 5, 6, 5],
    )
    state, entry = step(state, action)
    # Sword blow 7 + Armes blanches 1 = 8, Attaque MA 7 + Karaté 3 = 10: the lower is 8, then -2 each.
    assert params(entry, "attack_rolled", 0)["target"] == 8 - 2
    assert params(entry, "attack_rolled", 1)["target"] == 8 - 2
