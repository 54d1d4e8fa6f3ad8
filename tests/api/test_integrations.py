"""The VTT modules served by the deployment (service/web/integrations.py, issue 37): the Foundry
manifest pointed at the deployment, its zip a valid module, the Owlbear extension's files."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from service.app import create_app
from service.settings import Settings, SettingsError
from service.web.integrations import FOUNDRY, FOUNDRY_FILES, OWLBEAR

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "integrations" / "foundry-vtt"


def check_module_archive(data: bytes, deployment: str) -> None:
    """A zip Foundry installs: one melee/ folder, a manifest naming files that are there, dates valid."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None
        names = set(archive.namelist())
        assert names == {f"melee/{name}" for name in FOUNDRY_FILES}
        for entry in archive.infolist():
            year, month, day, hour, minute, second = entry.date_time
            # A zero date (what the module's build script wrote before) reads as 1980-00-00.
            assert year >= 1980 and 1 <= month <= 12 and 1 <= day <= 31, (entry.filename, entry.date_time)
            assert 0 <= hour < 24 and 0 <= minute < 60 and 0 <= second < 60, (entry.filename, entry.date_time)
        manifest = json.loads(archive.read("melee/module.json"))
        assert manifest["id"] == "melee" and manifest["title"] and manifest["version"]
        assert manifest["compatibility"]["minimum"] == "13"
        assert manifest["esmodules"] == ["dist/melee.mjs"]
        for path in manifest["esmodules"]:
            assert b"export" in archive.read(f"melee/{path}"), path  # an ES module
        assert [lang["lang"] for lang in manifest["languages"]] == ["en", "fr", "pt-BR"]
        for lang in manifest["languages"]:
            assert "MELEE" in json.loads(archive.read(f"melee/{lang['path']}"))
        assert manifest["manifest"] == f"{deployment}/integrations/foundry/module.json"
        assert manifest["download"] == f"{deployment}/integrations/foundry/melee.zip"
        assert manifest["flags"]["melee"]["url"] == deployment


def test_the_foundry_manifest_points_at_this_deployment_and_its_zip_is_a_module(client):
    answer = client.get("/integrations/foundry/module.json", base_url="https://melee.example.org")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    manifest = answer.get_json()
    assert manifest["manifest"] == "https://melee.example.org/integrations/foundry/module.json"
    assert manifest["download"] == "https://melee.example.org/integrations/foundry/melee.zip"
    assert manifest["flags"]["melee"]["url"] == "https://melee.example.org"  # the Melee URL setting's default
    assert {key: value for key, value in manifest.items() if key not in ("manifest", "download", "flags")} == {
        key: value
        for key, value in json.loads((FOUNDRY / "module.json").read_text()).items()
        if key not in ("manifest", "download", "flags")
    }
    download = client.get(
        manifest["download"].removeprefix("https://melee.example.org"), base_url="https://melee.example.org"
    )
    assert download.status_code == 200 and download.mimetype == "application/zip"
    check_module_archive(download.get_data(), "https://melee.example.org")


def test_behind_a_tls_proxy_the_urls_are_the_ones_the_user_typed(store):
    # PROXY_FIX_HOPS=1: the scheme the proxy forwards is the request's (the app's proxy setting).
    app = create_app(Settings(rate_limit="", proxy_fix_hops=1), store=store)
    answer = app.test_client().get(
        "/integrations/foundry/module.json", base_url="http://melee.example.org", headers={"X-Forwarded-Proto": "https"}
    )
    assert answer.get_json()["download"] == "https://melee.example.org/integrations/foundry/melee.zip"


def test_with_public_url_a_spoofed_host_changes_no_url_and_the_answers_may_be_cached(store):
    app = create_app(Settings(rate_limit="", public_url="https://melee.example.org"), store=store)
    client = app.test_client()
    answer = client.get("/integrations/foundry/module.json", base_url="https://attacker.example.net")
    manifest = answer.get_json()
    assert manifest["manifest"] == "https://melee.example.org/integrations/foundry/module.json"
    assert manifest["download"] == "https://melee.example.org/integrations/foundry/melee.zip"
    assert manifest["flags"]["melee"]["url"] == "https://melee.example.org"
    assert "Cache-Control" not in answer.headers
    archive = client.get("/integrations/foundry/melee.zip", base_url="https://attacker.example.net")
    assert "Cache-Control" not in archive.headers
    check_module_archive(archive.get_data(), "https://melee.example.org")


