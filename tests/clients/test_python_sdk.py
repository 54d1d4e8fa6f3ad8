"""The Python SDK (clients/python, melee-client).

Built as a wheel by ``python -m build``, installed into a clean venv (pip pulls httpx), and
from there playing a fight of every ruleset against a live Melee (gunicorn, an API key
required), with the sync and the async client, each fight followed live by subscribe;
examples/fight.py ends a fight of every ruleset. Without a server: the retry and
Idempotency-Key rules, the stream's resume, reset and fallback (httpx.MockTransport), the
types against openapi/openapi.json, mypy --strict, and the version against Melee's.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import tomllib
import venv
from pathlib import Path
from typing import get_type_hints

import httpx
import pytest

from service.rules.registry import RULESETS
from tests.e2e.conftest import start_gunicorn, stop

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "python"
sys.path.insert(0, str(SDK / "src"))

import melee_client  # noqa: E402
from melee_client import AsyncMelee, Melee, MeleeProblem, MeleeStreamClosed, RetryPolicy, types  # noqa: E402
from melee_client._common import SseParser  # noqa: E402

API_KEY = "python-sdk-tests-api-key"
NO_WAIT = RetryPolicy(retries=3, backoff=0.0, max_delay=0.0)
COMBAT = "c0ffee"


def problem(status: int, kind: str, **extra) -> httpx.Response:
    body = {
        "type": f"/problems/{kind}",
        "title": kind.replace("-", " "),
        "status": status,
        "detail": f"{kind}.",
        **extra,
    }
    return httpx.Response(status, json=body, headers={"Content-Type": "application/problem+json"})


def result(seq: int = 2) -> dict:
    return {"action": {"type": "attack", "actor": "ana", "seq": seq}, "rolls": [], "events": [], "combat": {}}


class Script:
    """A MockTransport handler answering each request with the next of ``answers`` (a Response or an exception)."""

    def __init__(self, *answers):
        self.answers, self.requests = list(answers), []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def keys(self) -> list[str | None]:
        return [request.headers.get("Idempotency-Key") for request in self.requests]


def client(script: Script, **options) -> Melee:
    return Melee("http://melee.test", token="tok", transport=httpx.MockTransport(script), retries=NO_WAIT, **options)


# -- act: one Idempotency-Key per logical action, reused on its retries ------------------


def test_act_retries_network_errors_503_and_in_flight_with_the_same_key():
    script = Script(
        httpx.ReadTimeout("no answer"),
        problem(503, "outcome-unknown"),
        problem(409, "request-in-flight"),
        httpx.Response(200, json=result()),
    )
    answer = client(script).act(COMBAT, {"type": "attack", "actor": "ana"})
    assert answer["action"]["seq"] == 2
    keys = script.keys()
    assert len(keys) == 4 and len(set(keys)) == 1 and re.fullmatch(r"[0-9a-f-]{36}", keys[0]), keys
    assert {r.headers["Authorization"] for r in script.requests} == {"Bearer tok"}
    assert json.loads(script.requests[0].content) == {"type": "attack", "actor": "ana"}


def test_each_act_call_has_a_fresh_key_unless_given():
    script = Script(*[httpx.Response(200, json=result())] * 3)
    melee = client(script)
    melee.act(COMBAT, {"type": "pass", "actor": "ana"})
    melee.act(COMBAT, {"type": "pass", "actor": "ana"})
    melee.act(COMBAT, {"type": "pass", "actor": "ana"}, idempotency_key="mine")
    first, second, third = script.keys()
    assert first != second and third == "mine"


def test_a_412_is_final_and_typed():
    script = Script(problem(412, "precondition-failed", current_version=7), httpx.Response(200, json=result()))
    with pytest.raises(MeleeProblem) as raised:
        client(script).act(COMBAT, {"type": "pass", "actor": "ana"}, if_match=5)
    assert len(script.requests) == 1 and script.requests[0].headers["If-Match"] == '"5"'
    failure = raised.value
    assert (failure.status, failure.type, failure.detail) == (
        412,
        "/problems/precondition-failed",
        "precondition-failed.",
    )
    assert failure.body["current_version"] == 7


def test_the_final_4xx_are_not_retried():
    for kind, status in [("action-limit-reached", 409), ("not-your-turn", 409), ("invalid-action", 422)]:
        script = Script(problem(status, kind, errors=[{"pointer": "/weapon", "detail": "no such weapon"}]))
        with pytest.raises(MeleeProblem) as raised:
            client(script).act(COMBAT, {"type": "attack", "actor": "ana"})
        assert len(script.requests) == 1, kind
        assert raised.value.errors == [{"pointer": "/weapon", "detail": "no such weapon"}]


def test_retries_end_with_the_last_failure_and_its_key():
    script = Script(problem(429, "too-many-requests"), *[problem(503, "store-unavailable")] * 3)
    with pytest.raises(MeleeProblem) as raised:
        client(script).act(COMBAT, {"type": "pass", "actor": "ana"})
    assert raised.value.status == 503 and len(script.requests) == 4  # 1 + retries=3
    (key,) = set(script.keys())
    assert raised.value.idempotency_key == key  # to send the same action again later


def test_creation_reuses_its_key_too():
    created = {"id": COMBAT, "tokens": {"gm": "g", "combatants": {}}}
    script = Script(httpx.RemoteProtocolError("dropped"), httpx.Response(201, json=created))
    melee = Melee("http://melee.test", api_key="k", transport=httpx.MockTransport(script), retries=NO_WAIT)
    assert melee.create_combat({"ruleset": "sistema-2d6", "combatants": []})["id"] == COMBAT
    assert len(set(script.keys())) == 1 and script.requests[0].headers["X-API-Key"] == "k"


def test_undo_is_retried_only_when_it_cannot_have_been_applied():
    for failure in (httpx.ReadTimeout("no answer"), problem(503, "outcome-unknown")):
        script = Script(failure, httpx.Response(200, json=result()))
        with pytest.raises((httpx.ReadTimeout, MeleeProblem)):
            client(script).undo(COMBAT)
        assert len(script.requests) == 1
    script = Script(
        httpx.ConnectError("refused"), problem(503, "store-unavailable"), httpx.Response(200, json=result())
    )
    assert client(script).undo(COMBAT)["action"]["seq"] == 2 and len(script.requests) == 3
    assert script.keys() == [None, None, None]


def test_restore_is_keyed_and_sends_the_token_it_is_given():
    ref = {"id": COMBAT, "ruleset": "duel-2d6", "version": 3}
    script = Script(httpx.ConnectError("refused"), problem(503, "outcome-unknown"), httpx.Response(201, json=ref))
    assert client(script).restore("sealed", token="gm-token") == ref
    assert len(script.requests) == 3 and len(set(script.keys())) == 1 and script.keys()[0]  # one key, retried
    assert {r.headers["Authorization"] for r in script.requests} == {"Bearer gm-token"}
    assert json.loads(script.requests[0].content) == {"snapshot": "sealed"}
    script = Script(problem(409, "combat-live"))
    with pytest.raises(MeleeProblem):  # the combat is live: final
        client(script).restore("sealed")
    assert len(script.requests) == 1 and script.requests[0].headers["Authorization"] == "Bearer tok"


def test_the_game_masters_calls_go_where_the_api_says():
    minted = {"id": "t2", "role": "player", "combatant": "ana", "token": "secret"}
    script = Script(
        httpx.Response(201, json=minted),
        httpx.Response(200, json=[{k: v for k, v in minted.items() if k != "token"}]),
        httpx.Response(204),
        httpx.Response(204),
    )
    melee = client(script)
    assert melee.mint_token("c/1", role="player", combatant="ana") == minted
    assert melee.tokens("c/1")[0]["id"] == "t2"
    assert melee.revoke_token("c/1", "t2") is None and melee.delete_combat("c/1") is None
    sent = [(r.method, r.url.raw_path.decode()) for r in script.requests]
    assert sent == [
        ("POST", "/combats/c%2F1/tokens"),
        ("GET", "/combats/c%2F1/tokens"),
        ("DELETE", "/combats/c%2F1/tokens/t2"),
        ("DELETE", "/combats/c%2F1"),
    ]
    assert json.loads(script.requests[0].content) == {"role": "player", "combatant": "ana"}


def test_reads_retry_503_but_not_a_conflict():
    script = Script(problem(503, "store-unavailable"), httpx.Response(200, json=[{"id": "duel-2d6"}]))
    assert client(script).rulesets() == [{"id": "duel-2d6"}]
    script = Script(problem(409, "version-conflict"))
    with pytest.raises(MeleeProblem):
        client(script).combat(COMBAT)
    assert len(script.requests) == 1


def test_the_waits_are_jittered_exponential_and_honour_retry_after():
    policy = RetryPolicy()  # the default: 4 retries from 0.25 s, at most 8 s, as the TypeScript SDK
    assert (policy.retries, policy.backoff, policy.max_delay) == (4, 0.25, 8.0)
    for attempt, ceiling in enumerate([0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 8.0]):  # 0.25 * 2**n, capped at 8
        waits = {policy.delay(attempt, None) for _ in range(50)}
        assert all(ceiling / 2 <= wait <= ceiling for wait in waits), (attempt, waits)
        assert len(waits) > 1  # jittered
    assert all(5.0 <= policy.delay(0, 5.0) <= 5.125 for _ in range(50))  # Retry-After 5 s, + 0 to 0.125 s


def test_a_body_that_is_not_a_problem_still_raises_a_problem():
    script = Script(httpx.Response(502, text="Bad Gateway"))
    with pytest.raises(MeleeProblem) as raised:
        client(script, lang="fr").rulesets()
    assert (raised.value.status, raised.value.type, raised.value.detail) == (502, "about:blank", "Bad Gateway")
    assert script.requests[0].headers["Accept-Language"] == "fr"


def test_the_async_client_follows_the_same_rules():
    script = Script(httpx.ConnectError("refused"), problem(503, "outcome-unknown"), httpx.Response(200, json=result()))

    async def handler(request: httpx.Request) -> httpx.Response:
        return script(request)

    async def play():
        async with AsyncMelee(
            "http://melee.test", token="t", transport=httpx.MockTransport(handler), retries=NO_WAIT
        ) as m:
            return await m.act(COMBAT, {"type": "pass", "actor": "ana"})

    assert asyncio.run(play())["action"]["seq"] == 2
    assert len(script.requests) == 3 and len(set(script.keys())) == 1


# -- the live log -----------------------------------------------------------------------


def sse(*events: tuple[str, object, int | None]) -> httpx.Response:
    text = "retry: 2000\n: connected\n\n"
    for event, data, seq in events:
        text += (f"id: {seq}\n" if seq is not None else "") + f"event: {event}\ndata: {json.dumps(data)}\n\n"
    return httpx.Response(200, text=text, headers={"Content-Type": "text/event-stream"})


def entry(seq: int) -> dict:
    return {"seq": seq, "action": {"type": "pass", "actor": "ana"}, "rolls": [], "events": []}


def page(*seqs: int, last: int | None = None) -> httpx.Response:
    return httpx.Response(
        200, json={"items": [entry(s) for s in seqs], "last_seq": last or max(seqs, default=0), "next_after": None}
    )


def test_the_stream_resumes_with_last_event_id_handles_reset_and_ends_on_gone():
    script = Script(
        sse(("entry", entry(1), 1), ("entry", entry(2), 2), ("reconnect", {"reason": "stopping"}, None)),
        sse(("entry", entry(3), 3), ("reset", {}, None)),
        sse(("entry", entry(1), 1), ("entry", entry(2), 2)),  # the rewritten log, from its start
        sse(("gone", {"reason": "the combat was deleted"}, None)),
    )
    resets = []
    seen = []
    with pytest.raises(MeleeStreamClosed) as closed:
        for item in client(script).entries(COMBAT, on_reset=lambda: resets.append(len(seen))):
            seen.append(item["seq"])
    assert seen == [1, 2, 3, 1, 2] and resets == [3]
    assert closed.value.event == "gone" and closed.value.reason == "the combat was deleted"
    streams = [r for r in script.requests if r.url.path.endswith("/stream")]
    assert [r.headers["Last-Event-ID"] for r in streams] == ["0", "2", "0", "2"]
    assert all(r.headers["Authorization"] == "Bearer tok" for r in streams)


def test_the_stream_falls_back_to_the_long_poll():
    script = Script(
        problem(503, "too-many-streams"),
        httpx.ConnectError("refused"),
        problem(429, "too-many-streams"),
        page(5, 6),  # the long poll
        sse(("entry", entry(7), 7), ("gone", {"reason": "over"}, None)),
    )
    seen = []
    with pytest.raises(MeleeStreamClosed):
        for item in client(script).entries(COMBAT, after=4):
            seen.append(item["seq"])
    assert seen == [5, 6, 7]
    poll = script.requests[3]
    assert poll.url.path == f"/combats/{COMBAT}/events" and dict(poll.url.params) == {"after": "4", "wait": "20"}
    assert script.requests[4].headers["Last-Event-ID"] == "6"


def test_the_long_poll_outlives_an_outage():
    script = Script(
        *[problem(503, "store-unavailable")] * 3,  # the stream, three times
        *[problem(503, "store-unavailable")] * 4,  # a long poll and its 3 retries
        page(1),  # the next long poll
        sse(("gone", {"reason": "over"}, None)),
    )
    seen = []
    with pytest.raises(MeleeStreamClosed):
        for item in client(script).entries(COMBAT):
            seen.append(item["seq"])
    assert seen == [1] and len(script.requests) == 9


def rolled_back(last: int) -> httpx.Response:
    """A long poll's answer when the log was rolled back past its ``after``."""
    return httpx.Response(200, json={"items": [], "last_seq": last, "next_after": None, "reset": True})


