"""constraints/ pins every version, and still matches pyproject.toml.

The pins are made by pip-compile (constraints/README.md). They go stale when
a dependency is added to or removed from pyproject.toml, or its range no
longer admits the pinned version: each case fails here until they are
compiled again.
"""

from __future__ import annotations

import re
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from .platform import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
DIRECT = "melee (pyproject.toml)"


def pinned(path) -> tuple[dict[str, str], set[str]]:
    """The pins of a pip-compile output, and the packages it installs for pyproject.toml itself."""
    pins, direct, current = {}, set(), None
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#") and not line.startswith("    #"):
            continue
        if line.startswith("    #"):
            if DIRECT in line:
                direct.add(current)
            continue
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==([^\s;]+)", line)
        assert match, f"{path.name}: {line!r} is not a pin (name==version)"
        current = canonicalize_name(match.group(1))
        pins[current] = match.group(2)
    return pins, direct


def requirements(extra: str | None) -> list[Requirement]:
    listed = PROJECT["dependencies"] + (PROJECT["optional-dependencies"][extra] if extra else [])
    return [Requirement(text) for text in listed]


@pytest.mark.parametrize(("lock", "extra"), [("runtime.txt", None), ("dev.txt", "dev")])
def test_the_pins_match_pyproject(lock, extra):
    pins, direct = pinned(ROOT / "constraints" / lock)
    wanted = requirements(extra)
    assert direct == {canonicalize_name(r.name) for r in wanted}, f"constraints/{lock} is stale: compile it again"
    for requirement in wanted:
        version = pins[canonicalize_name(requirement.name)]
        assert requirement.specifier.contains(version, prereleases=True), f"{requirement} excludes the pinned {version}"


def test_the_dev_pins_keep_the_runtime_versions():
    runtime, _ = pinned(ROOT / "constraints" / "runtime.txt")
    dev, _ = pinned(ROOT / "constraints" / "dev.txt")
    assert {name: dev.get(name) for name in runtime} == runtime


def test_the_image_and_the_scripts_install_with_the_pins():
    assert "--constraint constraints/runtime.txt ." in (ROOT / "Dockerfile").read_text()
    venv = (ROOT / "scripts" / "_venv.sh").read_text()
    assert '--constraint "$pins"' in venv and 'pins="constraints/${extras:-runtime}.txt"' in venv
    assert 'MELEE_EXTRAS="" source' in (ROOT / "scripts" / "serve").read_text(), "serve installs the runtime only"
    assert "MELEE_EXTRAS=dev source" in (ROOT / "scripts" / "test").read_text()
