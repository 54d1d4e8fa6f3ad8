"""Read the platform files the way the platforms do: Procfile, Dockerfile."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def procfile() -> dict[str, str]:
    processes = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, command = line.split(":", 1)
            processes[name.strip()] = command.strip()
    return processes


@dataclass
class Stage:
    base: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def all(self, keyword: str) -> list[str]:
        return [rest for kw, rest in self.instructions if kw == keyword]

    def one(self, keyword: str) -> str:
        found = self.all(keyword)
        assert len(found) == 1, f"{keyword}: {found}"
        return found[0]


def dockerfile_stages(path: Path = ROOT / "Dockerfile") -> tuple[dict[str, str], list[Stage]]:
    """Global ARG defaults and the stages, with continuation lines joined."""
    text = re.sub(r"\\\n", " ", path.read_text())
    global_args: dict[str, str] = {}
    stages: list[Stage] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        keyword, rest = keyword.upper(), rest.strip()
        if keyword == "FROM":
            parts = rest.split()
            stages.append(Stage(parts[0], parts[2] if len(parts) > 2 and parts[1].upper() == "AS" else None))
        elif not stages and keyword == "ARG":
            name, _, default = rest.partition("=")
            global_args[name] = default
        else:
            stages[-1].instructions.append((keyword, rest))
    return global_args, stages


def _expand(value: str, variables: dict[str, str]) -> str:
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: variables.get(m.group(1), ""), value)


def image_environment(stage: Stage, base_path: str = "/usr/local/bin:/usr/bin:/bin") -> dict[str, str]:
    """The ENV of a stage (ARG defaults substituted), as `docker run` would see it."""
    variables = {"PATH": base_path}
    env: dict[str, str] = {}
    for keyword, rest in stage.instructions:
        if keyword == "ARG":
            name, _, default = rest.partition("=")
            variables[name] = shlex.split(default)[0] if default.strip() else ""
        elif keyword == "ENV":
            for token in shlex.split(rest, posix=False):
                name, _, value = token.partition("=")
                value = _expand(value.strip('"'), {**variables, **env})
                env[name] = value
    return env


def exec_form(rest: str) -> list[str]:
    argv = json.loads(rest)
    assert isinstance(argv, list) and all(isinstance(a, str) for a in argv), "CMD must be the exec form (a JSON array)"
    return argv
