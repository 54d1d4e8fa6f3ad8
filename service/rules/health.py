"""What a game master's change of health means, in the shape every ruleset shares.

gm/actions.py's ``adjust`` sets a value; the ruleset's ``adjusted`` hook then
calls :func:`health_adjusted` so that the change has the rules' consequences,
exactly as damage or healing would: going down runs the ruleset's own
consequences of damage, going back above 0 ends the state of being down.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from .conditions import has, remove
from .state import Combatant

if TYPE_CHECKING:  # ruleset.py is not imported at run time: only its types are needed
    from .ruleset import Resolution

C = TypeVar("C", bound=Combatant)


def health_adjusted(
    res: Resolution[Any, C],
    target: C,
    key: str,
    before: int,
    *,
    dead: str,
    down: str,
    fall: Callable[[Resolution[Any, C], C], object],
) -> None:
    """``target[key]`` (PV, Blessures) went from ``before`` to its value now by the GM's hand.

    Down: ``fall(res, target)``, the ruleset's consequences of damage. Up above 0:
    the ``down`` condition (unconscious, coma...) ends, event ``recovered``.
    The dead stay dead: only the GM's ``condition`` action removes ``dead``.
    """
    now: int = cast("Mapping[str, Any]", target)[key]  # the ruleset names its health key
    if has(target, dead) or now == before:
        return
    if now < before:
        fall(res, target)
    elif now > 0 and remove(target, down):
        res.emit("recovered", target=target["id"])