def long_poll_reset() -> Script:
    """The stream refused three times, then a long poll after 5 finds the log rewritten, 4 entries long."""
    return Script(
        *[problem(503, "too-many-streams")] * 3,
        rolled_back(4),
        page(1, 2, 3, 4),  # the long poll after 0: the whole rewritten log
        sse(("gone", {"reason": "over"}, None)),
    )


def follow_async(script: Script, **options) -> tuple[list[int], list[str]]:
    """The async client's entries until the stream closes, with an async on_reset: (seqs seen, resets)."""

    async def handler(request: httpx.Request) -> httpx.Response:
        return script(request)

    async def follow() -> tuple[list[int], list[str]]:
        seen, resets = [], []

        async def on_reset() -> None:
            resets.append("reset")

        melee = AsyncMelee("http://melee.test", token="t", transport=httpx.MockTransport(handler), retries=NO_WAIT)
        with pytest.raises(MeleeStreamClosed):
            async for item in melee.entries(COMBAT, on_reset=on_reset, **options):
                seen.append(item["seq"])
        return seen, resets

    return asyncio.run(follow())


def test_the_long_poll_handles_reset():
    script = long_poll_reset()
    seen, resets = [], []
    with pytest.raises(MeleeStreamClosed):
        for item in client(script).entries(COMBAT, after=5, on_reset=lambda: resets.append(len(seen))):
            seen.append(item["seq"])
    assert seen == [1, 2, 3, 4] and resets == [0]
    polls = [dict(r.url.params) for r in script.requests if r.url.params.get("wait")]
    assert polls == [{"after": "5", "wait": "20"}, {"after": "0", "wait": "20"}]


