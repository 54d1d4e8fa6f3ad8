"""GET /combats/<id>/stream (Server-Sent Events) and the long poll, in process."""

from __future__ import annotations

import json
import logging
import threading

import pytest

from service.adapters import fanout
from service.api import stream as stream_api
from service.api.access import digest, token_id
from service.app import create_app
from service.observability import shutdown
from service.observability.metrics import ACTIVE_STREAMS
from service.observability.store import observed
from service.rules.registry import RULESETS, get_ruleset
from service.settings import Settings
from service.usecases.stream import EventStreams, Revoked, catch_up
from service.usecases.views import entries_shown_alike
from tests.conftest import TTL, GameMasterClient
from tests.helpers import act, create

SISTEMA = get_ruleset("sistema-2d6").example()
# Ana attacks, Capanga defends (the example), then Capanga passes his turn.
PLAY = [*SISTEMA["actions"][:2], {"type": "pass", "actor": "capanga"}]
DARK_EARTH = get_ruleset("dark-earth").example()


class Events:
    """Reads a streamed response one SSE event at a time."""

    def __init__(self, response):
        assert response.status_code == 200, response.get_data()
        assert response.mimetype == "text/event-stream"
        self.response = response
        self.chunks = iter(response.response)
        self.buffer = ""

    def next(self) -> dict:
        while "\n\n" not in self.buffer:
            chunk = next(self.chunks)
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        block, self.buffer = self.buffer.split("\n\n", 1)
        fields = {"comments": []}
        for line in block.split("\n"):
            name, _, value = line.partition(":")
            if name == "":
                fields["comments"].append(value.strip())
            else:
                fields[name] = value.strip()
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
        return fields

    def next_event(self) -> dict:
        while True:
            found = self.next()
            if "event" in found:
                return found

    def close(self):
        self.response.close()


def open_stream(client, location: str, query: str = "", headers=None) -> Events:
    return Events(client.get(f"{location}/stream{query}", buffered=False, headers=headers or {}))


def test_entries_arrive_in_order_with_their_seq_as_id(client):
    location, _ = create(client, SISTEMA["combat"])
    stream = open_stream(client, location)
    assert stream.next()["retry"] == "2000"
    for action in PLAY:
        act(client, location, action)
    seqs = [stream.next_event() for _ in range(3)]
    assert [int(e["id"].split(":")[0]) for e in seqs] == [2, 3, 4]
    assert all(e["event"] == "entry" and e["data"]["seq"] == int(e["id"].split(":")[0]) for e in seqs)
    assert seqs[0]["data"]["events"][0]["text"]  # shown like GET /events: with the sentences
    stream.close()


@pytest.mark.parametrize(
    ("accept", "text"),
    [
        (None, "Ana ataca Capanga com Pistola: 5, 4 → 15."),  # the combat's language
        ("*", "Ana ataca Capanga com Pistola: 5, 4 → 15."),
        ("fr-FR,fr;q=0.9", "Ana attaque Capanga avec Pistola : 5, 4 → 15."),
    ],
)
def test_the_stream_speaks_the_language_the_other_reads_speak(client, accept, text):
    location, _ = create(client, SISTEMA["combat"])
    stream = open_stream(client, location, headers={"Accept-Language": accept} if accept else {})
    act(client, location, PLAY[0])
    assert stream.next_event()["data"]["events"][0]["text"] == text
    stream.close()


def test_after_and_last_event_id_resume_without_missing_anything(client):
    location, _ = create(client, SISTEMA["combat"])
    for action in PLAY[:2]:
        act(client, location, action)
    whole = open_stream(client, location, "?after=0")
    assert [int(whole.next_event()["id"].split(":")[0]) for _ in range(3)] == [1, 2, 3]
    whole.close()
    resumed = open_stream(client, location, "?after=0", headers={"Last-Event-ID": "2"})
    act(client, location, PLAY[2])
    assert [int(resumed.next_event()["id"].split(":")[0]) for _ in range(2)] == [3, 4]
    resumed.close()


