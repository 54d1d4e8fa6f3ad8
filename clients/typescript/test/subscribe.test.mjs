// subscribe against a live Melee: a stream cut mid-way resumes with Last-Event-ID and misses
// nothing; a stream refused (503) falls back to the long poll; a `reset` event restarts the log.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MeleeProblem } from "@melee/client";
import { client, END, exampleCombat, recording, until, wholeLog } from "./helpers.mjs";

const streams = (requests) => requests.filter((r) => r.url.pathname.endsWith("/stream"));

/** A body that passes the real stream on up to a complete entry, then fails (a dropped connection). */
function cutAfterFirstEntry(response) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const body = new ReadableStream({
    async pull(controller) {
      if (/event: entry\n[^]*?\n\n/.test(text)) {
        reader.cancel().catch(() => undefined);
        return controller.error(new TypeError("terminated"));
      }
      const { value, done } = await reader.read();
      if (done) return controller.close();
      controller.enqueue(value);
      text += decoder.decode(value, { stream: true });
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

test("a stream cut after its first entry resumes with Last-Event-ID and delivers each entry once", async () => {
  let cut = 0;
  const { fetch, requests } = recording(async (input, init) => {
    const answer = await globalThis.fetch(input, init);
    return String(input).includes("/stream") && cut++ === 0 ? cutAfterFirstEntry(answer) : answer;
  });
  const { melee, created, example, as } = await exampleCombat("sistema-2d6");
  const seen = [];
  const gm = client({ fetch }).withToken(created.tokens.gm);
  const subscription = gm.subscribe(created.id, { onEntry: (e) => seen.push(e.seq), onError: (e) => seen.push(e) }, { after: 0 });
  for (const action of example.actions) await as(action.actor).act(created.id, action);
  await as("gm").act(created.id, END);
  const log = await wholeLog(melee, created);
  await until(() => seen.length >= log.length && streams(requests).length >= 2);
  subscription.close();
  assert.deepEqual(seen, log.map((e) => e.seq));
  const [first, second] = streams(requests);
  assert.equal(first.url.searchParams.get("after"), "0");
  assert.equal(first.headers["last-event-id"], undefined);
  assert.ok(Number(second.headers["last-event-id"]) >= 1, JSON.stringify(second.headers));
  assert.equal(second.headers.authorization, `Bearer ${created.tokens.gm}`);
});

test("streaming refused (503 on /stream): the long poll takes over and nothing is missed", async () => {
  const statuses = [];
  const { fetch, requests } = recording(async (input, init) =>
    String(input).includes("/stream")
      ? new Response(JSON.stringify({ type: "/problems/stream-capacity", title: "Busy", status: 503, detail: "full" }), {
          status: 503,
          headers: { "Content-Type": "application/problem+json", "Retry-After": "0" },
        })
      : globalThis.fetch(input, init),
  );
  const { melee, created, example, as } = await exampleCombat("duel-2d6");
  const seen = [];
  const gm = client({ fetch }).withToken(created.tokens.gm);
  const subscription = gm.subscribe(created.id, { onEntry: (e) => seen.push(e.seq), onStatus: (s) => statuses.push(s) }, { wait: 1, after: null });
  await until(() => statuses.includes("poll"));
  for (const action of example.actions) await as(action.actor).act(created.id, action);
  const log = await wholeLog(melee, created);
  await until(() => seen.length >= log.length - 1);
  subscription.close();
  assert.deepEqual(seen, log.slice(1).map((e) => e.seq)); // `after: null`: only what came after subscribing
  assert.ok(requests.some((r) => r.url.pathname.endsWith("/events") && r.url.searchParams.get("wait") === "1"));
});

test("a `reset` event calls onReset and delivers the log again from its first entry", async () => {
  const { created } = await exampleCombat("sistema-2d6");
  let calls = 0;
  const { fetch, requests } = recording(async (input, init) => {
    if (!String(input).includes("/stream")) return globalThis.fetch(input, init);
    calls += 1;
    if (calls > 1) return globalThis.fetch(input, init);
    const sse = 'id: 1\nevent: entry\ndata: {"seq": 1, "action": {}, "events": [], "rolls": []}\n\n'
      + 'id: 7\nevent: entry\ndata: {"seq": 7, "action": {}, "events": [], "rolls": []}\n\nevent: reset\ndata: \n\n';
    return new Response(sse, { status: 200, headers: { "Content-Type": "text/event-stream" } });
  });
  const seen = [];
  let resets = 0;
  const gm = client({ fetch }).withToken(created.tokens.gm);
  const subscription = gm.subscribe(created.id, { onEntry: (e) => seen.push(e.seq), onReset: () => { resets += 1; seen.push("reset"); } }, { after: 0 });
  await until(() => seen.length >= 4);
  subscription.close();
  assert.deepEqual(seen, [1, 7, "reset", 1]);
  assert.equal(resets, 1);
  const second = streams(requests)[1];
  assert.equal(second.url.searchParams.get("after"), "0");
  assert.equal(second.headers["last-event-id"], undefined);
});

test("a deleted combat's stream ends the subscription with a typed problem", async () => {
  const { melee, created } = await exampleCombat("dark-earth");
  const gm = melee.withToken(created.tokens.gm);
  const errors = [];
  const subscription = gm.subscribe(created.id, { onEntry: () => {}, onError: (e) => errors.push(e) }, { after: 0 });
  await gm.deleteCombat(created.id);
  await until(() => errors.length > 0);
  subscription.close();
  assert.ok(errors[0] instanceof MeleeProblem, String(errors[0]));
  assert.equal(errors[0].status, 404);
});
