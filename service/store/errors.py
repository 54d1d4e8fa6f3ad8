"""Store errors, and the translation of Redis trouble into them."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import Literal, TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

READ_ATTEMPTS = 3
T = TypeVar("T")
READ_BACKOFF_SECONDS = 0.05


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


class unavailable_on_failure:
    """Turn Redis connection failures into :class:`StoreUnavailable`."""

    def __enter__(self) -> unavailable_on_failure:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> Literal[False]:
        if isinstance(error, (RedisConnectionError, RedisTimeoutError)):
            raise StoreUnavailable(str(error)) from error
        if isinstance(error, RedisError) and "LOADING" in str(error):
            raise StoreUnavailable(str(error)) from error
        return False


class write_outcome_unknown(unavailable_on_failure):
    """Around a write: Redis trouble is :class:`OutcomeUnknown`, since the
    command may have been sent and may run later; but not a failure to
    connect (redis-py's "Error 111 connecting to ...", "Timeout connecting
    to server"), which comes before anything is sent."""

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> Literal[False]:
        try:
            return super().__exit__(kind, error, traceback)
        except StoreUnavailable as unavailable:
            if "connecting to" in str(error):
                raise
            raise OutcomeUnknown(str(unavailable)) from error


def retrying_read(read: Callable[[], T]) -> T:
    """Retry a read on connection trouble, with exponential backoff.

    Only reads: a write whose answer was lost may have been applied, and the
    compare-and-set turns a blind retry into a confusing conflict.
    """
    for attempt in range(READ_ATTEMPTS):
        try:
            return read()
        except (RedisConnectionError, RedisTimeoutError):
            if attempt == READ_ATTEMPTS - 1:
                raise
            time.sleep(READ_BACKOFF_SECONDS * 2**attempt)
    raise AssertionError("unreachable: the last attempt returns or raises")
