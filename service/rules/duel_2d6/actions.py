"""Duel 2D6 actions: who may act is :func:`duels.awaiting`; each handler applies one action."""

from __future__ import annotations

from typing import Any, cast

from ..errors import ActionNotAllowed, InvalidAction, NotYourTurn, refusal
from ..ruleset import GM
from ..state import Action
from . import exchange
from .arsenal import band_of, check_reach, is_ranged, shot_modifiers, weapon_of
from .checks import attribute_base, maneuver_base, roll_test, situation, skill_base, specialization
from .conditions import FIRING_FROM_COVER, add, is_out, remove
from .defense import check_counter
from .duels import (
    awaiting,
    by_id,
    close_exchange,
    cover_refusal,
    duel_between,
    duels_of,
    exchanges_led_by,
    face_opponents,
    give_initiative,
    hold_on,
    join_refusal,
    leave_fight,
    next_round_if_over,
    open_duel,
    other,
    roll_initiative,
)
from .effects import release
from .ranged import after_shot, suppression, zone_test
from .state import Duel, DuelCombat, DuelCombatant, Res
from .tables import THREATEN
from .wounds import pv_adjusted, wound_level_set

# Actions that make a suppressed combatant move or act in the zone (E-2, Tir de suppression).
ACTS_IN_ZONE = frozenset({"attack", "shoot", "threaten", "counter", "join", "reload", "break_free"})


def resolve(res: Res, action: Action) -> None:
    kind = action["type"]
    actor = res.combatant(action["actor"], field="actor")
    _check_turn(res.state, actor, kind)
    if kind != "shoot" or action.get("shot") != "tir_a_couvert":
        if remove(actor, FIRING_FROM_COVER):
            res.emit("leaves_cover", combatant=actor["id"])
    if kind in ACTS_IN_ZONE:
        zone_test(res, actor)
        if is_out(actor):
            next_round_if_over(res)
            return
    HANDLERS[kind](res, actor, action)


def _check_turn(state: DuelCombat, actor: DuelCombatant, kind: str) -> None:
    why = cover_refusal(actor, kind)
    if why is not None:
        raise ActionNotAllowed(why, field="type")
    entry = next((e for e in awaiting(state, only=actor["id"]) if e["actor"] == actor["id"]), None)
    if entry is None:
        names = {c["id"]: c["name"] for c in state["combatants"]}
        who = ", ".join(f"{names.get(e['actor'], e['actor'])} ({'/'.join(e['actions'])})" for e in awaiting(state))
        if not who:
            raise NotYourTurn(refusal("{actor} cannot act now; nobody is awaited", actor=actor["name"]), field="actor")
        raise NotYourTurn(
            refusal("{actor} cannot act now; waiting for: {waiting}", actor=actor["name"], waiting=who), field="actor"
        )
    if kind not in entry["actions"]:
        raise ActionNotAllowed(
            refusal("{actor} may now only: {actions}", actor=actor["name"], actions=", ".join(entry["actions"])),
            field="type",
        )


# -- exchanges ---------------------------------------------------------------------------------


def _attack(res: Res, actor: DuelCombatant, action: Action) -> None:
    exchange.declare_attack(res, actor, action)


def _shoot(res: Res, shooter: DuelCombatant, action: Action) -> None:
    defender, duel = exchange.engaged(res, shooter, action["target"])
    weapon = weapon_of(shooter, action["weapon"])
    if not is_ranged(weapon):
        raise InvalidAction(
            refusal("{weapon} is not a ranged weapon: use an attack action", weapon=weapon["name"]), field="weapon"
        )
    band = band_of(action["distance"])
    check_reach(weapon, band)
    shot = action["shot"]
    if (shot == "tir_a_couvert") != (action["cover"] is not None):
        raise InvalidAction(refusal("cover (1-10) goes with a tir_a_couvert, and only with it"), field="cover")
    if shot != "tir_de_suppression" and (action["zone"] or action["zone_width"] is not None):
        raise InvalidAction(refusal("zone and zone_width belong to a tir_de_suppression"), field="zone")
    if shot == "tir_a_couvert":
        # "Même malus appliqué à l'adversaire": shots at this shooter suffer it until he acts again.
        remove(shooter, FIRING_FROM_COVER)
        add(res, shooter, FIRING_FROM_COVER, source=shooter["id"], until="acts", penalty=action["cover"])
    if shot == "tir_de_suppression":
        if action["defense"] is not None:
            raise InvalidAction(refusal("nobody defends against a suppression fire"), field="defense")
        duel["threat"] = None
        reasons = suppression(res, shooter, defender, weapon, action, band)
        exchange.finish(res, duel, defender, reasons, keeps=shooter["id"] not in defender["facing"])
        return
    exchange.declare_shot(res, shooter, action, weapon, duel)


