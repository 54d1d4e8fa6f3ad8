"""constraints/ pins every version, and still matches pyproject.toml.

The pins are made by pip-compile (constraints/README.md). They go stale when
a dependency is added to or removed from pyproject.toml, or its range no
longer admits the pinned version: each case fails here until they are
compiled again.
"""

from __future__ import annotations

import json
import re
import tomllib

import pytest
import yaml
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


# -- the build and the PaaS builds (issue 27, items 8 and 9) -------------------------

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_runtime_dependency_has_an_upper_bound():
    # A new major version of any of them could break every build (serve,
    # Docker, PaaS) the day it ships; the pins move only when compiled again.
    unbounded = [
        str(r) for r in requirements(None) if not any(s.operator in ("<", "<=", "==", "~=") for s in r.specifier)
    ]
    assert unbounded == []


def test_the_license_is_an_spdx_expression_and_setuptools_is_bounded_to_versions_that_read_it():
    # setuptools deprecates the table form (license = {text = ...}), to fail
    # after 2027-02-18; the SPDX string (PEP 639) is read from setuptools 77.
    assert PYPROJECT["project"]["license"] == "MIT"
    assert not any(c.startswith("License ::") for c in PYPROJECT["project"].get("classifiers", []))
    (setuptools,) = [Requirement(r) for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools")]
    assert not setuptools.specifier.contains("76.1.0"), "setuptools before 77 rejects license = 'MIT'"
    assert setuptools.specifier.contains("77.0.3") and any(s.operator == "<" for s in setuptools.specifier)


def test_the_paas_builds_install_with_the_pins():
    # Heroku (app.json, the Python buildpack) installs requirements.txt.
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    assert [line for line in lines if line and not line.startswith("#")] == ["-c constraints/runtime.txt", "."]
    assert json.loads((ROOT / "app.json").read_text())["buildpacks"] == [{"url": "heroku/python"}]
    # Render runs each service's buildCommand.
    services = yaml.safe_load((ROOT / "render.yaml").read_text())["services"]
    builds = [s["buildCommand"] for s in services if "buildCommand" in s]
    assert builds and all(b == "pip install --constraint constraints/runtime.txt ." for b in builds), builds
