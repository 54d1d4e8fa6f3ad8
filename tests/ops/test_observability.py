"""In-process: the request log line, request ids, metrics, /version, the
proxy fix, Sentry only when asked, rediss:// URLs."""

from __future__ import annotations

import json
import logging
import sys
import types

import fakeredis
import pytest
import redis
from prometheus_client import REGISTRY

from service.app import create_app
from service.observability import shutdown
from service.observability.logs import JsonFormatter
from service.observability.version import git_commit
from service.openapi import OUTPUT
from service.settings import Settings, SettingsError
from service.store import CombatStore, connect
from tests.helpers import create

from ..conftest import GameMasterClient
from .conftest import free_port


def request_records(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "melee.request"]


def fresh_app(**settings) -> tuple:
    store = CombatStore(fakeredis.FakeRedis(server=fakeredis.FakeServer()), 3600)
    app = create_app(Settings(**settings), store=store)
    app.test_client_class = GameMasterClient
    return app, app.test_client()


def example(client) -> dict:
    return client.get("/rulesets/sistema-2d6").get_json()["example"]


# --- the log line ---------------------------------------------------------------


def test_one_json_line_per_request_with_route_status_latency(client, caplog):
    caplog.set_level(logging.INFO, logger="melee.request")
    response = client.get("/rulesets/sistema-2d6", headers={"X-Request-ID": "req-42"})
    assert response.status_code == 200 and response.headers["X-Request-ID"] == "req-42"
    [record] = request_records(caplog)
    line = json.loads(JsonFormatter().format(record))
    assert line["logger"] == "melee.request" and line["level"] == "info"
    assert line["request_id"] == "req-42"
    assert line["method"] == "GET"
    assert line["route"] == "/rulesets/<ruleset_id>"
    assert line["status"] == 200 and line["latency_ms"] >= 0
    assert "\n" not in JsonFormatter().format(record)


def test_combat_id_ruleset_and_action_type_are_logged(client, caplog):
    caplog.set_level(logging.INFO, logger="melee.request")
    body = example(client)
    location, combat = create(client, body["combat"])
    action = body["actions"][0]
    assert client.post(f"{location}/actions", json=action).status_code == 200
    created, acted = request_records(caplog)[-2:]
    assert created.route == "/combats" and created.status == 201
    assert created.combat_id == combat["id"] and created.ruleset == "sistema-2d6"
    assert acted.route == "/combats/<combat_id>/actions"
    assert acted.combat_id == combat["id"] and acted.ruleset == "sistema-2d6" and acted.action_type == action["type"]


def test_a_refused_action_still_names_a_known_type_but_never_free_text(client, caplog):
    caplog.set_level(logging.INFO, logger="melee.request")
    location, _ = create(client, example(client)["combat"])
    refused = client.post(f"{location}/actions", json={"type": "attack", "actor": "nobody-here"})
    assert refused.status_code in (409, 422)
    client.post(f"{location}/actions", json={"type": "Bearer abc.def", "actor": "x"})
    client.post(f"{location}/actions", json={"type": {"token": "abc"}, "actor": "x"})
    known, *unknown = request_records(caplog)[-3:]
    assert known.ruleset == "sistema-2d6" and known.action_type == "attack"
    for record in unknown:
        assert record.status == 422 and record.ruleset == "sistema-2d6"
        assert not hasattr(record, "action_type")


def test_a_lost_race_is_not_counted_as_an_applied_action(store):
    app = create_app(Settings(), store=store)
    app.test_client_class = GameMasterClient
    client = app.test_client()
    body = example(client)
    location, combat = create(client, body["combat"])
    before = sample("melee_actions_total", ruleset="sistema-2d6", type=body["actions"][0]["type"])
    stale = client.post(f"{location}/actions", json=body["actions"][0], headers={"If-Match": '"999"'})
    assert stale.status_code == 412
    assert sample("melee_actions_total", ruleset="sistema-2d6", type=body["actions"][0]["type"]) == before


def test_no_token_or_authorization_header_is_ever_logged(client, caplog):
    caplog.set_level(logging.DEBUG)
    secret = "sekrit-value-9999"
    client.get(
        f"/combats/nope?token={secret}&access_token={secret}",
        headers={"Authorization": f"Bearer {secret}", "X-Api-Key": secret, "Cookie": f"s={secret}"},
    )
    client.post("/combats", json={"ruleset": "sistema-2d6", "token": secret}, headers={"Authorization": secret})
    formatted = "\n".join(JsonFormatter().format(r) for r in caplog.records)
    assert secret not in formatted and secret not in caplog.text
    assert request_records(caplog)[0].route == "/combats/<combat_id>"