def _defend(res: Res, defender: DuelCombatant, action: Action) -> None:
    exchange.defend(res, defender, action)


def _threaten(res: Res, actor: DuelCombatant, action: Action) -> None:
    """Menacer: a normal attack roll, no damage; the defender must counter-attack to get out."""
    defender, duel = exchange.engaged(res, actor, action["target"])
    weapon = weapon_of(actor, action["weapon"])
    ranged = is_ranged(weapon)
    if ranged:
        if action["distance"] is None:
            raise InvalidAction(
                refusal("threatening with a ranged weapon needs the distance in metres"), field="distance"
            )
        band = band_of(action["distance"])
        check_reach(weapon, band)
        mods = shot_modifiers(actor, weapon, {"modifier": action["modifier"]}, band)
    else:
        mods = {
            **skill_base(actor, weapon["skill"]),
            "weapon": weapon["hit"],
            "maneuver": THREATEN["hit"],
            "specialization": specialization(actor, "menacer"),
            **situation(actor),
            "gm": action["modifier"],
        }
    test = roll_test(res, mods, "threaten", actor)
    res.emit("threat_rolled", attacker=actor["id"], defender=defender["id"], weapon=weapon["id"], **test.params())
    if ranged:
        after_shot(res, actor, weapon, test)
    if test.success:
        duel["threat"] = {"weapon": weapon["id"], "ranged": ranged, "distance": action["distance"] if ranged else None}
        res.emit("threat_established", attacker=actor["id"], defender=defender["id"])
        close_exchange(res, duel)
    else:
        res.emit("attack_missed", attacker=actor["id"], defender=defender["id"])
        exchange.finish(res, duel, defender, ["attack_failed"], keeps=actor["id"] not in defender["facing"])


def _counter(res: Res, actor: DuelCombatant, action: Action) -> None:
    duel = next(
        d for d in duels_of(res.state, actor["id"]) if d["threat"] and d["attacker"] != actor["id"] and not d["done"]
    )
    threatener = by_id(res.state, duel["attacker"])
    spec = {key: action[key] for key in ("maneuver", "weapon", "part", "modifier", "distance")}
    threat = cast("dict[str, Any]", duel["threat"])  # found above among the threatened duels
    distance = threat.get("distance")  # a gun's threat is made from a distance; a blade's at contact
    check_counter(actor, threatener, spec, distance, res.state, "")
    if exchange.counter_attack(res, actor, threatener, spec, distance):
        duel["threat"] = None
        res.emit("threat_broken", attacker=actor["id"], defender=threatener["id"])
        exchange.finish(res, duel, actor, ["counter_attack"], keeps=False)
    else:
        close_exchange(res, duel)


# -- engagement -----------------------------------------------------------------------------


def _join(res: Res, actor: DuelCombatant, action: Action) -> None:
    """A newcomer intervenes: an interruption roll decides who holds the initiative."""
    target = res.combatant(action["target"], field="target")
    why = join_refusal(res.state, actor, target)
    if why is not None:
        raise ActionNotAllowed(why, field="target")
    winner = roll_initiative(res, actor, target, interruption=True)
    open_duel(res, actor, target, winner)


def _face(res: Res, actor: DuelCombatant, action: Action) -> None:
    face_opponents(res, actor, action["opponents"], "opponents")


def _open_duels_led_by(res: Res, actor: DuelCombatant, target_id: str | None) -> list[Duel]:
    duels = exchanges_led_by(res.state, actor["id"])
    if target_id is not None:
        duels = [d for d in duels if other(d, actor["id"]) == target_id]
        if not duels:
            raise ActionNotAllowed(
                refusal(
                    "{actor} has no exchange to lead against '{target}' now", actor=actor["name"], target=target_id
                ),
                field="target",
            )
    return duels


