"""What one combat costs in Redis, as the API writes it (docs/scaling.md).

    .venv/bin/python -m bench.combat_memory [--actions 30]

Through the real app on a real Redis ($REDIS_URL, else a redis-server of its
own): a sistema-2d6 combat with 2 combatants, and one with 50, created with
an Idempotency-Key, then played with the default tactic (30 actions, or --actions), every action with
an Idempotency-Key of its own (the most a client can make it cost). MEMORY
USAGE (exact, SAMPLES 0) of each of the combat's keys and of its creation
record, at creation and after the fight's actions; keys are deleted at the end.
"""

from __future__ import annotations

import argparse
import uuid

import redis

from service.api.idempotency import key_digest
from service.app import create_app
from service.settings import Settings
from service.store.keys import combat_keys, creation_key

from .http import bench_body, fight_actions
from .redis_server import redis_url

SEED = 11


def with_combatants(body: dict, count: int) -> dict:
    first, second = body["combatants"]
    crowd = [{**(first if n % 2 == 0 else second), "id": f"c{n}", "name": f"Fighter {n}"} for n in range(count)]
    return {**body, "combatants": crowd}


def usage(client: redis.Redis, keys: list[str]) -> dict[str, int]:
    return {key.split(":")[-1]: client.memory_usage(key, samples=0) or 0 for key in keys}


def one_combat(app, client: redis.Redis, body: dict, max_actions: int) -> dict:
    http = app.test_client()
    actions = fight_actions(body, SEED)[:max_actions]
    key = str(uuid.uuid4())
    created = http.post("/combats", json={**body, "seed": SEED}, headers={"Idempotency-Key": key})
    assert created.status_code == 201, created.get_json()
    combat = created.get_json()
    keys = combat_keys(combat["id"])
    creation_record = client.memory_usage(creation_key(key_digest(key)), samples=0) or 0
    at_creation = usage(client, keys)
    gm = {"Authorization": f"Bearer {combat['tokens']['gm']}"}
    for action in actions:
        response = http.post(
            f"/combats/{combat['id']}/actions", json=action, headers={**gm, "Idempotency-Key": str(uuid.uuid4())}
        )
        assert response.status_code == 200, response.get_json()
    after = usage(client, keys)
    http.delete(f"/combats/{combat['id']}", headers=gm)
    return {"actions": len(actions), "at_creation": at_creation, "after": after, "creation_record": creation_record}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=30)
    actions = parser.parse_args().actions
    with redis_url() as url:
        client = redis.Redis.from_url(url)
        app = create_app(Settings(redis_url=url, rate_limit=""))
        body = bench_body("sistema-2d6")
        # Fist fights of tough fighters, so that they last the 30 actions.
        body = {**body, "combatants": [{**c, "pv": 500, "weapons": []} for c in body["combatants"]]}
        for count in (2, 50):
            row = one_combat(app, client, body if count == 2 else with_combatants(body, count), actions)
            created, after, n = row["at_creation"], row["after"], row["actions"]
            per_action = {k: (after[k] - created[k]) / n for k in after}
            print(f"{count} combatants, {n} actions")
            print(
                "  at creation: "
                + ", ".join(f"{k} {v} B" for k, v in created.items())
                + f"; total {sum(created.values())} B"
            )
            print(
                f"  after {n} actions: "
                + ", ".join(f"{k} {v} B" for k, v in after.items())
                + f"; total {sum(after.values())} B"
            )
            print(
                "  per action: "
                + ", ".join(f"{k} {v:.0f} B" for k, v in per_action.items())
                + f"; total {sum(per_action.values()):.0f} B"
            )
            print(f"  creation record (gone after CREATION_REPLAY_SECONDS): {row['creation_record']} B")


if __name__ == "__main__":
    main()