def test_request_id_is_generated_when_absent_or_unusable(client, caplog):
    caplog.set_level(logging.INFO, logger="melee.request")
    generated = client.get("/healthz").headers["X-Request-ID"]
    assert len(generated) == 32
    odd = client.get("/healthz", headers={"X-Request-ID": 'a b"c' + "x" * 200}).headers["X-Request-ID"]
    assert odd != generated and len(odd) == 32
    assert [r.request_id for r in request_records(caplog)] == [generated, odd]


def test_unmatched_paths_share_one_route_label(client, caplog):
    caplog.set_level(logging.INFO, logger="melee.request")
    client.get("/no/such/path/12345")
    [record] = request_records(caplog)
    assert record.route == "<unmatched>" and record.status == 404


def test_problem_responses_carry_the_request_id(client):
    response = client.get("/combats/nope", headers={"X-Request-ID": "trace-me"})
    assert response.status_code == 404 and response.headers["X-Request-ID"] == "trace-me"


# --- metrics ------------------------------------------------------------------------


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_metrics_count_requests_actions_and_store_latency(client):
    before_requests = sample("melee_http_requests_total", method="GET", route="/healthz", status="200")
    before_actions = sample("melee_actions_total", ruleset="sistema-2d6", type="attack")
    before_loads = sample("melee_redis_command_duration_seconds_count", operation="load_with_grant")
    client.get("/healthz")
    client.get("/healthz")
    body = example(client)
    location, _ = create(client, body["combat"])
    attack = next(a for a in body["actions"] if a["type"] == "attack")
    assert client.post(f"{location}/actions", json=attack).status_code == 200
    assert sample("melee_http_requests_total", method="GET", route="/healthz", status="200") == before_requests + 2
    assert sample("melee_actions_total", ruleset="sistema-2d6", type="attack") == before_actions + 1
    assert sample("melee_redis_command_duration_seconds_count", operation="load_with_grant") >= before_loads + 1

    _, scraper = fresh_app(metrics_public=True)  # the counters are the process's, whichever app serves them
    text = scraper.get("/metrics")
    assert text.status_code == 200 and text.mimetype == "text/plain"
    body = text.get_data(as_text=True)
    for name in (
        "melee_http_requests_total",
        "melee_http_request_duration_seconds_bucket",
        "melee_actions_total",
        "melee_redis_unavailable_total",
        "melee_redis_command_duration_seconds_bucket",
        "melee_active_streams",
    ):
        assert name in body


def test_metrics_are_not_public_unless_declared_so_or_behind_a_token():
    assert fresh_app()[1].get("/metrics").status_code == 404
    _, client = fresh_app(metrics_token="scrape-me")
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", headers={"Authorization": "Bearer scrape-mf"}).status_code == 404
    assert client.get("/metrics", headers={"Authorization": "Bearer scrape-me"}).status_code == 200
    # A token wins over METRICS_PUBLIC: declaring both does not open it.
    assert fresh_app(metrics_token="scrape-me", metrics_public=True)[1].get("/metrics").status_code == 404
    assert fresh_app(metrics_public=True)[1].get("/metrics").status_code == 200


def test_redis_down_counts_as_store_unavailable():
    port = free_port()  # nothing listens there
    store = connect(f"redis://127.0.0.1:{port}/0", 60, timeout_seconds=0.5)
    app = create_app(Settings(), store=store)
    before = sample("melee_redis_unavailable_total", operation="ping")
    response = app.test_client().get("/readyz")
    assert response.status_code == 503
    assert sample("melee_redis_unavailable_total", operation="ping") == before + 1
    store.client.close()


def test_unknown_methods_do_not_grow_the_label_set(client):
    client.open("/healthz", method="BREW")
    assert sample("melee_http_requests_total", method="BREW", route="<unmatched>", status="405") == 0


def test_metrics_and_the_test_endpoint_are_not_in_the_openapi_document():
    document = json.loads(OUTPUT.read_text())
    assert "/metrics" not in document["paths"] and "/_test/slow" not in document["paths"]
    assert "/version" in document["paths"]


# --- version --------------------------------------------------------------------------


def test_version_from_the_environment():
    app, client = fresh_app(git_commit="0123abc")
    assert client.get("/version").get_json() == {"version": "0.1.0", "commit": "0123abc"}
    full = "0123456789abcdef0123456789abcdef01234567"
    assert fresh_app(git_commit=full)[1].get("/version").get_json()["commit"] == "0123456"
    assert fresh_app(git_commit=full, version_commit="full")[1].get("/version").get_json()["commit"] == full
    assert fresh_app(git_commit=full, version_commit="none")[1].get("/version").get_json()["commit"] == "hidden"
    assert Settings.from_env({"SOURCE_VERSION": "heroku1"}).git_commit == "heroku1"
    assert Settings.from_env({"RENDER_GIT_COMMIT": "render1"}).git_commit == "render1"
    assert Settings.from_env({"GIT_COMMIT": "own", "SOURCE_VERSION": "heroku1"}).git_commit == "own"