def test_the_async_long_poll_awaits_its_reset():
    assert follow_async(long_poll_reset(), after=5) == ([1, 2, 3, 4], ["reset"])


def test_the_async_stream_resumes_and_handles_reset():
    script = Script(
        sse(("entry", entry(1), 1), ("reconnect", {"reason": "stopping"}, None)),
        sse(("reset", {}, None)),
        sse(("entry", entry(1), 1), ("revoked", {"reason": "revoked"}, None)),
    )
    assert follow_async(script) == ([1, 1], ["reset"])
    streams = [r for r in script.requests if r.url.path.endswith("/stream")]
    assert [r.headers["Last-Event-ID"] for r in streams] == ["0", "1", "0"]


def test_a_stream_refused_for_good_raises_its_problem():
    script = Script(problem(404, "not-found"))
    with pytest.raises(MeleeProblem) as raised:
        next(client(script).entries(COMBAT))
    assert raised.value.status == 404


def test_the_sse_parser():
    parser = SseParser()
    lines = ["retry: 2000", ": connected", "", "id: 4", "event: entry", 'data: {"seq": 4}', "", "data:a", "data: b", ""]
    events = [event for line in lines if (event := parser.feed(line))]
    assert [(e.event, e.data, e.id) for e in events] == [("entry", '{"seq": 4}', "4"), ("message", "a\nb", None)]


