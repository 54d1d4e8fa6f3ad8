"""The embedded default keeps its generated server secret in a local file (issue 36).

service/adapters/secret_file.py writes ``<data folder>/server-secret`` (0600, in a folder of
0700) when SECRET_KEY is not set and there is no REDIS_URL, and reads it back at the next
start, so that a snapshot saved before a restart opens after it. An unreadable or corrupt
file stops the start with an error that names it; a configured SECRET_KEY always wins.
Every folder here is a pytest tmp_path (tests/conftest.py points MELEE_DATA_DIR at one too).
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from service.adapters.secret_file import SecretFileError, load_or_create
from service.app import create_app
from service.settings import Settings, resolve_data_dir

from ..conftest import GameMasterClient


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def app_on(folder: Path, **settings) -> GameMasterClient:
    """The default app (embedded store: no REDIS_URL, no store given) with its data folder."""
    app = create_app(Settings(rate_limit="", data_dir=str(folder), **settings))
    app.test_client_class = GameMasterClient
    return app.test_client()


def test_a_new_secret_file_is_private_and_its_folder_too(tmp_path, caplog):
    folder = tmp_path / "data" / "melee"
    with caplog.at_level(logging.INFO, logger="service.adapters.secret_file"):
        found = load_or_create(folder)
    path = folder / "server-secret"
    assert found is not None and found.path == path and found.created
    assert mode(path) == 0o600
    assert mode(folder) == 0o700
    text = path.read_text()
    assert len(text) == 65 and text.endswith("\n")  # 64 hexadecimal digits (32 bytes) and a newline
    assert found.secret == text.strip().encode()  # the digits, as SECRET_KEY's text is used
    assert [name for name in os.listdir(folder)] == ["server-secret"]  # no temporary file left
    # One line says where the key lives, never the key.
    assert str(path) in caplog.text and "SECRET_KEY is not set" in caplog.text
    assert text.strip() not in caplog.text


def test_the_secret_is_read_back_at_the_next_start(tmp_path):
    first = load_or_create(tmp_path)
    again = load_or_create(tmp_path)
    assert first is not None and again is not None and not again.created
    assert again.secret == first.secret
    assert again.server_secret(b"another") == first.secret  # the file's, whatever a caller holds


def test_an_existing_folder_keeps_its_mode(tmp_path):
    tmp_path.chmod(0o750)
    load_or_create(tmp_path)
    assert mode(tmp_path) == 0o750
    assert mode(tmp_path / "server-secret") == 0o600


@pytest.mark.parametrize(
    "content, reason",
    [
        ("", "does not hold a key (64 hexadecimal digits)"),
        ("0123456789abcdef\n", "does not hold a key (64 hexadecimal digits)"),
        ("z" * 64 + "\n", "does not hold a key (64 hexadecimal digits)"),
        (b"\xff\xfe" * 32, "cannot be read (holds bytes that are not text)"),
    ],
)
def test_a_corrupt_file_stops_the_start_and_is_kept(tmp_path, content, reason):
    path = tmp_path / "server-secret"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with pytest.raises(SecretFileError) as raised:
        app_on(tmp_path)
    message = str(raised.value)
    assert message == (
        f"The server secret file {path} {reason}. Without it, the snapshots saved from this server cannot be "
        "resumed. Restore it from a backup, or delete it to generate a new key (snapshots saved before then will "
        "no longer open); or set SECRET_KEY, which is then used instead (docs/operations.md)."
    )
    assert path.read_bytes() == (content if isinstance(content, bytes) else content.encode())  # not replaced


def test_an_unreadable_file_stops_the_start(tmp_path):
    (tmp_path / "server-secret").mkdir()  # unreadable as a file, whoever runs the test (root reads a 0000 file)
    with pytest.raises(SecretFileError) as raised:
        app_on(tmp_path)
    assert f"The server secret file {tmp_path / 'server-secret'} cannot be read (Is a directory)." in str(raised.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file of mode 0000")
def test_a_file_without_read_permission_stops_the_start(tmp_path):
    path = tmp_path / "server-secret"
    path.write_text("ab" * 32 + "\n")
    path.chmod(0)
    with pytest.raises(SecretFileError) as raised:
        load_or_create(tmp_path)
    assert f"The server secret file {path} cannot be read (Permission denied). " in str(raised.value)
    assert "Let the user running Melee read it, or delete it" in str(raised.value)


def test_a_folder_that_cannot_hold_the_file_is_said_and_the_secret_stays_in_the_process(tmp_path, caplog):
    (tmp_path / "taken").write_text("a file, not a folder")
    folder = tmp_path / "taken" / "melee"
    with caplog.at_level(logging.WARNING, logger="service.adapters.secret_file"):
        assert load_or_create(folder) is None
    assert (
        f"SECRET_KEY is not set and the server secret cannot be kept in {folder} (Not a directory): this process "
        "generates its own, so the snapshots saved from it will not open after a restart. Set MELEE_DATA_DIR to "
        "a folder the user running Melee can write, or set SECRET_KEY." in caplog.text
    )
    client = app_on(folder)  # it starts, as it did before the file
    assert client.get("/rulesets").status_code == 200


def test_a_snapshot_saved_before_a_restart_opens_after_it(tmp_path):
    before = app_on(tmp_path)
    example = before.get("/rulesets/age-du-silicium").get_json()["example"]["combat"]
    response = before.post("/combats", json=example)
    assert response.status_code == 201, response.get_json()
    snapshot = before.get(f"{response.headers['Location']}/snapshot").get_json()["snapshot"]
    after = app_on(tmp_path)  # a new process: a new embedded store, the same file
    assert after.post("/combats", json={"snapshot": snapshot}).status_code == 201
    elsewhere = app_on(tmp_path / "elsewhere")  # another folder: another key
    assert elsewhere.post("/combats", json={"snapshot": snapshot}).status_code == 422


def test_the_file_content_as_secret_key_or_fallback_opens_what_the_file_sealed(tmp_path):
    before = app_on(tmp_path)
    example = before.get("/rulesets/age-du-silicium").get_json()["example"]["combat"]
    response = before.post("/combats", json=example)
    snapshot = before.get(f"{response.headers['Location']}/snapshot").get_json()["snapshot"]
    content = (tmp_path / "server-secret").read_text().strip()
    as_key = app_on(tmp_path / "a", secret_key=content)
    assert as_key.post("/combats", json={"snapshot": snapshot}).status_code == 201
    as_fallback = app_on(tmp_path / "b", secret_key="a new one", secret_key_fallbacks=(content,))
    assert as_fallback.post("/combats", json={"snapshot": snapshot}).status_code == 201


def test_a_configured_secret_key_wins(tmp_path):
    (tmp_path / "server-secret").write_text("not a key")  # never read: SECRET_KEY is set
    client = app_on(tmp_path, secret_key="configured")
    example = client.get("/rulesets/age-du-silicium").get_json()["example"]["combat"]
    response = client.post("/combats", json=example)
    snapshot = client.get(f"{response.headers['Location']}/snapshot").get_json()["snapshot"]
    assert (
        app_on(tmp_path / "other", secret_key="configured").post("/combats", json={"snapshot": snapshot}).status_code
        == 201
    )
    assert not (tmp_path / "other").exists()  # no file written either
    assert (tmp_path / "server-secret").read_text() == "not a key"


def test_the_data_folder_is_melee_data_dir_else_xdg_data_home_else_the_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert resolve_data_dir({"MELEE_DATA_DIR": "/srv/melee", "XDG_DATA_HOME": "/x"}) == "/srv/melee"
    assert resolve_data_dir({"XDG_DATA_HOME": "/x"}) == "/x/melee"
    assert resolve_data_dir({"XDG_DATA_HOME": "relative"}) == f"{tmp_path}/.local/share/melee"  # XDG: absolute only
    assert resolve_data_dir({}) == f"{tmp_path}/.local/share/melee"
    assert Settings.from_env({"MELEE_DATA_DIR": "/srv/melee"}).data_dir == "/srv/melee"
