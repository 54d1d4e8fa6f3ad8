"""Turn structure: every fight is a set of duels (seed, intro and E-5).

A duel is a pair of opponents; one of them holds the initiative (the
"attaquant"). Each round every duel has one exchange, led by its attacker.
Who holds the initiative changes only through the events of rules-notes 1.2,
applied by :func:`give_initiative`.
"""

from __future__ import annotations

from typing import Any

from ..conditions import next_round, remove
from ..errors import ActionNotAllowed, InvalidAction, NotYourTurn, RulesError, refusal
from ..state import Awaiting
from .arsenal import ammo_refusal, is_ranged, lost_refusal, within_reach_of_a_blow
from .checks import attribute_base, roll_test, skill_base
from .conditions import PRONE, is_in_cover, is_out, is_prone, is_stunned
from .state import Duel, DuelCombat, DuelCombatant, Hold, Pair, Res
from .tables import DEFENSES, RANGED_KINDS

ATTACKER_ACTIONS = ["attack", "shoot", "threaten", "join", "face", "pass", "reload"]
# Behind cover (E-4 Couvert), a fighter still chooses whom he faces, lets his exchange go, and stays behind it.
IN_COVER_ACTIONS = frozenset({"face", "pass", "defend"})
IN_COVER_DEFENSES = frozenset({"couvert", "aucune"})
MAX_INITIATIVE_REROLLS = 20


def by_id(state: DuelCombat, combatant_id: str) -> DuelCombatant:
    for c in state["combatants"]:  # a plain loop: the rules' most frequent lookup here
        if c["id"] == combatant_id:
            return c
    raise StopIteration  # as next() over an empty search did


def other(duel: Pair, combatant_id: str) -> str:
    return duel["b"] if duel["a"] == combatant_id else duel["a"]


def duel_between(state: DuelCombat, first: str, second: str) -> Duel | None:
    return next((d for d in state["duels"] if {d["a"], d["b"]} == {first, second}), None)


def duels_of(state: DuelCombat, combatant_id: str) -> list[Duel]:
    return [d for d in state["duels"] if combatant_id in (d["a"], d["b"])]


def max_opponents(combatant: DuelCombatant) -> int:
    # "pas plus d'adversaires que sa DEX"; everyone can face at least one (gap G11).
    found: int = max(1, combatant["sheet"]["attributes"]["DEX"])
    return found


def hold_on(state: DuelCombat, held_id: str) -> Hold | None:
    for hold in state["holds"]:
        if hold["held"] == held_id:
            return hold
    return None


def is_locked(state: DuelCombat, combatant_id: str) -> bool:
    hold = hold_on(state, combatant_id)
    return bool(hold and hold["locked"])


def exchanges_led_by(state: DuelCombat, actor_id: str) -> list[Duel]:
    """The duels whose exchange ``actor_id`` still leads this round: a pass (its targets), a reload or a break
    free ends them; legal.py lists the pass's targets with it."""
    return [d for d in duels_of(state, actor_id) if d["attacker"] == actor_id and not d["done"]]


def face_refusal(actor: DuelCombatant, count: int) -> str | None:
    """ "Ne peut pas attaquer ou se défendre contre plus d'adversaires que sa DEX": why not ``count``, or None.

    The one statement of the rule: face_opponents and join_refusal refuse with it, legal.py lists with it.
    """
    if count > max_opponents(actor):
        return refusal(
            "{actor} can face at most {most:# opponent|# opponents} (DEX), not {count}",
            actor=actor["name"],
            most=max_opponents(actor),
            count=count,
        )
    return None


def join_refusal(state: DuelCombat, actor: DuelCombatant, target: DuelCombatant) -> str | None:
    """Why ``actor`` may not engage ``target`` now (E-5: a standing opponent not fought yet, within DEX), or None.

    The one statement of the rule: the join refuses with it, legal.py lists with it.
    """
    if target["side"] == actor["side"] or is_out(target):
        return refusal("{target} is not an opponent {actor} can engage", target=target["name"], actor=actor["name"])
    if duel_between(state, actor["id"], target["id"]):
        return refusal("{actor} already fights {target}", actor=actor["name"], target=target["name"])
    return face_refusal(actor, len(actor["facing"]) + 1)


