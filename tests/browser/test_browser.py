"""/play in a real headless Chromium, and the VTT guide's JavaScript client, against a real gunicorn.

The node scripts beside this file do the driving (playwright-core on Debian's
chromium when installed, else on the Chromium the npm package
@sparticuz/chromium ships); scripts/install-browser installs them in user
space, never with apt or sudo (.ci/run calls it too), and says which
Chromium to launch. Skipped, with the reason, when node or npm is missing or
the install fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e.conftest import start_gunicorn, stop

pytestmark = pytest.mark.e2e

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


@pytest.fixture(scope="module")
def browser_ready() -> dict[str, str]:
    """What node needs to launch Chromium (MELEE_CHROMIUM, and LD_LIBRARY_PATH
    when the system lacks its libraries), as scripts/install-browser says."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed: the browser tests need node and npm")
    installed = subprocess.run(
        [str(ROOT / "scripts" / "install-browser")],
        capture_output=True,
        text=True,
        timeout=900,
        stdin=subprocess.DEVNULL,  # nothing may wait for an answer
    )
    if installed.returncode != 0:
        pytest.skip(
            f"scripts/install-browser could not install playwright-core and Chromium: {installed.stderr[-500:]}"
        )
    found = dict(line.split("=", 1) for line in installed.stdout.splitlines() if "=" in line)
    assert "MELEE_CHROMIUM" in found, installed.stdout
    return found


@pytest.fixture(scope="module")
def base(browser_ready):
    redis_url = os.environ.get("REDIS_URL")
    process, url = start_gunicorn({"REDIS_URL": redis_url, "WEB_CONCURRENCY": "2" if redis_url else "1"})
    yield url
    stop(process)


def run_node(script: str, base_url: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        ["node", script, base_url], cwd=HERE, env={**os.environ, **env}, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_two_browsers_play_the_same_fight_live(base, browser_ready):
    assert "1 passed, 0 failed" in run_node("play.test.mjs", base, browser_ready)


def test_the_vtt_guide_client_plays_against_a_real_server(base, browser_ready):
    assert "1 passed, 0 failed" in run_node("vtt-snippet.test.mjs", base, browser_ready)
