"""Clients generated from openapi/openapi.json play a complete fight of every ruleset.

Python: openapi-python-client generates a package; each action is built with the
generated model of its (ruleset, type) and sent with the generated operation.
TypeScript: openapi-typescript generates the types, openapi-fetch sends them;
tsc --strict compiles fight.ts and each ruleset's example written as a literal of
that ruleset's own types, then node plays them. A wrong action type must not compile.

A complete fight: the ruleset's example (GET /rulesets/{id}) from creation to its
last action, then the game master's end_combat; the combat is over and its log
holds every entry. Both clients play against gunicorn, with an API key required.
"""

from __future__ import annotations

import importlib
import json
import sys

import pytest
import requests

from service.rules.registry import RULESETS

from .conftest import API_KEY, HERE, SPEC, run

pytestmark = pytest.mark.e2e

BUILD = HERE / "build"
END = {"type": "end_combat", "actor": "gm", "reason": "The contract test is over."}


def spec() -> dict:
    return json.loads(SPEC.read_text())


# -- Python ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def melee_api(tmp_path_factory):
    out = tmp_path_factory.mktemp("python-client")
    config = out / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the code is only imported
    done = run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            SPEC,
            "--meta",
            "none",
            "--output-path",
            out / "melee_api",
            "--config",
            config,
        ],
        cwd=out,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("melee_api")
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == "melee_api" or m.startswith("melee_api.")]:
            del sys.modules[name]


def model(package, component: str):
    """The generated class of a component (openapi-python-client spells Sistema2d6 Sistema2D6)."""
    models = importlib.import_module(f"{package.__name__}.models")
    (name,) = [name for name in models.__all__ if name.lower() == component.lower()]
    return getattr(models, name)


def action_model(package, ruleset, action_type: str):
    union = spec()["components"]["schemas"][f"{ruleset.schema_prefix}Action"]
    return model(package, union["discriminator"]["mapping"][action_type].rsplit("/", 1)[1])


@pytest.mark.parametrize("ruleset", RULESETS.values(), ids=RULESETS.keys())
def test_the_generated_python_client_plays_a_fight(melee_api, api_server, ruleset):
    from melee_api.api.combats import create_combat, get_combat, list_events, post_action
    from melee_api.client import AuthenticatedClient

    example = ruleset.example()
    with AuthenticatedClient(base_url=api_server, token=API_KEY, prefix="", auth_header_name="X-API-Key") as keyed:
        body = model(melee_api, f"{ruleset.schema_prefix}CreateCombat").from_dict(example["combat"])
        created = create_combat.sync(client=keyed, body=body)
    assert isinstance(created, model(melee_api, f"{ruleset.schema_prefix}CreatedCombat")), created
    tokens = {"gm": created.tokens.gm, **created.tokens.combatants.to_dict()}

    def acting_as(actor: str) -> AuthenticatedClient:
        return AuthenticatedClient(base_url=api_server, token=tokens.get(actor, tokens["gm"]))

    for action in [*example["actions"], END]:
        typed = action_model(melee_api, ruleset, action["type"]).from_dict(action)
        result = post_action.sync(created.id, client=acting_as(action["actor"]), body=typed)
        assert isinstance(result, model(melee_api, f"{ruleset.schema_prefix}ActionResult")), (action, result)
    combat = get_combat.sync(created.id, client=acting_as("gm"))
    log = list_events.sync(created.id, client=acting_as("gm"), limit=200)
    assert isinstance(combat, model(melee_api, f"{ruleset.schema_prefix}Combat")), combat
    assert (combat.ruleset.value, combat.status.value) == (ruleset.id, "over")
    assert all(isinstance(c, model(melee_api, f"{ruleset.schema_prefix}Combatant")) for c in combat.combatants)
    played = [action["type"] for action in example["actions"]]
    assert isinstance(log, model(melee_api, f"{ruleset.schema_prefix}LogPage")), log
    assert [item.action["type"] for item in log.items] == ["start", *played, "end_combat"]
    assert log.items[-1].events[-1].code.value == "combat_summary"


