"""Idempotency-Key: a retried POST applies once and answers the same."""

import hashlib
import threading
import time
import uuid

from service.store.keys import creation_key, idempotency_key

from ..helpers import create, log


def key():
    return str(uuid.uuid4())


def example(client):
    return client.get("/rulesets/sistema-2d6").get_json()["example"]


def test_a_retried_action_applies_once_and_rolls_no_new_dice(client):
    body = example(client)
    location, _ = create(client, body["combat"])
    headers = {"Idempotency-Key": key()}
    attack = {"type": "attack", "actor": "ana", "target": "capanga", "defense": {}}
    first = client.post(f"{location}/actions", json=attack, headers=headers)
    again = client.post(f"{location}/actions", json=attack, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert again.headers["ETag"] == first.headers["ETag"]
    assert len(log(client, location)) == 2
    assert client.get(location).get_json()["version"] == 2


def test_the_same_key_for_another_body_is_422(client):
    location, _ = create(client, example(client)["combat"])
    headers = {"Idempotency-Key": key()}
    assert client.post(f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers=headers).status_code == 200
    reused = client.post(f"{location}/actions", json={"type": "pass", "actor": "capanga"}, headers=headers)
    assert reused.status_code == 422
    assert reused.get_json()["type"] == "/problems/idempotency-key-reused"
    assert len(log(client, location)) == 2


def test_concurrent_retries_apply_exactly_once(client):
    location, _ = create(client, example(client)["combat"])
    headers = {"Idempotency-Key": key()}
    action = {"type": "attack", "actor": "ana", "target": "capanga", "defense": {}}
    barrier, results = threading.Barrier(8), []

    def post():
        barrier.wait()
        response = client.post(f"{location}/actions", json=action, headers=headers)
        results.append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=post) for _ in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert {status for status, _ in results} <= {200, 409}
    answers = [body for status, body in results if status == 200]
    assert answers and all(answer == answers[0] for answer in answers)
    in_flight = [body for status, body in results if status == 409]
    assert all(body["type"] == "/problems/request-in-flight" for body in in_flight)
    # Once the first is done, every retry gets the same answer.
    later = client.post(f"{location}/actions", json=action, headers=headers)
    assert later.get_json() == answers[0]
    assert len(log(client, location)) == 2


