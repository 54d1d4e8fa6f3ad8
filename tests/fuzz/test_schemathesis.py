"""Property-based fuzzing of every endpoint from the OpenAPI document.

Schemathesis generates requests (valid and invalid) for every operation; every
response must be a non-5xx answer that matches the documented schema and media
type. A quarter of the cases aimed at a combat target a real one, created from a
ruleset's example (a new one once it is over or deleted), with its game master's token and, for an action, one of its
combatants (or the GM) as the actor: the rules engine, not only the 401/404 paths,
meets the generated actions. Half of those actions are seeded instead with a
legal body built from the combat's GET /options (an awaited combatant, one of
its choices, a value for each required parameter), sometimes with one generated
field laid over it, so that the accepted paths of every ruleset are fuzzed too;
``test_fuzzed_actions_were_applied_in_every_ruleset`` checks that actions were
applied (a 200 whose combat version grew) in each ruleset.

The stateful run follows the document's OpenAPI links (create a combat -> post
actions -> read the combat and its log) with the tokens each creation answered.
"""

from __future__ import annotations

import zlib
from collections import Counter

import fakeredis
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from service.app import create_app
from service.rules.registry import RULESETS
from service.settings import Settings
from service.store import CombatStore

APP = create_app(
    Settings(rate_limit=""),
    store=CombatStore(fakeredis.FakeRedis(server=fakeredis.FakeServer()), 3600),
)
SCHEMA = schemathesis.openapi.from_wsgi("/openapi.json", APP)
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
EXAMPLES = [ruleset.example() for ruleset in RULESETS.values()]
ACTIONS = Counter()  # status of the actions posted to real combats
APPLIED = Counter()  # ruleset -> fuzzed actions applied (200, and the combat's version grew)
SEEDED = Counter()  # ruleset -> actions seeded with a legal body from GET /options
FOLLOWED = Counter()  # the stateful run's calls on a combat it created


def coin(case, sides: int = 2) -> int:
    """A stable choice drawn from the generated case (Hypothesis already varies it)."""
    return zlib.crc32(repr((case.body, case.query)).encode()) % sides


def real_combat(example: dict) -> dict:
    """A fresh combat: its id, its GM token, who may act in it, its ruleset and version."""
    created = APP.test_client().post("/combats", json=example["combat"]).get_json()
    return {
        "id": created["id"],
        "gm": created["tokens"]["gm"],
        "actors": [*created["tokens"]["combatants"], "gm"],
        "ruleset": created["ruleset"],
        "version": created["version"],
    }


