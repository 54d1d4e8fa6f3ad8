"""The server secret, and the sealers built on it (the crypto: service/crypto/).

- The tokens a retried creation shows again, sealed in its Idempotency-Key
  record: AES-256-GCM under a key derived (HKDF-SHA256) from the server
  secret and the client's Idempotency-Key itself, which Redis never holds
  (only its digest): reading Redis, even with the server secret, does not
  open a record without the key; the key alone, without the secret, does
  not either. The combat id is authenticated with the tokens, so a sealed
  record cannot be moved to another combat.
- A combat's snapshot (``snapshot_sealer``: service/crypto/snapshots.py),
  opened also under the old secrets of ``SECRET_KEY_FALLBACKS``.

The server secret is ``SECRET_KEY`` or, when it is not set, one generated
by the first worker and kept in Redis for all (docs/security.md). Each
process keeps the generated one once read; so that every process agrees
after Redis lost it (a restart without persistence, a flush, a failover to
an empty replica), a process about to seal writes its own back when Redis
has none (and takes the stored one when another process wrote it first),
and a process whose record or snapshot does not open reads the stored one
again, once.
"""

from __future__ import annotations

import base64
import json

from flask import current_app

from ..crypto.aead import InvalidTag, cipher, open_sealed
from ..crypto.aead import seal as aead_seal
from ..crypto.snapshots import SnapshotSealer
from .requests import store

CACHE = "melee.server_secret"


def _configured() -> str:
    return current_app.extensions["melee.settings"].secret_key


def server_secret() -> bytes:
    """The secret this process holds: SECRET_KEY, else the generated one (read once from Redis)."""
    configured = _configured()
    if configured:
        return configured.encode()
    cached = current_app.extensions.get(CACHE)
    if cached is None:
        cached = current_app.extensions[CACHE] = store().server_secret()
    return cached


def stored_secret() -> bytes:
    """The generated secret as Redis holds it now; this process's own written back
    first if Redis has none. The process keeps what it reads."""
    cached = current_app.extensions.get(CACHE)
    secret = current_app.extensions[CACHE] = store().server_secret(cached)
    return secret


def sealing_secret() -> bytes:
    """The secret to seal with: the one every process opens with (``stored_secret``) when generated."""
    configured = _configured()
    return configured.encode() if configured else stored_secret()


def _cipher(idempotency_key: str, secret: bytes):
    return cipher(secret, b"melee creation replay\0" + idempotency_key.encode())


def seal(idempotency_key: str, combat_id: str, tokens: dict) -> str:
    sealed = aead_seal(_cipher(idempotency_key, sealing_secret()), json.dumps(tokens).encode(), combat_id.encode())
    return base64.urlsafe_b64encode(sealed).decode()


def unseal(idempotency_key: str, combat_id: str, sealed: str) -> dict | None:
    """The tokens; None if the record does not open (the server secret changed)."""
    raw = base64.urlsafe_b64decode(sealed)
    tried: list[bytes] = []
    for secret in _opening_secrets():
        if secret in tried:
            continue
        tried.append(secret)
        try:
            return json.loads(open_sealed(_cipher(idempotency_key, secret), raw, combat_id.encode()))
        except InvalidTag:
            continue
    return None


def _fallbacks() -> list[bytes]:
    return [secret.encode() for secret in current_app.extensions["melee.settings"].secret_key_fallbacks]


def _opening_secrets():
    """The secrets to try, in order, each asked for only when the one before did not open."""
    yield server_secret()
    yield from _fallbacks()
    if not _configured():
        yield stored_secret()  # read again, once: another process may hold the one Redis has


def snapshot_sealer(*, to_seal: bool = False) -> SnapshotSealer:
    """The sealer of snapshots: under the secret every process opens with when ``to_seal``."""
    if _configured():
        return SnapshotSealer(_configured().encode(), _fallbacks())
    current = sealing_secret() if to_seal else server_secret()
    return SnapshotSealer(current, _fallbacks(), reread=stored_secret)
