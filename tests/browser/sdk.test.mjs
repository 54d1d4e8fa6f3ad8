// /play talks to Melee through the TypeScript SDK (issue 37): every request the
// pages make is recorded (playwright's request events) while a game master and
// a player's link play a fight. A creation and each action carry an
// Idempotency-Key; an action whose answer is lost (the server applied it, the
// page saw the connection reset) is retried with the same key and applied
// once; no URL requested holds a token (the live log's stream sends it in
// Authorization; a link's #fragment is never sent). English, 1280 px.
// Usage: node sdk.test.mjs <base URL>
import assert from "node:assert/strict";
import { TIMEOUT, launch, logHas, seat } from "./lib.mjs";
import { playToTheEnd } from "./play-helpers.mjs";

const base = process.argv[2];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const browser = await launch();
const errors = [];
try {
  const { ctx, page } = await seat(browser, "en", 1280, errors);
  const requests = [];
  ctx.on("request", (request) => requests.push(request));
  const sent = async (pattern, method) => {
    const matching = requests.filter((r) => r.method() === method && pattern.test(new URL(r.url()).pathname));
    return Promise.all(matching.map(async (r) => ({ url: r.url(), headers: await r.allHeaders() })));
  };

  await page.goto(`${base}/play`);
  await page.waitForSelector('#ruleset option[value="sistema-2d6"]', { state: "attached", timeout: TIMEOUT });
  await page.selectOption("#ruleset", "sistema-2d6");
  await page.click("#create");
  await logHas(page, 1);
  const [creation] = await sent(/^\/combats$/, "POST");
  assert.match(creation.headers["idempotency-key"], UUID);

  // The first action's answer is lost on its way back: the server applied it, the page's fetch
  // failed. The SDK sends it again with the same key: Melee answers with the first answer.
  let lost = 0;
  await page.route("**/combats/*/actions", async (route) => {
    if (lost > 0) return route.continue();
    lost += 1;
    await route.fetch();
    await route.abort("connectionreset");
  });
  assert.equal(await playToTheEnd(page, "the lost answer", 1), 1);
  // The live log may show the applied action before the SDK's retry (after its backoff) is sent:
  // wait for that second send, then for the page's answer to it.
  const posts = () => requests.filter((r) => r.method() === "POST" && /\/actions$/.test(new URL(r.url()).pathname));
  for (const deadline = Date.now() + TIMEOUT; posts().length < 2; ) {
    assert.ok(Date.now() < deadline, "the lost answer's action was never sent again");
    await page.waitForTimeout(50);
  }
  await posts()[1].response();
  await page.unroute("**/combats/*/actions");
  assert.equal(await page.textContent("#version"), "2"); // start (1) + the action once (2), not twice
  await logHas(page, 2);
  assert.equal(await page.locator("#log li").count(), 2);
  const [first, again] = await sent(/^\/combats\/[^/]+\/actions$/, "POST");
  assert.match(first.headers["idempotency-key"], UUID);
  assert.equal(again.headers["idempotency-key"], first.headers["idempotency-key"]);

  // A player's link: their page follows the fight live while the game master plays it out.
  const player = await ctx.newPage();
  player.on("pageerror", (error) => errors.push(`player: ${error}`));
  await player.goto(base + await page.getAttribute('a.join[data-who="ana"]', "href"));
  await logHas(player, 2);
  await playToTheEnd(page, "the rest");
  const version = await page.textContent("#version");
  await logHas(player, version);

  // Each logical action its own key, each of its sends the same one.
  const actions = await sent(/^\/combats\/[^/]+\/actions$/, "POST");
  const keys = actions.map((a) => a.headers["idempotency-key"]);
  assert.ok(keys.every((key) => UUID.test(key)), keys.join());
  assert.equal(new Set(keys).size, Number(version) - 1, keys.join()); // every entry after the start is one action
  assert.equal(keys.length, Number(version)); // and one of them was sent twice

  // No URL the pages requested holds a token, and the streams sent theirs in Authorization.
  const tokens = (await page.locator("a.join").evaluateAll((links) => links.map((a) => a.href)))
    .map((href) => new URLSearchParams(new URL(href).hash.slice(1)).get("token"));
  assert.equal(tokens.length, 3); // the game master's, Ana's, the henchman's
  for (const request of requests) {
    const url = new URL(request.url());
    url.hash = ""; // a link's fragment stays in the browser: it is never part of a request
    assert.ok(!tokens.some((token) => url.href.includes(token)) && !url.searchParams.has("access_token"), url.href);
  }
  const streams = await sent(/^\/combats\/[^/]+\/stream$/, "GET");
  assert.ok(streams.length >= 2, `${streams.length} streams`); // the game master's and the player's
  for (const stream of streams) assert.ok(tokens.includes(stream.headers.authorization?.replace(/^Bearer /, "")), stream.url);
  assert.deepEqual(errors, []);
  console.log("sdk: 1 passed, 0 failed");
} finally {
  await browser.close();
}