def test_a_bad_last_event_id_is_a_422(client):
    location, _ = create(client, SISTEMA["combat"])
    response = client.get(f"{location}/stream", headers={"Last-Event-ID": "abc"})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/Last-Event-ID"


def test_the_token_may_come_as_a_query_parameter_and_is_never_logged(client, caplog):
    location, combat = create(client, SISTEMA["combat"])
    token = client.tokens[combat["id"]]["combatants"]["ana"]
    with caplog.at_level(logging.INFO, logger="melee.request"):
        stream = open_stream(client, location, f"?after=0&access_token={token}", headers={"Authorization": ""})
        assert stream.next_event()["id"].split(":")[0] == "1"
        stream.close()
    assert caplog.records and all(
        token not in record.getMessage() and token not in json.dumps(record.__dict__, default=str)
        for record in caplog.records
    )
    refused = client.get(f"{location}/stream?access_token=nope", headers={"Authorization": ""})
    assert refused.status_code == 401


def test_each_listener_sees_what_its_role_may_see(client):
    location, combat = create(client, DARK_EARTH["combat"])
    tokens = client.tokens[combat["id"]]["combatants"]
    kael, goule = DARK_EARTH["actions"][0], DARK_EARTH["actions"][1]
    as_goule = open_stream(client, location, headers={"Authorization": f"Bearer {tokens[goule['actor']]}"})
    as_kael = open_stream(client, location, headers={"Authorization": f"Bearer {tokens[kael['actor']]}"})
    act(client, location, kael)
    seen_by_goule = as_goule.next_event()["data"]
    seen_by_kael = as_kael.next_event()["data"]
    # Kael's secret split is his and the GM's only.
    assert "split" in json.dumps(seen_by_kael["action"])
    assert "split" not in json.dumps(seen_by_goule["action"])
    as_goule.close()
    as_kael.close()


def test_shutdown_tells_listeners_to_reconnect_and_the_gauge_counts_streams(client, monkeypatch):
    monkeypatch.setattr(shutdown, "STOPPING", threading.Event())
    monkeypatch.setattr(shutdown, "_callbacks", [])
    location, _ = create(client, SISTEMA["combat"])
    before = ACTIVE_STREAMS._value.get()
    stream = open_stream(client, location)
    stream.next()
    assert ACTIVE_STREAMS._value.get() == before + 1
    assert len(shutdown._callbacks) == 1
    shutdown.begin()
    assert stream.next_event()["event"] == "reconnect"
    with pytest.raises(StopIteration):
        stream.next()
    stream.close()
    assert ACTIVE_STREAMS._value.get() == before
    assert shutdown._callbacks == []


def test_no_free_slot_is_a_503_with_retry_after(store):
    app = create_app(Settings(combat_ttl_seconds=TTL, rate_limit="", max_streams_per_worker=0), store=store)
    app.test_client_class = GameMasterClient
    client = app.test_client()
    location, _ = create(client, SISTEMA["combat"])
    response = client.get(f"{location}/stream")
    assert response.status_code == 503 and response.headers["Retry-After"]
    assert response.get_json()["type"].endswith("too-many-streams")
    # The long poll answers at once instead of holding a thread.
    assert client.get(f"{location}/events?after=1&wait=5").get_json()["items"] == []


def test_the_long_poll_returns_the_entry_posted_while_it_waits(app):
    client = app.test_client()
    location, combat = create(client, SISTEMA["combat"])
    gm = {"Authorization": f"Bearer {client.tokens[combat['id']]['gm']}"}
    poster = app.test_client()

    def post_later():
        threading.Event().wait(0.3)
        poster.post(f"{location}/actions", json=SISTEMA["actions"][0], headers=gm)

    thread = threading.Thread(target=post_later)
    thread.start()
    page = client.get(f"{location}/events?after=1&wait=20").get_json()
    thread.join()
    assert [item["seq"] for item in page["items"]] == [2]


def test_the_long_poll_gives_up_empty_after_wait(client):
    location, _ = create(client, SISTEMA["combat"])
    page = client.get(f"{location}/events?after=1&wait=1").get_json()
    assert page["items"] == [] and page["last_seq"] == 1