# -- TypeScript --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def typescript(npm_tools):
    """build/melee.d.ts from the spec, and build/fights.ts: every example typed by its ruleset."""
    BUILD.mkdir(exist_ok=True)
    done = run([npm_tools / "openapi-typescript", SPEC, "--output", BUILD / "melee.d.ts"])
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [
        'import type { components } from "./melee.js";',
        'type Schemas = components["schemas"];',
        'export type Fight = { combat: Schemas["CreateCombat"]; actions: Schemas["Action"][] };',
    ]
    for ruleset in RULESETS.values():
        example, prefix = ruleset.example(), ruleset.schema_prefix
        lines.append(
            f'const {prefix}: {{ combat: Schemas["{prefix}CreateCombat"]; actions: Schemas["{prefix}Action"][] }} = '
            f"{json.dumps(example, ensure_ascii=False)};"
        )
    lines.append(f"export const fights: Fight[] = [{', '.join(r.schema_prefix for r in RULESETS.values())}];")
    (BUILD / "fights.ts").write_text("\n".join(lines) + "\n")
    return npm_tools


def test_the_generated_typescript_client_compiles_strict_and_plays_a_fight_of_every_ruleset(typescript, api_server):
    compiled = run([typescript / "tsc", "--project", HERE / "tsconfig.json"])
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    played = run(["node", BUILD / "out" / "fight.js", api_server, API_KEY], timeout=120)
    assert played.returncode == 0, played.stdout + played.stderr
    fights = [json.loads(line) for line in played.stdout.splitlines()]
    assert [(f["ruleset"], f["status"]) for f in fights] == [(ruleset_id, "over") for ruleset_id in RULESETS]
    assert all(isinstance(f["seed"], int) and f["entries"] >= 2 for f in fights), fights
    assert all(len(f["health"]) >= 2 and all(isinstance(h, int) for h in f["health"]) for f in fights), fights


def test_a_wrong_action_type_does_not_compile(typescript):
    compiled = run(
        [
            typescript / "tsc",
            "--strict",
            "--noEmit",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--target",
            "es2022",
            HERE / "wrong-action-type.ts",
        ]
    )
    assert compiled.returncode != 0
    assert "wrong-action-type.ts(5," in compiled.stdout and '"atakk"' in compiled.stdout, compiled.stdout


# -- docs/vtt.md's snippets ---------------------------------------------------------------


def guide_snippet(language: str) -> str:
    guide = (HERE.parents[1] / "docs" / "vtt.md").read_text()
    section = guide[guide.index("## Typed clients, generated") :]
    return section[section.index(f"```{language}\n") + len(language) + 4 :].split("```", 1)[0]


def sistema_combat(base: str) -> tuple[str, str]:
    """A sistema-2d6 combat where Ana acts first: its id and Ana's token."""
    created = requests.post(
        f"{base}/combats", json=RULESETS["sistema-2d6"].example()["combat"], headers={"X-API-Key": API_KEY}, timeout=10
    )
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["tokens"]["combatants"]["ana"]


def test_the_guide_python_snippet_acts(melee_api, api_server):
    combat_id, ana_token = sistema_combat(api_server)
    scope = {"combat_id": combat_id, "ana_token": ana_token}
    exec(guide_snippet("python").replace("http://localhost:8000", api_server), scope)  # noqa: S102 - our own docs
    assert isinstance(scope["result"], model(melee_api, "Sistema2d6ActionResult")), scope["result"]


def test_the_guide_typescript_snippet_compiles_strict_and_acts(typescript, api_server):
    combat_id, ana_token = sistema_combat(api_server)
    (BUILD / "guide.ts").write_text(
        "const [combat_id, anaToken] = process.argv.slice(2);\n"
        + guide_snippet("ts").replace("http://localhost:8000", api_server)
        + "if (!data) throw new Error(error?.detail);\nconsole.log(data.action.type);\n"
    )
    compiled = run(
        [
            typescript / "tsc",
            "--strict",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--target",
            "es2022",
            "--types",
            "node",
            "--outDir",
            BUILD / "guide",
            BUILD / "guide.ts",
        ]
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    played = run(["node", BUILD / "guide" / "guide.js", combat_id, ana_token], timeout=60)
    assert (played.returncode, played.stdout) == (0, "attack\n"), played.stdout + played.stderr
