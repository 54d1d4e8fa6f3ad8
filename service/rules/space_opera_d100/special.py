"""Attacks that do no damage: paralyse (seed 3) and disarm (seed 8)."""

from __future__ import annotations

from typing import Any

from ..conditions import add
from .checks import roll_test
from .conditions import CONTRACTED, PARALYSED, add_timed, dex
from .items import drop
from .state import Res, SpaceOperaCombatant
from .tables import DISARM_DEX_FACTOR, PARALYSIS_CON_FACTOR, PARALYSIS_DURATION


def paralyse(res: Res, target: SpaceOperaCombatant) -> None:
    """CON x 1D4: failure, paralysed 5D6 minutes; success, contracted muscles."""
    con = target["sheet"]["attributes"]["CON"]
    factor = res.dice.roll_expression(PARALYSIS_CON_FACTOR, "paralysis CON factor", target["id"]).total
    check = roll_test(res, con * factor, "paralysis CON test", target)
    res.emit("paralysis_test", target=target["id"], con=con, factor=factor, **check.as_params())
    if check.success:
        add(res, target, CONTRACTED)
        res.emit("contracted", target=target["id"])
        return
    duration = add_timed(res, target, PARALYSED, PARALYSIS_DURATION, "minutes", "paralysed minutes")
    res.emit("paralysed", target=target["id"], minutes=duration["value"])


def disarm(res: Res, target: SpaceOperaCombatant, weapon: dict[str, Any]) -> None:
    """Both attack rolls hit: DEX x 2 or the weapon falls."""
    check = roll_test(res, dex(target) * DISARM_DEX_FACTOR, "disarm DEX test", target)
    res.emit("disarm_test", target=target["id"], item=weapon["id"], dex=dex(target), **check.as_params())
    if not check.success:
        drop(res, target, weapon)
