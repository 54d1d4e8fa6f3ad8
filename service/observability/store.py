"""The combat store, observed: every operation is timed (Redis latency and
unavailability metrics), and what flows through it names the request's
combat, ruleset and applied action in the log line and the action counter.

Observing the store rather than the HTTP handlers keeps the API code free
of logging calls: a combat loaded is a combat whose ruleset is known, a
commit that succeeds is an action applied (a lost compare-and-set raises,
an idempotent replay never commits, so neither is counted).
"""

from __future__ import annotations

import functools

from flask import has_request_context

from . import metrics
from .logs import annotate

# The CombatStore methods that talk to Redis, each a single round trip.
OPERATIONS = metrics.STORE_OPERATIONS


def _argument(args, kwargs, index: int, name: str):
    return args[index] if len(args) > index else kwargs.get(name)


def _loaded(result, args, kwargs) -> None:
    if isinstance(result, dict) and has_request_context():
        annotate(ruleset=result.get("ruleset"))


def _loaded_with_grant(result, args, kwargs) -> None:
    if isinstance(result, tuple) and result:
        _loaded(result[0], args, kwargs)


def _created(result, args, kwargs) -> None:
    state = _argument(args, kwargs, 0, "state")
    if isinstance(state, dict) and has_request_context():
        annotate(combat_id=state.get("id"), ruleset=state.get("ruleset"))


def _committed(result, args, kwargs) -> None:
    state, entry = _argument(args, kwargs, 0, "state"), _argument(args, kwargs, 1, "entry")
    try:
        ruleset, action_type = state["ruleset"], entry["action"]["type"]
    except (KeyError, TypeError):
        return
    metrics.action_applied(ruleset, action_type)
    if has_request_context():
        annotate(ruleset=ruleset, action_type=action_type)


_OBSERVERS = {"load": _loaded, "load_with_grant": _loaded_with_grant, "create": _created, "commit": _committed}


def _observed(method, observer):
    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        result = method(*args, **kwargs)
        observer(result, args, kwargs)
        return result

    return wrapper


def instrument(store) -> None:
    """Wrap the store's operations in place (once)."""
    if getattr(store, "_melee_instrumented", False):
        return
    for operation in OPERATIONS:
        method = getattr(store, operation, None)
        if method is None:
            continue
        method = metrics.timed(operation, method)
        if operation in _OBSERVERS:
            method = _observed(method, _OBSERVERS[operation])
        setattr(store, operation, method)
    store._melee_instrumented = True
