// snapshot/restore (the snapshot API of COMMON.md's contract), when the server offers it:
// skipped, saying so, against a server whose /openapi.json has no /combats/{id}/snapshot.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MeleeProblem } from "@melee/client";
import { BASE, END, client, exampleCombat } from "./helpers.mjs";

const spec = await (await fetch(`${BASE}/openapi.json`)).json();
const offered = "/combats/{combat_id}/snapshot" in spec.paths;
const skip = offered ? false : "this server has no snapshot API (GET /combats/{id}/snapshot is not in its /openapi.json)";

test("a fight saved with snapshot() comes back with restore() under its id, its tokens still working", { skip }, async () => {
  const { melee, created, example, as } = await exampleCombat("sistema-2d6");
  const gm = melee.withToken(created.tokens.gm);
  await as(example.actions[0].actor).act(created.id, example.actions[0]);
  const sealed = await gm.snapshot(created.id);
  assert.equal(typeof sealed, "string");
  const player = await as("ana").snapshot(created.id).then(() => null, (e) => e);
  assert.ok(player instanceof MeleeProblem && player.status === 403, String(player));
  const live = await client().restore(sealed).then(() => null, (e) => e);
  assert.ok(live instanceof MeleeProblem && live.status === 409, String(live)); // the id is live
  const before = await gm.combat(created.id);
  await gm.deleteCombat(created.id);
  // Tampered: a 4xx problem, and nothing created.
  const tampered = await client().restore(sealed.slice(0, -4) + "AAAA").then(() => null, (e) => e);
  assert.ok(tampered instanceof MeleeProblem && tampered.status >= 400 && tampered.status < 500, String(tampered));
  assert.equal((await gm.combat(created.id).then(() => null, (e) => e))?.status, 404);
  const restored = await client().restore(sealed);
  assert.equal(restored.id, created.id);
  assert.equal(restored.version, before.version + 1); // its `restored` log entry
  assert.equal("tokens" in restored, false);
  const next = example.actions[1];
  const acted = await as(next.actor).act(created.id, next); // the original token still acts
  assert.equal(acted.action.type, next.type);
  assert.equal((await gm.act(created.id, END)).combat.status, "over");
});
