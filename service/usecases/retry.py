"""How long an action without If-Match keeps trying when other writers
commit first: exponential backoff with full jitter (each wait drawn at
random between 0 and a cap that doubles), so that writers who collided do
not collide again in lockstep, within a bounded total wait.

``python -m bench.conflicts`` (32 writers on one combat, 2 gunicorn
workers, docs/operations.md): with 5 immediate attempts 42 % of the
requests ended in 409; with these waits 0.3 %, 0 % and 0 % in three runs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

MAX_ATTEMPTS = 12
FIRST_WAIT_SECONDS = 0.005
MAX_WAIT_SECONDS = 0.2
TOTAL_WAIT_SECONDS = 1.0

sleep = time.sleep  # tests replace it


def conflict_waits(rng: random.Random | None = None) -> Iterator[float]:
    """The waits before each new attempt, MAX_ATTEMPTS - 1 at most, adding up
    to TOTAL_WAIT_SECONDS at most."""
    uniform = (rng or random).uniform
    total = 0.0
    for attempt in range(MAX_ATTEMPTS - 1):
        wait = uniform(0, min(MAX_WAIT_SECONDS, FIRST_WAIT_SECONDS * 2**attempt))
        if total + wait > TOTAL_WAIT_SECONDS:
            return
        total += wait
        yield wait
