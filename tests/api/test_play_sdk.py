"""/play runs on the built TypeScript SDK (issue 37): its modules served from the package at
/play/sdk/<file> as JavaScript, imported by the page, and what a fresh build of clients/typescript makes."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from service.web import SDK, STATIC

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "typescript"


def served_modules() -> list[str]:
    return sorted(path.relative_to(SDK).as_posix() for path in SDK.rglob("*.js"))


def test_the_sdk_modules_are_served_as_javascript_and_nothing_else_is(client):
    assert "index.js" in served_modules() and "generated/rulesets.js" in served_modules()
    for name in served_modules():
        answer = client.get(f"/play/sdk/{name}", headers={"Origin": "https://vtt.example.org"})
        assert answer.status_code == 200 and answer.mimetype == "text/javascript", name
        assert answer.headers["Access-Control-Allow-Origin"] == "*"  # another origin's page may import it
        assert answer.get_data() == (SDK / name).read_bytes(), name
    for missing in ("README.md", "nothing.js", "../static/play.html", "index.d.ts"):
        answer = client.get(f"/play/sdk/{missing}")
        assert answer.status_code == 404, missing


def test_every_module_the_sdk_imports_is_served():
    # index.js imports the others by relative paths: each one is in the folder.
    for name in served_modules():
        for imported in re.findall(r'from "(\.[^"]+)"', (SDK / name).read_text()):
            assert (SDK / name).parent.joinpath(imported).resolve().is_file(), (name, imported)


def test_play_imports_the_sdk_and_calls_no_fetch_of_its_own():
    core = (STATIC / "play-core.js").read_text()
    assert 'from "./sdk/index.js"' in core
    for page in STATIC.glob("play*.js"):
        text = page.read_text()
        assert "fetch(" not in text and "EventSource" not in text and "access_token" not in text, page.name


def test_the_package_ships_the_sdk_modules():
    assert '"**/*.js"' in (ROOT / "pyproject.toml").read_text()  # service/web/sdk/**/*.js in the wheel


def test_the_checked_in_sdk_is_a_fresh_build(tmp_path):
    """service/web/sdk/ holds the .js files that `npm run build` makes in clients/typescript now
    (a deployment runs no node: it serves these files)."""
    tsc = CLIENT / "node_modules" / ".bin" / "tsc"
    if shutil.which("node") is None or not tsc.exists():
        pytest.skip("node or the SDK's npm packages are missing (scripts/install-node-packages): cannot build")
    done = subprocess.run(
        [str(tsc), "-p", "tsconfig.json", "--outDir", str(tmp_path / "dist")],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    fresh = {path.relative_to(tmp_path / "dist").as_posix(): path for path in (tmp_path / "dist").rglob("*.js")}
    assert sorted(fresh) == served_modules(), "run `npm run publish-to-service` in clients/typescript"
    stale = [name for name, path in fresh.items() if path.read_bytes() != (SDK / name).read_bytes()]
    assert stale == [], f"service/web/sdk/ is stale ({stale}): run `npm run publish-to-service` in clients/typescript"
