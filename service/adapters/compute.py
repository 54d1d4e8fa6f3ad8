"""The counters behind the costly requests' limits (service/api/budget.py):
``ComputeBudget``, the compute units each client spent (in Redis, shared by
every worker, or in memory), ``Slots``, how many costly computations this
worker runs at once, and ``offload``, which runs one off gevent's event loop.
No HTTP here: the API turns a full worker or a spent budget into its problems.
"""

from __future__ import annotations

import logging
import math
import threading
import time

from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

log = logging.getLogger(__name__)


class ComputeBudget:
    def __init__(self, compute_limit: str, redis_url: str | None):
        self.items = parse_many(compute_limit)
        storage = storage_from_string(
            redis_url or "memory://", **({"socket_timeout": 1, "socket_connect_timeout": 1} if redis_url else {})
        )
        self.window = FixedWindowRateLimiter(storage)

    def wait_for(self, client: str, cost: int) -> int | None:
        """None when ``client`` has ``cost`` units left, else the seconds until it has (nothing charged)."""
        try:
            refused = [item for item in self.items if not self.window.test(item, "compute", client, cost=cost)]
            if refused:
                reset = max(self.window.get_window_stats(item, "compute", client).reset_time for item in refused)
                return max(1, math.ceil(reset - time.time()))
        except Exception:  # Redis down: serve, as the rate limits do (the store answers 503 anyway)
            log.warning("compute budget storage unavailable; not counted", exc_info=True)
        return None

    def charge(self, client: str, cost: int) -> None:
        try:
            for item in self.items:
                self.window.hit(item, "compute", client, cost=cost)
        except Exception:  # as in wait_for
            log.warning("compute budget storage unavailable; not counted", exc_info=True)


def offload(function, *args, **kwargs):
    """Run a CPU-bound computation (odds, an inline simulation) so that the worker keeps serving.

    Under gunicorn's gevent workers every request and event stream of the
    worker is a greenlet of one event loop, which a computation of seconds
    would freeze. gevent's thread pool runs it on a real thread instead: the
    interpreter hands the GIL back to the loop every few milliseconds
    (sys.getswitchinterval), so live play goes on, slower, beside it. Outside
    gevent (tests, the embedded store's threads) it simply runs here.
    """
    try:
        from gevent import get_hub, monkey
    except ImportError:  # pragma: no cover - gevent is a runtime dependency
        return function(*args, **kwargs)
    if not monkey.is_module_patched("threading"):
        return function(*args, **kwargs)
    failed, outcome = get_hub().threadpool.apply(_caught, (function, args, kwargs))
    if failed:
        raise outcome
    return outcome


def _caught(function, args, kwargs) -> tuple[bool, object]:
    """(False, the result) or (True, the exception), on the pool's thread."""
    try:
        return False, function(*args, **kwargs)
    except BaseException as error:  # noqa: BLE001 - re-raised in the request's greenlet (offload)
        return True, error


class Slots:
    """How many costly computations this worker runs at once."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.used >= self.limit:
                return False
            self.used += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.used -= 1
