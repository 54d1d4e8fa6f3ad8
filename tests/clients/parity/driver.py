"""The Python SDK's side of the parity table (parity.json): run by test_parity.py against a live Melee.

    python driver.py BASE_URL API_KEY PARITY_JSON

Prints one JSON report: what the SDK does by default (retries, the live log's start, after a
reset, restore's headers and answer) and which of the table's methods it has.
"""

from __future__ import annotations

import json
import sys
import time

import httpx
from melee_client import AsyncMelee, Melee, MeleeProblem, RetryPolicy, token_for


def retries() -> dict:
    attempts = []

    def busy(request: httpx.Request) -> httpx.Response:
        attempts.append(time.monotonic())
        body = {"type": "/problems/store-unavailable", "title": "Busy", "status": 503, "detail": "busy"}
        return httpx.Response(503, json=body, headers={"Content-Type": "application/problem+json"})

    try:
        Melee("http://melee.test", transport=httpx.MockTransport(busy)).rulesets()  # the default policy
    except MeleeProblem:
        pass
    policy = RetryPolicy()
    samples = [[policy.delay(n, None) * 1000 for _ in range(200)] for n in range(policy.retries)]
    waits = [round((b - a) * 1000) for a, b in zip(attempts, attempts[1:], strict=False)]
    return {"retries": len(attempts) - 1, "waits_ms": waits, "bounds_ms": [[min(s), max(s)] for s in samples]}


def played(melee: Melee) -> tuple[dict, Melee, int]:
    """A sistema-2d6 example fight, played: (created, the GM's client, its log's last seq)."""
    example = melee.ruleset("sistema-2d6")["example"]
    created = melee.create_combat(example["combat"])
    for action in example["actions"]:
        melee.with_token(token_for(created["tokens"], action["actor"])).act(created["id"], action)
    gm = melee.with_token(created["tokens"]["gm"])
    return created, gm, gm.events(created["id"], after=0, limit=1)["last_seq"]


def follow(gm: Melee, combat_id: str, count: int, **options) -> dict:
    """The first ``count`` entries ``entries`` delivers (default start unless ``after``), and the resets seen."""
    resets: list[int] = []
    seqs: list[int] = []
    for entry in gm.entries(combat_id, on_reset=lambda: resets.append(len(seqs)), **options):
        seqs.append(entry["seq"])
        if len(seqs) >= count:
            break
    return {"seqs": seqs, "resets": len(resets)}


def restore(melee: Melee, created: dict, gm: Melee, token: str | None) -> dict:
    sealed = gm.snapshot(created["id"])
    gm.delete_combat(created["id"])
    seen: list[httpx.Request] = []
    recording = Melee(melee.base_url, api_key=melee.api_key, http=httpx.Client(event_hooks={"request": [seen.append]}))
    answer = recording.restore(sealed, token=token)
    (sent,) = [r for r in seen if r.method == "POST"]
    return {
        "idempotency_key": bool(sent.headers.get("Idempotency-Key")),
        "bearer": sent.headers.get("Authorization") == (f"Bearer {token}" if token else None),
        "answer": sorted(answer),
        "same_id": answer["id"] == created["id"],
    }


def main() -> None:
    base, key, table = sys.argv[1], sys.argv[2], json.loads(open(sys.argv[3]).read())
    melee = Melee(base, api_key=key)
    created, gm, last = played(melee)
    report = {
        "retries": retries(),
        "start": follow(gm, created["id"], last),
        "reset": follow(gm, created["id"], last, after=last + 5),  # past the head: the server says reset
        "restore": restore(melee, created, gm, created["tokens"]["gm"]),
        "restore_without_token": restore(melee, created, gm, None),
        "missing": [
            row["python"]
            for row in table["operations"]
            for cls in (Melee, AsyncMelee)
            if not callable(getattr(cls, row["python"], None))
        ],
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
