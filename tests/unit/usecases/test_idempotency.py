"""service/usecases/idempotency.py: the records read back as types, and the fence on the in-memory store."""

from __future__ import annotations

import pytest

from service.store.memory import MemoryCombats
from service.usecases.idempotency import (
    ActionApplied,
    CombatCreated,
    Found,
    InFlight,
    KeyFence,
    KeyReused,
    ReplayUnavailable,
    RequestInFlight,
    Unreadable,
    fingerprint,
    key_digest,
    parse,
)


@pytest.mark.parametrize(
    "text, found",
    [
        ("F fp 1000 abcd", Found("fp", InFlight())),
        ("A fp 12", Found("fp", ActionApplied(12))),
        ("C fp c1 sealed==", Found("fp", CombatCreated("c1", "sealed=="))),
        ("A fp twelve", Found("fp", Unreadable())),
        ("C fp c1", Found("fp", Unreadable())),
        ("X fp 1", Found("fp", Unreadable())),
        ("", Found("", Unreadable())),
    ],
)
def test_records_read_back_as_types(text, found):
    assert parse(text) == found


def test_the_digests_are_128_bits_of_sha256():
    # sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
    assert key_digest("abc") == "ba7816bf8f01cfea414140de5dae2223"


def test_the_fingerprint_is_the_path_the_body_and_the_caller():
    one = fingerprint("/combats", {"a": 1}, "Bearer x\0")
    assert one == fingerprint("/combats", {"a": 1}, "Bearer x\0")
    assert (
        len(
            {
                one,
                fingerprint("/combats", {"a": 2}, "Bearer x\0"),
                fingerprint("/combats", {"a": 1}, "Bearer y\0"),
                fingerprint("/combats/c1/actions", {"a": 1}, "Bearer x\0"),
            }
        )
        == 4
    )


def test_the_fence_reserves_then_replays_what_was_recorded():
    store = MemoryCombats()
    first = KeyFence.new("records", "key-0123456789ab", "fp", ttl=60, now=1000)
    assert first.reserve(store, 1000) is None
    with pytest.raises(RequestInFlight):
        KeyFence.new("records", "key-0123456789ab", "fp", ttl=60, now=1001).reserve(store, 1001)
    assert first.creation_done(store, "c1", "sealed")
    assert store.records["records"] == {first.digest: "C fp c1 sealed"}
    assert KeyFence.new("records", "key-0123456789ab", "fp", ttl=60, now=1002).reserve(store, 1002) == CombatCreated(
        "c1", "sealed"
    )
    with pytest.raises(KeyReused):
        KeyFence.new("records", "key-0123456789ab", "other", ttl=60, now=1003).reserve(store, 1003)


def test_an_action_record_is_written_by_the_commit():
    fence = KeyFence.new("records", "key-0123456789ab", "fp", ttl=60, now=1000)
    assert fence.action_applied(7, "2026-12-02T03:00:00Z") == (
        fence.digest,
        fence.reservation,
        "A fp 7 2026-12-02T03:00:00Z",
        60,
    )
    assert fence.reservation.startswith("F fp 1000 ") and len(fence.reservation) == len("F fp 1000 ") + 16


def test_an_unreadable_record_is_never_replayed_whoever_asks():
    store = MemoryCombats()
    fence = KeyFence.new("records", "key-0123456789ab", "fp", ttl=60, now=1000)
    store.records["records"] = {fence.digest: "Q other 1"}
    with pytest.raises(ReplayUnavailable):
        fence.reserve(store, 1000)
    assert store.records["records"] == {fence.digest: "Q other 1"}


def test_abandon_deletes_only_this_requests_reservation():
    store = MemoryCombats()
    mine = KeyFence.new("records", "key-0123456789ab", "fp", ttl=60, now=1000)
    mine.reserve(store, 1000)
    store.records["records"][mine.digest] = "F fp 1020 someoneelse"  # taken over
    mine.abandon(store)
    assert store.records["records"] == {mine.digest: "F fp 1020 someoneelse"}
