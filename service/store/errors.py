"""The translation of Redis trouble into the store ports' errors (usecases/port_errors.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import Literal, TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..usecases.port_errors import OutcomeUnknown, StoreUnavailable

READ_ATTEMPTS = 3
T = TypeVar("T")
READ_BACKOFF_SECONDS = 0.05


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
