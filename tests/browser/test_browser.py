"""/play in a real headless Chromium, against a real gunicorn.

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
import sys
from pathlib import Path

import pytest

from tests.browser.chromium import chromium_env
from tests.e2e.conftest import start_gunicorn, stop

pytestmark = pytest.mark.e2e

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


@pytest.fixture(scope="module")
def browser_ready() -> dict[str, str]:
    """What node needs to launch Chromium, as scripts/install-browser says (tests/browser/chromium.py)."""
    env, why_not = chromium_env()
    if env is None:
        pytest.skip(why_not)
    return env


@pytest.fixture(scope="module")
def base(browser_ready):
    redis_url = os.environ.get("REDIS_URL")
    process, url = start_gunicorn({"REDIS_URL": redis_url, "WEB_CONCURRENCY": "2" if redis_url else "1"})
    yield url
    stop(process)


def run_node(script: str, base_url: str, env: dict[str, str], timeout: int = 300) -> str:
    done = subprocess.run(
        ["node", script, base_url], cwd=HERE, env={**os.environ, **env}, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_two_browsers_play_the_same_fight_live(base, browser_ready):
    assert "1 passed, 0 failed" in run_node("play.test.mjs", base, browser_ready)


def test_what_a_new_game_master_tripped_over_is_fixed_in_every_language(base, browser_ready):
    assert "3 passed, 0 failed" in run_node("newcomer.test.mjs", base, browser_ready)


def test_a_fight_of_every_ruleset_from_characters_entered_in_the_forms(base, browser_ready):
    assert "5 passed, 0 failed" in run_node("roster.test.mjs", base, browser_ready)


def test_a_fight_saved_to_a_file_is_resumed_on_a_fresh_page_and_finished(base, browser_ready):
    assert "1 passed, 0 failed" in run_node("save-resume.test.mjs", base, browser_ready)


def test_play_sends_keyed_actions_and_no_token_in_a_url(base, browser_ready):
    assert "1 passed, 0 failed" in run_node("sdk.test.mjs", base, browser_ready)


def test_a_saved_fight_is_resumed_after_the_default_server_restarted(browser_ready):
    """restart.test.mjs starts, stops and restarts the default server itself (the command of
    ./scripts/serve, no REDIS_URL, no SECRET_KEY, a MELEE_DATA_DIR of its own), in en, fr and pt."""
    done = subprocess.run(
        ["node", "restart.test.mjs", str(ROOT)],
        cwd=HERE,
        env={**os.environ, **browser_ready, "MELEE_PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "restart: 3 passed, 0 failed" in done.stdout


def test_a_game_master_can_trust_the_page_and_no_english_reaches_fr_or_pt(base, browser_ready):
    # Ten fights played to their end (every ruleset in fr and pt): more time on a loaded machine.
    assert "5 passed, 0 failed" in run_node("gm-trust.test.mjs", base, browser_ready, timeout=900)


def test_the_page_has_every_text_in_every_language():
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the check of /play's words runs in node")
    done = subprocess.run(["node", "i18n.test.mjs"], cwd=HERE, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 0 failed" in done.stdout