# -- the package ------------------------------------------------------------------------

SPEC = json.loads((ROOT / "openapi" / "openapi.json").read_text())["components"]["schemas"]
# TypedDict -> the schema it mirrors: one per ruleset ({prefix}...) or shared.
MIRRORS = {
    types.Combat: "{prefix}Combat",
    types.CreatedCombat: "{prefix}CreatedCombat",
    types.ActionResult: "{prefix}ActionResult",
    types.LogEntry: "{prefix}LogEntry",
    types.EventsPage: "{prefix}LogPage",
    types.Awaiting: "Awaiting",
    types.Roll: "Roll",
    types.Tokens: "Tokens",
    types.TokenInfo: "TokenInfo",
    types.MintedToken: "MintedToken",
    types.ActionSummary: "ActionSummary",
    types.Options: "{prefix}ActionOptions",
    types.LegalAction: "{prefix}EndCombatLegalAction",  # every ruleset's legal actions have these two properties
    types.Odds: "Odds",
    types.OutcomeOdds: "OutcomeOdds",
    types.ExpectedDamage: "ExpectedDamage",
    types.RulesetSummary: "RulesetSummary",
    types.Ruleset: "RulesetDetail",
}


@pytest.mark.parametrize("typed", MIRRORS, ids=[t.__name__ for t in MIRRORS])
def test_the_types_have_the_properties_of_the_openapi_schemas(typed):
    for prefix in sorted({ruleset.schema_prefix for ruleset in RULESETS.values()}):
        schema = SPEC[MIRRORS[typed].format(prefix=prefix)]
        assert set(get_type_hints(typed)) == set(schema["properties"]), (typed.__name__, prefix)
        assert typed.__required_keys__ == set(schema.get("required", [])), (typed.__name__, prefix)


