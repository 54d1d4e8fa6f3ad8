"""@melee/client (clients/typescript) against a live Melee, in Node and in headless Chromium.

npm ci (scripts/install-node-packages, when missing) and tsc build it; its node tests
(node --test) play a fight of every ruleset with it, check act's retries and
Idempotency-Key reuse, the stream's resume and fallback, and typed problems. `npm pack`
gives the tarball a user installs: installed offline into a clean project, imported and
type-checked with tsc --strict (the package's own typescript). examples/fight.mjs ends a
fight of every ruleset. Skipped, saying why, when node or npm is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from service.rules.registry import RULESETS
from tests.browser.chromium import chromium_env
from tests.e2e.conftest import start_gunicorn, stop

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "typescript"
TSC = SDK / "node_modules" / ".bin" / "tsc"
API_KEY = "typescript-sdk-tests-key"


def run(command: list, cwd: Path = SDK, timeout: int = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture(scope="module")
def sdk() -> Path:
    """clients/typescript, its dev dependencies installed and dist/ built."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the TypeScript SDK's tests need them")
    if not TSC.exists():
        done = run([ROOT / "scripts" / "install-node-packages"], cwd=ROOT, timeout=900)
        if done.returncode != 0:
            pytest.skip(
                f"npm could not install the SDK's dev dependencies (is the registry reachable?): {done.stderr[-500:]}"
            )
    built = run([TSC, "-p", "tsconfig.json"])
    assert built.returncode == 0, built.stdout + built.stderr
    return SDK


@pytest.fixture(scope="module")
def melee():
    redis_url = os.environ.get("REDIS_URL")
    process, base = start_gunicorn(
        {"API_KEYS": API_KEY, "REDIS_URL": redis_url, "WEB_CONCURRENCY": "2" if redis_url else "1"}
    )
    yield base
    stop(process)


def test_the_package_version_is_the_project_version():
    package = json.loads((SDK / "package.json").read_text())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert (package["name"], package["version"]) == ("@melee/client", project["version"])
    assert package.get("dependencies", {}) == {}  # no runtime dependency


def test_the_generated_types_are_those_of_openapi_json(sdk):
    checked = run(["node", "scripts/generate.mjs", "--check"])
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_node_tests_play_every_ruleset_against_a_live_melee(sdk, melee):
    tests = sorted((SDK / "test").glob("*.test.mjs"))
    browser, _ = chromium_env()  # the browser test among them skips, saying why, without one
    env = {"MELEE_BASE_URL": melee, "MELEE_API_KEY": API_KEY, **(browser or {})}
    done = run(["node", "--test", *tests], timeout=300, env=env)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout, done.stdout[-3000:]
    passed = int(done.stdout.split("# pass ", 1)[1].split()[0])
    assert passed >= len(RULESETS) + 12, done.stdout[-3000:]


@pytest.mark.parametrize("ruleset_id", RULESETS.keys())
def test_the_example_ends_a_fight_of_every_ruleset(sdk, melee, ruleset_id):
    spy = ROOT / "tests" / "clients" / "creation-spy.mjs"  # writes the creation body to stderr
    done = run(["node", "--import", spy, "examples/fight.mjs", melee, ruleset_id, "--api-key", API_KEY], timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    (body,) = [json.loads(line.split(": ", 1)[1]) for line in done.stderr.splitlines() if line.startswith("creation")]
    assert body["ruleset"] == ruleset_id and "seed" not in body  # fresh dice, not the example's public seed
    lines = done.stdout.splitlines()
    assert lines[-1].startswith(f"{ruleset_id}: over after "), lines[-3:]
    assert len(lines) > 5 and all(line.strip() for line in lines), lines[:10]


def test_the_example_exits_non_zero_when_it_cannot_play(sdk, melee):
    done = run(["node", "examples/fight.mjs", melee, "no-such-ruleset"], timeout=60)
    assert done.returncode == 1 and "404" in done.stderr, done.stdout + done.stderr
    assert run(["node", "examples/fight.mjs"], timeout=60).returncode == 2


CONSUMER = """
import { MeleeClient, MeleeProblem, RULESET_IDS, tokenFor } from "@melee/client";
import type { ActionFor, ActionOf, CombatCreateFor, LogEntry, RulesetId } from "@melee/client";

declare const process: { argv: string[]; exitCode?: number };
const [baseUrl, apiKey] = process.argv.slice(2);
const melee = new MeleeClient({ baseUrl: baseUrl!, apiKey: apiKey! });
const body: CombatCreateFor<"sistema-2d6"> = BODY;
// A published example is typed: its body creates, its actions act.
const { example } = await melee.ruleset("duel-2d6");
const other = await melee.createCombat(example.combat);
for (const action of example.actions) await melee.withToken(tokenFor(other.tokens, action.actor)).act(other.id, action);
const created = await melee.createCombat(body);
// Narrowed to sistema-2d6 by the body: age-du-silicium's combatants have no pv.
const health: number[] = created.combatants.map((c) => c.pv);
const shot: ActionOf<"sistema-2d6", "attack"> = { type: "attack", actor: "ana", target: "capanga", weapon: "pistola" };
const ana = melee.withToken(tokenFor(created.tokens, "ana"));
const result = await ana.act<"sistema-2d6">(created.id, shot);
const answer: ActionFor<"sistema-2d6"> = { type: "defend", actor: "capanga", skill: "Esquiva" };
await melee.withToken(tokenFor(created.tokens, "capanga")).act(created.id, answer);
const gm = melee.withToken(created.tokens.gm);
const entries: LogEntry[] = [];
const live = gm.subscribe<"sistema-2d6">(created.id, { onEntry: (e) => { entries.push(e); } }, { after: 0 });
let refused: MeleeProblem | null = null;
try {
  await ana.act(created.id, { type: "pass", actor: "capanga" });
} catch (error) {
  if (error instanceof MeleeProblem) refused = error;
}
const over = await gm.act(created.id, { type: "end_combat", actor: "gm", reason: "The tarball works." });
const rulesets: readonly RulesetId[] = RULESET_IDS;
while (entries.length < 4) await new Promise((done) => setTimeout(done, 20));
live.close();
console.log(JSON.stringify({ status: over.combat.status, health, attack: result.action.type, refused: refused?.status,
  pointer: refused?.errors?.[0]?.pointer, rulesets: rulesets.length, entries: entries.map((e) => e.seq) }));
"""

WRONG = """
import { actionFrom } from "@melee/client";
import type { ActionFor, LegalActionOf } from "@melee/client";
export const wrong: ActionFor<"sistema-2d6"> = { type: "atakk", actor: "ana" };
declare const attack: LegalActionOf<"duel-2d6", "attack">;
export const kick = actionFrom("duel-2d6", attack, "truand", { maneuver: "kikk" });
"""
# One turn driven by /options, 20-40 lines, compiled with the consumer (tsc --strict), without a cast.
OPTIONS_DRIVEN = SDK / "test" / "options-driven.ts"

TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "target": "es2022",
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "lib": ["es2022", "dom"],
        "types": [],
        "outDir": "out",
    },
    "files": ["consumer.ts", "options-driven.ts"],
}


