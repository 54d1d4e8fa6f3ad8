"""The Chromium every browser test launches, found or installed in user space by scripts/install-browser.

One place for /play's tests, the TypeScript SDK's browser test and the Owlbear Rodeo
extension's: ``chromium_env()`` answers what node needs (``MELEE_CHROMIUM``, and
``LD_LIBRARY_PATH`` when the system lacks the libraries of the npm package's Chromium),
or ``None`` with the reason it could not be had (no node or npm, or the install failed).
"""

from __future__ import annotations

import shutil
import subprocess
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@cache
def chromium_env() -> tuple[dict[str, str] | None, str]:
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            return None, f"{tool} is not installed: the browser tests need node and npm"
    installed = subprocess.run(
        [str(ROOT / "scripts" / "install-browser")],
        capture_output=True,
        text=True,
        timeout=900,
        stdin=subprocess.DEVNULL,  # nothing may wait for an answer
    )
    if installed.returncode != 0:
        return (
            None,
            f"scripts/install-browser could not install playwright-core and Chromium: {installed.stderr[-500:]}",
        )
    found = dict(line.split("=", 1) for line in installed.stdout.splitlines() if "=" in line)
    if "MELEE_CHROMIUM" not in found:
        return None, f"scripts/install-browser named no Chromium: {installed.stdout[-500:]}"
    return found, ""
