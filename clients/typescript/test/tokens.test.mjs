// The game master's token calls against a live Melee: mint, list, revoke, and delete the combat.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MeleeProblem } from "@melee/client";
import { exampleCombat } from "./helpers.mjs";

test("a minted token is listed, works, stops working once revoked; a deleted combat is gone", async () => {
  const { melee, created } = await exampleCombat("sistema-2d6");
  const gm = melee.withToken(created.tokens.gm);
  const minted = await gm.mintToken(created.id, { role: "player", combatant: "ana" });
  assert.equal(minted.combatant, "ana");
  const listed = await gm.tokens(created.id);
  assert.deepEqual(listed.find((t) => t.id === minted.id), { id: minted.id, role: "player", combatant: "ana" });
  assert.ok(!JSON.stringify(listed).includes(minted.token)); // never the token itself
  const ana = melee.withToken(minted.token);
  assert.equal((await ana.combat(created.id)).id, created.id);
  await gm.revokeToken(created.id, minted.id);
  const refused = await ana.combat(created.id).then(() => null, (e) => e);
  assert.ok(refused instanceof MeleeProblem && refused.status === 401, String(refused));
  await gm.deleteCombat(created.id);
  const gone = await gm.combat(created.id).then(() => null, (e) => e);
  assert.ok(gone instanceof MeleeProblem && gone.status === 404, String(gone));
});
