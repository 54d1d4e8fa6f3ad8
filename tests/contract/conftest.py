"""The npm tools of the contract tests (linters, openapi-typescript, tsc) and a real server."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import start_gunicorn, stop

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
SPEC = ROOT / "openapi" / "openapi.json"
BIN = HERE / "node_modules" / ".bin"
API_KEY = "contract-tests-api-key"


@pytest.fixture(scope="session")
def npm_tools() -> Path:
    """node_modules/.bin, installed by scripts/install-contract-tools when missing."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the contract tests need them")
    if not (BIN / "tsc").exists():
        done = subprocess.run(
            [str(ROOT / "scripts" / "install-contract-tools")], capture_output=True, text=True, timeout=900
        )
        if done.returncode != 0:
            pytest.skip(
                f"npm could not install the contract tools (is the npm registry reachable?): {done.stderr[-500:]}"
            )
    return BIN


def run(command: list, cwd: Path = HERE, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def api_server():
    """gunicorn with an API key required for creating combats, as a locked-down deployment runs."""
    process, base = start_gunicorn({"API_KEYS": API_KEY, "WEB_CONCURRENCY": "1"})
    yield base
    stop(process)
