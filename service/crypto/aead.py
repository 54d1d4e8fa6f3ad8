"""AES-256-GCM under a key derived from a secret (HKDF-SHA256, ``cryptography``).

Each purpose has its own ``info`` string, so a key derived for one (the
tokens of a retried creation, a combat's snapshot) never opens what another
sealed, even under the same secret.
"""

from __future__ import annotations

import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

__all__ = ["NONCE_BYTES", "InvalidTag", "cipher", "derive", "open_sealed", "seal"]

NONCE_BYTES = 12


def derive(secret: bytes, info: bytes, length: int = 32) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=None, info=info).derive(secret)


def cipher(secret: bytes, info: bytes) -> AESGCM:
    return AESGCM(derive(secret, info))


def seal(aead: AESGCM, plaintext: bytes, associated: bytes) -> bytes:
    """A fresh random nonce, then the ciphertext and its tag."""
    nonce = os.urandom(NONCE_BYTES)
    return nonce + aead.encrypt(nonce, plaintext, associated)


def open_sealed(aead: AESGCM, sealed: bytes, associated: bytes) -> bytes:
    """The plaintext; InvalidTag when ``sealed`` was altered, cut, or sealed under another key."""
    return aead.decrypt(sealed[:NONCE_BYTES], sealed[NONCE_BYTES:], associated)
