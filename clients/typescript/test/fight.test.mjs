// A fight of every ruleset with the SDK against a live Melee: the example's actions, each with its
// actor's own token, then the GM's end_combat; two subscriptions (SSE and the long poll) follow it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { RULESET_IDS } from "@melee/client";
import { client, END, exampleCombat, until, wholeLog } from "./helpers.mjs";

test("the SDK knows every ruleset the server plays", async () => {
  const served = (await client().rulesets()).map((r) => r.id).sort();
  assert.deepEqual(served, [...RULESET_IDS].sort());
});

for (const rulesetId of RULESET_IDS) {
  test(`a ${rulesetId} fight, followed live by SSE and by the long poll`, async () => {
    const { melee, created, example, as } = await exampleCombat(rulesetId);
    assert.equal(created.ruleset, rulesetId);
    assert.equal(typeof created.tokens.gm, "string");
    const gm = melee.withToken(created.tokens.gm);
    const streamed = [];
    const polled = [];
    const statuses = [];
    const errors = [];
    const onError = (error) => errors.push(error);
    const stream = gm.subscribe(created.id, { onEntry: (e) => streamed.push(e), onError, onStatus: (s) => statuses.push(s) }, { after: 0 });
    const poll = gm.subscribe(created.id, { onEntry: (e) => polled.push(e), onError }, { after: 0, transport: "poll", wait: 2 });
    let result;
    for (const action of example.actions) result = await as(action.actor).act(created.id, action);
    const ended = await gm.act(created.id, END);
    assert.equal(ended.combat.status, "over");
    assert.equal(ended.action.type, "end_combat");
    const log = await wholeLog(melee, created);
    assert.deepEqual(log.map((e) => e.action.type), ["start", ...example.actions.map((a) => a.type), "end_combat"]);
    await until(() => streamed.length >= log.length && polled.length >= log.length);
    stream.close();
    poll.close();
    assert.deepEqual(errors, []);
    assert.equal(statuses[0], "stream");
    // Each entry once, in order, as GET /events shows it.
    assert.deepEqual(streamed.map((e) => e.seq), log.map((e) => e.seq));
    assert.deepEqual(polled.map((e) => e.seq), log.map((e) => e.seq));
    assert.deepEqual(streamed.at(-1), log.at(-1));
    const combat = await gm.combat(created.id);
    assert.equal(combat.status, "over");
    assert.ok(result.events.every((event) => typeof event.text === "string" && event.text.length > 0));
  });
}

test("a minted player token acts for its combatant, and options() knows whose it is", async () => {
  const { melee, created, example } = await exampleCombat("sistema-2d6");
  const minted = await melee.withToken(created.tokens.gm).mintToken(created.id, { role: "player", combatant: "ana" });
  assert.equal(minted.combatant, "ana");
  const ana = melee.withToken(minted.token);
  assert.equal(ana.actor, "ana");
  assert.equal((await ana.options(created.id)).actor, "ana");
  const first = example.actions[0];
  assert.equal(first.actor, "ana");
  assert.equal((await ana.act(created.id, first)).action.type, first.type);
});

test("odds before acting, then undo and redo (GM), each answering with the combat", async () => {
  const { melee, created, example, as } = await exampleCombat("sistema-2d6");
  const first = example.actions[0];
  const { dice, ...undiced } = first;
  const odds = await as(first.actor).odds(created.id, undiced);
  assert.ok(Array.isArray(odds.outcomes) && odds.outcomes.length > 0, JSON.stringify(odds).slice(0, 300));
  const acted = await as(first.actor).act(created.id, first);
  const gm = melee.withToken(created.tokens.gm);
  const undone = await gm.undo(created.id);
  assert.equal(undone.combat.version, acted.combat.version + 1);
  assert.deepEqual(undone.combat.awaiting, created.awaiting);
  const redone = await gm.redo(created.id, { ifMatch: undone.combat.version });
  assert.deepEqual(redone.combat.awaiting, acted.combat.awaiting);
  assert.equal(dice.length > 0, true);
});
