"""The tokens a retried creation shows again, sealed in its Idempotency-Key record.

AES-256-GCM (the ``cryptography`` library) under a key derived (HKDF-SHA256)
from the server secret and the client's Idempotency-Key itself, which Redis
never holds (only its digest): reading Redis, even with the server secret,
does not open a record without the key; the key alone, without the secret,
does not either. The combat id is authenticated with the tokens, so a sealed
record cannot be moved to another combat.

The server secret is ``SECRET_KEY`` or, when it is not set, one generated
by the first worker and kept in Redis for all (docs/security.md).
"""

from __future__ import annotations

import base64
import json
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

from .requests import store

NONCE_BYTES = 12


def server_secret() -> bytes:
    configured = current_app.extensions["melee.settings"].secret_key
    if configured:
        return configured.encode()
    cached = current_app.extensions.get("melee.server_secret")
    if cached is None:
        cached = current_app.extensions["melee.server_secret"] = store().server_secret()
    return cached


def _cipher(idempotency_key: str) -> AESGCM:
    info = b"melee creation replay\0" + idempotency_key.encode()
    return AESGCM(HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=info).derive(server_secret()))


def seal(idempotency_key: str, combat_id: str, tokens: dict) -> str:
    nonce = os.urandom(NONCE_BYTES)
    sealed = _cipher(idempotency_key).encrypt(nonce, json.dumps(tokens).encode(), combat_id.encode())
    return base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal(idempotency_key: str, combat_id: str, sealed: str) -> dict | None:
    """The tokens; None if the record does not open (the server secret changed)."""
    raw = base64.urlsafe_b64decode(sealed)
    try:
        return json.loads(_cipher(idempotency_key).decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], combat_id.encode()))
    except InvalidTag:
        return None
