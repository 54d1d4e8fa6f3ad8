"""Property-based fuzzing of every endpoint from the OpenAPI document.

Schemathesis generates requests (valid and invalid) for every operation;
every response must be a non-5xx answer that matches the documented schema
and media type. Half of the cases aimed at a combat target a real one, so
the rules engine, not only the 404 path, meets the generated actions.
"""

import fakeredis
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from service.app import create_app
from service.settings import Settings
from service.store import CombatStore

APP = create_app(
    Settings(rate_limit=""),
    store=CombatStore(fakeredis.FakeRedis(server=fakeredis.FakeServer()), 3600),
)
SCHEMA = schemathesis.openapi.from_wsgi("/openapi.json", APP)
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


def real_combat_id() -> str:
    client = APP.test_client()
    example = client.get("/rulesets/sistema-2d6").get_json()["example"]
    return client.post("/combats", json=example["combat"]).get_json()["id"]


REAL_COMBAT = real_combat_id()


@SCHEMA.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_error_and_documented_responses(case):
    if "combat_id" in (case.path_parameters or {}) and hash(repr(case.body)) % 2 == 0:
        case.path_parameters["combat_id"] = REAL_COMBAT
    case.call_and_validate(checks=CHECKS)


def test_the_fuzzer_sees_every_operation():
    operations = {f"{op.method.upper()} {op.path}" for op in (r.ok() for r in SCHEMA.get_all_operations())}
    assert {"POST /combats", "POST /combats/{combat_id}/actions", "GET /combats/{combat_id}/events"} <= operations
    assert len(operations) >= 9
