"""service/adapters/sealing.py without flask: the tokens a retried creation shows again open only
under the same Idempotency-Key and combat, and every process agrees on a generated secret after
the store lost it."""

from __future__ import annotations

from service.adapters.sealing import Sealing

TOKENS = {"gm": "g-token", "combatants": {"ana": "a-token"}}


class Secrets:
    """The store's one generated secret (SET NX, then GET): a new one each time it has none and is handed none."""

    def __init__(self):
        self.kept: bytes | None = None
        self.made = 0

    def server_secret(self, held: bytes | None = None) -> bytes:
        if self.kept is None and held is not None:
            self.kept = held
        elif self.kept is None:
            self.made += 1
            self.kept = bytes([self.made]) * 32
        return self.kept


def test_sealed_tokens_open_under_their_key_and_combat_only():
    sealing = Sealing(Secrets(), secret_key="configured")
    sealed = sealing.seal("the-idempotency-key", "c1", TOKENS)
    assert "a-token" not in sealed
    assert sealing.unseal("the-idempotency-key", "c1", sealed) == TOKENS
    assert sealing.unseal("another-idempotency-key", "c1", sealed) is None
    assert sealing.unseal("the-idempotency-key", "c2", sealed) is None
    assert Sealing(Secrets(), secret_key="another").unseal("the-idempotency-key", "c1", sealed) is None


def test_a_process_about_to_seal_writes_its_secret_back_when_the_store_lost_it():
    secrets = Secrets()
    first = Sealing(secrets)
    sealed = first.seal("the-idempotency-key", "c1", TOKENS)
    secrets.kept = None  # Redis restarted empty
    first.seal("the-idempotency-key", "c2", TOKENS)
    assert secrets.kept == bytes([1]) * 32 and secrets.made == 1  # its own, not a new one
    assert Sealing(secrets).unseal("the-idempotency-key", "c1", sealed) == TOKENS  # another process opens it


def test_a_process_whose_record_does_not_open_reads_the_stored_secret_again():
    secrets = Secrets()
    first, second = Sealing(secrets), Sealing(secrets)
    assert first.server_secret() == bytes([1]) * 32
    secrets.kept = None  # lost; the second process seals first, under a new one
    sealed = second.seal("the-idempotency-key", "c1", TOKENS)
    assert first.unseal("the-idempotency-key", "c1", sealed) == TOKENS
    assert first.server_secret() == bytes([2]) * 32