def _pass(res: Res, actor: DuelCombatant, action: Action) -> None:
    res.emit("passed", actor=actor["id"], description=action["description"])
    for duel in _open_duels_led_by(res, actor, action["target"]):
        close_exchange(res, duel)


def _reload(res: Res, actor: DuelCombatant, action: Action) -> None:
    weapon = weapon_of(actor, action["weapon"])
    if not is_ranged(weapon):
        raise InvalidAction(refusal("{weapon} is not a ranged weapon", weapon=weapon["name"]), field="weapon")
    if weapon["id"] in actor["jammed"]:
        actor["jammed"].remove(weapon["id"])
    if weapon.get("ammo"):
        actor["ammo"][weapon["id"]] = weapon["ammo"]
    res.emit("reloaded", actor=actor["id"], weapon=weapon["id"], ammo=weapon.get("ammo"))
    for duel in _open_duels_led_by(res, actor, None):
        close_exchange(res, duel)


def _break_free(res: Res, actor: DuelCombatant, action: Action) -> None:
    hold = hold_on(res.state, actor["id"])
    if hold is None:
        raise ActionNotAllowed(refusal("{actor} is not held", actor=actor["name"]), field="type")
    if action["method"] == "degagement":
        base = {**maneuver_base(actor, True, None), "specialization": specialization(actor, "degagement")}
    else:
        base = attribute_base(actor, "FOR")
    test = roll_test(res, {**base, **situation(actor), "gm": action["modifier"]}, "break free", actor)
    res.emit("break_free_rolled", actor=actor["id"], method=action["method"], **test.params())
    if test.success:
        release(res, hold["holder"], actor["id"])
    duel = duel_between(res.state, actor["id"], hold["holder"])
    if duel and duel["attacker"] == actor["id"]:
        close_exchange(res, duel)
    else:
        for duel in _open_duels_led_by(res, actor, None):
            close_exchange(res, duel)


def adjusted(res: Res, target: DuelCombatant, action: Action, changes: dict[str, Any]) -> bool:
    """After the GM's adjust: this ruleset's own fields (care, narrative falls, a new attacker), and what PV and the
    wound level mean."""
    before = changes.get("pv", target["pv"])
    if action["pv"] is not None:
        target["pv"] = action["pv"]
        res.emit("pv_set", target=target["id"], pv=action["pv"], author=GM, reason=action["reason"])
    pv_adjusted(res, target, before)
    if "wound" in changes and "malus" not in changes:  # a malus the GM sets with the level is his to choose
        wound_level_set(res, target)
    for code in action["remove"]:
        if remove(target, code):
            res.emit("condition_removed", target=target["id"], condition=code, author=GM, reason=action["reason"])
    if action["initiative_against"] is not None:
        duel = duel_between(res.state, target["id"], action["initiative_against"])
        if duel is None:
            raise InvalidAction(
                refusal(
                    "{target} is not fighting '{opponent}'",
                    target=target["name"],
                    opponent=action["initiative_against"],
                ),
                field="initiative_against",
            )
        give_initiative(res, duel, target["id"], "game_master")
    return action["pv"] is not None or bool(action["remove"]) or action["initiative_against"] is not None


def settle(res: Res) -> None:
    """After a GM action: whoever is out leaves his duels; the round turns if every exchange is done."""
    for combatant in res.state["combatants"]:
        if is_out(combatant) and (
            combatant["facing"] or any(combatant["id"] in (d["a"], d["b"]) for d in res.state["duels"])
        ):
            leave_fight(res, combatant)
    pending = res.state.get("pending")
    if pending and not {pending.get("attacker"), pending.get("defender")} <= {
        c["id"] for c in res.state["combatants"] if not is_out(c)
    }:
        res.state["pending"] = None
    next_round_if_over(res)


HANDLERS = {
    "attack": _attack,
    "shoot": _shoot,
    "threaten": _threaten,
    "defend": _defend,
    "counter": _counter,
    "join": _join,
    "face": _face,
    "pass": _pass,
    "reload": _reload,
    "break_free": _break_free,
}
