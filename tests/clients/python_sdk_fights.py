"""Run by tests/clients/test_python_sdk.py with the python of a clean venv where only the
melee-client wheel (and httpx) is installed: plays a fight of every ruleset with the sync
client, then with the async one, each followed live by ``subscribe``, and prints one JSON
line per fight.

    python python_sdk_fights.py BASE_URL API_KEY
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading

import melee_client
from melee_client import AsyncMelee, LogEntry, Melee, MeleeProblem, token_for

END = {"type": "end_combat", "actor": "gm", "reason": "The SDK test is over."}


def sync_fight(base: str, key: str, ruleset: str) -> dict:
    with Melee(base, api_key=key) as melee:
        example = melee.ruleset(ruleset)["example"]
        created = melee.create_combat(example["combat"])
        gm = melee.with_token(created["tokens"]["gm"])
        seen: list[LogEntry] = []
        ended = threading.Event()

        def on_entry(entry: LogEntry) -> None:
            seen.append(entry)
            if entry["action"]["type"] == "end_combat":
                ended.set()

        subscription = gm.subscribe(created["id"], on_entry, on_error=lambda failure: ended.set())
        try:
            refused = None
            try:  # a player's token may not act for the game master: a typed problem, nothing changed
                melee.with_token(token_for(created["tokens"], example["actions"][0]["actor"])).act(created["id"], END)
            except MeleeProblem as problem:
                refused = [problem.status, problem.type]
            for action in [*example["actions"], END]:
                result = melee.with_token(token_for(created["tokens"], action["actor"])).act(created["id"], action)
            ended.wait(30)
        finally:
            subscription.close(timeout=10)
        page = gm.events(created["id"], after=0, limit=200)
        return {
            "client": "sync",
            "ruleset": ruleset,
            "status": gm.combat(created["id"])["status"],
            "last_answer": result["combat"]["status"],
            "log": [item["action"]["type"] for item in page["items"]],
            "followed": [entry["seq"] for entry in seen],
            "refused": refused,
            "played": [action["type"] for action in example["actions"]],
        }


async def async_fight(base: str, key: str, ruleset: str) -> dict:
    async with AsyncMelee(base, api_key=key) as melee:
        example = (await melee.ruleset(ruleset))["example"]
        created = await melee.create_combat(example["combat"])
        gm = melee.with_token(created["tokens"]["gm"])
        seen: list[int] = []
        ended = asyncio.Event()

        def on_entry(entry: LogEntry) -> None:
            seen.append(entry["seq"])
            if entry["action"]["type"] == "end_combat":
                ended.set()

        subscription = gm.subscribe(created["id"], on_entry, on_error=lambda failure: ended.set())
        first = example["actions"][0]
        player = melee.with_token(token_for(created["tokens"], first["actor"]))
        legal = await player.options(created["id"], actor=first["actor"])
        for action in [*example["actions"], END]:
            await melee.with_token(token_for(created["tokens"], action["actor"])).act(created["id"], action)
        await asyncio.wait_for(ended.wait(), 30)
        subscription.close()
        await subscription.wait()
        page = await gm.events(created["id"], after=0, limit=200)
        return {
            "client": "async",
            "ruleset": ruleset,
            "status": (await gm.combat(created["id"]))["status"],
            "log": [item["action"]["type"] for item in page["items"]],
            "followed": seen,
            "first_offered": first["type"] in [option["type"] for option in legal["actions"]],
            "played": [action["type"] for action in example["actions"]],
        }


def main() -> None:
    base, key = sys.argv[1], sys.argv[2]
    print(json.dumps({"module": melee_client.__file__, "version": melee_client.__version__}))
    rulesets = [summary["id"] for summary in Melee(base).rulesets()]
    for ruleset in rulesets:
        print(json.dumps(sync_fight(base, key, ruleset)), flush=True)
    for ruleset in rulesets:
        print(json.dumps(asyncio.run(async_fight(base, key, ruleset))), flush=True)


if __name__ == "__main__":
    main()