def test_a_legal_param_has_the_keys_the_openapi_document_gives_it():
    per_field = {"choices", "items"}  # typed per ruleset and field: {prefix}{Type}LegalAction
    assert set(get_type_hints(types.LegalParam)) == set(SPEC["LegalParam"]["properties"]) | per_field
    assert types.LegalParam.__required_keys__ == set(SPEC["LegalParam"]["required"])


def test_the_events_have_the_shape_of_every_rulesets_events():
    for ruleset in RULESETS.values():
        union = SPEC[f"{ruleset.schema_prefix}Event"]
        for ref in union["discriminator"]["mapping"].values():
            schema = SPEC[ref.rsplit("/", 1)[1]]
            assert set(schema["required"]) == types.Event.__required_keys__ == set(schema["properties"]), ref


def test_the_version_is_melees_and_written_once():
    service = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert melee_client.__version__ == service
    project = tomllib.loads((SDK / "pyproject.toml").read_text())
    assert project["project"]["dynamic"] == ["version"] and "version" not in project["project"]
    assert project["tool"]["hatch"]["version"]["path"] == "src/melee_client/_version.py"
    assert project["project"]["license"] == "MIT"


def test_the_package_is_mypy_strict_clean():
    done = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=SDK, capture_output=True, text=True, timeout=300
    )  # [tool.mypy] of clients/python/pyproject.toml: strict, the package
    assert done.returncode == 0, done.stdout + done.stderr
    assert (SDK / "src" / "melee_client" / "py.typed").exists()


# -- built, installed into a clean venv, played against a live Melee ---------------------

NETWORK = re.compile(
    r"No matching distribution|Could not find a version|Failed to establish|Temporary failure|timed out"
)