def lead_refusal(state: DuelCombat, actor: DuelCombatant, target: DuelCombatant) -> RulesError | None:
    """Why ``actor`` may not lead an exchange against ``target`` now, or None: their duel, his initiative, not
    had this round, an opponent he faces. exchange.engaged refuses with it, legal.py lists with it."""
    duel = duel_between(state, actor["id"], target["id"])
    if duel is None:
        return ActionNotAllowed(
            refusal(
                "{actor} is not fighting {target}: join that fight first", actor=actor["name"], target=target["name"]
            ),
            field="target",
        )
    if duel["attacker"] != actor["id"]:
        return NotYourTurn(
            refusal("{target} holds the initiative against {actor}", target=target["name"], actor=actor["name"]),
            field="target",
        )
    if duel["done"]:
        return ActionNotAllowed(
            refusal(
                "{actor} has already had this round's exchange with {target}",
                actor=actor["name"],
                target=target["name"],
            ),
            field="target",
        )
    if target["id"] not in actor["facing"]:
        return ActionNotAllowed(
            refusal(
                "{actor} does not face {target}: choose opponents with a face action",
                actor=actor["name"],
                target=target["name"],
            ),
            field="target",
        )
    return None


def face_opponents(res: Res, actor: DuelCombatant, opponents: list[str], field: str) -> None:
    """ "Le personnage peut ne choisir que certains adversaires, tant en attaque qu'en défense" (E-5), at most DEX.

    Chosen on the fighter's turn (``face``) or with a defense (``defend.face``): the seed sets no moment.
    """
    chosen = list(dict.fromkeys(opponents))
    engaged = {other(d, actor["id"]) for d in duels_of(res.state, actor["id"])}
    for index, opponent in enumerate(chosen):
        if opponent not in engaged:
            raise InvalidAction(
                refusal("'{opponent}' is not an opponent of {actor}", opponent=opponent, actor=actor["name"]),
                field=f"{field}.{index}",
            )
    why = face_refusal(actor, len(chosen))
    if why is not None:
        raise ActionNotAllowed(why, field=field)
    actor["facing"] = chosen
    res.emit("faces", combatant=actor["id"], opponents=chosen, malus=-len(chosen) if len(chosen) >= 2 else 0)


# -- initiative ---------------------------------------------------------------------


def _initiative_base(res: Res, combatant: DuelCombatant) -> dict[str, Any]:
    mode = combatant["sheet"]["initiative"] or res.options["initiative_roll"]
    if mode == "weapon":
        weapons = combatant["sheet"]["weapons"]
        return skill_base(combatant, weapons[0]["skill"] if weapons else None)
    return attribute_base(combatant, mode)


def roll_initiative(res: Res, first: DuelCombatant, second: DuelCombatant, *, interruption: bool = False) -> str:
    """Both roll; the better level wins, then the larger margin, else both roll again."""
    code = "interruption_rolled" if interruption else "initiative_rolled"
    for _ in range(MAX_INITIATIVE_REROLLS):
        tests = []
        for combatant in (first, second):
            test = roll_test(
                res,
                {**_initiative_base(res, combatant), "wound": combatant["malus"]},
                f"initiative {combatant['id']}",
                combatant,
            )
            res.emit(code, combatant=combatant["id"], **test.params())
            tests.append((test.level, test.target - test.total))
        if tests[0] != tests[1]:
            return first["id"] if tests[0] > tests[1] else second["id"]
        res.emit("initiative_tied", attacker=first["id"], defender=second["id"])
    return first["id"]