def test_listeners_receive_an_undo_and_a_redo_as_entries(client):
    location, _ = create(client, SISTEMA["combat"])
    stream = open_stream(client, location)
    stream.next()
    act(client, location, PLAY[0])
    assert client.post(f"{location}/undo").status_code == 200
    assert client.post(f"{location}/redo").status_code == 200
    attack, undo, redo = (stream.next_event()["data"] for _ in range(3))
    assert attack["action"]["type"] == "attack"
    assert undo["action"] == {
        "type": "undo",
        "actor": "gm",
        "undoes": 2,
        "dice_commitment": undo["action"]["dice_commitment"],
    }
    assert undo["action"]["dice_commitment"]["stream"] == 1 and len(undo["action"]["dice_commitment"]["sha256"]) == 64
    assert undo["events"][0]["code"] == "action_undone" and "restored_state" not in undo
    assert redo["action"]["type"] == "redo" and redo["events"][0]["code"] == "action_redone"
    stream.close()


def test_a_deleted_combat_tells_its_listeners_at_once(client):
    location, _ = create(client, SISTEMA["combat"])
    stream = open_stream(client, location)
    stream.next()
    assert client.delete(location).status_code == 204
    # The next event is `gone` (only heartbeat comments before it): the hub's
    # existence check noticed the deletion, not the grant check 15 s later.
    assert stream.next_event()["event"] == "gone"
    stream.close()


def client_with(store, **settings) -> GameMasterClient:
    app = create_app(Settings(combat_ttl_seconds=TTL, rate_limit="", **settings), store=store)
    app.test_client_class = GameMasterClient
    return app.test_client()


def test_one_token_holds_at_most_its_streams_and_gets_its_slot_back_on_close(store):
    client = client_with(store, max_streams_per_token=2)
    location, _ = create(client, SISTEMA["combat"])
    held = [open_stream(client, location) for _ in range(2)]
    refused = client.get(f"{location}/stream")
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert refused.get_json()["type"].endswith("too-many-streams-per-client")
    assert "this token" in refused.get_json()["detail"]
    # Another token of the same combat is not held back by the GM's streams.
    combat_id = location.rsplit("/", 1)[1]
    ana = {"Authorization": f"Bearer {client.tokens[combat_id]['combatants']['ana']}"}
    open_stream(client, location, headers=ana).close()
    # The GM's long poll over the cap answers at once.
    assert client.get(f"{location}/events?after=1&wait=5").get_json()["items"] == []
    held[0].close()
    again = open_stream(client, location)
    again.close()
    held[1].close()


def test_one_address_holds_at_most_its_streams(store):
    client = client_with(store, max_streams_per_address=2)
    location, _ = create(client, SISTEMA["combat"])
    tokens = client.tokens[location.rsplit("/", 1)[1]]
    held = [open_stream(client, location), open_stream(client, location, headers=_bearer(tokens["combatants"]["ana"]))]
    refused = client.get(f"{location}/stream", headers=_bearer(tokens["combatants"]["capanga"]))
    assert refused.status_code == 429 and "this address" in refused.get_json()["detail"]
    other_address = client.get(
        f"{location}/stream",
        buffered=False,
        environ_base={"REMOTE_ADDR": "192.0.2.7"},
        headers=_bearer(tokens["combatants"]["capanga"]),
    )
    assert other_address.status_code == 200
    other_address.close()
    for stream in held:
        stream.close()


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_last_event_id_past_the_largest_stream_id_is_a_422(client):
    location, _ = create(client, SISTEMA["combat"])
    for too_big in (str(2**63), "9" * 40):
        response = client.get(f"{location}/stream", headers={"Last-Event-ID": too_big})
        assert response.status_code == 422, too_big
    assert client.get(f"{location}/stream?after={2**63}").status_code == 422


