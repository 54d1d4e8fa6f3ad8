"""Duel 2D6: the legal actions of a fighter now (blows, shots, threats, defenses, counters...).

Each rule that may refuse an action is one ``*_refusal`` function, which the
resolution refuses with and this listing lists with: arsenal.ammo_refusal,
automatic_refusal, maneuver_refusal, hold_refusal, reach_refusal, lost_refusal;
defense.dive_refusal, locked_refusal, block_refusal;
exchange.optional_rule_refusal; duels.lead_refusal, join_refusal,
face_refusal, cover_refusal (and exchanges_led_by). An inline defense and a Double Manoeuvre's
second blow against an opponent already held stay for the client to compose.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any, cast

from ..gm.legal import choice_found, describe, field_spec, present
from ..ruleset import AnyRuleset, Choice
from .arsenal import (
    ammo_refusal,
    automatic_refusal,
    band_of,
    hold_refusal,
    is_ranged,
    lost_refusal,
    maneuver_refusal,
    reach_refusal,
    shots_of,
    within_reach_of_a_blow,
)
from .defense import allowed, block_refusal, dive_refusal, locked_refusal
from .duels import (
    by_id,
    cover_refusal,
    duels_of,
    exchanges_led_by,
    face_refusal,
    hold_on,
    join_refusal,
    lead_refusal,
    other,
)
from .exchange import optional_rule_refusal
from .state import DuelCombat, DuelCombatant
from .tables import (
    ALWAYS_CARRIED,
    BAND_LIMITS,
    BANDS,
    DEFENSES,
    HOLD_PARTS,
    LOCATION_NAMES,
    MELEE_ATTACKS,
    RANGED_SHOTS,
    WEAPONS,
)

MAX_FACE_SETS = 64
MAX_DISTANCE = 100000  # metres listed beyond the last band ("au-delà")


def choices(ruleset: AnyRuleset, state: DuelCombat, actor_id: str, action_type: str) -> list[dict[str, Any]] | None:
    """Refined parameter sets, or None for the default description."""
    if actor_id == "gm":
        return None
    actor = by_id(state, actor_id)
    handler = HANDLERS.get(action_type)
    return handler(ruleset, state, actor) if handler else None


# -- what a fighter holds -------------------------------------------------------------------------


def _weapons(actor: DuelCombatant) -> list[dict[str, Any]]:
    """The sheet's weapons and the fist and foot, less what was lost (Désarmer)."""
    weapons = list(actor["sheet"]["weapons"])  # arsenal.weapon_of: the sheet's first
    held = {x["id"] for x in weapons}
    weapons += [{"id": w, **WEAPONS[w]} for w in ALWAYS_CARRIED if w not in held]
    return [w for w in weapons if lost_refusal(actor, w) is None]


def _shooting(actor: DuelCombatant) -> list[dict[str, Any]]:
    """The ranged weapons that can fire a round now (ranged.ammo_refusal): a counter shoots once."""
    return [w for w in _weapons(actor) if is_ranged(w) and ammo_refusal(actor, w, 1) is None]


def _reach(weapon: dict[str, Any]) -> dict[str, Any] | None:
    """The distances a weapon reaches (reach_refusal), in metres; None when it reaches no band."""
    reached = [band for band in BANDS if reach_refusal(weapon, band) is None]
    if not reached:
        return None
    return {"type": "integer", "minimum": 0, "maximum": BAND_LIMITS.get(reached[-1], MAX_DISTANCE)}


def _blows(
    state: DuelCombat, actor: DuelCombatant, opponent: DuelCombatant
) -> Iterator[tuple[dict[str, Any], str, str | None]]:
    """(weapon, maneuver, part) the actor may strike ``opponent`` with (check_maneuver and the holds), one at a time."""
    hold = hold_on(state, opponent["id"])
    held_part = hold["part"] if hold and hold["holder"] == actor["id"] else None
    for weapon in _weapons(actor):
        for maneuver in MELEE_ATTACKS:
            if maneuver_refusal(maneuver, weapon) or hold_refusal(maneuver, held_part, opponent["name"]):
                continue
            for part in HOLD_PARTS if maneuver == "prise" else [None]:
                yield weapon, maneuver, part


def _led(state: DuelCombat, actor: DuelCombatant) -> list[DuelCombatant]:
    """Opponents against whom the actor may lead an exchange now (lead_refusal)."""
    opponents = [by_id(state, other(d, actor["id"])) for d in duels_of(state, actor["id"])]
    return [o for o in opponents if lead_refusal(state, actor, o) is None]


def _optional_rules(state: DuelCombat) -> dict[str, Any]:
    """The fields of an optional rule (optional_rule_refusal): listed only with their rule on."""
    specs = {
        "coup_mortel_steps": {"type": "integer", "minimum": 0, "maximum": 5},
        "aim": {"choices": sorted(LOCATION_NAMES)},
    }
    return {
        field: spec if optional_rule_refusal(state["options"], field) is None else None for field, spec in specs.items()
    }


# -- the attacker's actions -------------------------------------------------------------------------


