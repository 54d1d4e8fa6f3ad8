"""Make a ruleset distribution's source tree importable as if it were installed.

``installed(project)`` reads the project's ``pyproject.toml`` and writes, in
a temporary folder, the ``<name>-<version>.dist-info`` that ``pip install``
would (its METADATA and entry_points.txt), puts that folder and the project
on ``sys.path``, and reloads the ruleset registry: ``importlib.metadata``
finds the entry points exactly as for an installed package. On exit
everything is taken back and the registry reloaded; the environment is left
as it was. Faster than ``pip install -e`` and needs no network.
"""

from __future__ import annotations

import importlib
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from service.rules.registry import load_rulesets


def _dist_info(project: Path, into: Path) -> list[str]:
    """Write the dist-info of ``project`` into ``into``; the top-level packages it declares."""
    meta = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = meta["name"], meta["version"]
    folder = into / f"{name.replace('-', '_')}-{version}.dist-info"
    folder.mkdir()
    (folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    lines = []
    for group, entries in meta.get("entry-points", {}).items():
        lines.append(f"[{group}]")
        lines += [f"{key} = {value}" for key, value in entries.items()]
        lines.append("")
    (folder / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    return [
        value.split(":")[0].split(".")[0]
        for entries in meta.get("entry-points", {}).values()
        for value in entries.values()
    ]


@contextmanager
def installed(project: str | Path) -> Iterator[None]:
    project = Path(project).resolve()
    with tempfile.TemporaryDirectory(prefix="melee-plugin-") as scratch:
        packages = _dist_info(project, Path(scratch))
        added = [scratch, str(project)]
        sys.path[:0] = added
        importlib.invalidate_caches()
        try:
            load_rulesets()
            yield
        finally:
            for entry in added:
                sys.path.remove(entry)
            for module in [m for m in sys.modules if m.split(".")[0] in packages]:
                del sys.modules[module]
            importlib.invalidate_caches()
            load_rulesets()