def test_many_viewers_of_many_combats_all_get_the_same_entries_in_order(store):
    """40 listeners on 4 combats, through the one hub of the app: each gets
    every entry of its combat, once, in order."""
    client = client_with(store, max_streams_per_token=10)
    combats = [create(client, SISTEMA["combat"])[0] for _ in range(4)]
    viewers = {location: [open_stream(client, location) for _ in range(10)] for location in combats}
    for location in combats:
        for stream in viewers[location]:
            stream.next()  # connected
    for action in PLAY:
        for location in combats:
            act(client, location, action)
    for location in combats:
        seen = [[stream.next_event() for _ in range(3)] for stream in viewers[location]]
        for events in seen:
            assert [e["id"].split(":")[0] for e in events] == ["2", "3", "4"]
            assert [e["data"]["action"]["type"] for e in events] == ["attack", "defend", "pass"]
            assert events == seen[0]
        for stream in viewers[location]:
            stream.close()


def test_a_full_queue_drops_batches_but_never_a_notice(monkeypatch):
    monkeypatch.setattr(fanout, "QUEUE_SIZE", 1)
    subscription = fanout.Subscription("c")
    first, second = (fanout.Batch([{"seq": seq}], {}, {}) for seq in (2, 3))
    subscription.put(first)
    assert not subscription.dropped
    subscription.put(second)
    assert subscription.dropped
    subscription.put(fanout.GONE)
    assert subscription.get(0) is first
    assert subscription.get(0) == fanout.GONE and subscription.get(0) is None


def test_a_listener_whose_queue_overflowed_reads_the_gap_from_the_store(client, monkeypatch):
    monkeypatch.setattr(fanout, "QUEUE_SIZE", 1)
    location, _ = create(client, SISTEMA["combat"])
    stream = open_stream(client, location)
    stream.next()
    # The hub brings three batches (or fewer, larger ones) while the listener
    # reads nothing: its queue of one drops some.
    for action in PLAY:
        act(client, location, action)
    assert [int(stream.next_event()["id"].split(":")[0]) for _ in range(3)] == [2, 3, 4]
    stream.close()


def test_a_revoked_token_stops_listening(client):
    location, combat = create(client, SISTEMA["combat"])
    ana = client.tokens[combat["id"]]["combatants"]["ana"]
    stream = open_stream(client, location, headers=_bearer(ana))
    stream.next()
    assert client.delete(f"{location}/tokens/{token_id(digest(ana))}").status_code == 204
    act(client, location, PLAY[0])
    assert stream.next_event()["event"] == "revoked"
    stream.close()


def test_a_long_poll_after_a_huge_seq_does_not_break_the_streams(app):
    """Past the largest stream id, `after` must not reach the one XREAD all listeners share."""
    client = app.test_client()
    location, combat = create(client, SISTEMA["combat"])
    stream = open_stream(client, location)
    stream.next()
    with app.test_request_context(headers=_bearer(client.tokens[combat["id"]]["gm"])):
        assert stream_api.long_poll(combat["id"], 2**64, 0.5)
    act(client, location, PLAY[0])
    assert stream.next_event()["id"].split(":")[0] == "2"
    stream.close()


def test_the_reader_gets_only_what_each_followed_combat_lacks(client, store):
    """One XREAD over many followed combats (packed by the store itself): each
    combat's entries after its own position."""
    locations = [create(client, SISTEMA["combat"])[0] for _ in range(3)]
    ids = [location.rsplit("/", 1)[1] for location in locations]
    for action in PLAY[:2]:
        act(client, locations[0], action)  # entries 2 and 3
    act(client, locations[2], PLAY[0])  # entry 2
    found = store.read_streams({ids[0]: 1, ids[1]: 1, ids[2]: 2}, 10)
    # The first combat lacks 2 and 3; the second has nothing after 1; the third nothing after 2.
    assert {combat_id: [entry["seq"] for entry in entries] for combat_id, entries in found.items()} == {ids[0]: [2, 3]}
    assert [entry["action"]["type"] for entry in found[ids[0]]] == ["attack", "defend"]
    # Positions move on: the same combats again, the first from 2.
    assert {
        combat_id: [e["seq"] for e in entries]
        for combat_id, entries in store.read_streams({ids[0]: 2, ids[2]: 0}, 10).items()
    } == {ids[0]: [3], ids[2]: [1, 2]}


