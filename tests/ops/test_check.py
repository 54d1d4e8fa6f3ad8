"""The static checks (scripts/check: ruff and mypy) pass, so the README's
test command covers them too, not only CI (.ci/run runs scripts/check first)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .platform import ROOT

MISSING = [tool for tool in ("ruff", "mypy") if importlib.util.find_spec(tool) is None]


@pytest.mark.skipif(
    bool(MISSING),
    reason=f"{' and '.join(MISSING)} not installed: they come with the dev extra (scripts/test installs it)",
)
def test_scripts_check_passes():
    # The interpreter running the tests comes first on PATH, so scripts/check
    # finds the same ruff and mypy (in .venv, _venv.sh finds nothing to install).
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(
        [str(ROOT / "scripts" / "check")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]


def test_pre_commit_runs_the_checks_of_scripts_check():
    # The same three commands, on the same pinned tools (.venv), so a commit that passes the hooks passes CI's checks.
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())["repos"][0]["hooks"]
    entries = [hook["entry"].replace(".venv/bin/", "").replace(" --force-exclude", "") for hook in hooks]
    entries = [
        entry.replace("bash -c 'cd clients/python && ../../mypy'", "(cd clients/python && mypy)") for entry in entries
    ]
    script = [line for line in (ROOT / "scripts" / "check").read_text().splitlines() if line and line[0] != "#"][1:]
    # scripts/check names the tree (" ."); pre-commit passes the staged files instead (mypy: its configured files).
    assert [line.removesuffix(" .") for line in script] == entries
    assert entries == ["ruff check", "ruff format --check", "mypy", "(cd clients/python && mypy)"]
