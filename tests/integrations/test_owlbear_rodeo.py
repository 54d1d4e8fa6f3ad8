"""The Owlbear Rodeo extension (integrations/owlbear-rodeo) against a live Melee.

It type-checks strict against @owlbear-rodeo/sdk's own types and bundles with esbuild;
the build checked in under service/web/integrations/owlbear-rodeo (what Melee serves for
installing it by one URL) must be what the build script makes now. In Debian's headless
Chromium (playwright-core from tests/browser), with the OBR host stubbed by
test/obr-stub.js, a GM starts a fight from the scene's tokens: each player's embedded /play
link (their own token's only, sealed in the room), and the health and conditions written
into the tokens' metadata and labels after log entries, are checked; so is that a player who
rewrites the room's Melee address, or slips in a link of their own, is sent no token. Skipped, saying why,
when node, npm, chromium or playwright-core cannot be had.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.browser.chromium import chromium_env
from tests.e2e.conftest import free_port, start_gunicorn, stop

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "integrations" / "owlbear-rodeo"
SERVED = ROOT / "service" / "web" / "integrations" / "owlbear-rodeo"
TSC = EXTENSION / "node_modules" / ".bin" / "tsc"
PLAYWRIGHT = ROOT / "tests" / "browser" / "node_modules" / "playwright-core"
API_KEY = "owlbear-tests-key"


def run(command: list, timeout: int = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(part) for part in command],
        cwd=EXTENSION,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture(scope="module")
def extension() -> Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the Owlbear Rodeo extension's tests need them")
    if not TSC.exists():
        done = run([ROOT / "scripts" / "install-node-packages"], timeout=900)
        if done.returncode != 0:
            pytest.skip(f"npm could not install the extension's dev dependencies: {done.stderr[-500:]}")
    return EXTENSION


@pytest.fixture(scope="module")
def browser(extension) -> dict[str, str]:
    """What node needs to launch Chromium (tests/browser/chromium.py)."""
    env, why_not = chromium_env()
    if env is None:
        pytest.skip(why_not)
    return env


def test_the_versions_are_the_project_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    manifest = json.loads((EXTENSION / "manifest.json").read_text())
    package = json.loads((EXTENSION / "package.json").read_text())
    assert (manifest["version"], package["version"]) == (project, project)


def test_the_served_manifest_names_its_files_relative_to_itself():
    """Served from /integrations/owlbear-rodeo/, its URLs must not point at Melee's root."""
    manifest = json.loads((SERVED / "manifest.json").read_text())
    named = [manifest["icon"], manifest["background_url"], manifest["action"]["icon"], manifest["action"]["popover"]]
    assert named == ["icon.svg", "background.html", "icon.svg", "index.html"]
    assert all((SERVED / name).is_file() for name in named)
    for page in ("index.html", "background.html"):
        html = (SERVED / page).read_text()
        assert '<script type="module" src="./main.js">' in html
        # Nothing inline: a Content-Security-Policy of "self" only lets the pages run as they are.
        assert "<style" not in html and "<script>" not in html and " style=" not in html


def test_the_served_files_are_package_data():
    """The wheel carries them: Melee installed from it serves the extension too."""
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["service"]
    inside = [path.relative_to(ROOT / "service") for path in SERVED.iterdir()]
    assert [path.name for path in inside if not any(path.match(glob) for glob in globs)] == []


def test_it_type_checks_strict_against_the_owlbear_sdk():
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the extension cannot be type-checked without it")
    if not TSC.exists():
        pytest.skip("the extension's dev dependencies are not installed: run ./scripts/install-node-packages")
    checked = run([TSC, "-p", "tsconfig.json"])
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_checked_in_build_is_a_fresh_build(tmp_path):
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the extension cannot be built without it")
    if not (EXTENSION / "node_modules" / "esbuild").exists():
        pytest.skip("the extension's dev dependencies are not installed: run ./scripts/install-node-packages")
    built = run(["node", "build.mjs", "--outdir", tmp_path])
    assert built.returncode == 0, built.stdout + built.stderr
    fresh = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    # README.md is the folder's note for developers, never served (service/web/integrations.py).
    served = {path.name: path.read_bytes() for path in SERVED.iterdir() if path.name != "README.md"}
    assert sorted(served) == sorted(fresh)
    stale = [name for name in fresh if fresh[name] != served[name]]
    assert not stale, f"{stale} differ from a fresh build: run `npm run build` in integrations/owlbear-rodeo and commit"
    assert b"obr-stub" not in fresh["main.js"] and b"org.melee.owlbear" in fresh["main.js"]


def test_a_fight_from_the_tokens_gives_each_player_their_own_play_and_marks_the_tokens(extension, browser, tmp_path):
    bundle = tmp_path / "stub-main.js"
    built = run(["node", "build.mjs", "--stub", "--outfile", bundle])
    assert built.returncode == 0, built.stdout + built.stderr
    port = free_port()
    redis_url = os.environ.get("REDIS_URL")
    process, base = start_gunicorn(
        {
            "API_KEYS": API_KEY,
            "REDIS_URL": redis_url,
            "WEB_CONCURRENCY": "2" if redis_url else "1",
            # /play embedded by the extension's page (docs/vtt.md#embedding-play).
            "FRAME_ANCESTORS": f"http://127.0.0.1:{port}",
        }
    )
    try:
        env = {
            "MELEE_BASE_URL": base,
            "MELEE_API_KEY": API_KEY,
            "OWLBEAR_SITE_PORT": str(port),
            "OWLBEAR_BUNDLE": bundle,
            **browser,
        }
        done = run(["node", "--test", "test/extension.test.mjs"], timeout=240, env=env)
    finally:
        stop(process)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    # The 6th test, /play loaded in the player's frame, runs: this Melee has FRAME_ANCESTORS.
    assert "# pass 6" in done.stdout and "# fail 0" in done.stdout, done.stdout[-3000:]
