"""A whole combat out of Redis and back in: what a snapshot holds
(service/usecases/snapshots.py seals it; service/crypto/snapshots.py has the crypto).

``export_combat`` reads the state, the whole log (archived chunks
unpacked), the states kept for history (``snap:<version>``) and the grants
in one script, so they agree with one another. ``import_combat`` writes them
back in one script, refused when a combat with that id is live, leaving out
the grants of the tokens revoked since (``access.py``): the log
archived as ``History.archive_due`` would have left it, the newest entries in
the stream again (for the listeners who resume), every key's TTL fresh. The
Idempotency-Key records of the combat's actions are not part of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from redis.commands.core import Script

from .. import codec
from ..usecases.port_errors import CombatNotFound, VersionConflict
from .cluster import RedisClient
from .errors import retrying_read, unavailable_on_failure, write_outcome_unknown
from .history import CHUNK, pack, snapshot_arg, unpack
from .keys import combat_keys, dumps, revoked_key
from .scripts import STREAM_MAXLEN


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _pairs(flat: list[Any]) -> list[tuple[str, Any]]:
    return [(_text(flat[i]), flat[i + 1]) for i in range(0, len(flat), 2)]


class CombatSnapshots:
    # Set by CombatStore, which this mixin is part of.
    client: RedisClient
    ttl_seconds: int
    _export: Script
    _import: Script

    def export_combat(self, combat_id: str) -> dict[str, Any]:
        with unavailable_on_failure():
            found = retrying_read(lambda: self._export(keys=combat_keys(combat_id)))
        if not found:
            raise CombatNotFound(combat_id)
        fields, items, grants = found
        state: dict[str, Any] | None = None
        history: dict[str, Any] = {}
        chunks: dict[int, list[Any]] = {}
        for name, value in _pairs(fields):
            if name == "json":
                state = codec.loads(value)
            elif name.startswith("snap:"):
                history[name[5:]] = unpack(value)
            elif name.startswith("log:"):
                chunks[int(name[4:])] = unpack(value)
        if state is None:
            raise CombatNotFound(combat_id)
        entries = [
            codec.loads(raw) if raw else chunks[(seq - 1) // CHUNK][(seq - 1) % CHUNK]
            for seq, raw in enumerate(items, start=1)
        ]
        return {
            "state": state,
            "entries": entries,
            "history": history,
            "grants": {name: codec.loads(value) for name, value in _pairs(grants)},
        }

    def import_combat(self, exported: Mapping[str, Any]) -> None:
        state, entries = exported["state"], exported["entries"]
        archived = max(0, len(entries) // CHUNK - 1)  # chunks older than the newest full one (archive_due)
        fields: list[bytes | str] = []
        for version, kept in exported["history"].items():
            fields += [f"snap:{version}", pack(kept)]
        if due := snapshot_arg(state):  # the state a restore wrote, at its new version
            fields += [f"snap:{state['version']}", due]
        for chunk in range(archived):
            fields += [f"log:{chunk}", pack(entries[chunk * CHUNK : (chunk + 1) * CHUNK])]
        items = [b"" if seq <= archived * CHUNK else dumps(entry) for seq, entry in enumerate(entries, start=1)]
        grants = [item for digest, grant in exported["grants"].items() for item in (digest, dumps(grant))]
        with write_outcome_unknown():
            imported = self._import(
                keys=[*combat_keys(state["id"]), revoked_key(state["id"])],
                args=[
                    state["version"],
                    dumps(state),
                    self.ttl_seconds,
                    len(fields) // 2,
                    len(items),
                    max(1, len(items) - STREAM_MAXLEN + 1),
                    *fields,
                    *items,
                    *grants,
                ],
            )
        if not imported:
            raise VersionConflict(0)