def test_without_public_url_urls_made_from_the_host_are_never_cached(client):
    # The Host the client sent is in the answer: no cache may keep it for anyone else.
    answer = client.get("/integrations/foundry/module.json", base_url="https://attacker.example.net")
    assert answer.get_json()["download"] == "https://attacker.example.net/integrations/foundry/melee.zip"
    assert answer.headers["Cache-Control"] == "no-store"
    archive = client.get("/integrations/foundry/melee.zip", base_url="https://attacker.example.net")
    assert archive.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(
    ("value", "read"),
    [
        ("https://melee.example.org/", "https://melee.example.org"),
        ("http://10.0.0.5:8000/melee", "http://10.0.0.5:8000/melee"),
    ],
)
def test_public_url_is_read_without_its_trailing_slash(value, read):
    assert Settings.from_env({"PUBLIC_URL": value}).public_url == read


@pytest.mark.parametrize("value", ["melee.example.org", "ftp://melee.example.org", "https://melee.example.org/?a=1"])
def test_a_public_url_that_is_no_address_stops_the_start_naming_it(value):
    with pytest.raises(SettingsError, match="PUBLIC_URL"):
        Settings.from_env({"PUBLIC_URL": value})


def test_the_module_answers_with_the_apis_cors_headers(client):
    answer = client.get("/integrations/foundry/module.json", headers={"Origin": "https://foundry.example.org"})
    assert answer.headers["Access-Control-Allow-Origin"] == "*"


def test_owlbear_files_are_served_with_their_type_and_a_missing_one_is_a_404_problem(client, tmp_path, monkeypatch):
    monkeypatch.setattr("service.web.integrations.OWLBEAR", tmp_path)
    (tmp_path / "manifest.json").write_text('{"name": "Melee"}')
    (tmp_path / "index.html").write_text("<!doctype html><title>Melee</title>")
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "main.js").write_text("export {};")
    (tmp_path / "icon.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    expected = {
        "manifest.json": "application/json",
        "index.html": "text/html",
        "assets/main.js": "text/javascript",
        "icon.svg": "image/svg+xml",
    }
    for name, mimetype in expected.items():
        answer = client.get(f"/integrations/owlbear-rodeo/{name}", headers={"Origin": "https://www.owlbear.rodeo"})
        assert answer.status_code == 200 and answer.mimetype == mimetype, name
        assert answer.headers["Access-Control-Allow-Origin"] == "*"
    # The folder's README.md is a note for developers, however the path spells it.
    readme = ("README.md", "./README.md", "assets/../README.md", "README.md/.", "%2e/README.md")
    for missing in ("nothing.js", "../foundry-vtt/module.json", *readme):
        answer = client.get(f"/integrations/owlbear-rodeo/{missing}")
        assert answer.status_code == 404 and answer.mimetype == "application/problem+json", missing
        assert answer.get_json()["detail"] == "The Owlbear Rodeo extension has no such file."


def test_the_served_folders_exist_and_are_package_data():
    assert OWLBEAR.is_dir() and all((FOUNDRY / name).is_file() for name in FOUNDRY_FILES)
    assert '"web/integrations/**/*"' in (ROOT / "pyproject.toml").read_text()  # in the wheel a deployment installs


def test_the_checked_in_foundry_build_is_a_fresh_build(tmp_path):
    """service/web/integrations/foundry-vtt/ holds what `npm run build` then `--publish` make now
    (a deployment runs no node: it serves these files)."""
    esbuild = MODULE / "node_modules" / ".bin" / "esbuild"
    if shutil.which("node") is None or not esbuild.exists():
        pytest.skip("node or the module's npm packages are missing (./scripts/install-foundry-module): cannot build")
    done = subprocess.run(
        ["node", "scripts/build.mjs", "--publish", str(tmp_path)],
        cwd=MODULE,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for name in FOUNDRY_FILES:
        assert (tmp_path / name).read_bytes() == (FOUNDRY / name).read_bytes(), (
            f"service/web/integrations/foundry-vtt/{name} is stale: run `npm run publish-to-service` "
            "in integrations/foundry-vtt"
        )
