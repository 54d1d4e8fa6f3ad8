"""A combat's snapshot, sealed: compressed, encrypted and authenticated under
the server secret, so that only a server holding that secret opens it, and
none opens one that was altered or cut.

The sealed text is ``msnap1.`` then, in URL-safe base64 (no padding): the
key id (8 bytes), the nonce (12) and the AES-256-GCM ciphertext with its
tag. The plaintext is the snapshot as JSON, compressed by LZMA (the
standard library's ``lzma``, preset 1: a long fight repeats its states far
apart, beyond zlib's 32 KiB window; a fight of 1,000 actions with undos
measured 17 MB of JSON, 7.4 MB by zlib, 0.11 MB by LZMA, in less time). The key id is
derived from the secret (HKDF, its own ``info``), so it names the key without
revealing it: a server rotating its secret (``SECRET_KEY``, the old one in
``SECRET_KEY_FALLBACKS``) opens the snapshots the old one sealed, and tells a
snapshot of another deployment apart from an altered one. The key id and the
format are authenticated too (the associated data).
"""

from __future__ import annotations

import base64
import binascii
import lzma
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import codec
from ..usecases.ports import SnapshotUnreadable
from .aead import NONCE_BYTES, InvalidTag, cipher, derive, open_sealed, seal

PREFIX = "msnap1."
KEY_ID_BYTES = 8
TAG_BYTES = 16
ASSOCIATED = b"melee combat snapshot 1\0"
# The most a snapshot may hold once uncompressed: far above what MAX_ACTIONS_PER_COMBAT lets a combat write.
MAX_PLAINTEXT_BYTES = 256 * 1024 * 1024
MAX_DECODER_MEMORY = 64 * 1024 * 1024  # preset 1 needs about 2 MiB to decode


def key_id(secret: bytes) -> bytes:
    return derive(secret, b"melee snapshot key id", KEY_ID_BYTES)


class SnapshotSealer:
    """Seals under ``current``; opens what ``current`` or one of ``fallbacks`` sealed.

    ``reread``: the secret as stored now, asked once when a snapshot names a
    key this process does not hold (a generated secret another process wrote
    back after Redis lost it: docs/security.md); None when the secret is set."""

    def __init__(
        self, current: bytes, fallbacks: Sequence[bytes] = (), reread: Callable[[], bytes] | None = None
    ) -> None:
        self.current = current
        self.fallbacks = tuple(fallbacks)
        self.reread = reread

    def seal(self, snapshot: Mapping[str, Any]) -> str:
        kid = key_id(self.current)
        plaintext = lzma.compress(codec.dumps(snapshot), preset=1)
        sealed = seal(cipher(self.current, ASSOCIATED), plaintext, ASSOCIATED + kid)
        return PREFIX + base64.urlsafe_b64encode(kid + sealed).decode().rstrip("=")

    def open(self, sealed: str) -> dict[str, Any]:
        """The snapshot; SnapshotUnreadable (its ``why``) when it does not open."""
        raw = _decoded(sealed)
        kid, body = raw[:KEY_ID_BYTES], raw[KEY_ID_BYTES:]
        secret = self._secret_of(kid)
        try:
            plaintext = open_sealed(cipher(secret, ASSOCIATED), body, ASSOCIATED + kid)
        except InvalidTag:
            raise SnapshotUnreadable("was changed or cut after it was taken") from None
        inflate = lzma.LZMADecompressor(memlimit=MAX_DECODER_MEMORY)
        try:
            data = inflate.decompress(plaintext, MAX_PLAINTEXT_BYTES)
        except lzma.LZMAError:
            raise SnapshotUnreadable("does not hold a snapshot this version of the service reads") from None
        if not inflate.eof:
            raise SnapshotUnreadable("holds more than this service reads")
        try:
            snapshot = codec.loads(data)
        except ValueError:
            raise SnapshotUnreadable("does not hold a snapshot this version of the service reads") from None
        if not isinstance(snapshot, dict):
            raise SnapshotUnreadable("does not hold a snapshot this version of the service reads")
        return snapshot

    def _secret_of(self, kid: bytes) -> bytes:
        for secret in (self.current, *self.fallbacks):
            if key_id(secret) == kid:
                return secret
        if self.reread is not None:
            stored = self.reread()
            if key_id(stored) == kid:
                self.current = stored
                return stored
        raise SnapshotUnreadable(
            "was sealed by a key this server does not hold (another deployment's, or a secret since changed "
            "and not listed in SECRET_KEY_FALLBACKS)"
        )


def _decoded(sealed: str) -> bytes:
    if not sealed.startswith(PREFIX):
        raise SnapshotUnreadable("is not a snapshot of this service (it does not start with 'msnap1.')")
    text = sealed[len(PREFIX) :]
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise SnapshotUnreadable("is not valid URL-safe base64 after 'msnap1.'") from None
    if base64.urlsafe_b64encode(raw).decode().rstrip("=") != text:  # unused bits set: not as sealed
        raise SnapshotUnreadable("was changed or cut after it was taken")
    if len(raw) < KEY_ID_BYTES + NONCE_BYTES + TAG_BYTES:
        raise SnapshotUnreadable("is too short to be one: it was cut")
    return raw