def open_duel(res: Res, first: DuelCombatant, second: DuelCombatant, attacker_id: str) -> Duel:
    duel: Duel = {"a": first["id"], "b": second["id"], "attacker": attacker_id, "done": False, "threat": None}
    res.state["duels"].append(duel)
    for combatant, opponent in ((first, second), (second, first)):
        if len(combatant["facing"]) < max_opponents(combatant):
            combatant["facing"].append(opponent["id"])
        else:
            res.emit("cannot_face", combatant=combatant["id"], target=opponent["id"])
    res.emit("duel_started", attacker=attacker_id, defender=other(duel, attacker_id))
    return duel


def start_duels(res: Res) -> None:
    """Pair the fighters: each with the first free fighter of another side (seed, intro note)."""
    state = res.state
    state.update({"duels": [], "holds": [], "pending": None})
    surprise = set(res.options["surprise"])
    for unknown in sorted(surprise - {c["id"] for c in state["combatants"]}):
        res.emit("surprise_ignored", combatant=unknown)
    paired: set[str] = set()
    for first in state["combatants"]:
        if first["id"] in paired:
            continue
        second = next((c for c in state["combatants"] if c["id"] not in paired and c["side"] != first["side"]), None)
        if second is None:
            continue
        paired |= {first["id"], second["id"]}
        surprised = [c["id"] for c in (first, second) if c["id"] in surprise]
        if len(surprised) == 1:
            res.emit(
                "surprise", attacker=surprised[0], defender=other({"a": first["id"], "b": second["id"]}, surprised[0])
            )
            attacker = surprised[0]
        else:
            attacker = roll_initiative(res, first, second)
        open_duel(res, first, second, attacker)


# -- changes of initiative ----------------------------------------------------------------


def give_initiative(res: Res, duel: Duel, combatant_id: str, reason: str) -> None:
    """``combatant_id`` becomes the duel's attacker; regaining it means getting up."""
    if duel["attacker"] == combatant_id:
        return
    duel["attacker"] = combatant_id
    duel["threat"] = None
    res.emit("initiative_passes", attacker=combatant_id, defender=other(duel, combatant_id), reason=reason)
    combatant = by_id(res.state, combatant_id)
    if is_prone(combatant):
        remove(combatant, PRONE)
        res.emit("stands_up", combatant=combatant_id)


def lose_initiative_everywhere(res: Res, combatant: DuelCombatant, reason: str) -> None:
    for duel in duels_of(res.state, combatant["id"]):
        if duel["attacker"] == combatant["id"]:
            give_initiative(res, duel, other(duel, combatant["id"]), reason)


# -- rounds ---------------------------------------------------------------------------------


def close_exchange(res: Res, duel: Duel) -> None:
    if duel in res.state["duels"]:
        duel["done"] = True
    next_round_if_over(res)


def next_round_if_over(res: Res) -> None:
    state = res.state
    if state["status"] != "active" or state["pending"] or not state["duels"]:
        return
    if any(not d["done"] for d in state["duels"]):
        return
    for duel in state["duels"]:
        duel["done"] = False
    # Stuns and suppression fire expire here (their `ends` round).
    next_round(res)


def leave_fight(res: Res, combatant: DuelCombatant) -> None:
    """A combatant out of the fight leaves its duels, holds and everyone's facing list."""
    state = res.state
    state["duels"] = [d for d in state["duels"] if combatant["id"] not in (d["a"], d["b"])]
    state["holds"] = [h for h in state["holds"] if combatant["id"] not in (h["holder"], h["held"])]
    for fighter in state["combatants"]:
        if combatant["id"] in fighter["facing"]:
            fighter["facing"].remove(combatant["id"])
    combatant["facing"] = []


# -- who may act -------------------------------------------------------------------------------


def cover_refusal(combatant: DuelCombatant, action_type: str, defense: str | None = None) -> str | None:
    """Why a fighter behind cover may not do this now, or None: "Couvert | Protection automatique mais aucune
    action ni déplacement", until the round ends (gap G28).

    The one statement of the rule: the turn check and the defense refuse with it; awaiting and legal.py list
    with it. ``defense``: the defense declared, for a ``defend``.
    """
    if not is_in_cover(combatant):
        return None
    if action_type not in IN_COVER_ACTIONS:
        return refusal(
            "{combatant} took cover (Couvert) this round: no action nor movement before the next round, "
            "only letting the exchange go (pass) or choosing whom to face",
            combatant=combatant["name"],
        )
    if defense is not None and defense not in IN_COVER_DEFENSES:
        return refusal(
            "{combatant} took cover (Couvert) this round and stays behind it: Couvert or no defense, not {defense}",
            combatant=combatant["name"],
            defense=DEFENSES[defense]["name"],
        )
    return None