def test_version_falls_back_to_git_or_unknown(monkeypatch):
    git_commit.cache_clear()
    try:
        commit = git_commit(None)
        assert commit == "unknown" or len(commit) == 40
        monkeypatch.setattr("shutil.which", lambda name: None)
        git_commit.cache_clear()
        assert git_commit(None) == "unknown"
    finally:
        git_commit.cache_clear()


def test_openapi_carries_the_version_but_no_commit():
    app, client = fresh_app(git_commit="feedface")
    document = client.get("/openapi.json").get_json()
    assert document["info"]["version"] == "0.1.0"
    assert "feedface" not in json.dumps(document)


# --- proxy fix ---------------------------------------------------------------------------


@pytest.mark.parametrize(("hops", "expected"), [(0, "10.0.0.2"), (1, "198.51.100.7"), (2, "203.0.113.9")])
def test_proxy_fix_trusts_exactly_the_configured_hops(caplog, hops, expected):
    caplog.set_level(logging.INFO, logger="melee.request")
    _, client = fresh_app(proxy_fix_hops=hops)
    client.get(
        "/healthz",
        headers={"X-Forwarded-For": "203.0.113.9, 198.51.100.7"},
        environ_base={"REMOTE_ADDR": "10.0.0.2"},
    )
    [record] = request_records(caplog)
    assert record.client == expected


def test_proxy_fix_hops_is_bounded():
    assert Settings.from_env({"PROXY_FIX_HOPS": "2"}).proxy_fix_hops == 2
    with pytest.raises(SettingsError):
        Settings.from_env({"PROXY_FIX_HOPS": "-1"})


# --- Sentry ------------------------------------------------------------------------------


def test_sentry_is_not_imported_without_a_dsn(monkeypatch):
    monkeypatch.delitem(sys.modules, "sentry_sdk", raising=False)
    fresh_app()
    assert "sentry_sdk" not in sys.modules


def test_sentry_is_initialised_with_a_dsn(monkeypatch):
    calls = []
    fake = types.ModuleType("sentry_sdk")
    fake.init = lambda **kwargs: calls.append(kwargs)
    monkeypatch.setitem(sys.modules, "sentry_sdk", fake)
    monkeypatch.setitem(sys.modules, "sentry_sdk.integrations", None)  # no flask integration: logging only
    fresh_app(sentry_dsn="https://key@sentry.invalid/1")
    [call] = calls
    assert call["dsn"] == "https://key@sentry.invalid/1" and call["send_default_pii"] is False
    assert call["release"] == "melee@0.1.0"


def test_a_dsn_without_sentry_installed_only_warns(monkeypatch, caplog):
    monkeypatch.setitem(sys.modules, "sentry_sdk", None)  # import fails
    _, client = fresh_app(sentry_dsn="https://key@sentry.invalid/1")
    assert client.get("/healthz").status_code == 200
    assert "sentry_sdk is not installed" in caplog.text


# --- Redis over TLS -------------------------------------------------------------------------


def test_a_rediss_url_builds_a_tls_connection_pool_without_connecting():
    store = connect("rediss://:secret@redis.example.invalid:6380/0", 60)
    pool = store.client.connection_pool
    assert pool.connection_class is redis.SSLConnection
    assert pool.connection_kwargs["host"] == "redis.example.invalid" and pool.connection_kwargs["port"] == 6380
    assert "ssl_cert_reqs" not in pool.connection_kwargs  # verify certificates by default


def test_self_signed_add_ons_can_skip_certificate_checks():
    import ssl

    store = connect("rediss://redis.example.invalid:6380/0", 60, ssl_cert_reqs="none")
    connection = store.client.connection_pool.make_connection()
    assert connection.cert_reqs == ssl.CERT_NONE
    # Only for TLS URLs; a plain URL ignores it.
    plain = connect("redis://redis.example.invalid:6379/0", 60, ssl_cert_reqs="none")
    assert plain.client.connection_pool.connection_class is redis.Connection
    assert Settings.from_env({"REDIS_SSL_CERT_REQS": "NONE"}).redis_ssl_cert_reqs == "none"
    with pytest.raises(SettingsError):
        Settings.from_env({"REDIS_SSL_CERT_REQS": "maybe"})


# --- shutdown hook ------------------------------------------------------------------------------


def test_shutdown_runs_each_registered_callback_once(monkeypatch):
    monkeypatch.setattr(shutdown, "STOPPING", type(shutdown.STOPPING)())
    monkeypatch.setattr(shutdown, "_callbacks", [])
    closed = []
    shutdown.on_shutdown(lambda: closed.append("a"))
    unregister = shutdown.on_shutdown(lambda: closed.append("b"))
    shutdown.on_shutdown(lambda: 1 / 0)  # a failing stream does not stop the others
    shutdown.on_shutdown(lambda: closed.append("c"))
    unregister()
    shutdown.begin()
    shutdown.begin()
    assert closed == ["a", "c"] and shutdown.STOPPING.is_set()
