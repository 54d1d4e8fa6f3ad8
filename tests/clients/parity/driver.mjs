// The TypeScript SDK's side of the parity table (parity.json): run by test_parity.py against a live Melee.
//
//   node driver.mjs BASE_URL API_KEY PARITY_JSON
//
// Prints one JSON report, the same as driver.py's: what the SDK does by default (retries, the live
// log's start, after a reset, restore's headers and answer) and which of the table's methods it has.
import { readFileSync } from "node:fs";
import { MeleeClient, MeleeProblem, tokenFor } from "../../../clients/typescript/dist/index.js";

const [base, apiKey, tablePath] = process.argv.slice(2);
const table = JSON.parse(readFileSync(tablePath, "utf8"));
const melee = new MeleeClient({ baseUrl: base, apiKey });

async function retries() {
  const attempts = [];
  const busy = async () => {
    attempts.push(performance.now());
    const body = { type: "/problems/store-unavailable", title: "Busy", status: 503, detail: "busy" };
    return new Response(JSON.stringify(body), { status: 503, headers: { "Content-Type": "application/problem+json" } });
  };
  const stub = new MeleeClient({ baseUrl: "http://melee.test", fetch: busy }); // the default policy
  await stub.rulesets().catch((error) => {
    if (!(error instanceof MeleeProblem)) throw error;
  });
  const samples = attempts.slice(1).map((_, n) => Array.from({ length: 200 }, () => stub.backoff(n)));
  const waits = attempts.slice(1).map((t, i) => Math.round(t - attempts[i]));
  return { retries: attempts.length - 1, waits_ms: waits, bounds_ms: samples.map((s) => [Math.min(...s), Math.max(...s)]) };
}

/** A sistema-2d6 example fight, played: the combat, the GM's client, its log's last seq. */
async function played() {
  const { example } = await melee.ruleset("sistema-2d6");
  const created = await melee.createCombat(example.combat);
  for (const action of example.actions) await melee.withToken(tokenFor(created.tokens, action.actor)).act(created.id, action);
  const gm = melee.withToken(created.tokens.gm);
  return { created, gm, last: (await gm.events(created.id, { after: 0, limit: 1 })).last_seq };
}

/** The first `count` entries subscribe delivers (default start unless `options.after`), and the resets seen. */
function follow(gm, id, count, options = {}) {
  return new Promise((resolve, reject) => {
    const seqs = [];
    let resets = 0;
    const subscription = gm.subscribe(
      id,
      {
        onEntry: (entry) => {
          seqs.push(entry.seq);
          if (seqs.length >= count) {
            subscription.close();
            resolve({ seqs, resets });
          }
        },
        onReset: () => { resets += 1; },
        onError: reject,
      },
      options,
    );
  });
}

async function restore(created, gm, token) {
  const sealed = await gm.snapshot(created.id);
  await gm.deleteCombat(created.id);
  const sent = [];
  const recording = async (input, init) => {
    if (init?.method === "POST") sent.push(new Headers(init.headers));
    return fetch(input, init);
  };
  const client = new MeleeClient({ baseUrl: base, apiKey, fetch: recording });
  const answer = await client.restore(sealed, token ? { token } : {});
  return {
    idempotency_key: Boolean(sent[0].get("Idempotency-Key")),
    bearer: sent[0].get("Authorization") === (token ? `Bearer ${token}` : null),
    answer: Object.keys(answer).sort(),
    same_id: answer.id === created.id,
  };
}

const { created, gm, last } = await played();
const report = {
  retries: await retries(),
  start: await follow(gm, created.id, last),
  reset: await follow(gm, created.id, last, { after: last + 5 }), // past the head: the server says reset
  restore: await restore(created, gm, created.tokens.gm),
  restore_without_token: await restore(created, gm, null),
  missing: table.operations.map((row) => row.typescript).filter((name) => typeof MeleeClient.prototype[name] !== "function"),
};
console.log(JSON.stringify(report));
