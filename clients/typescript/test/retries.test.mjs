// act's retries against a live Melee: one logical action, one Idempotency-Key on each of its
// attempts, applied once; the 409/412 rules of docs/vtt.md; problems typed as MeleeProblem.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MeleeNetworkError, MeleeProblem } from "@melee/client";
import { client, exampleCombat, problemResponse, recording, wholeLog } from "./helpers.mjs";

const actionPosts = (requests) => requests.filter((r) => r.method === "POST" && r.url.pathname.endsWith("/actions"));

test("an answer lost on the way back: the retry carries the same key and the action is applied once", async () => {
  let lost = 0;
  const { fetch, requests } = recording(async (input, init) => {
    const answer = await globalThis.fetch(input, init);
    if (init.method === "POST" && String(input).endsWith("/actions") && lost++ === 0) {
      await answer.text();
      throw new TypeError("fetch failed"); // the server applied it; its answer never arrived
    }
    return answer;
  });
  const { created, example, as } = await exampleCombat("sistema-2d6", client({ fetch }));
  const first = example.actions[0];
  const result = await as(first.actor).act(created.id, first);
  const posts = actionPosts(requests);
  assert.equal(posts.length, 2);
  assert.match(posts[0].headers["idempotency-key"], /^[0-9a-f-]{36}$/);
  assert.equal(posts[1].headers["idempotency-key"], posts[0].headers["idempotency-key"]);
  assert.equal(result.action.type, first.type);
  const log = await wholeLog(client(), created);
  assert.deepEqual(log.map((e) => e.action.type), ["start", first.type]); // once, not twice
  // The next logical action gets a key of its own.
  await as(example.actions[1].actor).act(created.id, example.actions[1]);
  const keys = actionPosts(requests).map((r) => r.headers["idempotency-key"]);
  assert.equal(new Set(keys).size, 2);
});

test("503 outcome-unknown after the change was applied: retried with the same key, the first answer comes back", async () => {
  let unknown = 0;
  const { fetch, requests } = recording(async (input, init) => {
    const answer = await globalThis.fetch(input, init);
    if (init.method === "POST" && String(input).endsWith("/actions") && unknown++ === 0) {
      await answer.text();
      return problemResponse(503, "outcome-unknown", { "Retry-After": "0" });
    }
    return answer;
  });
  const { created, example, as } = await exampleCombat("duel-2d6", client({ fetch }));
  const first = example.actions[0];
  const result = await as(first.actor).act(created.id, first);
  const posts = actionPosts(requests);
  assert.equal(posts.length, 2);
  assert.equal(posts[1].headers["idempotency-key"], posts[0].headers["idempotency-key"]);
  assert.equal(result.combat.version, (await client().withToken(created.tokens.gm).combat(created.id)).version);
  assert.equal((await wholeLog(client(), created)).length, 2); // start + the action, once
});

test("a key given by the caller is the one sent, on every attempt", async () => {
  const { fetch, requests } = recording();
  const { created, example, as } = await exampleCombat("dark-earth", client({ fetch }));
  const key = "my-own-key-0123456789";
  const first = example.actions[0];
  const once = await as(first.actor).act(created.id, first, { idempotencyKey: key });
  const again = await as(first.actor).act(created.id, first, { idempotencyKey: key });
  assert.deepEqual(again, once); // the server replays the first answer
  assert.deepEqual(actionPosts(requests).map((r) => r.headers["idempotency-key"]), [key, key]);
  assert.equal((await wholeLog(client(), created)).length, 2);
});

test("a refusal is a typed MeleeProblem, final: no retry", async () => {
  const { fetch, requests } = recording();
  const { created, as } = await exampleCombat("sistema-2d6", client({ fetch }));
  const wrong = { type: "attack", actor: "capanga", target: "ana", weapon: "faca" };
  const error = await as("ana").act(created.id, wrong).then(() => null, (e) => e);
  assert.ok(error instanceof MeleeProblem, String(error));
  assert.equal(error.status, 403);
  assert.equal(typeof error.type, "string");
  assert.equal(typeof error.title, "string");
  assert.equal(error.errors?.[0]?.pointer, "/actor");
  assert.equal(typeof error.errors?.[0]?.message, "string");
  assert.match(error.idempotencyKey, /^[0-9a-f-]{36}$/);
  assert.equal(actionPosts(requests).length, 1);
});

