"""The resolution of a tour, once every fighter has allocated.

Seed: shooters act first, by decreasing AGI; then the fighter with the most
INIT dice (counted, not rolled) attacks, ATT against the defender's DEF; a
failure gives the defender the difference as a riposte bonus; then the one
with fewer INIT dice attacks (the riposte). Equal AGI or INIT: simultaneous.

Several fighters (the seed is written for a duel): every fighter attacks
once, his own target; the order above is one order for everyone. A riposte
bonus is for the defender's own attack on that attacker, later in the tour.

Simultaneous (a group of equal AGI, or of equal INIT): every member's pool
is fixed at the start of the group, every member standing then strikes even
if a blow of the group puts him down, and every blow lands; the CHOC of those
blows weighs on the next action. No riposte bonus within a group.

Dice, in order: for each shot, the target's evasion roll (when it evades
and has not rolled yet), the shooter's pool, then the blow's dice (see
blows.py); for each melee attack, the ATT pool, the defender's DEF pool (when
not rolled yet), then the blow's dice. Groups in order, members in the order
of the combatants in the combat.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import groupby
from typing import Any, cast

from .allocation import CONTACT_SHOT, MELEE, SHOT, effective_def, effective_init
from .blows import land_blow
from .contacts import engage, leave_all
from .health import attack_malus, is_standing, pain_dice
from .pools import note_fumble, roll_pool
from .state import Allocation, DarkEarthCombatant, Res, Split
from .tables import (
    COVER_MODIFIERS,
    RANGE_MODIFIERS,
    SHOOTER_PACE_MODIFIERS,
    SHOT_BASE_DIFFICULTY,
    TARGET_MOVEMENT_MODIFIERS,
    size_modifier,
)
from .weapons import weapon_of


class Tour:
    def __init__(self, res: Res):
        self.res = res
        self.state = res.state
        self.options = res.options
        self.allocations = res.state["allocations"]
        self.by_id = {c["id"]: c for c in res.state["combatants"]}
        self.defense: dict[str, int] = {}
        self.evasion: dict[str, int] = {}
        self.bonus: dict[tuple[str, str], int] = {}
        self.engaged: list[tuple[str, str]] = []
        self.pooled: set[str] = set()  # who has taken their attack pool this tour (and any bonus with it)

    def resolve(self) -> None:
        self._reveal()
        self._phase(SHOT, "shooting_order", lambda c: c["sheet"]["attributes"]["AGI"], self._shoot)
        self._phase(MELEE, "turn_order", lambda c: effective_init(self.allocations[c["id"]]), self._strike)
        self._close()

    # -- phases ---------------------------------------------------------------------
    def _reveal(self) -> None:
        for combatant in self.state["combatants"]:
            allocation = self.allocations.get(combatant["id"])
            if allocation is None:
                continue
            split = allocation["split"]
            self.res.emit(
                "allocation_revealed",
                combatant=combatant["id"],
                target=allocation["target"],
                weapon=allocation["weapon"],
                mode=allocation["mode"],
                pot=allocation["pot"],
                init=effective_init(allocation) if split else None,
                att=split["att"] if split else None,
                defense=effective_def(allocation) if split else None,
                evade=allocation["evade"],
                reload=allocation["reload"],
                maneuver=allocation["maneuver"],
            )

    def _phase(
        self,
        kind: str,
        order_code: str,
        rank: Callable[[DarkEarthCombatant], int],
        act: Callable[[DarkEarthCombatant, DarkEarthCombatant, Allocation, dict[str, Any]], None],
    ) -> None:
        modes = (SHOT,) if kind == SHOT else (MELEE, CONTACT_SHOT)
        fighters = [
            c
            for c in self.state["combatants"]
            if c["id"] in self.allocations and self.allocations[c["id"]]["mode"] in modes
        ]
        if not fighters:
            return
        ranked = sorted(fighters, key=lambda c: -rank(c))
        groups = [list(group) for _, group in groupby(ranked, key=rank)]
        self.res.emit(order_code, order=[[c["id"] for c in group] for group in groups])
        for group in groups:
            standing = {c["id"] for c in self.state["combatants"] if is_standing(c)}
            ready = [c for c in group if c["id"] in standing and self.allocations[c["id"]]["target"] in standing]
            pools = {c["id"]: self._attack_pool(c) for c in ready}
            for combatant in group:
                allocation = self.allocations[combatant["id"]]
                target = self.by_id[cast(str, allocation["target"])]  # a fighter in a phase attacks someone
                if combatant["id"] not in standing:
                    self.res.emit("attack_lost", attacker=combatant["id"], target=target["id"])
                elif target["id"] not in standing:
                    self.res.emit("attack_cancelled", attacker=combatant["id"], target=target["id"])
                else:
                    act(combatant, target, allocation, pools[combatant["id"]])

    def _attack_pool(self, combatant: DarkEarthCombatant) -> dict[str, Any]:
        """The ATT or TIR pool's terms, fixed now: CHOC (or pain) is spent on this roll."""
        allocation = self.allocations[combatant["id"]]
        shot = allocation["mode"] == SHOT
        base = allocation["pot"] if shot else cast("Split", allocation["split"])["att"]
        bonus = self.bonus.pop((combatant["id"], cast(str, allocation["target"])), 0)
        self.pooled.add(combatant["id"])
        malus = attack_malus(combatant, self.options)
        choc = combatant["choc"]
        if choc:
            self.res.emit("choc_spent", combatant=combatant["id"], choc=choc, malus=malus, pain_larger=malus > choc)
            combatant["choc"] = 0
        bonus_dice = bonus if self.options["riposte_bonus"] == "dice" else 0
        terms = {
            "POT" if shot else "ATT": base,
            "modifier": allocation["dice_modifier"],
            "riposte": bonus_dice,
            # Pain and CHOC do not add up: the larger is named.
            "CHOC" if choc >= malus else "pain": -malus,
        }
        return {"terms": terms, "bonus": bonus, "bonus_successes": bonus - bonus_dice, "malus": malus}

    # -- shooting -------------------------------------------------------------------
    def _shoot(
        self, shooter: DarkEarthCombatant, target: DarkEarthCombatant, allocation: Allocation, pool: dict[str, Any]
    ) -> None:
        weapon = weapon_of(shooter, allocation["weapon"])
        modifiers = self._shot_modifiers(
            cast("dict[str, Any]", allocation["shot"]), target
        )  # a shot's allocation has them
        targets = self.allocations.get(target["id"])
        evading = targets is not None and targets["evade"]
        base = self._evasion(target) if evading else SHOT_BASE_DIFFICULTY
        difficulty = max(0, base + sum(modifiers.values()))
        shot = roll_pool(self.res, pool["terms"], f"shot {shooter['id']}", shooter)
        hit = not shot.fumble and shot.successes >= difficulty
        self.res.emit(
            "shot_rolled",
            attacker=shooter["id"],
            target=target["id"],
            malus=pool["malus"],
            evaded=evading,
            base=base,
            modifiers=modifiers,
            difficulty=difficulty,
            hit=hit,
            **shot.as_params(),
        )
        note_fumble(self.res, shooter["id"], "TIR", shot)
        self._unload(shooter, weapon)
        if not hit:
            self.res.emit("shot_missed", attacker=shooter["id"], target=target["id"])
            return
        deg = shot.successes - difficulty
        self.res.emit("shot_hit", attacker=shooter["id"], target=target["id"], deg=deg)
        land_blow(self.res, shooter, target, weapon, deg)

    def _shot_modifiers(self, shot: dict[str, Any], target: DarkEarthCombatant) -> dict[str, Any]:
        return {
            "range": RANGE_MODIFIERS[shot["range"]],
            "cover": COVER_MODIFIERS[shot["cover"]],
            "target_movement": TARGET_MOVEMENT_MODIFIERS[shot["target_movement"]],
            "shooter_pace": SHOOTER_PACE_MODIFIERS[shot["shooter_pace"]],
            "target_size": size_modifier(target["sheet"]["attributes"]["TAI"]),
            "gm": shot["modifier"],
        }

    def _evasion(self, target: DarkEarthCombatant) -> int:
        """Seed: the DIFF becomes the target's AGI + Esquive roll."""
        sheet = target["sheet"]
        terms = {
            "AGI": sheet["attributes"]["AGI"],
            sheet["dodge_skill"]: sheet["skills"].get(sheet["dodge_skill"], 0),  # the sheet's name (Esquive)
            "armour": -(sheet["armour"]["agi_malus"] if sheet["armour"] else 0),
            "pain": -pain_dice(target, self.options),
        }
        return self._roll_once(self.evasion, target, terms, "evasion", "AGI", "combatant")

    def _roll_once(
        self,
        rolled: dict[str, Any],
        combatant: DarkEarthCombatant,
        terms: dict[str, int],
        kind: str,
        roll: str,
        role: str,
    ) -> int:
        """A defensive pool, rolled at its first use in the tour and reused (option same_roll)."""
        if combatant["id"] in rolled and self.options["several_attackers_defense"] == "same_roll":
            self.res.emit(f"{kind}_reused", **{role: combatant["id"]}, successes=rolled[combatant["id"]])
            found: int = rolled[combatant["id"]]
            return found
        pool = roll_pool(self.res, terms, f"{kind} {combatant['id']}", combatant)
        self.res.emit(f"{kind}_rolled", **{role: combatant["id"]}, **pool.as_params())
        note_fumble(self.res, combatant["id"], roll, pool)
        rolled[combatant["id"]] = pool.successes
        return pool.successes

    def _unload(self, shooter: DarkEarthCombatant, weapon: dict[str, Any]) -> None:
        if weapon["mechanical"]:
            shooter["loaded"][weapon["id"]] = False
            self.res.emit("weapon_unloaded", combatant=shooter["id"], weapon=weapon["id"])

    # -- melee (and shots in contact, which oppose ATT to DEF like a blow) -----------
    def _strike(
        self, attacker: DarkEarthCombatant, defender: DarkEarthCombatant, allocation: Allocation, pool: dict[str, Any]
    ) -> None:
        weapon = weapon_of(attacker, allocation["weapon"])
        attack = roll_pool(self.res, pool["terms"], f"attack {attacker['id']}", attacker)
        successes = attack.successes + pool["bonus_successes"]
        self.res.emit(
            "attack_rolled",
            attacker=attacker["id"],
            target=defender["id"],
            malus=pool["malus"],
            riposte_bonus=pool["bonus"],
            bonus_successes=pool["bonus_successes"],
            total=successes,
            **attack.as_params(),
        )
        note_fumble(self.res, attacker["id"], "ATT", attack)
        if allocation["mode"] == CONTACT_SHOT:
            self._unload(attacker, weapon)
        parry = self._defense(defender)
        self.engaged.append((attacker["id"], defender["id"]))
        if successes > parry:
            deg = successes - parry
            self.res.emit("attack_hit", attacker=attacker["id"], target=defender["id"], deg=deg)
            land_blow(self.res, attacker, defender, weapon, deg)
            return
        # Notes 2.3 [HOUSE]: a tie is a failure with a bonus of 0.
        self.bonus[(defender["id"], attacker["id"])] = parry - successes
        answer = self.allocations.get(defender["id"])
        # The bonus rides only a blow the defender has yet to strike at this attacker.
        riposte_later = (
            answer is not None
            and answer["target"] == attacker["id"]
            and answer["mode"] in (MELEE, CONTACT_SHOT)
            and defender["id"] not in self.pooled
        )
        self.res.emit(
            "attack_failed",
            attacker=attacker["id"],
            target=defender["id"],
            riposte_bonus=parry - successes,
            riposte_later=riposte_later,
        )

    def _defense(self, defender: DarkEarthCombatant) -> int:
        terms = {"DEF": effective_def(self.allocations.get(defender["id"])), "pain": -pain_dice(defender, self.options)}
        return self._roll_once(self.defense, defender, terms, "defense", "DEF", "defender")

    # -- end of the tour ------------------------------------------------------------
    def _close(self) -> None:
        for attacker_id, defender_id in self.engaged:
            if is_standing(self.by_id[attacker_id]) and is_standing(self.by_id[defender_id]):
                engage(self.res, attacker_id, defender_id)
        for combatant in self.state["combatants"]:
            if not is_standing(combatant):
                leave_all(self.res, combatant["id"])
                continue
            allocation = self.allocations.get(combatant["id"])
            if allocation and allocation["reload"]:
                combatant["loaded"][allocation["weapon"]] = True
                self.res.emit("weapon_reloaded", combatant=combatant["id"], weapon=allocation["weapon"])