def _attacker_actions(state: DuelCombat, combatant: DuelCombatant) -> list[str]:
    if is_stunned(combatant):
        return ["pass"]
    hold = hold_on(state, combatant["id"])
    if hold and hold["locked"]:  # is_locked
        return ["break_free", "pass"]
    held = ["break_free"] if hold else []
    shoots = any(w["kind"] in RANGED_KINDS for w in combatant["sheet"]["weapons"])
    return [a for a in ATTACKER_ACTIONS if shoots or a not in ("shoot", "reload")] + held


def _can_counter(combatant: DuelCombatant, threat: dict[str, Any]) -> bool:
    """A blow answers a threat within contact; from further only a ranged weapon in hand that can
    fire (ammo_refusal)."""
    if within_reach_of_a_blow(threat.get("distance")):
        return True
    return any(
        is_ranged(w) and lost_refusal(combatant, w) is None and ammo_refusal(combatant, w, 1) is None
        for w in combatant["sheet"]["weapons"]
    )


def free_fighters(state: DuelCombat) -> list[DuelCombatant]:
    engaged = {i for d in state["duels"] for i in (d["a"], d["b"])}
    standing = [c for c in state["combatants"] if not is_out(c)]
    return [c for c in standing if c["id"] not in engaged and any(o["side"] != c["side"] for o in standing)]


def awaiting(state: DuelCombat, only: str | None = None) -> list[Awaiting]:
    """Who may act now, and how. ``only``: the entry of that combatant alone, if any (the turn
    check of every action), deriving no other: the same entry, with the same actions in the same order."""
    pending = state.get("pending")
    if pending:
        return [{"actor": pending["defender"], "actions": ["defend"], "reason": "defense"}]
    entries: dict[str, Awaiting] = {}

    def offer(actor: str, actions: list[str], reason: str) -> None:
        actions = [a for a in actions if cover_refusal(by_id(state, actor), a) is None]
        if not actions:
            return
        entry = entries.setdefault(actor, {"actor": actor, "actions": [], "reason": reason})
        entry["actions"] += [a for a in actions if a not in entry["actions"]]

    for duel in state["duels"]:
        if duel["done"]:
            continue
        attacker = duel["attacker"]
        if only is None or only == attacker:
            offer(attacker, _attacker_actions(state, by_id(state, attacker)), "initiative")
        threatened = other(duel, attacker)
        if (
            duel["threat"]
            and (only is None or only == threatened)
            and _can_counter(by_id(state, threatened), duel["threat"])
        ):
            offer(threatened, ["counter"], "threatened")
    # A fighter in a duel (done or not) is never free.
    if only is None or all(only != d["a"] and only != d["b"] for d in state["duels"]):
        for fighter in free_fighters(state):
            if only is None or only == fighter["id"]:
                offer(fighter["id"], ["join"], "free")
    # "Tant en attaque qu'en défense" (E-5): a fighter awaiting the attacks of several opponents chooses whom he
    # faces before they come, not only as he declares a defense.
    for fighter_id in _chooses_in_defense(state, only):
        offer(fighter_id, ["face"], "opponents")
    return list(entries.values())


def _chooses_in_defense(state: DuelCombat, only: str | None) -> list[str]:
    """Fighters with two opponents or more, one of whom still has his exchange to lead against them."""
    found: list[str] = []
    for duel in state["duels"]:
        defender = other(duel, duel["attacker"])
        if duel["done"] or defender in found or (only is not None and only != defender):
            continue
        if len(duels_of(state, defender)) >= 2 and not is_out(by_id(state, defender)):
            found.append(defender)
    return found