def test_the_packed_tarball_installs_in_a_clean_project_and_type_checks_strict(sdk, melee, tmp_path):
    # dist/ is built by the fixture: no prepack (a second tsc run) here.
    packed = run(["npm", "pack", "--json", "--ignore-scripts", "--pack-destination", tmp_path], timeout=180)
    assert packed.returncode == 0, packed.stdout + packed.stderr
    (info,) = json.loads(packed.stdout)
    files = {f["path"] for f in info["files"]}
    assert {"package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/generated/openapi.d.ts"} <= files
    assert not any(f.startswith(("src/", "test/", "node_modules/")) for f in files), files
    project = tmp_path / "project"
    project.mkdir()
    (project / "package.json").write_text(json.dumps({"name": "a-vtt-module", "private": True, "type": "module"}))
    installed = run(
        ["npm", "install", "--offline", "--no-audit", "--no-fund", tmp_path / info["filename"]],
        cwd=project,
        timeout=180,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert sorted(p.name for p in (project / "node_modules").iterdir() if not p.name.startswith(".")) == ["@melee"]

    example = RULESETS["sistema-2d6"].example()["combat"]
    (project / "consumer.ts").write_text(CONSUMER.replace("BODY", json.dumps(example, ensure_ascii=False)))
    (project / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    driven = OPTIONS_DRIVEN.read_text()
    assert 20 <= len(driven.splitlines()) <= 40 and " as " not in driven and "<any>" not in driven
    (project / "options-driven.ts").write_text(driven)
    compiled = run([TSC, "-p", "tsconfig.json"], cwd=project)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    turn = run(["node", "out/options-driven.js", melee, API_KEY], cwd=project, timeout=120)
    assert turn.returncode == 0, turn.stdout + turn.stderr
    turn = json.loads(turn.stdout)
    assert turn["offered"] > 0 and turn["type"] in turn["awaited"], turn
    played = run(["node", "out/consumer.js", melee, API_KEY], cwd=project, timeout=120)
    assert played.returncode == 0, played.stdout + played.stderr
    outcome = json.loads(played.stdout)
    assert outcome["status"] == "over" and outcome["attack"] == "attack", outcome
    assert (outcome["refused"], outcome["pointer"]) == (403, "/actor"), outcome
    assert outcome["rulesets"] == len(RULESETS) and outcome["entries"][:3] == [1, 2, 3], outcome

    (project / "wrong.ts").write_text(WRONG)
    wrong = run(
        [
            TSC,
            "--strict",
            "--noEmit",
            "--skipLibCheck",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "wrong.ts",
        ],
        cwd=project,
    )
    assert wrong.returncode != 0 and '"atakk"' in wrong.stdout and '"kikk"' in wrong.stdout, wrong.stdout


def first_js_block(markdown: Path, after: str = "") -> str:
    text = markdown.read_text()
    text = text[text.index(after) :] if after else text
    return text[text.index("```js\n") + 6 :].split("```", 1)[0]


def test_the_readme_first_fight_runs_and_the_vtt_guide_shows_it(sdk, melee, tmp_path):
    snippet = first_js_block(SDK / "README.md")
    assert snippet == first_js_block(ROOT / "docs" / "vtt.md", "## The TypeScript SDK")
    assert len(snippet.strip().splitlines()) == 5
    # Inside the package, "@melee/client" names the package itself (Node's self-reference).
    script = SDK / "examples" / f".readme-{tmp_path.name}.mjs"
    server = f'{{ baseUrl: "{melee}", apiKey: "{API_KEY}" }}'
    script.write_text(snippet.replace('{ baseUrl: "http://localhost:8000" }', server))
    try:
        done = run(["node", script], timeout=60)
    finally:
        script.unlink()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Ana" in done.stdout, done.stdout
