"""service/usecases/creation.py on the in-memory store: a combat created once,
and under an Idempotency-Key at most once. Every refusal stores no combat."""

from __future__ import annotations

import json
import time

import pytest

from service.rules.errors import InvalidInput
from service.rules.registry import get_ruleset
from service.store.memory import MemoryCombats
from service.usecases.access import authorize
from service.usecases.creation import SECRET_CHANGED, create
from service.usecases.idempotency import OLDER_FORMAT, KeyFence, KeyReused, ReplayUnavailable, RequestInFlight

BODY = get_ruleset("sistema-2d6").example()["combat"]
KEY = "creation-key-0001"
RECORDS = "creation:{k}"
NOW = int(time.time())  # create() reads the clock: a reservation made at NOW is fresh for 15 s


class Sealer:
    """Seals in the clear (the real one is AES-GCM, tested in tests/api); ``opens=False``: the secret changed."""

    def __init__(self, opens: bool = True):
        self.opens = opens

    def seal(self, idempotency_key, combat_id, tokens):
        return json.dumps([idempotency_key, combat_id, tokens], separators=(",", ":")).replace(" ", "_")

    def unseal(self, idempotency_key, combat_id, sealed):
        key, sealed_for, tokens = json.loads(sealed)
        return tokens if self.opens and (key, sealed_for) == (idempotency_key, combat_id) else None


def fence(fingerprint: str = "same-request", now: int = NOW) -> KeyFence:
    return KeyFence.new(RECORDS, KEY, fingerprint, ttl=86400, now=now)


@pytest.fixture
def combats():
    return MemoryCombats()


def test_a_combat_is_created_at_version_1_with_a_token_per_role(combats):
    created = create(combats, BODY, combat_id="c1", entropy=bytes(32))
    assert created.state["id"] == "c1" and created.state["version"] == 1 and not created.replayed
    assert sorted(created.tokens) == ["combatants", "gm"]
    assert sorted(created.tokens["combatants"]) == ["ana", "capanga"]
    assert authorize(combats, "c1", created.tokens["gm"])[1].is_gm
    assert authorize(combats, "c1", created.tokens["combatants"]["ana"])[1].combatant == "ana"
    assert "expires_at" in combats.states["c1"][0] and len(combats.logs["c1"]) == 1


def test_without_an_id_the_combat_gets_a_random_one(combats):
    first, second = create(combats, BODY), create(combats, BODY)
    assert len(first.state["id"]) == 32 and first.state["id"] != second.state["id"]  # uuid4().hex


def test_an_invalid_body_stores_nothing(combats):
    with pytest.raises(InvalidInput):
        create(combats, {**BODY, "ruleset": "no-such-ruleset"}, combat_id="c1")
    assert combats.states == {}


def test_a_retry_under_the_same_key_shows_the_same_combat_and_tokens(combats):
    first = create(combats, BODY, fence=fence(), sealer=Sealer(), combat_id="c1")
    retried = create(combats, BODY, fence=fence(), sealer=Sealer(), combat_id="c2")
    assert retried.replayed and not first.replayed
    assert retried.tokens == first.tokens and retried.state == first.state
    assert list(combats.states) == ["c1"]


def test_the_replay_shows_the_combat_as_created_not_as_it_is_now(combats):
    first = create(combats, BODY, fence=fence(), sealer=Sealer(), combat_id="c1")
    later = {**combats.states["c1"][0], "version": 2}
    combats.commit(later, {"seq": 2, "action": {"type": "pass", "actor": "ana"}}, expected_version=1)
    assert create(combats, BODY, fence=fence(), sealer=Sealer(), combat_id="c2").state["version"] == 1
    assert first.state["version"] == 1


def test_the_same_key_for_another_request_is_refused(combats):
    create(combats, BODY, fence=fence(), sealer=Sealer(), combat_id="c1")
    with pytest.raises(KeyReused):
        create(combats, BODY, fence=fence("another-request"), sealer=Sealer(), combat_id="c2")
    assert list(combats.states) == ["c1"]


def test_a_retry_while_the_first_is_in_flight_is_refused(combats):
    assert fence(now=int(time.time())).reserve(combats, int(time.time())) is None  # the first request, still running
    with pytest.raises(RequestInFlight):
        create(combats, BODY, fence=fence(), sealer=Sealer(), combat_id="c2")
    assert combats.states == {}


def test_a_stalled_reservation_is_taken_over_after_15_seconds(combats):
    assert fence(now=NOW - 15).reserve(combats, NOW - 15) is None  # a worker that died 15 s ago
    created = create(combats, BODY, fence=fence(now=NOW), sealer=Sealer(), combat_id="c2")
    assert list(combats.states) == ["c2"] and not created.replayed


def test_a_refused_creation_frees_the_key_for_its_retry(combats):
    keyed = fence()
    with pytest.raises(InvalidInput):
        create(combats, {**BODY, "combatants": []}, fence=keyed, sealer=Sealer(), combat_id="c1")
    assert combats.records[RECORDS] == {} and combats.states == {}
    assert not create(combats, BODY, fence=fence(), sealer=Sealer(), combat_id="c1").replayed


def test_a_reservation_taken_over_mid_creation_leaves_the_combat_to_the_other_request(combats):
    keyed = fence()

    class TakenOver(Sealer):
        def seal(self, idempotency_key, combat_id, tokens):
            combats.records[RECORDS][keyed.digest] = "F same-request 999 othernonce"  # another worker took over
            return super().seal(idempotency_key, combat_id, tokens)

    with pytest.raises(RequestInFlight):
        create(combats, BODY, fence=keyed, sealer=TakenOver(), combat_id="c1")
    assert combats.states == {}  # created, then deleted: the other request creates it
    assert combats.records[RECORDS] == {keyed.digest: "F same-request 999 othernonce"}


def test_tokens_sealed_under_another_secret_are_not_shown_again(combats):
    create(combats, BODY, fence=fence(), sealer=Sealer(), combat_id="c1")
    with pytest.raises(ReplayUnavailable) as unavailable:
        create(combats, BODY, fence=fence(), sealer=Sealer(opens=False), combat_id="c2")
    assert unavailable.value.why == SECRET_CHANGED == "created a combat under a server secret that has changed since"
    assert list(combats.states) == ["c1"]


@pytest.mark.parametrize("record", ["Z same-request 1", "A same-request 3", "C same-request c1"])
def test_a_record_that_is_no_creation_of_this_version_is_not_replayed(combats, record):
    combats.records[RECORDS] = {fence().digest: record}
    with pytest.raises(ReplayUnavailable) as unavailable:
        create(combats, BODY, fence=fence(), sealer=Sealer(), combat_id="c1")
    assert unavailable.value.why == OLDER_FORMAT
    assert combats.states == {} and combats.records[RECORDS] == {fence().digest: record}


def test_a_fenced_creation_needs_a_sealer(combats):
    with pytest.raises(ValueError):
        create(combats, BODY, fence=fence(), combat_id="c1")
    assert combats.states == {}
