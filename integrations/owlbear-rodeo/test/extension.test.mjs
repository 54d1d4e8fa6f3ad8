// The extension in Debian's headless Chromium (playwright-core from tests/browser), with the OBR
// host stubbed by test/obr-stub.js (built in by `node build.mjs --stub`), against a live Melee.
// A GM starts the example fight and gives two of the room's three players a combatant each; the
// room's metadata holds the combat and their /play links, each player's page embeds their own,
// the third waits. Then the GM joins another combat by its id and GM token (links minted).
// Usage: node build.mjs --stub --outfile /tmp/stub.js && OWLBEAR_BUNDLE=/tmp/stub.js
//   MELEE_BASE_URL=http://127.0.0.1:8000 [MELEE_API_KEY=...] [OWLBEAR_SITE_PORT=port] node --test test/extension.test.mjs
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "../../../tests/browser/node_modules/playwright-core/index.mjs";

const MELEE = process.env.MELEE_BASE_URL;
const API_KEY = process.env.MELEE_API_KEY ?? "";
const ROOT = fileURLToPath(new URL("..", import.meta.url));
// The stubbed build (node build.mjs --stub --outfile PATH), served as dist/main.js; default: dist/main.js itself.
const BUNDLE = process.env.OWLBEAR_BUNDLE ?? "";
const ROOM_KEY = "org.melee.owlbear/combat";
const TIMEOUT = 20000;
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];
const PARTY = [
  { id: "obr-gm", name: "Gina", role: "GM" },
  { id: "obr-alice", name: "Alice", role: "PLAYER" },
  { id: "obr-bruno", name: "Bruno", role: "PLAYER" },
  { id: "obr-chloe", name: "Chloé", role: "PLAYER" },
].map((p) => ({ ...p, connectionId: `${p.id}-connection`, color: "#888", syncView: false, metadata: {} }));
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".json": "application/json", ".svg": "image/svg+xml" };

let server, site, browser, context, profile;