def _attacks(ruleset: AnyRuleset, state: DuelCombat, actor: DuelCombatant) -> list[dict[str, Any]]:
    sets = []
    for opponent in _led(state, actor):
        for weapon, maneuver, part in _blows(state, actor, opponent):
            choice_found()  # a probe stops here, before the seconds
            sets.append(
                describe(
                    ruleset,
                    state,
                    actor["id"],
                    "attack",
                    **_optional_rules(state),
                    target={"required": True, "choices": [opponent["id"]]},
                    weapon={"required": True, "choices": [weapon["id"]]},
                    maneuver={"required": True, "choices": [maneuver]},
                    part={"required": True, "choices": [part]} if part else None,
                    second={"choices": _seconds(state, actor, opponent, maneuver, part)},
                    defense={"type": "object"},  # the defender's declaration: what his `defend` would list
                )
            )
    return sets


def _seconds(
    state: DuelCombat, actor: DuelCombatant, opponent: DuelCombatant, first: str, part: str | None
) -> list[dict[str, Any]]:
    """Double Manoeuvre: second blows needing no hold, or the hold the first blow (a Prise) sets up."""
    found = []
    set_up_by = {"maneuver": first, "part": part}
    for weapon in _weapons(actor):
        for maneuver in MELEE_ATTACKS:
            if maneuver == "prise" or maneuver_refusal(maneuver, weapon):
                continue
            if hold_refusal(maneuver, None, opponent["name"], set_up_by):
                continue
            found.append({"maneuver": maneuver, "weapon": weapon["id"]})
    return found


def _shots(ruleset: AnyRuleset, state: DuelCombat, actor: DuelCombatant) -> list[dict[str, Any]]:
    sets: list[Choice] = []
    targets = [o["id"] for o in _led(state, actor)]
    if not targets:
        return sets
    for weapon in _weapons(actor):
        reach = _reach(weapon) if is_ranged(weapon) else None
        if reach is None:
            continue
        for shot in RANGED_SHOTS:
            if automatic_refusal(weapon, shot) is not None or ammo_refusal(actor, weapon, shots_of(shot)) is not None:
                continue
            suppression = shot == "tir_de_suppression"
            sets.append(
                describe(
                    ruleset,
                    state,
                    actor["id"],
                    "shoot",
                    **_optional_rules(state),
                    target={"required": True, "choices": targets},
                    weapon={"required": True, "choices": [weapon["id"]]},
                    shot={"required": True, "choices": [shot]},
                    distance={"required": True, **reach},
                    cover={"required": True, "type": "integer", "minimum": 1, "maximum": 10}
                    if shot == "tir_a_couvert"
                    else None,
                    zone_width={"required": True, "type": "integer", "minimum": 1, "maximum": 200}
                    if suppression
                    else None,
                    zone={"choices": [[]] + [[c["id"]] for c in present(state) if c["id"] != actor["id"]]}
                    if suppression
                    else None,
                    bursts=field_spec(ruleset, "shoot", "bursts") if suppression else None,
                    defense=None if suppression else {"type": "object"},
                )
            )
    return sets


def _threats(ruleset: AnyRuleset, state: DuelCombat, actor: DuelCombatant) -> list[dict[str, Any]]:
    targets = [o["id"] for o in _led(state, actor)]
    if not targets:
        return []
    sets = []
    for weapon in _weapons(actor):
        reach = _reach(weapon) if is_ranged(weapon) else None
        if is_ranged(weapon) and reach is None:
            continue
        sets.append(
            describe(
                ruleset,
                state,
                actor["id"],
                "threaten",
                target={"required": True, "choices": targets},
                weapon={"required": True, "choices": [weapon["id"]]},
                distance={"required": True, **reach} if reach else None,
            )
        )
    return sets


def _joins(ruleset: AnyRuleset, state: DuelCombat, actor: DuelCombatant) -> list[dict[str, Any]]:
    """A free fighter (or an attacker with room under his DEX) engages a standing opponent he does not fight yet."""
    foes = [c["id"] for c in present(state) if join_refusal(state, actor, c) is None]
    return (
        [
            describe(
                ruleset,
                state,
                actor["id"],
                "join",
                target={"required": True, "choices": foes},
                combatant=None,
                reason=None,
            )
        ]
        if foes
        else []
    )


def _face_sets(state: DuelCombat, actor: DuelCombatant, including: str | None = None) -> list[list[str]]:
    """The sets of engaged opponents the actor may face (face_refusal), each with ``including`` if given."""
    engaged = [other(d, actor["id"]) for d in duels_of(state, actor["id"])]
    sets: list[list[str]] = []
    for size in range(len(engaged), 0, -1):
        if face_refusal(actor, size) is None:
            sets += [list(c) for c in combinations(engaged, size) if including is None or including in c]
    return sets[:MAX_FACE_SETS]


def _faces(ruleset: AnyRuleset, state: DuelCombat, actor: DuelCombatant) -> list[dict[str, Any]]:
    sets = _face_sets(state, actor)
    return (
        [describe(ruleset, state, actor["id"], "face", opponents={"required": True, "choices": sets})] if sets else []
    )


