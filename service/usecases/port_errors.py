"""The errors of the store ports (service/usecases/ports.py): what any adapter of
``Combats``, ``Grants`` or ``IdempotencyRecords`` raises, Redis or in memory.

They belong to the ports, not to an adapter, so that the use cases name
them without importing the store (the store imports the ports instead).
"""

from __future__ import annotations


class StoreUnavailable(Exception):
    """Redis did not answer; the request may be retried later."""


class OutcomeUnknown(StoreUnavailable):
    """A write was sent but Redis did not confirm it: it may still be applied
    (a stalled Redis runs it when it resumes). Only a retry with the same
    Idempotency-Key can tell, by finding the stored answer or a clean slate."""


class ActionLimitReached(Exception):
    def __init__(self, limit: int):
        super().__init__(f"the combat has reached its limit of {limit} actions")
        self.limit = limit


class RevocationLimitReached(Exception):
    """The combat's revocation record holds as many tokens as it may (``limit``): nothing was revoked."""

    def __init__(self, limit: int):
        super().__init__(f"the combat has revoked {limit} tokens, the most its record keeps")
        self.limit = limit


class ReservationLost(Exception):
    """The request's Idempotency-Key reservation was released or taken over
    before its write reached Redis: the write was refused, nothing changed."""


class CombatNotFound(Exception):
    pass


class VersionConflict(Exception):
    def __init__(self, current: int):
        super().__init__(f"the combat is at version {current}")
        self.current = current
