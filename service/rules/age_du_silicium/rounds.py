"""The round: frenzy choices, declarations, then resolution (seed 1-4).

Seed, "Initiative": actions are declared in increasing Initiative order and
resolved in decreasing order; a combatant's 2nd action comes at I - 10, its
3rd at I - 20... A held action becomes a reaction, usable later in the round.
Each declared action is a *slot*; slots that need no decision resolve on
their own, and :func:`run` walks the round until someone must decide.
"""

from __future__ import annotations

from typing import Any

from ..conditions import has, next_round, remove
from ..errors import ActionNotAllowed, NotYourTurn, refusal
from ..state import Awaiting
from .state import Reaction, Res, SiliciumCombat, SiliciumCombatant
from .status import (
    IMMOBILISED,
    RANK_ACTIONS,
    SURPRISED,
    by_id,
    condition,
    frenzy,
    is_standing,
    may_attack,
    rank_refusal,
    refuse,
)
from .tables import ACTION_STEP, INTERACTIVE_KINDS, MAX_AIM

# A round holds at most MAX_COMBATANTS * MAX_ACTIONS slots; this only stops
# a bug from looping forever.
MAX_STEPS = 2000


def round_initiative(state: SiliciumCombat, combatant: SiliciumCombatant) -> int:
    """The one score that orders this round, its announcements and its actions alike.

    Seed: the best Initiative announces last and acts first. Taken when the
    round begins; a GM change moves it while nobody has announced yet
    (:func:`initiative_changed`), later it waits for the next round. A
    newcomer of this round (he declares from the next one) has his own.
    """
    found: int = state.get("initiatives", {}).get(combatant["id"], combatant["initiative"])
    return found


def plan(state: SiliciumCombat, combatant: SiliciumCombatant) -> list[dict[str, Any]]:
    """This round's actions: number, rank and what surprise leaves of each."""
    surprise = condition(combatant, SURPRISED) or {}
    lose, defend = surprise.get("lose", 0), surprise.get("defend", 0)
    slots = []
    for number in range(1, combatant["sheet"]["actions"] + 1):
        rank = round_initiative(state, combatant) - ACTION_STEP * (number - 1)
        if lose:
            lose -= 1
            slots.append({"number": number, "rank": rank, "constraint": "lost"})
        elif defend:
            defend -= 1
            slots.append({"number": number, "rank": rank, "constraint": "defensive"})
        else:
            slots.append({"number": number, "rank": rank, "constraint": None})
    return slots


def aim_refusal(aims: int, field: str = "kind") -> ActionNotAllowed | None:
    """Why a combatant may not stand at ``aims`` actions of aiming, or None (source: "max 3"): the
    declaration refuses with it, legal.py lists ``aim`` with it, and an aim beyond it is not counted."""
    if aims > MAX_AIM:
        return ActionNotAllowed(
            refusal("at most {most:# action|# actions} can be spent aiming", most=MAX_AIM), field=field
        )
    return None


def spend_surprise(res: Res, combatant: SiliciumCombatant, planned: list[dict[str, Any]]) -> None:
    """Use up what surprise took from this round's actions."""
    surprise = condition(combatant, SURPRISED)
    if surprise is None:
        return
    for slot in planned:
        if slot["constraint"] == "lost":
            surprise["lose"] -= 1
            res.emit("action_lost", combatant=combatant["id"], number=slot["number"])
        elif slot["constraint"] == "defensive":
            surprise["defend"] -= 1
    if surprise["lose"] <= 0 and surprise["defend"] <= 0:
        remove(combatant, SURPRISED)


def begin_round(res: Res) -> None:
    state = res.state
    standing = [c for c in state["combatants"] if is_standing(c)]
    state["initiatives"] = {c["id"]: c["initiative"] for c in state["combatants"]}
    state["phase"] = "frenzy" if any(frenzy(c) == "undecided" for c in standing) else "declaration"
    state["declarers"] = [c["id"] for c in standing]
    state["declared"] = []
    state["slots"] = []
    state["slot"] = 0
    state["reactions"] = []
    _order_declarers(res)


def _order_declarers(res: Res) -> None:
    """Announcements in increasing Initiative (ties in sheet order, docs G10)."""
    state = res.state
    combatants = by_id(state)
    index = {c["id"]: i for i, c in enumerate(state["combatants"])}
    state["declarers"].sort(key=lambda cid: (round_initiative(state, combatants[cid]), index[cid]))
    res.emit("declaration_order", order=[[cid] for cid in state["declarers"]])


