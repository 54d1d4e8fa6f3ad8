"""One contract for both SDKs: parity/parity.json, played by each SDK's driver against a live Melee.

Each driver (parity/driver.py for melee-client, parity/driver.mjs for @melee/client) reports
what its SDK does by default: how many retries and how long each waits (against a stub that
always answers 503), which entries the live log delivers with no ``after`` and after the
server's ``reset``, what restore sends and answers, which of the table's methods it lacks.
Both reports are checked against the same table, so neither SDK can drift alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clients.test_typescript_sdk import sdk  # noqa: F401 - the built TypeScript SDK (a fixture)
from tests.e2e.conftest import start_gunicorn, stop

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve().parent / "parity"
ROOT = HERE.parents[2]
TABLE = json.loads((HERE / "parity.json").read_text())
API_KEY = "parity-tests-key"


@pytest.fixture(scope="module")
def melee():
    process, base = start_gunicorn({"API_KEYS": API_KEY, "WEB_CONCURRENCY": "1"})
    yield base
    stop(process)


def report(language: str, base: str) -> dict:
    if language == "python":
        env = {**os.environ, "PYTHONPATH": str(ROOT / "clients" / "python" / "src")}
        command = [sys.executable, HERE / "driver.py"]
    else:
        env, command = dict(os.environ), ["node", HERE / "driver.mjs"]
    done = subprocess.run(
        [str(part) for part in [*command, base, API_KEY, HERE / "parity.json"]],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def reports(sdk, melee):  # noqa: F811 - sdk: the fixture imported above
    return {language: report(language, melee) for language in ("python", "typescript")}


def test_the_table_names_operations_of_the_openapi_document():
    spec = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    ids = {op["operationId"] for item in spec["paths"].values() for op in item.values() if isinstance(op, dict)}
    named = {row["operation"].split()[0] for row in TABLE["operations"] if not row["operation"].startswith("(")}
    assert named <= ids, named - ids


@pytest.mark.parametrize("language", ["python", "typescript"])
def test_each_sdk_has_every_method_of_the_table(reports, language):
    assert reports[language]["missing"] == []


@pytest.mark.parametrize("language", ["python", "typescript"])
def test_each_sdk_retries_as_the_table_says(reports, language):
    rule, seen = TABLE["retries"], reports[language]["retries"]
    assert seen["retries"] == rule["retries"]
    for n, (low, high) in enumerate(seen["bounds_ms"]):
        ceiling = min(rule["cap_ms"], rule["base_ms"] * 2**n)  # 250, 500, 1000, 2000 ms
        assert ceiling / 2 <= low < high <= ceiling, (n, low, high)  # jittered within [ceiling/2, ceiling]
    # The waits really taken: at least each one's lower bound (a loaded machine only makes them longer).
    assert all(wait >= min(rule["cap_ms"], rule["base_ms"] * 2**n) / 2 - 5 for n, wait in enumerate(seen["waits_ms"]))


@pytest.mark.parametrize("language", ["python", "typescript"])
def test_the_live_log_starts_at_its_first_entry_by_default(reports, language):
    seen = reports[language]["start"]
    assert seen["seqs"][0] == TABLE["start"]["first_seq"] and seen["resets"] == 0
    assert seen["seqs"] == list(range(1, len(seen["seqs"]) + 1))


@pytest.mark.parametrize("language", ["python", "typescript"])
def test_after_a_reset_the_whole_log_comes_again(reports, language):
    seen = reports[language]["reset"]
    assert seen["resets"] == TABLE["reset"]["resets"]
    assert seen["seqs"] == reports[language]["start"]["seqs"]  # from seq 1, as at the start


@pytest.mark.parametrize("language", ["python", "typescript"])
@pytest.mark.parametrize("case", ["restore", "restore_without_token"])
def test_restore_sends_its_key_and_token_and_answers_the_combat(reports, language, case):
    seen = reports[language][case]
    assert seen["idempotency_key"] is TABLE["restore"]["idempotency_key"] and seen["bearer"] is True
    assert set(TABLE["restore"]["answer_has"]) <= set(seen["answer"]) and seen["same_id"]


def test_both_sdks_report_the_same(reports):
    python, typescript = reports["python"], reports["typescript"]
    for part in ("start", "reset", "restore", "restore_without_token", "missing"):
        assert python[part] == typescript[part], part
    assert python["retries"]["retries"] == typescript["retries"]["retries"]
