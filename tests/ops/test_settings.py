"""Configuration that cannot work is refused at start, with a message that says why."""

from __future__ import annotations

import subprocess
import sys

import pytest

from service.settings import Settings, SettingsError

from .conftest import ROOT, base_env, free_port


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("REDIS_TIMEOUT_SECONDS", "nan", "REDIS_TIMEOUT_SECONDS='nan'"),
        ("REDIS_TIMEOUT_SECONDS", "inf", "REDIS_TIMEOUT_SECONDS='inf'"),
        ("REDIS_TIMEOUT_SECONDS", "0", "above 0"),
        ("REDIS_TIMEOUT_SECONDS", "3600", "at most 60"),
        ("RATE_LIMIT", "banana", "RATE_LIMIT='banana' is not a rate"),
        ("RATE_LIMIT", "600 per fortnight", "is not a rate"),
        ("COMPUTE_LIMIT", "lots", "COMPUTE_LIMIT='lots' is not a rate"),
        ("LOG_LEVEL", "loud", "LOG_LEVEL='loud' must be one of"),
        ("CORS_ORIGINS", "vtt.example", "'vtt.example' is not an origin"),
        ("CORS_ORIGINS", "https://vtt.example/path", "is not an origin"),
        ("REDIS_URL", "localhost:6379", "REDIS_URL must start with"),
        ("METRICS_PUBLIC", "maybe", "METRICS_PUBLIC='maybe' must be 1 or 0"),
        ("VERSION_COMMIT", "all", "VERSION_COMMIT='all' must be one of"),
    ],
)
def test_unusable_settings_are_refused_naming_the_variable(name, value, says):
    with pytest.raises(SettingsError, match=says.replace("(", r"\(")):
        Settings.from_env({name: value})


def test_usable_settings_are_read():
    settings = Settings.from_env(
        {
            "REDIS_TIMEOUT_SECONDS": "0.5",
            "RATE_LIMIT": "10 per second; 600 per minute",
            "LOG_LEVEL": "warning",
            "CORS_ORIGINS": "https://vtt.example, http://localhost:30000",
            "REDIS_URL": "rediss+cluster://a:1,b:2/",
        }
    )
    assert settings.redis_timeout_seconds == 0.5
    assert settings.rate_limit == "10 per second; 600 per minute"
    assert settings.log_level == "WARNING"
    assert settings.cors_origins == ("https://vtt.example", "http://localhost:30000")
    assert Settings.from_env({"RATE_LIMIT": ""}).rate_limit == ""


@pytest.mark.e2e
@pytest.mark.parametrize(("name", "value"), [("RATE_LIMIT", "banana"), ("REDIS_TIMEOUT_SECONDS", "inf")])
def test_gunicorn_refuses_to_start_with_one_line_saying_why(name, value):
    env = base_env(free_port(), **{name: value})
    started = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py", "service.app:create_app()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode != 0
    assert f"melee: cannot start: {name}={value!r}" in started.stderr
    assert "Booting worker" not in started.stderr and "Traceback" not in started.stderr