def initiative_changed(res: Res, combatant: SiliciumCombatant) -> None:
    """The GM changed ``combatant``'s Initiative: the round's order follows while nobody has announced.

    Once someone has, the order of the announcements is history: the new
    score waits for the next round, so that the one who announced last still
    acts first (seed).
    """
    state = res.state
    if (
        state.get("phase") in ("frenzy", "declaration")
        and not state.get("slots")
        and combatant["id"] in state["declarers"]
    ):
        state.setdefault("initiatives", {})[combatant["id"]] = combatant["initiative"]
        _order_declarers(res)
    else:
        res.emit("initiative_next_round", combatant=combatant["id"])


def next_declarer(state: SiliciumCombat) -> SiliciumCombatant | None:
    combatants = by_id(state)
    for combatant_id in state["declarers"]:
        if combatant_id not in state["declared"] and is_standing(combatants[combatant_id]):
            return combatants[combatant_id]
    return None


def start_resolution(res: Res) -> None:
    state = res.state
    combatants = by_id(state)
    index = {c["id"]: i for i, c in enumerate(state["combatants"])}
    state["slots"].sort(
        key=lambda s: (-s["rank"], -round_initiative(state, combatants[s["actor"]]), index[s["actor"]], s["number"])
    )
    state["phase"] = "resolution"
    state["slot"] = 0
    if res.options["defend_ready"] == "round_start":
        # Defence is reactive by nature: a declared defence guards the whole round.
        for slot in state["slots"]:
            if slot["kind"] == "defend":
                slot["done"] = True
                add_reaction(res, slot, "defend")
    res.emit(
        "resolution_order", order=[[s["actor"]] for s in state["slots"]], ranks=[s["rank"] for s in state["slots"]]
    )


def add_reaction(res: Res, slot: dict[str, Any], kind: str) -> None:
    reaction: Reaction = {
        "actor": slot["actor"],
        "kind": kind,
        "rank": slot["rank"],
        "forced": slot.get("forced", False),
        "used": False,
    }
    res.state["reactions"].append(reaction)
    res.emit("action_held" if kind == "held" else "defending", actor=slot["actor"], rank=slot["rank"])


def current_slot(state: SiliciumCombat) -> dict[str, Any] | None:
    if state.get("phase") != "resolution" or state["slot"] >= len(state["slots"]):
        return None
    return state["slots"][state["slot"]]


def own_slot(state: SiliciumCombat, actor: SiliciumCombatant, kind: str) -> dict[str, Any]:
    """The actor's current slot, where it may send ``kind`` (status.rank_refusal, which awaiting lists with)."""
    slot = current_slot(state)
    if slot is None or slot["actor"] != actor["id"]:
        raise NotYourTurn(
            refusal(
                "it is not {actor}'s action; waiting for {combatant}",
                actor=actor["name"],
                combatant=by_id(state)[slot["actor"]]["name"],
            )
            if slot
            else refusal("it is not {actor}'s action; nobody acts now", actor=actor["name"]),
            field="actor",
        )
    refuse(rank_refusal(actor, slot["kind"], kind), "type")
    return slot


def finish_slot(state: SiliciumCombat) -> None:
    state["slots"][state["slot"]]["done"] = True
    state["slot"] += 1


def available_reactions(state: SiliciumCombat, combatant_id: str, kinds: tuple[str, ...]) -> list[Reaction]:
    return [
        r for r in state.get("reactions", []) if r["actor"] == combatant_id and not r["used"] and r["kind"] in kinds
    ]


def defences(state: SiliciumCombat, combatant: SiliciumCombatant) -> list[Reaction]:
    """Reactions the combatant may spend on a dodge or parry, declared defences first.

    A berserker neglects its defence, except the compulsory defensive action
    surprise imposed on it (docs, gap G9).
    """
    found = available_reactions(state, combatant["id"], ("defend", "held"))
    if frenzy(combatant) == "berserker":
        found = [r for r in found if r["forced"]]
    return sorted(found, key=lambda r: r["kind"] != "defend")


def _resolve_alone(res: Res, slot: dict[str, Any], actor: SiliciumCombatant) -> None:
    kind = slot["kind"]
    if kind == "hold":
        add_reaction(res, slot, "held")
    elif kind == "defend":
        add_reaction(res, slot, "defend")
    elif kind == "aim":
        if aim_refusal(actor["aim"] + 1) is None:  # the GM may have set the aims since the declaration
            actor["aim"] += 1
        res.emit("aimed", actor=actor["id"], aim=actor["aim"])
    elif kind == "flee":
        res.emit("fled", actor=actor["id"], description=slot["description"])
    else:
        res.emit("other_action", actor=actor["id"], description=slot["description"])