def _passes(ruleset: AnyRuleset, state: DuelCombat, actor: DuelCombatant) -> list[dict[str, Any]]:
    led = [other(d, actor["id"]) for d in exchanges_led_by(state, actor["id"])]
    return [describe(ruleset, state, actor["id"], "pass", target={"choices": led} if led else None)]


def _reloads(ruleset: AnyRuleset, state: DuelCombat, actor: DuelCombatant) -> list[dict[str, Any]]:
    ranged = [w["id"] for w in _weapons(actor) if is_ranged(w)]
    return (
        [describe(ruleset, state, actor["id"], "reload", weapon={"required": True, "choices": ranged})]
        if ranged
        else []
    )


# -- answers: the defense, the counter to a threat -------------------------------------------------


def _counters(
    state: DuelCombat, actor: DuelCombatant, opponent: DuelCombatant, distance: int | None
) -> list[dict[str, Any]]:
    """Counter-attacks the actor may make (defense.check_counter): a blow within contact, or shooting back."""
    found = []
    if within_reach_of_a_blow(distance):
        found += [
            {"maneuver": m, "weapon": w["id"], **({"part": p} if p else {})}
            for w, m, p in _blows(state, actor, opponent)
        ]
    if distance is not None:
        found += [{"weapon": w["id"]} for w in _shooting(actor) if reach_refusal(w, band_of(distance)) is None]
    return found


def _defenses(ruleset: AnyRuleset, state: DuelCombat, actor: DuelCombatant) -> list[dict[str, Any]]:
    plan = cast("dict[str, Any]", state["pending"])  # listed only while an exchange awaits its defense
    attacker = by_id(state, plan["attacker"])
    permitted = [
        d
        for d in allowed(plan, 0)
        if locked_refusal(state, actor, d) is None
        and dive_refusal(state, actor, d) is None
        and cover_refusal(actor, "defend", d) is None
    ]
    double = plan["kind"] == "melee" and len(plan["blows"]) == 2
    seconds = [d for d in allowed(plan, 1) if cover_refusal(actor, "defend", d) is None] if double else []
    second = {"required": True, "choices": seconds} if double else None
    items = [actor["sheet"]["defensive_item"]] if actor["sheet"]["defensive_item"] else []
    items += [w["id"] for w in _weapons(actor) if block_refusal(w) is None]
    # E-5: a fighter with several opponents may choose whom he faces as he declares his defense.
    face = (
        {"choices": _face_sets(state, actor, including=attacker["id"])}
        if len(duels_of(state, actor["id"])) > 1
        else None
    )
    plain = [d for d in permitted if DEFENSES[d]["kind"] not in ("block", "counter", "cover")]
    sets: list[Choice] = []

    def entry(defenses: list[str], **refined: Any) -> None:
        if defenses:
            sets.append(
                describe(
                    ruleset,
                    state,
                    actor["id"],
                    "defend",
                    defense={"required": True, "choices": defenses},
                    **{
                        "using": None,
                        "counter": None,
                        "cover_ip": None,
                        "second_defense": second,
                        "face": face,
                        **refined,
                    },
                )
            )

    entry(plain)
    entry([d for d in permitted if DEFENSES[d]["kind"] == "block"], using={"choices": items})
    entry([d for d in permitted if DEFENSES[d]["kind"] == "cover"], cover_ip=field_spec(ruleset, "defend", "cover_ip"))
    counters = _counters(state, actor, attacker, plan.get("distance"))
    if "contre_attaque" in permitted and counters:
        entry(["contre_attaque"], counter={"required": True, "choices": counters}, second_defense=None)
    return sets


def _answers_to_threats(ruleset: AnyRuleset, state: DuelCombat, actor: DuelCombatant) -> list[dict[str, Any]]:
    duel = next(
        (d for d in duels_of(state, actor["id"]) if d["threat"] and d["attacker"] != actor["id"] and not d["done"]),
        None,
    )
    if duel is None:
        return []
    threatener = by_id(state, duel["attacker"])
    threat = cast("dict[str, Any]", duel["threat"])  # found above among the threatened duels
    blows = _blows(state, actor, threatener) if within_reach_of_a_blow(threat.get("distance")) else []

    def answer(
        weapon: dict[str, Any],
        maneuver: str | None = None,
        part: str | None = None,
        reach: dict[str, Any] | None = None,
    ) -> Choice:
        return describe(
            ruleset,
            state,
            actor["id"],
            "counter",
            weapon={"required": True, "choices": [weapon["id"]]},
            maneuver={"required": True, "choices": [maneuver]} if maneuver else None,
            part={"required": True, "choices": [part]} if part else None,
            distance={"required": True, **reach} if reach else None,
        )

    sets = [answer(weapon, maneuver, part) for weapon, maneuver, part in blows]
    for weapon in _shooting(actor):
        reach = _reach(weapon)
        if reach is not None:
            sets.append(answer(weapon, reach=reach))
    return sets


HANDLERS = {
    "attack": _attacks,
    "shoot": _shots,
    "threaten": _threats,
    "join": _joins,
    "face": _faces,
    "pass": _passes,
    "reload": _reloads,
    "defend": _defenses,
    "counter": _answers_to_threats,
}
