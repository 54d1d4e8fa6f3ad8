// Runs the VTT guide's client (docs/vtt/melee-client.mjs) against a real server.
// Usage: node vtt-snippet.test.mjs <base URL>
import assert from "node:assert/strict";
import { MeleeClient } from "../../docs/vtt/melee-client.mjs";

const base = process.argv[2];
const example = (await (await fetch(`${base}/rulesets/sistema-2d6`)).json()).example;

const gm = new MeleeClient(base);
const combat = await gm.createCombat(example.combat);
const player = new MeleeClient(base, combat.tokens.combatants.ana);

const seen = [];
const controller = new AbortController();
const following = gm.follow(combat.id, (entry) => { seen.push(entry.seq); if (entry.seq === 3) controller.abort(); },
  { signal: controller.signal }).catch((error) => { if (error.name !== "AbortError") throw error; });

assert.deepEqual((await player.prompts(combat.id)).map((w) => w.actor), ["ana"]);
const odds = await player.odds(combat.id, { type: "attack", actor: "ana", target: "capanga", weapon: "pistola" });
assert.ok(odds.outcomes.length > 1);
await player.act(combat.id, { type: "attack", actor: "ana", target: "capanga", weapon: "pistola" });
await assert.rejects(player.act(combat.id, { type: "defend", actor: "capanga" }), /acts for 'ana' only/);
await gm.act(combat.id, { type: "defend", actor: "capanga" });
await following;
assert.deepEqual(seen, [1, 2, 3]);
console.log("vtt snippet: 1 passed, 0 failed");
