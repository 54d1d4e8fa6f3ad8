"""A combat's snapshot, sealed: compressed, encrypted and authenticated under
the server secret, so that only a server holding that secret opens it, and
none opens one that was altered or cut.

The sealed text is ``msnap2.`` then, in URL-safe base64 (no padding): the
key id (8 bytes), the nonce (12) and the AES-256-GCM ciphertext with its
tag. The plaintext is the snapshot as JSON lines: first the snapshot
without its log, with the number of log entries (``entries``), then one
line per entry (compact JSON never holds a raw newline), compressed by LZMA
(the standard library's ``lzma``, preset 1: a long fight repeats its states
far apart, beyond zlib's 32 KiB window; a fight of 1,000 actions with undos
measured 17 MB of JSON, 7.4 MB by zlib, 0.11 MB by LZMA, in less time). The
key id is derived from the secret (HKDF, its own ``info``), so it names the
key without revealing it: a server rotating its secret (``SECRET_KEY``, the
old one in ``SECRET_KEY_FALLBACKS``) opens the snapshots the old one sealed,
and tells a snapshot of another deployment apart from an altered one. The
key id and the format are authenticated too (the associated data).

Opening is bounded by what the server would store (``max_entries``, its
MAX_ACTIONS_PER_COMBAT): the plaintext is decompressed a MiB at a time and
its lines counted as they come, before any JSON is read, and it is refused
as soon as it holds more entries than that or more than ``plaintext_limit``
bytes, so a snapshot holding too much costs at most that many bytes.
Snapshots of the first format (``msnap1.``: one JSON object, which had to be
read whole to count its entries) are refused.
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

PREFIX = "msnap2."
FIRST_PREFIX = "msnap1."
KEY_ID_BYTES = 8
TAG_BYTES = 16
ASSOCIATED = b"melee combat snapshot 2\0"
# The most a snapshot may hold once uncompressed, per log entry it may hold: a state kept for
# history or carried by an undo is a few kB (creation bodies are at most MAX_BODY_BYTES, 64 KiB by default).
BYTES_PER_ENTRY = 64 * 1024
MAX_PLAINTEXT_BYTES = 256 * 1024 * 1024  # whatever MAX_ACTIONS_PER_COMBAT says
MAX_DECODER_MEMORY = 64 * 1024 * 1024  # preset 1 needs about 2 MiB to decode
PIECE_BYTES = 1024 * 1024  # decompressed at a time
UNREADABLE = SnapshotUnreadable.UNREADABLE


def plaintext_limit(max_entries: int) -> int:
    """The most bytes a snapshot of at most ``max_entries`` log entries may hold once uncompressed."""
    return min(MAX_PLAINTEXT_BYTES, (max_entries + 1) * BYTES_PER_ENTRY)


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
        head = {key: value for key, value in snapshot.items() if key != "entries"}
        entries = snapshot["entries"]
        lines = [codec.dumps({**head, "entries": len(entries)}), *(codec.dumps(entry) for entry in entries)]
        plaintext = lzma.compress(b"\n".join(lines), preset=1)
        sealed = seal(cipher(self.current, ASSOCIATED), plaintext, ASSOCIATED + kid)
        return PREFIX + base64.urlsafe_b64encode(kid + sealed).decode().rstrip("=")

    def open(self, sealed: str, max_entries: int) -> dict[str, Any]:
        """The snapshot; SnapshotUnreadable (its ``why``) when it does not open, or holds
        more than ``max_entries`` log entries (counted as it is decompressed, before any is read)."""
        raw = _decoded(sealed)
        kid, body = raw[:KEY_ID_BYTES], raw[KEY_ID_BYTES:]
        secret = self._secret_of(kid)
        try:
            plaintext = open_sealed(cipher(secret, ASSOCIATED), body, ASSOCIATED + kid)
        except InvalidTag:
            raise SnapshotUnreadable(SnapshotUnreadable.CHANGED) from None
        data = _inflated(plaintext, max_entries)
        head, *lines = data.split(b"\n")
        del data
        try:
            snapshot = codec.loads(head)
            if not isinstance(snapshot, dict) or snapshot.get("entries") != len(lines):
                raise SnapshotUnreadable(UNREADABLE)
            snapshot["entries"] = [codec.loads(line) for line in lines]
        except ValueError:
            raise SnapshotUnreadable(UNREADABLE) from None
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
        raise SnapshotUnreadable(SnapshotUnreadable.UNKNOWN_KEY)


def _inflated(plaintext: bytes, max_entries: int) -> bytes:
    """The plaintext decompressed a piece at a time, its lines counted as they come: refused as soon
    as it holds more than ``max_entries`` log entries or ``plaintext_limit`` bytes."""
    limit = plaintext_limit(max_entries)
    inflate = lzma.LZMADecompressor(memlimit=MAX_DECODER_MEMORY)
    pieces: list[bytes] = []
    size, lines, pending = 0, 0, plaintext
    while not inflate.eof:
        try:
            piece = inflate.decompress(pending, PIECE_BYTES)
        except lzma.LZMAError:
            raise SnapshotUnreadable(UNREADABLE) from None
        if not piece and inflate.needs_input:
            raise SnapshotUnreadable(UNREADABLE)  # cut short, before its end
        pending = b""
        lines += piece.count(b"\n")
        if lines > max_entries:
            raise SnapshotUnreadable.too_many_entries(max_entries)
        size += len(piece)
        if size > limit:
            raise SnapshotUnreadable.too_large(limit, max_entries)
        pieces.append(piece)
    return b"".join(pieces)


def _decoded(sealed: str) -> bytes:
    if sealed.startswith(FIRST_PREFIX):
        raise SnapshotUnreadable(SnapshotUnreadable.FIRST_FORMAT)
    if not sealed.startswith(PREFIX):
        raise SnapshotUnreadable(SnapshotUnreadable.NOT_A_SNAPSHOT)
    text = sealed[len(PREFIX) :]
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise SnapshotUnreadable(SnapshotUnreadable.NOT_BASE64) from None
    if base64.urlsafe_b64encode(raw).decode().rstrip("=") != text:  # unused bits set: not as sealed
        raise SnapshotUnreadable(SnapshotUnreadable.CHANGED)
    if len(raw) < KEY_ID_BYTES + NONCE_BYTES + TAG_BYTES:
        raise SnapshotUnreadable(SnapshotUnreadable.TOO_SHORT)
    return raw
