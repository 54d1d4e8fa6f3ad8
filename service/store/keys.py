"""Key names. Every key of a combat carries the hash tag ``{<id>}``, so all
of them live in one Redis Cluster slot and one script can touch them all."""

from .. import codec


def state_key(combat_id: str) -> str:
    return f"combat:{{{combat_id}}}:state"


def log_key(combat_id: str) -> str:
    return f"combat:{{{combat_id}}}:log"


def idempotency_key(combat_id: str) -> str:
    return f"combat:{{{combat_id}}}:idempotency"


def access_key(combat_id: str) -> str:
    return f"combat:{{{combat_id}}}:access"


def stream_key(combat_id: str) -> str:
    """The Redis Stream of the combat's log entries, for live listeners (entry id = seq)."""
    return f"combat:{{{combat_id}}}:stream"


def revoked_key(combat_id: str) -> str:
    """The digests of the combat's revoked tokens: not one of ``combat_keys``, so that it
    outlives the combat's deletion or expiry (a restore reads it: docs/security.md)."""
    return f"revoked:{{{combat_id}}}"


def creation_key(key_digest: str) -> str:
    """The record of a creation made with an Idempotency-Key (by the key's digest)."""
    return f"creation:{{{key_digest}}}"


# A secret generated once per deployment when SECRET_KEY is not set (docs/security.md).
SERVER_SECRET_KEY = "melee:server-secret"


def combat_keys(combat_id: str) -> list[str]:
    """Every key of a combat, in the order the scripts expect them."""
    return [
        state_key(combat_id),
        log_key(combat_id),
        idempotency_key(combat_id),
        access_key(combat_id),
        stream_key(combat_id),
    ]


def dumps(value: object) -> bytes:
    """What the store keeps: compact JSON, UTF-8 (codec.py)."""
    return codec.dumps(value)