def test_the_reader_loads_each_moved_combat_with_the_tokens_that_open_it(client, store):
    location, combat = create(client, SISTEMA["combat"])
    gone, _ = create(client, SISTEMA["combat"])
    tokens = client.tokens[combat["id"]]
    assert client.delete(gone).status_code == 204
    assert client.delete(f"{location}/tokens/{token_id(digest(tokens['combatants']['ana']))}").status_code == 204
    loaded = store.load_with_readers([combat["id"], gone.rsplit("/", 1)[1]])
    assert list(loaded) == [combat["id"]]  # the deleted combat left out
    state, readers = loaded[combat["id"]]
    assert state["id"] == combat["id"] and state["version"] == 1
    # The GM and Capanga still open it; Ana's token was revoked.
    assert readers == {digest(tokens["gm"]), digest(tokens["combatants"]["capanga"])}


def test_the_store_and_its_observer_are_what_the_stream_use_case_reads(store):
    assert isinstance(store, EventStreams) and isinstance(observed(store), EventStreams)


def test_catching_up_reads_page_after_page_and_stops_at_a_revoked_token(client, store):
    location, combat = create(client, SISTEMA["combat"])
    for action in PLAY:
        act(client, location, action)
    gm, ana = (
        digest(token) for token in (client.tokens[combat["id"]]["gm"], client.tokens[combat["id"]]["combatants"]["ana"])
    )
    # Entries 2, 3, 4 after 1, in pages of at most 2: the store gives up to 100 at once, so one page of 3 (a full
    # page of 2 would be followed by another read from its last seq).
    pages = list(catch_up(store, combat["id"], gm, 1, 2))
    assert [[entry["seq"] for entry in entries] for _, entries in pages] == [[2, 3, 4]]
    assert pages[0][0]["version"] == 4  # shown by the state after them
    assert list(catch_up(store, combat["id"], gm, 4, 2)) == []  # nothing after the last
    assert client.delete(f"{location}/tokens/{token_id(ana)}").status_code == 204
    with pytest.raises(Revoked):
        next(catch_up(store, combat["id"], ana, 1, 2))


@pytest.mark.parametrize("ruleset_id", sorted(rid for rid in RULESETS if entries_shown_alike(rid)))
def test_a_ruleset_that_hides_nothing_in_its_log_shows_every_role_the_same_entries(client, ruleset_id):
    """The stream renders such a ruleset's entries once per language, not once per role: that holds only while
    every role reads the same log (GET /events shows entries as the stream does)."""
    example = get_ruleset(ruleset_id).example()
    location, combat = create(client, example["combat"])
    played = 0
    for action in example["actions"]:  # some examples list alternatives: play them while the rules take them
        if client.post(f"{location}/actions", json=action).status_code != 200:
            break
        played += 1
    assert played >= 1
    tokens = client.tokens[combat["id"]]
    pages = [
        client.get(f"{location}/events?after=0", headers=_bearer(token)).get_json()
        for token in (tokens["gm"], *tokens["combatants"].values())
    ]
    assert len(pages) == 1 + len(example["combat"]["combatants"]) and len(pages[0]["items"]) == 1 + played
    assert all(page == pages[0] for page in pages)


def test_dark_earth_hides_an_allocation_from_the_other_roles_so_it_is_rendered_per_role():
    assert not entries_shown_alike("dark-earth")


def test_a_follower_is_ticked_only_once_its_heartbeat_is_due_and_never_twice_unread(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(fanout.time, "monotonic", lambda: clock[0])
    subscription = fanout.Subscription("c", tick_seconds=15)
    subscription.tick(1014.0)  # 14 s quiet: not yet
    assert subscription.get(0) is None
    subscription.tick(1015.0)
    subscription.tick(1031.0)  # due again, but the first TICK is still unread: no second one
    assert subscription.get(0) == fanout.TICK and subscription.get(0) is None
    clock[0] = 1040.0
    subscription.put(fanout.Batch([{"seq": 2}], {}, frozenset()))  # something came: quiet again from 1040
    subscription.get(0)
    subscription.tick(1054.0)
    assert subscription.get(0) is None
    subscription.tick(1055.0)
    assert subscription.get(0) == fanout.TICK