def test_a_retried_creation_returns_the_same_combat(client):
    body = example(client)["combat"]
    headers = {"Idempotency-Key": key()}
    first = client.post("/combats", json=body, headers=headers)
    again = client.post("/combats", json=body, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    other = client.post("/combats", json={**body, "lang": "fr"}, headers=headers)
    assert other.status_code == 422


def test_a_refused_action_is_not_stored_and_its_retry_is_processed_again(client):
    location, _ = create(client, example(client)["combat"])
    headers = {"Idempotency-Key": key()}
    action = {"type": "pass", "actor": "capanga"}
    assert client.post(f"{location}/actions", json=action, headers=headers).status_code == 409
    client.post(f"{location}/actions", json={"type": "pass", "actor": "ana"})
    assert client.post(f"{location}/actions", json=action, headers=headers).status_code == 200


def test_keys_must_be_long_enough(client):
    location, _ = create(client, example(client)["combat"])
    response = client.post(
        f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers={"Idempotency-Key": "1"}
    )
    assert response.status_code == 400
    assert response.content_type == "application/problem+json"
    assert len(log(client, location)) == 1


def test_an_unknown_combat_with_a_key_is_404(client):
    response = client.post(
        "/combats/nope/actions", json={"type": "pass", "actor": "a"}, headers={"Idempotency-Key": key()}
    )
    assert response.status_code == 404


def test_a_retried_creation_shows_working_tokens_whichever_worker_answers(store):
    # Two app instances on one store stand for two workers or two machines.
    from service.app import create_app
    from service.settings import Settings

    first, second = (create_app(Settings(rate_limit=""), store=store).test_client() for _ in range(2))
    body = first.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    headers = {"Idempotency-Key": key()}
    created = first.post("/combats", json=body, headers=headers).get_json()
    replayed = second.post("/combats", json=body, headers=headers).get_json()
    assert replayed["tokens"] == created["tokens"]
    gm = {"Authorization": f"Bearer {replayed['tokens']['gm']}"}
    assert second.get(f"/combats/{created['id']}", headers=gm).status_code == 200


# -- Redis stalls: the write reaches Redis, the answer does not (defect 1) -------------
# A stalled Redis (SIGSTOP, CLIENT PAUSE, a failover) runs a write after the
# worker gave up on it. tests/faults/test_idempotency_stall.py does it with a
# real stopped redis-server; these replay the two orders that matter,
# deterministically, by standing in for the commit script.

ADJUST = {"type": "adjust", "actor": "gm", "target": "ana", "change": {"pv": -1}}


def stall_commits(store, monkeypatch, run_before_failing: bool):
    """The next commit raises a socket timeout, as a stalled Redis does; with
    ``run_before_failing`` it runs first (Redis resumed, the reply was lost),
    else it is kept in ``late`` for the test to run when it likes."""
    import redis

    real, late = store._commit, []

    def stalled(**call):
        monkeypatch.setattr(store, "_commit", real)
        if run_before_failing:
            real(**call)
        else:
            late.append(lambda: real(**call))
        raise redis.exceptions.TimeoutError("Timeout reading from socket")

    monkeypatch.setattr(store, "_commit", stalled)
    return late


def test_an_applied_action_whose_reply_was_lost_is_answered_again_not_applied_again(client, store, monkeypatch):
    location, _ = create(client, example(client)["combat"])
    headers = {"Idempotency-Key": key()}
    stall_commits(store, monkeypatch, run_before_failing=True)
    lost = client.post(f"{location}/actions", json=ADJUST, headers=headers)
    assert lost.status_code == 503
    assert lost.get_json()["type"] == "/problems/outcome-unknown"
    assert "same Idempotency-Key" in lost.get_json()["detail"]
    retried = client.post(f"{location}/actions", json=ADJUST, headers=headers)
    assert retried.status_code == 200 and retried.headers["Idempotent-Replayed"] == "true"
    assert retried.get_json()["action"]["seq"] == 2
    assert len(log(client, location)) == 2, "applied once"


def test_a_write_that_reaches_redis_after_its_retry_began_is_refused(client, store, monkeypatch):
    location, _ = create(client, example(client)["combat"])
    headers = {"Idempotency-Key": key()}
    late = stall_commits(store, monkeypatch, run_before_failing=False)
    assert client.post(f"{location}/actions", json=ADJUST, headers=headers).status_code == 503
    # The retry reserves the key again; the stalled commit lands before the retry's own.
    real = store._commit

    def late_write_first(**call):
        outcome = late.pop()() if late else None
        assert outcome is None or outcome[0] == 4, "the late write is refused: its reservation is gone"
        return real(**call)

    monkeypatch.setattr(store, "_commit", late_write_first)
    retried = client.post(f"{location}/actions", json=ADJUST, headers=headers)
    assert retried.status_code == 200
    entries = log(client, location)
    assert len(entries) == 2, "applied once"
    assert client.get(location).get_json()["combatants"][0]["pv"] == entries[1]["events"][0]["params"]["new"]


def test_the_clean_up_after_a_failure_deletes_only_its_own_reservation(client, store):
    location, combat = create(client, example(client)["combat"])
    headers = {"Idempotency-Key": key()}
    assert client.post(f"{location}/actions", json=ADJUST, headers=headers).status_code == 200
    records = store.client.hgetall(idempotency_key(combat["id"]))
    ((field, answer),) = records.items()
    assert not store.swap(idempotency_key(combat["id"]), field.decode(), "F someone else's reservation", "")
    assert store.client.hget(idempotency_key(combat["id"]), field) == answer


# -- small records with their own TTL (defect 6) -------------------------------------


def test_an_action_record_is_small_and_has_its_own_ttl(store):
    from service.app import create_app
    from service.settings import Settings

    client = create_app(
        Settings(rate_limit="", combat_ttl_seconds=7200, idempotency_ttl_seconds=900), store=store
    ).test_client()
    body = example(client)["combat"]
    created = client.post("/combats", json=body).get_json()
    gm = {"Authorization": f"Bearer {created['tokens']['gm']}"}
    response = client.post(f"/combats/{created['id']}/actions", json=ADJUST, headers={**gm, "Idempotency-Key": key()})
    assert response.status_code == 200
    records = store.client.hgetall(idempotency_key(created["id"]))
    (answer,) = records.values()
    # "A <32 hex fingerprint> 2 <expires_at>": no answer body, whatever the combat's size.
    assert len(answer) == len("A ") + 32 + len(" 2 ") + len("2026-12-02T03:00:00Z"), answer
    assert 0 < store.client.ttl(idempotency_key(created["id"])) <= 900
    assert store.client.ttl(f"combat:{{{created['id']}}}:state") > 900


def test_a_replay_after_later_actions_answers_the_state_right_after_the_action(client):
    location, _ = create(client, example(client)["combat"])
    headers = {"Idempotency-Key": key()}
    first = client.post(f"{location}/actions", json=ADJUST, headers=headers)
    for _ in range(3):
        client.post(f"{location}/actions", json=ADJUST)
    again = client.post(f"{location}/actions", json=ADJUST, headers=headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["ETag"] == first.headers["ETag"] == '"2"'
    replayed, answered = again.get_json(), first.get_json()
    # The combat's expiry is the current one; everything else is the first answer.
    replayed["combat"].pop("expires_at"), answered["combat"].pop("expires_at")
    assert replayed == answered
    assert client.get(location).get_json()["version"] == 5


def test_a_replay_is_filtered_for_the_caller(client):
    location, combat = create(client, example(client)["combat"])
    ana = {"Authorization": f"Bearer {client.tokens[combat['id']]['combatants']['ana']}", "Idempotency-Key": key()}
    first = client.post(f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers=ana)
    again = client.post(f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers=ana)
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()


# -- creation tokens (defect 2) ------------------------------------------------------


def fresh_app(**settings):
    from service.app import create_app
    from service.settings import Settings
    from service.store import connect

    return create_app(Settings(rate_limit="", **settings), store=connect(None, 3600))


def test_creation_tokens_and_ids_do_not_derive_from_the_key():
    # Two deployments, the same key and body: nothing in common.
    first, second = fresh_app().test_client(), fresh_app().test_client()
    body = example(first)["combat"]
    headers = {"Idempotency-Key": "0000000000000001"}
    one = first.post("/combats", json=body, headers=headers).get_json()
    other = second.post("/combats", json=body, headers=headers).get_json()
    assert one["id"] != other["id"]
    assert one["tokens"]["gm"] != other["tokens"]["gm"]
    assert one["tokens"]["combatants"]["ana"] != other["tokens"]["combatants"]["ana"]


def test_a_creation_record_is_sealed_and_lasts_the_replay_window(store):
    from service.app import create_app
    from service.settings import Settings

    app = create_app(Settings(rate_limit="", creation_replay_seconds=120), store=store)
    client = app.test_client()
    body, idempotency = example(client)["combat"], key()
    created = client.post("/combats", json=body, headers={"Idempotency-Key": idempotency}).get_json()
    record_key = creation_key(hashlib.sha256(idempotency.encode()).hexdigest()[:32])
    assert 0 < store.client.ttl(record_key) <= 120
    record = b"".join(store.client.hvals(record_key)).decode()
    tokens = [created["tokens"]["gm"], *created["tokens"]["combatants"].values()]
    assert created["id"] in record
    assert not any(token in record for token in tokens)
    assert idempotency not in record


def test_a_sealed_record_does_not_open_under_another_secret(store):
    from service.app import create_app
    from service.settings import Settings

    first = create_app(Settings(rate_limit="", secret_key="one"), store=store).test_client()
    second = create_app(Settings(rate_limit="", secret_key="two"), store=store).test_client()
    body, headers = example(first)["combat"], {"Idempotency-Key": key()}
    assert first.post("/combats", json=body, headers=headers).status_code == 201
    refused = second.post("/combats", json=body, headers=headers)
    assert refused.status_code == 409
    assert refused.get_json()["type"] == "/problems/replay-unavailable"
    assert "tokens" not in refused.get_json()


def test_without_secret_key_every_worker_shares_one_generated_secret(store):
    from service.app import create_app
    from service.settings import Settings
    from service.store.keys import SERVER_SECRET_KEY

    apps = [create_app(Settings(rate_limit=""), store=store) for _ in range(2)]
    with apps[0].app_context():
        from service.api.requests import sealing

        first = sealing().server_secret()
    with apps[1].app_context():
        assert sealing().server_secret() == first
    assert len(first) == 32 and store.client.get(SERVER_SECRET_KEY) == first.hex().encode()


def test_records_of_the_former_format_are_no_500(client, store):
    # Before records were made small: "D <the whole answer>" and "F <time> <fingerprint>".
    location, combat = create(client, example(client)["combat"])
    records = idempotency_key(combat["id"])
    answered, in_flight = key(), key()
    digest = lambda k: hashlib.sha256(k.encode()).hexdigest()[:32]  # noqa: E731
    store.client.hset(records, digest(answered), 'D {"fingerprint": "x", "status": 200, "headers": {}, "body": {}}')
    store.client.hset(records, digest(in_flight), f"F {int(time.time())} {'a' * 64}")
    replayed = client.post(f"{location}/actions", json=ADJUST, headers={"Idempotency-Key": answered})
    assert replayed.status_code == 409 and replayed.get_json()["type"] == "/problems/replay-unavailable"
    taken_over = client.post(f"{location}/actions", json=ADJUST, headers={"Idempotency-Key": in_flight})
    assert taken_over.status_code == 200
    assert client.get(location).get_json()["version"] == 2


def test_another_api_key_with_the_same_idempotency_key_gets_no_tokens(store):
    from service.app import create_app
    from service.settings import Settings

    client = create_app(Settings(rate_limit="", api_keys=("key-one", "key-two")), store=store).test_client()
    body, idempotency = example(client)["combat"], key()
    assert (
        client.post("/combats", json=body, headers={"X-API-Key": "key-one", "Idempotency-Key": idempotency}).status_code
        == 201
    )
    other = client.post("/combats", json=body, headers={"X-API-Key": "key-two", "Idempotency-Key": idempotency})
    assert other.status_code == 422 and "tokens" not in other.get_json()


# -- a replay is the first answer, byte for byte (issue 27, item 1) ------------------


def test_a_replay_is_the_first_answer_byte_for_byte(client):
    location, _ = create(client, example(client)["combat"])
    headers = {"Idempotency-Key": key()}
    attack = {"type": "attack", "actor": "ana", "target": "capanga", "defense": {}}
    first = client.post(f"{location}/actions", json=attack, headers=headers)
    again = client.post(f"{location}/actions", json=attack, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()
    assert again.headers["Content-Type"] == first.headers["Content-Type"]


def test_a_replay_after_later_actions_is_the_first_answer_byte_for_byte(client, monkeypatch):
    from service.usecases import actions

    clock = [1_000_000.0]
    monkeypatch.setattr(actions.time, "time", lambda: clock[0])
    location, _ = create(client, example(client)["combat"])
    headers = {"Idempotency-Key": key()}
    first = client.post(f"{location}/actions", json=ADJUST, headers=headers)
    for _ in range(3):
        clock[0] += 60  # each later action stamps a later expiry
        client.post(f"{location}/actions", json=ADJUST)
    again = client.post(f"{location}/actions", json=ADJUST, headers=headers)
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert client.get(location).get_json()["expires_at"] != first.get_json()["combat"]["expires_at"]
    assert again.get_data() == first.get_data()