def run(command: list, **options) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, **options)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The python of a fresh venv holding only the wheel `python -m build` made (and httpx, from PyPI)."""
    out = tmp_path_factory.mktemp("python-sdk")
    built = run([sys.executable, "-m", "build", "--wheel", "--outdir", out / "dist", SDK], timeout=300)
    if built.returncode != 0 and NETWORK.search(built.stdout + built.stderr):
        pytest.skip(f"python -m build could not fetch hatchling (is PyPI reachable?): {built.stderr[-300:]}")
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (out / "dist").glob("melee_client-*.whl")
    assert wheel.name == f"melee_client-{melee_client.__version__}-py3-none-any.whl"
    venv.create(out / "venv", with_pip=True)
    python = out / "venv" / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    done = run([python, "-m", "pip", "install", "--disable-pip-version-check", wheel], timeout=300, env=env)
    if done.returncode != 0 and NETWORK.search(done.stdout + done.stderr):
        pytest.skip(f"pip could not fetch httpx (is PyPI reachable?): {done.stderr[-300:]}")
    assert done.returncode == 0, done.stdout + done.stderr
    return python


@pytest.fixture(scope="module")
def api_server():
    process, base = start_gunicorn({"API_KEYS": API_KEY, "WEB_CONCURRENCY": "1"})
    yield base
    stop(process)


@pytest.mark.e2e
def test_the_installed_wheel_plays_a_fight_of_every_ruleset_sync_and_async(installed, api_server, tmp_path):
    played = run(
        [installed, ROOT / "tests" / "clients" / "python_sdk_fights.py", api_server, API_KEY], cwd=tmp_path, timeout=300
    )
    assert played.returncode == 0, played.stdout + played.stderr
    head, *fights = [json.loads(line) for line in played.stdout.splitlines()]
    assert Path(head["module"]).is_relative_to(installed.parents[1]), head  # the venv's copy, not the source tree
    assert head["version"] == melee_client.__version__
    assert [(f["client"], f["ruleset"]) for f in fights] == [
        (client, ruleset) for client in ("sync", "async") for ruleset in RULESETS
    ]
    for fight in fights:
        assert fight["status"] == "over", fight
        assert fight["log"] == ["start", *fight["played"], "end_combat"], fight
        assert fight["followed"] == list(range(1, len(fight["log"]) + 1)), fight  # subscribe saw every entry, once
    assert all(f["refused"][0] == 403 for f in fights[:5]), fights  # a player's token ending the fight
    assert all(f["last_answer"] == "over" for f in fights[:5]) and all(f["first_offered"] for f in fights[5:])


@pytest.mark.e2e
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_example_ends_a_fight(installed, api_server, ruleset, tmp_path):
    fight = ROOT / "clients" / "python" / "examples" / "fight.py"
    spy = ROOT / "tests" / "clients" / "creation_spy.py"  # runs the example, writing the creation body to stderr
    done = run([installed, spy, fight, api_server, ruleset, "--api-key", API_KEY], cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    (body,) = [json.loads(line.split(": ", 1)[1]) for line in done.stderr.splitlines() if line.startswith("creation")]
    assert body["ruleset"] == ruleset and "seed" not in body  # fresh dice, not the example's public seed
    sentences = done.stdout.splitlines()
    assert len(sentences) >= 5 and all(s.strip() for s in sentences), done.stdout
    assert f"{ruleset}: over after" in done.stderr


def five_lines(document: Path) -> str:
    """The Python block of a document's "A first fight in five lines"."""
    text = document.read_text()
    section = text[re.search("first fight,? in five lines", text).start() :]
    return section[section.index("```python\n") + 10 :].split("```", 1)[0]


@pytest.mark.e2e
@pytest.mark.parametrize("document", ["docs/vtt.md", "clients/python/README.md"])
def test_the_five_lines_of_the_docs_play(installed, api_server, document, tmp_path):
    code = five_lines(ROOT / document)
    assert [bool(line.strip()) for line in code.splitlines()] == [True, False, *[True] * 5], code  # an import, five
    script = tmp_path / "five.py"
    script.write_text(code.replace('Melee("http://localhost:8000")', f'Melee("{api_server}", api_key="{API_KEY}")'))
    done = run([installed, script], cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    printed = done.stdout.splitlines()
    assert len(printed) == len(RULESETS["sistema-2d6"].example()["actions"]) and "Ana" in printed[0], done.stdout


@pytest.mark.e2e
def test_snapshot_and_restore(installed, api_server, tmp_path):
    spec = httpx.get(f"{api_server}/openapi.json", timeout=10).json()
    if "/combats/{combat_id}/snapshot" not in spec["paths"]:
        pytest.skip("this build has no snapshot API yet (GET /combats/{id}/snapshot, helper snapshot's branch)")
    script = tmp_path / "snap.py"
    script.write_text(
        "import sys, httpx\nfrom melee_client import Melee, MeleeProblem\n"
        "m = Melee(sys.argv[1], api_key=sys.argv[2])\n"
        "ex = m.ruleset('sistema-2d6')['example']\nc = m.create_combat(ex['combat'])\n"
        "gm = m.with_token(c['tokens']['gm'])\nana = m.with_token(c['tokens']['combatants']['ana'])\n"
        "try:\n    ana.snapshot(c['id'])\nexcept MeleeProblem as p:\n    print(p.status)\n"
        "sealed = gm.snapshot(c['id'])\n"
        "try:\n    m.restore(sealed)\nexcept MeleeProblem as p:\n    print(p.status)\n"
        "auth = {'Authorization': 'Bearer ' + c['tokens']['gm']}\n"
        "print(httpx.delete(sys.argv[1] + '/combats/' + c['id'], headers=auth).status_code)\n"
        "back = m.restore(sealed)\nprint(back['id'] == c['id'], back['version'] == c['version'] + 1)\n"
        "print(ana.act(c['id'], ex['actions'][0])['action']['type'])\n"
    )
    done = run([installed, script, api_server, API_KEY], timeout=60)
    assert (done.returncode, done.stdout.split()) == (0, ["403", "409", "204", "True", "True", "attack"]), (
        done.stdout + done.stderr
    )