before(async () => {
  // The extension's files, as its host would serve them (manifest.json, index.html, dist/).
  server = createServer((request, response) => {
    const asked = new URL(request.url, "http://x").pathname;
    const path = asked === "/dist/main.js" && BUNDLE ? BUNDLE : normalize(join(ROOT, asked));
    if (!(path === BUNDLE || path.startsWith(ROOT)) || !statSync(path, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": TYPES[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
  });
  // A fixed port when Melee was told to allow this origin as a frame ancestor (FRAME_ANCESTORS).
  await new Promise((done) => server.listen(Number(process.env.OWLBEAR_SITE_PORT ?? 0), "127.0.0.1", done));
  site = `http://127.0.0.1:${server.address().port}`;
  profile = mkdtempSync(join(tmpdir(), "melee-owlbear-"));
  context = await chromium.launchPersistentContext(profile, { executablePath: process.env.MELEE_CHROMIUM || "/usr/bin/chromium", headless: true, args: FLAGS });
  const setup = context.pages()[0] ?? (await context.newPage());
  await setup.goto(`${site}/manifest.json`);
  await setup.evaluate((party) => localStorage.setItem("obr-stub/party", JSON.stringify(party)), PARTY);
});

after(async () => {
  await context?.close();
  server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const open = async (player) => {
  const page = await context.newPage();
  const { id, role, name } = PARTY.find((p) => p.id === player);
  await page.goto(`${site}/index.html?obr-player=${id}&obr-role=${role}&obr-name=${encodeURIComponent(name)}`);
  return page;
};
const roomOf = (page) => page.evaluate((key) => JSON.parse(localStorage.getItem("obr-stub/room") ?? "{}")[key] ?? null, ROOM_KEY);
const frameSrc = (page) => page.locator("#play").getAttribute("src");

async function assignTo(gm, playerId, combatant) {
  await gm.selectOption(`#assign-${playerId}`, combatant);
  await gm.waitForFunction(([key, player, who]) => JSON.parse(localStorage.getItem("obr-stub/room") ?? "{}")[key]?.links?.[player]?.combatant === who,
    [ROOM_KEY, playerId, combatant], { timeout: TIMEOUT });
}

/** The link's token acts for its combatant in Melee (GET /options as that actor). */
async function actsFor(url, combatant) {
  const hash = new URLSearchParams(new URL(url).hash.slice(1));
  assert.equal(hash.get("as"), combatant);
  const answer = await fetch(`${MELEE}/combats/${hash.get("combat")}/options?actor=${combatant}`, {
    headers: { Authorization: `Bearer ${hash.get("token")}` },
  });
  assert.equal(answer.status, 200, await answer.text());
  const other = await fetch(`${MELEE}/combats/${hash.get("combat")}/options?actor=gm`, { headers: { Authorization: `Bearer ${hash.get("token")}` } });
  assert.equal(other.status, 403); // a player's token, not the GM's
}

let gm, started;

test("the GM starts the example fight: the room's metadata holds the combat", async () => {
  gm = await open("obr-gm");
  await gm.fill("#melee-url", MELEE);
  await gm.fill("#api-key", API_KEY);
  await gm.click("#connect");
  await gm.waitForSelector('#ruleset option[value="sistema-2d6"]', { state: "attached", timeout: TIMEOUT });
  await gm.selectOption("#ruleset", "sistema-2d6");
  await gm.click("#start");
  await gm.waitForFunction((key) => JSON.parse(localStorage.getItem("obr-stub/room") ?? "{}")[key]?.combatId, ROOM_KEY, { timeout: TIMEOUT });
  started = await roomOf(gm);
  assert.equal(started.baseUrl, MELEE);
  assert.equal(started.ruleset, "sistema-2d6");
  assert.deepEqual(started.combatants.map((c) => c.id), ["ana", "capanga"]);
  assert.deepEqual(started.links, {});
  // Each other member of the party gets a row; the GM's own view is /play as the GM.
  await gm.waitForSelector("#assign-obr-chloe", { timeout: TIMEOUT });
  assert.deepEqual(await gm.locator("#assignments li").evaluateAll((items) => items.map((i) => i.dataset.player)), ["obr-alice", "obr-bruno", "obr-chloe"]);
  const own = new URLSearchParams(new URL(await frameSrc(gm)).hash.slice(1));
  assert.deepEqual([own.get("combat"), own.get("as")], [started.combatId, "gm"]);
  const combat = await fetch(`${MELEE}/combats/${started.combatId}`, { headers: { Authorization: `Bearer ${own.get("token")}` } });
  assert.equal(combat.status, 200);
});

test("each assigned player sees /play for their own combatant; the others wait", async () => {
  const alice = await open("obr-alice");
  const chloe = await open("obr-chloe");
  await chloe.waitForSelector("#waiting", { state: "visible", timeout: TIMEOUT });
  await assignTo(gm, "obr-alice", "ana");
  await assignTo(gm, "obr-bruno", "capanga");
  const room = await roomOf(gm);
  assert.deepEqual(Object.keys(room.links).sort(), ["obr-alice", "obr-bruno"]);
  for (const [player, combatant] of [["obr-alice", "ana"], ["obr-bruno", "capanga"]]) {
    const link = room.links[player];
    assert.ok(link.url.startsWith(`${MELEE}/play#combat=${started.combatId}&token=`), link.url);
    await actsFor(link.url, combatant);
  }
  // Alice's page, open before the assignment, shows her link (the metadata change reached it).
  await alice.waitForFunction((url) => document.querySelector("#play").getAttribute("src") === url, room.links["obr-alice"].url, { timeout: TIMEOUT });
  assert.equal(await alice.locator("#waiting").isHidden(), true);
  const bruno = await open("obr-bruno");
  await bruno.waitForFunction(() => document.querySelector("#play").getAttribute("src"), null, { timeout: TIMEOUT });
  assert.equal(await frameSrc(bruno), room.links["obr-bruno"].url);
  assert.equal(await chloe.locator("#play").isHidden(), true);
  assert.equal(await chloe.locator("#gm").isHidden(), true); // no GM controls for a player
  // Unassigned: her link leaves the room.
  await gm.selectOption("#assign-obr-alice", "");
  await alice.waitForSelector("#waiting", { state: "visible", timeout: TIMEOUT });
  assert.deepEqual(Object.keys((await roomOf(gm)).links), ["obr-bruno"]);
  for (const page of [alice, bruno, chloe]) await page.close();
});

test("the GM joins a combat by its id and GM token: players' tokens are minted for their links", async () => {
  const { example } = await (await fetch(`${MELEE}/rulesets/duel-2d6`)).json();
  const created = await (await fetch(`${MELEE}/combats`, {
    method: "POST", body: JSON.stringify(example.combat),
    headers: { "Content-Type": "application/json", ...(API_KEY ? { "X-API-Key": API_KEY } : {}) },
  })).json();
  const fresh = await open("obr-gm");
  await fresh.evaluate(() => localStorage.removeItem("melee-owlbear/url"));
  await fresh.fill("#melee-url", MELEE);
  await fresh.fill("#combat-id", created.id);
  await fresh.fill("#gm-token", created.tokens.combatants[example.combat.combatants[0].id]); // a player's: refused
  await fresh.click("#join");
  await fresh.waitForSelector("#status.error", { timeout: TIMEOUT });
  assert.equal((await roomOf(fresh)).combatId, started.combatId);
  await fresh.fill("#gm-token", created.tokens.gm);
  await fresh.click("#join");
  await fresh.waitForFunction(([key, id]) => JSON.parse(localStorage.getItem("obr-stub/room") ?? "{}")[key]?.combatId === id,
    [ROOM_KEY, created.id], { timeout: TIMEOUT });
  const first = example.combat.combatants[0].id;
  await assignTo(fresh, "obr-alice", first);
  const link = (await roomOf(fresh)).links["obr-alice"];
  const token = new URLSearchParams(new URL(link.url).hash.slice(1)).get("token");
  assert.notEqual(token, created.tokens.combatants[first]); // minted, not the creation's
  await actsFor(link.url, first);
  await fresh.close();
});

test("the embedded /play loads where Melee allows this page as a frame ancestor", async (t) => {
  const csp = (await fetch(`${MELEE}/play`)).headers.get("Content-Security-Policy") ?? "";
  const ancestors = /frame-ancestors ([^;]*)/.exec(csp)?.[1] ?? "";
  if (!ancestors.includes(site) && !ancestors.includes("*")) {
    t.skip(`this Melee sends frame-ancestors ${ancestors || "(none)"}: set FRAME_ANCESTORS to the extension's origin`);
    return;
  }
  const page = await open("obr-alice");
  const frame = await (await page.waitForSelector("#play:not([hidden])", { timeout: TIMEOUT })).contentFrame();
  await frame.waitForSelector("#fight:not([hidden])", { timeout: TIMEOUT });
  await page.close();
});
