"""Idempotency-Key: a retried POST applies once and answers the same."""

import threading
import uuid

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
    response = client.post(f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers={"Idempotency-Key": "1"})
    assert response.status_code == 400
    assert response.content_type == "application/problem+json"
    assert len(log(client, location)) == 1


def test_an_unknown_combat_with_a_key_is_404(client):
    response = client.post("/combats/nope/actions", json={"type": "pass", "actor": "a"}, headers={"Idempotency-Key": key()})
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
