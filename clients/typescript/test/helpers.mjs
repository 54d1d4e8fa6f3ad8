// What the SDK's tests share: the live Melee they play against (MELEE_BASE_URL, and
// MELEE_API_KEY when it requires one to create), and fetch wrappers that lose answers.
import { MeleeClient, tokenFor } from "@melee/client";

export const BASE = process.env.MELEE_BASE_URL;
if (!BASE) throw new Error("MELEE_BASE_URL is not set: these tests play against a live Melee");
export const API_KEY = process.env.MELEE_API_KEY || undefined;

export const END = { type: "end_combat", actor: "gm", reason: "The SDK's test is over." };

/** A client for the live server; `fetch` may be a wrapper. Retries are quick in tests. */
export function client(options = {}) {
  return new MeleeClient({ baseUrl: BASE, retryBaseMs: 10, retryMaxMs: 50, ...(API_KEY ? { apiKey: API_KEY } : {}), ...options });
}

/** A combat of `ruleset`'s example: { melee, created, as(actor) } where as() acts with that actor's token. */
export async function exampleCombat(rulesetId, melee = client()) {
  const { example } = await melee.ruleset(rulesetId);
  const created = await melee.createCombat(example.combat);
  return { melee, created, example, as: (actor) => melee.withToken(tokenFor(created.tokens, actor)) };
}

/** Every request a fetch sees: { method, url, headers } (headers as a plain lower-cased object). */
export function recording(inner = globalThis.fetch) {
  const requests = [];
  const wrapped = async (input, init = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    requests.push({ method: init.method ?? "GET", url: new URL(String(input)), headers });
    return inner(input, init);
  };
  return { fetch: wrapped, requests };
}

/** A problem+json answer made up by a test (the real server's shape). */
export function problemResponse(status, kind, headers = {}) {
  const body = { type: `/problems/${kind}`, title: kind, status, detail: `made up by the test: ${kind}` };
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/problem+json", ...headers } });
}

/** Reads the whole log with the GM's token. */
export async function wholeLog(melee, created) {
  const gm = melee.withToken(created.tokens.gm);
  const items = [];
  for (let after = 0; after !== null; ) {
    const page = await gm.events(created.id, { after, limit: 200 });
    items.push(...page.items);
    after = page.next_after;
  }
  return items;
}

/** Resolves when `predicate()` holds, checking after each delivered entry (bounded by count, not time). */
export function until(predicate, timeoutMs = 60000) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const check = () => {
      if (predicate()) return resolve();
      if (Date.now() - started > timeoutMs) return reject(new Error("the condition did not come true"));
      setTimeout(check, 20);
    };
    check();
  });
}