test("a refusal says which language its title and detail are in (Content-Language)", async () => {
  const { created } = await exampleCombat("sistema-2d6", client());
  const french = client({ lang: "fr", token: created.tokens.combatants.ana });
  const wrong = { type: "attack", actor: "capanga", target: "ana", weapon: "faca" };
  const error = await french.act(created.id, wrong).then(() => null, (e) => e);
  assert.ok(error instanceof MeleeProblem, String(error));
  assert.equal(error.language, "fr");
  assert.equal(error.title, "Interdit");
});

test("412 with If-Match: thrown at once with the current version, never retried blind", async () => {
  const { fetch, requests } = recording();
  const { created, example, as } = await exampleCombat("sistema-2d6", client({ fetch }));
  const [first, second] = example.actions;
  await as(first.actor).act(created.id, first, { ifMatch: created.version });
  const error = await as(second.actor).act(created.id, second, { ifMatch: created.version }).then(() => null, (e) => e);
  assert.ok(error instanceof MeleeProblem && error.status === 412, String(error));
  assert.ok(error.is("precondition-failed"));
  assert.equal(error.currentVersion, created.version + 1);
  assert.equal(actionPosts(requests).length, 2);
  // Reload, decide again: with the new version it goes through.
  const reloaded = await as(second.actor).act(created.id, second, { ifMatch: error.currentVersion });
  assert.equal(reloaded.action.type, second.type);
});

test("409 version-conflict is retried without If-Match and not with it; request-in-flight is retried", async () => {
  const answers = [];
  const fake = async () => answers.shift() ?? problemResponse(500, "unexpected");
  const melee = client({ fetch: fake, token: "t" });
  const ok = () => new Response(JSON.stringify({ action: { type: "pass" } }), { status: 200, headers: { "Content-Type": "application/json" } });
  answers.push(problemResponse(409, "version-conflict", { "Retry-After": "0" }), problemResponse(409, "request-in-flight", { "Retry-After": "0" }), ok());
  assert.deepEqual(await melee.act("c", { type: "pass", actor: "ana" }), { action: { type: "pass" } });
  assert.equal(answers.length, 0);
  answers.push(problemResponse(409, "version-conflict", { "Retry-After": "0" }), ok());
  const error = await melee.act("c", { type: "pass", actor: "ana" }, { ifMatch: 3 }).then(() => null, (e) => e);
  assert.ok(error instanceof MeleeProblem && error.is("version-conflict"));
  assert.equal(answers.length, 1);
});

test("no answer at all, every time: a MeleeNetworkError after the retries, with the key to retry later", async () => {
  let calls = 0;
  const melee = client({ fetch: async () => { calls += 1; throw new TypeError("fetch failed"); }, retries: 2 });
  const error = await melee.act("c", { type: "pass", actor: "ana" }).then(() => null, (e) => e);
  assert.ok(error instanceof MeleeNetworkError, String(error));
  assert.match(error.idempotencyKey, /^[0-9a-f-]{36}$/);
  assert.equal(calls, 3);
});

test("undo is not retried after no answer (it has no key), but is after store-unavailable", async () => {
  let calls = 0;
  const lost = client({ fetch: async () => { calls += 1; throw new TypeError("fetch failed"); } });
  await assert.rejects(lost.undo("c"), MeleeNetworkError);
  assert.equal(calls, 1);
  const answers = [problemResponse(503, "store-unavailable", { "Retry-After": "0" }), new Response("{}", { status: 200 })];
  const busy = client({ fetch: async () => answers.shift() });
  assert.deepEqual(await busy.undo("c"), {});
});