def value_for(spec: dict, pick: int):
    """A value a parameter of GET /options accepts: one of its choices, a split of its total, a number in range."""
    if spec.get("choices"):
        return spec["choices"][pick % len(spec["choices"])]
    if spec.get("type") == "array" and "items" in spec:
        items = spec["items"] if isinstance(spec["items"], list) else [spec["items"]]
        return [value_for(item, pick) for item in items]
    if spec.get("type") == "object" and "keys" in spec:
        keys, total = spec["keys"], spec.get("total", 0)
        split = {key: total // len(keys) for key in keys}
        split[keys[-1]] += total - sum(split.values())
        return split
    if spec.get("type") == "integer":
        return max(spec.get("minimum", 0), min(spec.get("maximum", 0), 0))
    if spec.get("type") == "string":
        return "x" * max(1, spec.get("minLength", 1))
    return None


def legal_body(combat: dict, pick: int) -> dict | None:
    """An action the combat accepts now, from GET /options: an awaited actor, one of its choices."""
    client, headers = APP.test_client(), {"Authorization": f"Bearer {combat['gm']}"}
    state = client.get(f"/combats/{combat['id']}", headers=headers).get_json()
    awaiting = (state or {}).get("awaiting") or []
    if not awaiting:
        return None
    actor = awaiting[pick % len(awaiting)]["actor"]
    options = client.get(f"/combats/{combat['id']}/options", query_string={"actor": actor}, headers=headers)
    choices = (options.get_json() or {}).get("actions") or []
    if options.status_code != 200 or not choices:
        return None
    choice = choices[pick % len(choices)]
    body = {"type": choice["type"], "actor": actor}
    for name, spec in (choice.get("params") or {}).items():
        if spec.get("required"):
            body[name] = value_for(spec, pick)
    return body


def aimable(case) -> bool:
    # A stream on a real combat stays open: its own tests (tests/api/test_stream.py) cover it.
    return "combat_id" in (case.path_parameters or {}) and not case.operation.path.endswith("/stream")


def aim(case, combat: dict) -> None:
    """Point the case at a real combat, with its GM's token and a real actor and target."""
    case.path_parameters["combat_id"] = combat["id"]
    if isinstance(case.query, dict) and "wait" in case.query:
        case.query["wait"] = 0  # a long poll on a quiet combat would only wait
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {combat['gm']}"}
    if case.operation.path.endswith("/actions") and case.method == "POST" and coin(case, 2) == 0:
        seeded = legal_body(combat, coin(case, 7))
        if seeded is not None:
            if isinstance(case.body, dict) and coin(case, 3) == 0:
                # A legal body with one generated field laid over it: the rules' own refusals.
                extra = next(((k, v) for k, v in case.body.items() if k not in ("type", "actor")), None)
                if extra is not None:
                    seeded[extra[0]] = extra[1]
            case.body = seeded
            # A generated Idempotency-Key may be one an earlier case used with another body (422),
            # a generated If-Match an old version (412): a seeded action goes without them.
            case.headers = {k: v for k, v in case.headers.items() if k.lower() not in ("idempotency-key", "if-match")}
            SEEDED[combat["ruleset"]] += 1
            return
    if case.operation.path.endswith("/actions") and isinstance(case.body, dict):
        actors = combat["actors"]
        case.body["actor"] = actors[coin(case, len(actors))]
        if "target" in case.body:
            case.body["target"] = actors[(coin(case, len(actors)) + 1) % len(actors)]


REAL_COMBATS: dict[int, dict] = {}  # example index -> a live combat of that ruleset


@SCHEMA.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_error_and_documented_responses(case):
    # A quarter of the cases, so that the coverage phase's thousands of actions stay quick.
    aimed = aimable(case) and coin(case, 4) == 0
    if aimed:
        which = coin(case, len(EXAMPLES))
        if which not in REAL_COMBATS:
            REAL_COMBATS[which] = real_combat(EXAMPLES[which])
        aim(case, REAL_COMBATS[which])
    response = case.call_and_validate(checks=CHECKS)
    if aimed:
        combat = REAL_COMBATS[which]
        if case.operation.path.endswith("/actions") and case.method == "POST":
            ACTIONS[response.status_code] += 1
            if response.status_code == 200 and response.json()["combat"]["version"] > combat["version"]:
                APPLIED[combat["ruleset"]] += 1
        acted = case.method == "POST" and case.operation.path.endswith(("/actions", "/undo", "/redo"))
        if acted and response.status_code == 200:
            combat["version"] = response.json()["combat"]["version"]
        over = acted and response.status_code == 200 and response.json()["combat"]["status"] == "over"
        if over or (case.method == "DELETE" and response.status_code == 204):
            del REAL_COMBATS[which]  # the next case gets a fresh one


def test_fuzzed_actions_were_applied_in_every_ruleset():
    if not ACTIONS:
        pytest.skip("the fuzz test above did not run in this session")
    assert ACTIONS[200] > 0, f"no fuzzed action was applied to a real combat: {dict(ACTIONS)}"
    missing = sorted(set(RULESETS) - {ruleset for ruleset, count in APPLIED.items() if count})
    report = f"applied {dict(APPLIED)}, seeded {dict(SEEDED)}, statuses {dict(ACTIONS)}"
    assert not missing, f"no fuzzed action was applied in {missing}: {report}"
    print(f"fuzzed actions: {report}")


WORKFLOW = SCHEMA.include(operation_id=["createCombat", "postAction", "getCombat", "listEvents"])


class CombatWorkflow(WORKFLOW.as_state_machine()):
    """Follows the document's links, create -> act -> read, with the tokens each creation answered."""

    def setup(self):
        self.combats: dict[str, dict] = {}

    def before_call(self, case):
        if case.method == "POST" and case.operation.path == "/combats":
            # A creation that plays (the stateless test fuzzes creation bodies), so the links lead somewhere.
            case.body = EXAMPLES[coin(case, len(EXAMPLES))]["combat"]
        combat = self.combats.get((case.path_parameters or {}).get("combat_id"))
        if combat is not None and aimable(case):
            aim(case, combat)
            FOLLOWED[f"{case.method} {case.operation.path}"] += 1

    def after_call(self, response, case):
        if case.method == "POST" and case.operation.path == "/combats" and response.status_code == 201:
            created = response.json()
            tokens = created["tokens"]
            self.combats[created["id"]] = {
                "id": created["id"],
                "gm": tokens["gm"],
                "actors": [*tokens["combatants"], "gm"],
                "ruleset": created["ruleset"],
                "version": created["version"],
            }

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        case.validate_response(response, checks=CHECKS)


def test_the_workflow_links_statefully():
    CombatWorkflow.run(
        settings=settings(
            max_examples=10, stateful_step_count=6, deadline=None, suppress_health_check=list(HealthCheck)
        )
    )
    assert FOLLOWED["POST /combats/{combat_id}/actions"] > 0, (
        f"no link from a created combat was followed: {dict(FOLLOWED)}"
    )


def test_the_fuzzer_sees_every_operation():
    operations = {f"{op.method.upper()} {op.path}" for op in (r.ok() for r in SCHEMA.get_all_operations())}
    assert {"POST /combats", "POST /combats/{combat_id}/actions", "GET /combats/{combat_id}/events"} <= operations
    assert len(operations) >= 9
