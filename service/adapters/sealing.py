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
by the first worker and kept in Redis for all (docs/security.md); without
Redis (the embedded default), one kept in a local file (secret_file.py). Each
process keeps the generated one once read (one ``Sealing`` per process:
service/api/requests.py builds it); so that every process agrees
after Redis lost it (a restart without persistence, a flush, a failover to
an empty replica), a process about to seal writes its own back when Redis
has none (and takes the stored one when another process wrote it first),
and a process whose record or snapshot does not open reads the stored one
again, once.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from ..crypto.aead import InvalidTag, cipher, open_sealed
from ..crypto.aead import seal as aead_seal
from ..crypto.snapshots import SnapshotSealer


class SecretStore(Protocol):
    """Where the generated secret is kept for every process (the store: service/store/idempotency.py;
    the embedded default's file: secret_file.py)."""

    def server_secret(self, held: bytes | None = None) -> bytes: ...


class Sealing:
    """The ``Sealer`` of a process (usecases/ports.py), and the ``SnapshotSealer`` it builds.

    ``secret_key``: SECRET_KEY ('' when the secret is generated, kept in ``secrets``);
    ``fallbacks``: SECRET_KEY_FALLBACKS, old secrets snapshots still open under."""

    def __init__(self, secrets: SecretStore, secret_key: str = "", fallbacks: Sequence[str] = ()):
        self._secrets = secrets
        self._configured = secret_key.encode()
        self._fallbacks = [secret.encode() for secret in fallbacks]
        self._generated: bytes | None = None  # the generated secret, once read

    def server_secret(self) -> bytes:
        """The secret this process holds: SECRET_KEY, else the generated one (read once from the store)."""
        if self._configured:
            return self._configured
        if self._generated is None:
            self._generated = self._secrets.server_secret()
        return self._generated

    def stored_secret(self) -> bytes:
        """The generated secret as the store holds it now; this process's own written back
        first if the store has none. The process keeps what it reads."""
        self._generated = self._secrets.server_secret(self._generated)
        return self._generated

    def sealing_secret(self) -> bytes:
        """The secret to seal with: the one every process opens with (``stored_secret``) when generated."""
        return self._configured or self.stored_secret()

    def seal(self, idempotency_key: str, combat_id: str, tokens: dict[str, Any]) -> str:
        sealed = aead_seal(
            _cipher(idempotency_key, self.sealing_secret()), json.dumps(tokens).encode(), combat_id.encode()
        )
        return base64.urlsafe_b64encode(sealed).decode()

    def unseal(self, idempotency_key: str, combat_id: str, sealed: str) -> dict[str, Any] | None:
        """The tokens; None if the record does not open (the server secret changed)."""
        raw = base64.urlsafe_b64decode(sealed)
        tried: list[bytes] = []
        for secret in self._opening_secrets():
            if secret in tried:
                continue
            tried.append(secret)
            try:
                tokens: dict[str, Any] = json.loads(
                    open_sealed(_cipher(idempotency_key, secret), raw, combat_id.encode())
                )
            except InvalidTag:
                continue
            return tokens
        return None

    def _opening_secrets(self) -> Iterator[bytes]:
        """The secrets to try, in order, each asked for only when the one before did not open."""
        yield self.server_secret()
        yield from self._fallbacks
        if not self._configured:
            yield self.stored_secret()  # read again, once: another process may hold the one the store has

    def snapshot_sealer(self, *, to_seal: bool = False) -> SnapshotSealer:
        """The sealer of snapshots: under the secret every process opens with when ``to_seal``."""
        if self._configured:
            return SnapshotSealer(self._configured, self._fallbacks)
        current = self.sealing_secret() if to_seal else self.server_secret()
        return SnapshotSealer(current, self._fallbacks, reread=self.stored_secret)


def _cipher(idempotency_key: str, secret: bytes) -> AESGCM:
    return cipher(secret, b"melee creation replay\0" + idempotency_key.encode())
