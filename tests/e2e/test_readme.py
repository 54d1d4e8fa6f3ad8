"""The README's curl walkthrough, run as written against a real server."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")]


def walkthrough() -> str:
    section = README.read_text().split("## A fight with curl", 1)[1].split("\n## ", 1)[0]
    return "\n".join(re.findall(r"```sh\n(.*?)```", section, re.S))


def test_the_readme_fight_runs_as_written(server, tmp_path):
    script = "set -euo pipefail\n" + walkthrough().replace("http://localhost:8000", server).replace(
        "/tmp/", f"{tmp_path}/"
    )
    assert script.count("curl ") == 9
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    output = result.stdout
    for sentence in (
        "Ana attacks Capanga with Pistola: 5, 4 → 15.",
        "Capanga defends: 2, 3 → 7.",
        "Damage 1d6+3: 9, damage reduction 0 → 9 points to Capanga.",
        "Capanga loses 9 HP and has 6 left.",
        "Capanga misses Ana.",
        "Round 2 begins.",
        "Capanga dies.",
        "The game master ends the fight (reason: Capanga is dead).",
    ):
        assert sentence in output, sentence
    assert '"status":"over"' in output.replace(" ", "")
    # Each player supplied only their own combatant's dice; Ana's damage dice were the server's.
    assert '"roller":"ana","source":"server"' in output.replace(" ", "")
    assert '"dice_secrets"' in output
    assert "Unauthorized" not in output and "problem" not in output
