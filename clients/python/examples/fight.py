"""Play a ruleset's published example to its end with melee-client, and print the log.

    python fight.py BASE_URL RULESET [--api-key KEY] [--max-actions N]

Creates the combat of ``GET /rulesets/{RULESET}``'s example without its ``seed`` (fresh
dice: the fight differs at each run) and answers every prompt in ``awaiting`` from
``GET /combats/{id}/options``, with the awaited actor's own token (the GM's for the GM):
first with the example's actions while the fight goes their way (each awaited, offered and
accepted), then with a legal action the options offer. The game master ends the fight
with ``end_combat`` when ``awaiting`` asks for it, or once ``--max-actions`` actions have
been played. Prints the log's sentences; exits 0 only when the combat is over.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from melee_client import Action, Awaiting, LegalAction, Melee, MeleeProblem, token_for

# The action types tried first when the prompt offers them; then the prompt's order.
PREFERRED = ("attack", "allocate", "declare", "defend", "react")


def value_for(spec: dict[str, Any]) -> Any:
    """A legal value of one parameter, as /options describes it."""
    if spec.get("choices"):
        return spec["choices"][0]
    if spec.get("type") == "object" and "keys" in spec:  # a split of a total over keys (dark-earth's potential)
        keys, total = spec["keys"], int(spec.get("total", 0))
        share, rest = divmod(total, len(keys))
        return {key: share + (1 if index < rest else 0) for index, key in enumerate(keys)}
    if spec.get("type") == "array":
        return [value_for(item) for item in spec.get("items", [])]
    if spec.get("type") == "integer":
        return spec.get("minimum") or 0
    return None


def answer(legal: LegalAction, actor: str) -> Action:
    action: dict[str, Any] = {"type": legal["type"], "actor": actor}
    for name, spec in legal["params"].items():
        if spec.get("required"):
            action[name] = value_for(spec)
    return action


def choose(prompt: Awaiting, legal: list[LegalAction]) -> LegalAction:
    offered = {option["type"]: option for option in legal if option["type"] in prompt["actions"]}
    for kind in (*PREFERRED, *prompt["actions"]):
        if kind in offered:
            return offered[kind]
    raise SystemExit(f"{prompt['actor']} is awaited for {prompt['actions']}, and /options offers none of them")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url")
    parser.add_argument("ruleset")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--max-actions", type=int, default=20)
    args = parser.parse_args()

    with Melee(args.base_url, api_key=args.api_key) as melee:
        example = melee.ruleset(args.ruleset)["example"]
        # Fresh dice: the example's public seed would let anyone predict every roll.
        created = melee.create_combat({key: value for key, value in example["combat"].items() if key != "seed"})
        gm = melee.with_token(created["tokens"]["gm"])
        combat_id, combat = created["id"], created
        script = list(example["actions"])
        played = 0
        while combat["status"] != "over":
            awaited = combat["awaiting"]
            if (
                played >= args.max_actions
                or not awaited
                or any(p["actor"] == "gm" and "end_combat" in p["actions"] for p in awaited)
            ):
                end = {"type": "end_combat", "actor": "gm", "reason": "The example is over."}
                combat = gm.act(combat_id, end)["combat"]
                break
            action = script.pop(0) if script else None
            prompt = next((p for p in awaited if action and p["actor"] == action["actor"]), awaited[0])
            player = melee.with_token(token_for(created["tokens"], prompt["actor"]))
            legal = player.options(combat_id, actor=prompt["actor"])["actions"]
            if action is not None and (
                action["actor"] != prompt["actor"]
                or action["type"] not in prompt["actions"]
                or action["type"] not in {option["type"] for option in legal}
            ):
                script, action = [], None  # the dice took the fight elsewhere: the options from now on
            if action is not None:
                try:
                    combat = player.act(combat_id, action)["combat"]
                except MeleeProblem as refused:  # the example's own dice no longer fit this fight
                    if refused.status not in (409, 422):
                        raise
                    script = []
                    continue
            else:
                combat = player.act(combat_id, answer(choose(prompt, legal), prompt["actor"]))["combat"]
            played += 1

        page = gm.events(combat_id, after=0, limit=200)
        while True:
            for entry in page["items"]:
                for event in entry["events"]:
                    print(event["text"])
            if page["next_after"] is None:
                break
            page = gm.events(combat_id, after=page["next_after"], limit=200)
        combat = gm.combat(combat_id)
    print(f"{args.ruleset}: {combat['status']} after {played} actions and the end", file=sys.stderr)
    return 0 if combat["status"] == "over" else 1


if __name__ == "__main__":
    sys.exit(main())
