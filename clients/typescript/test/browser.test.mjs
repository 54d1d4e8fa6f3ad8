// The built SDK in a browser (headless Chromium, through playwright-core from
// tests/browser): dist/ loaded as plain ES modules, a fight created and followed live by
// subscribe (SSE over fetch streams, the token in Authorization) across origins (CORS).
// Skipped, saying why, when chromium or playwright-core is missing (scripts/install-browser).
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { join, normalize } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { API_KEY, BASE } from "./helpers.mjs";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const PLAYWRIGHT = fileURLToPath(new URL("../../../tests/browser/node_modules/playwright-core/index.mjs", import.meta.url));
// MELEE_CHROMIUM: what scripts/install-browser found or installed (tests/browser/chromium.py).
const CHROMIUM = process.env.MELEE_CHROMIUM || "/usr/bin/chromium";
const missing = !existsSync(CHROMIUM) ? "no Chromium: scripts/install-browser installs one in user space"
  : !existsSync(PLAYWRIGHT) ? "tests/browser has no playwright-core (scripts/install-browser)" : false;

test("in a browser, dist/ creates a fight and subscribe follows it live", { skip: missing, timeout: 120000 }, async () => {
  const { chromium } = await import(PLAYWRIGHT);
  const server = createServer((request, response) => {
    const path = normalize(join(PACKAGE, new URL(request.url, "http://x").pathname));
    if (!path.startsWith(join(PACKAGE, "dist")) || !statSync(path, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(request.url === "/" ? 200 : 404, { "Content-Type": "text/html" }).end("<!doctype html><title>sdk</title>");
      return;
    }
    response.writeHead(200, { "Content-Type": "text/javascript" }).end(readFileSync(path));
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    const outcome = await page.evaluate(async ([baseUrl, apiKey]) => {
      const { MeleeClient, tokenFor } = await import("/dist/index.js");
      const melee = new MeleeClient({ baseUrl, ...(apiKey ? { apiKey } : {}) });
      const { example } = await melee.ruleset("sistema-2d6");
      const created = await melee.createCombat(example.combat);
      const gm = melee.withToken(created.tokens.gm);
      const seen = [];
      const statuses = [];
      let done;
      const finished = new Promise((resolve) => { done = resolve; });
      const subscription = gm.subscribe(created.id, {
        onEntry: (entry) => { seen.push(entry.seq); if (entry.action.type === "end_combat") done(); },
        onStatus: (status) => statuses.push(status),
      }, { after: 0 });
      for (const action of example.actions) await melee.withToken(tokenFor(created.tokens, action.actor)).act(created.id, action);
      await gm.act(created.id, { type: "end_combat", actor: "gm", reason: "The browser test is over." });
      await finished;
      subscription.close();
      return { seen, statuses, status: (await gm.combat(created.id)).status };
    }, [BASE, API_KEY]);
    assert.deepEqual(outcome.seen, [1, 2, 3, 4]);
    assert.equal(outcome.statuses[0], "stream");
    assert.ok(!outcome.statuses.includes("poll"), outcome.statuses.join());
    assert.equal(outcome.status, "over");
  } finally {
    await browser.close();
    server.close();
  }
});