def open_holders(state: SiliciumCombat) -> list[str]:
    """Who holds an unused action they may still attack with (seed: "retenir son action jusqu'au moment opportun").

    A held action that can no longer attack (a fugitive not cornered, a
    victim held down) stays usable as a dodge or parry but keeps nobody waiting.
    """
    combatants = by_id(state)
    holders: list[str] = []
    for reaction in state.get("reactions", []):
        actor = reaction["actor"]
        if reaction["kind"] != "held" or reaction["used"] or actor in holders:
            continue
        if is_standing(combatants[actor]) and may_attack(combatants[actor]):
            holders.append(actor)
    return holders


def _end_round(res: Res) -> None:
    state = res.state
    for reaction in state["reactions"]:
        if not reaction["used"]:
            res.emit("reaction_lapsed", actor=reaction["actor"], kind=reaction["kind"])
    next_round(res)
    begin_round(res)


def run(res: Res) -> None:
    """Resolve everything that needs no decision, up to the next one."""
    state = res.state
    for _ in range(MAX_STEPS):
        if state["status"] != "active" or state.get("pending"):
            return
        if not any(is_standing(c) for c in state["combatants"]):
            return
        if state["phase"] == "frenzy":
            if any(frenzy(c) == "undecided" for c in state["combatants"] if is_standing(c)):
                return
            state["phase"] = "declaration"
        elif state["phase"] == "declaration":
            declarer = next_declarer(state)
            if declarer is None:
                start_resolution(res)
            elif not any(s["constraint"] != "lost" for s in plan(state, declarer)):
                spend_surprise(res, declarer, plan(state, declarer))
                state["declared"].append(declarer["id"])
            else:
                return
        else:
            slot = current_slot(state)
            if slot is None:
                # The round stays open while a held action may still be used or given up.
                if open_holders(state):
                    return
                _end_round(res)
                continue
            actor = by_id(state)[slot["actor"]]
            if slot.get("done"):
                state["slot"] += 1
            elif not is_standing(actor):
                res.emit("action_skipped", actor=actor["id"], number=slot["number"])
                finish_slot(state)
            elif slot["kind"] in INTERACTIVE_KINDS or has(actor, IMMOBILISED):
                # A victim held down before his rank may try to break free instead.
                return
            else:
                _resolve_alone(res, slot, actor)
                finish_slot(state)
    raise RuntimeError("the round did not settle")  # pragma: no cover - a bug, never a rule


def awaiting(state: SiliciumCombat) -> list[Awaiting]:
    pending = state.get("pending")
    if pending:
        return [{"actor": pending["target"], "actions": ["react"], "reason": "reaction"}]
    phase = state.get("phase")
    if phase == "frenzy":
        return [
            {"actor": c["id"], "actions": ["choose_frenzy"], "reason": "frenzy"}
            for c in state["combatants"]
            if is_standing(c) and frenzy(c) == "undecided"
        ]
    if phase == "declaration":
        declarer = next_declarer(state)
        return _with_frenzy_choices(
            state, [{"actor": declarer["id"], "actions": ["declare"], "reason": "declaration"}] if declarer else []
        )
    waiting: list[Awaiting] = []
    slot = current_slot(state)
    # run() leaves a fallen actor's slot current when nobody stands any more: it awaits no one then.
    if slot is not None and is_standing(by_id(state)[slot["actor"]]):
        actor = by_id(state)[slot["actor"]]
        # An immobilised victim may only break free or forgo; one freed before his rank may hold or forgo.
        candidates = dict.fromkeys((slot["kind"], *RANK_ACTIONS))
        actions = [kind for kind in candidates if rank_refusal(actor, slot["kind"], kind) is None]
        waiting.append({"actor": slot["actor"], "actions": actions, "reason": "resolution"})
    # A held action is an attack later in the round, or given up (forgo).
    waiting.extend(
        {"actor": actor, "actions": ["attack", "forgo"], "reason": "held_action"} for actor in open_holders(state)
    )
    return _with_frenzy_choices(state, waiting)


def _with_frenzy_choices(state: SiliciumCombat, waiting: list[Awaiting]) -> list[Awaiting]:
    """A frenzy still undecided after the frenzy phase (one who was down then) is chosen at any
    time, pending hits aside."""
    for combatant in state["combatants"]:
        if is_standing(combatant) and frenzy(combatant) == "undecided":
            entry = next((e for e in waiting if e["actor"] == combatant["id"]), None)
            if entry is None:
                waiting.append({"actor": combatant["id"], "actions": ["choose_frenzy"], "reason": "frenzy"})
            else:
                entry["actions"] = ["choose_frenzy", *entry["actions"]]
    return waiting
