"""How many listeners (event streams and waiting long polls) a worker holds, in all and per client.

Three bounds, each per worker process: ``MAX_STREAMS_PER_WORKER`` in all,
``MAX_STREAMS_PER_TOKEN`` for one bearer token and
``MAX_STREAMS_PER_ADDRESS`` for one client address, so that one client
cannot take every slot. A slot is given back when its stream ends, which a
client that leaves brings about at once under gevent (disconnect.py), else
within two heartbeats (``HEARTBEAT_SECONDS`` in stream.py).
"""

from __future__ import annotations

import threading
from collections import Counter

WORKER, TOKEN, ADDRESS = "worker", "token", "address"


class Slots:
    def __init__(self, limit: int, per_token: int, per_address: int):
        self.limit, self.per_token, self.per_address = limit, per_token, per_address
        self.used = 0
        self._tokens: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, token_digest: str, address: str) -> str | None:
        """Take a slot: None, or which bound refused it (WORKER, TOKEN, ADDRESS)."""
        with self._lock:
            if self.used >= self.limit:
                return WORKER
            if self._tokens[token_digest] >= self.per_token:
                return TOKEN
            if self._addresses[address] >= self.per_address:
                return ADDRESS
            self.used += 1
            self._tokens[token_digest] += 1
            self._addresses[address] += 1
            return None

    def give_back(self, token_digest: str, address: str) -> None:
        with self._lock:
            self.used -= 1
            for held, key in ((self._tokens, token_digest), (self._addresses, address)):
                held[key] -= 1
                if held[key] <= 0:
                    del held[key]
