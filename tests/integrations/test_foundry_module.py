"""The Foundry VTT module (integrations/foundry-vtt): built, type-checked, packaged, and its logic
played against a live Melee through the stubbed Foundry host of test/foundry-stub.mjs.

scripts/install-foundry-module installs the npm packages (pinned in the lock files) when missing;
the test then builds the bundle with esbuild, runs tsc --strict against fvtt-types, and runs the
module's node tests (a fight of every ruleset from Foundry's Combat to its end, the prompts
answered through the dialogs, the snapshot restored after Melee lost the fight, the mapping of
actors to sheets) against gunicorn
with an API key required, as a locked-down deployment runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
import requests

from tests.api.test_integrations import check_module_archive
from tests.e2e.conftest import start_gunicorn, stop

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "integrations" / "foundry-vtt"
API_KEY = "foundry-module-tests-api-key"


def run(command: list, timeout: int = 600, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(part) for part in command], cwd=MODULE, capture_output=True, text=True, timeout=timeout, env=env
    )


@pytest.fixture(scope="module")
def built() -> Path:
    """The packages installed (skipped, saying why, when node, npm or the registry is missing), then the bundle."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the Foundry module's build and tests need them")
    done = subprocess.run(
        [str(ROOT / "scripts" / "install-foundry-module")], capture_output=True, text=True, timeout=900
    )
    if done.returncode != 0:
        pytest.skip(
            "npm could not install the Foundry module's packages (is the npm registry reachable?): "
            f"{done.stderr[-500:]}"
        )
    build = run(["npm", "run", "--silent", "build"])
    assert build.returncode == 0, build.stdout + build.stderr
    return MODULE / "dist" / "melee.mjs"


def test_the_manifest_names_the_bundle_and_the_three_languages(built):
    manifest = json.loads((MODULE / "module.json").read_text())
    assert manifest["id"] == "melee"
    assert manifest["compatibility"]["minimum"] == "13" and manifest["compatibility"]["verified"] == "13"
    assert manifest["esmodules"] == ["dist/melee.mjs"] and built.exists()
    assert [lang["lang"] for lang in manifest["languages"]] == ["en", "fr", "pt-BR"]

    def keys(tree: dict, prefix: str = "") -> set[str]:
        out: set[str] = set()
        for key, value in tree.items():
            out |= keys(value, f"{prefix}{key}.") if isinstance(value, dict) else {f"{prefix}{key}"}
        return out

    files = {lang["lang"]: json.loads((MODULE / lang["path"]).read_text()) for lang in manifest["languages"]}
    assert keys(files["fr"]) == keys(files["en"]) == keys(files["pt-BR"])
    assert manifest["version"] == json.loads((MODULE / "package.json").read_text())["version"]


def test_it_type_checks_strict_against_fvtt_types(built):
    config = json.loads((MODULE / "tsconfig.json").read_text())["compilerOptions"]
    assert config["strict"] is True and config["types"] == ["fvtt-types"]
    done = run([MODULE / "node_modules" / ".bin" / "tsc", "-p", "tsconfig.json", "--strict"], timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def test_npm_run_package_makes_the_zip_a_manifest_downloads(built):
    done = run(["npm", "run", "--silent", "package"])
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(MODULE / "dist" / "melee.zip") as archive:
        names = set(archive.namelist())
        assert {"melee/module.json", "melee/dist/melee.mjs", "melee/lang/fr.json"} <= names
        assert archive.read("melee/dist/melee.mjs") == built.read_bytes()
        assert archive.testzip() is None
        for entry in archive.infolist():  # not the zero date, read 1980-00-00
            assert entry.date_time[0] >= 1980 and entry.date_time[1] >= 1 and entry.date_time[2] >= 1, entry


@pytest.fixture(scope="module")
def melee():
    process, base = start_gunicorn({"API_KEYS": API_KEY, "WEB_CONCURRENCY": "1"})
    yield base
    stop(process)


def test_fights_of_every_ruleset_through_the_stubbed_foundry(built, melee):
    env = {**os.environ, "MELEE_URL": melee, "MELEE_API_KEY": API_KEY}
    done = run(["node", "--test", "--test-concurrency=1", "test/fight.test.mjs"], timeout=600, env=env)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout and "# pass 8" in done.stdout, done.stdout[-3000:]


def test_a_running_melee_serves_the_module_by_one_url(melee):
    """What a GM pastes in Foundry's Install Module dialog: the manifest, then the zip it names."""
    manifest = requests.get(f"{melee}/integrations/foundry/module.json", timeout=30)
    assert manifest.status_code == 200
    download = manifest.json()["download"]
    assert download == f"{melee}/integrations/foundry/melee.zip"
    archive = requests.get(download, timeout=30)
    assert archive.status_code == 200 and archive.headers["Content-Type"] == "application/zip"
    check_module_archive(archive.content, melee)
