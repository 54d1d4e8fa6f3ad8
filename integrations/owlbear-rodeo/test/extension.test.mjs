// The extension in Debian's headless Chromium (playwright-core from tests/browser), with the OBR
// host stubbed by test/obr-stub.js (built in by `node build.mjs --stub`), against a live Melee,
// in a French room. The GM starts a fight from the scene's selected tokens (a side and a sheet
// each: an example's, or one kept in the token's metadata); each token's owner gets /play for
// that token only, sealed for their browser (no token in clear in anything the room shares), the
// third player waits; after each log entry the GM's background page writes health and conditions
// into each token's metadata and onto a label attached to it; a player who rewrites the room's Melee
// address, or slips in a link, is sent no token. Then the GM joins another combat by
// its id and GM token (a player's token minted).
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
const SERVED = fileURLToPath(new URL("../../../service/web/integrations/owlbear-rodeo/", import.meta.url));
const PREFIX = "/integrations/owlbear-rodeo/";
// The stubbed build (node build.mjs --stub --outfile PATH), served as main.js.
const BUNDLE = process.env.OWLBEAR_BUNDLE;
const ROOM_KEY = "org.melee.owlbear/combat";
const SEALED_KEY = "org.melee.owlbear/sealed";
const ITEM_KEY = "org.melee.owlbear/melee";
// A ceiling on waits for a state, never a wait of its own: generous for a loaded 2-core machine.
const TIMEOUT = 60000;
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync"];
const PARTY = [
  { id: "obr-gm", name: "Gina", role: "GM" },
  { id: "obr-alice", name: "Alice", role: "PLAYER" },
  { id: "obr-bruno", name: "Bruno", role: "PLAYER" },
  { id: "obr-chloe", name: "Chloé", role: "PLAYER" },
].map((p) => ({ ...p, connectionId: `${p.id}-connection`, color: "#888", syncView: false, metadata: {} }));
const token = (id, name, text, owner, more = {}) => ({
  id, type: "IMAGE", name, visible: true, locked: false, createdUserId: owner, zIndex: 0, lastModified: "2026-01-01T00:00:00Z",
  lastModifiedUserId: owner, position: { x: 100, y: 100 }, rotation: 0, scale: { x: 1, y: 1 }, metadata: {}, layer: "CHARACTER",
  image: { width: 300, height: 300, mime: "image/png", url: "https://example.org/token.png" }, grid: { dpi: 300, offset: { x: 150, y: 150 } },
  text: { plainText: text, richText: [], type: "PLAIN", width: "AUTO", height: "AUTO", style: {} }, textItemType: "LABEL", ...more,
});
// Alice's and Bruno's own tokens (Bruno's named by its text), the GM's orc with its own sheet in
// its metadata, Chloé's token left out of the selection, and a prop (not a character) ignored.
const ORC_SHEET = { id: "x", name: "x", side: "x", attributes: { FOR: 3, DES: 2, CON: 2 }, skills: { Briga: 2 } };
const SCENE = [
  token("t-alice", "Aline", "", "obr-alice"),
  token("t-bruno", "Knight", "Sir Bruno", "obr-bruno"),
  token("t-orc", "Orc", "", "obr-gm", { metadata: { "org.melee.owlbear/sheets": { "sistema-2d6": ORC_SHEET } } }),
  token("t-chloe", "Cleo", "", "obr-chloe"),
  { ...token("t-tree", "Tree", "", "obr-gm"), layer: "PROP" },
];
const TYPES = { ".html": "text/html", ".css": "text/css", ".js": "text/javascript", ".json": "application/json", ".svg": "image/svg+xml" };

let server, origin, site, context, profile;

before(async () => {
  // The checked-in build, where Melee serves it (under /integrations/owlbear-rodeo/), its bundle
  // swapped for the stubbed one.
  server = createServer((request, response) => {
    const asked = new URL(request.url, "http://x").pathname;
    const file = asked.startsWith(PREFIX) ? asked.slice(PREFIX.length) : null;
    const path = file === "main.js" ? BUNDLE : file ? normalize(join(SERVED, file)) : "";
    if (!(path === BUNDLE || path.startsWith(SERVED)) || !statSync(path, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": TYPES[extname(path)] ?? "application/octet-stream" }).end(readFileSync(path));
  });
  // A fixed port when Melee was told to allow this origin as a frame ancestor (FRAME_ANCESTORS).
  await new Promise((done) => server.listen(Number(process.env.OWLBEAR_SITE_PORT ?? 0), "127.0.0.1", done));
  origin = `http://127.0.0.1:${server.address().port}`;
  site = `${origin}/integrations/owlbear-rodeo`;
  profile = mkdtempSync(join(tmpdir(), "melee-owlbear-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.MELEE_CHROMIUM || "/usr/bin/chromium", headless: true, args: FLAGS, locale: "fr-FR",
  });
  const setup = context.pages()[0] ?? (await context.newPage());
  await setup.goto(`${site}/manifest.json`);
  await setup.evaluate(([party, scene]) => {
    localStorage.setItem("obr-stub/party", JSON.stringify(party));
    localStorage.setItem("obr-stub/scene", JSON.stringify(scene));
    localStorage.setItem("obr-stub/selection/obr-gm", JSON.stringify(["t-alice", "t-bruno", "t-orc"]));
  }, [PARTY, SCENE]);
});

after(async () => {
  await context?.close();
  server?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const open = async (player, file = "index.html") => {
  const page = await context.newPage();
  const { id, role, name } = PARTY.find((p) => p.id === player);
  await page.goto(`${site}/${file}?obr-player=${id}&obr-role=${role}&obr-name=${encodeURIComponent(name)}`);
  await page.waitForSelector("body[data-ready]", { state: "attached", timeout: TIMEOUT }); // its listeners are set
  return page;
};
const stored = (page, key) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? "null"), key);
const roomOf = (page) => stored(page, `obr-stub/room/${ROOM_KEY}`);
const frameSrc = (page) => page.locator("#play").getAttribute("src");
const hashOf = (url) => new URLSearchParams(new URL(url).hash.slice(1));
/** Waits until the stub's value under `key` passes `check` (a function's source, given the value). */
const until = (page, key, check, arg) => page.waitForFunction(([k, source, a]) => (0, eval)(source)(JSON.parse(localStorage.getItem(k) ?? "null"), a),
  [key, check.toString(), arg], { timeout: TIMEOUT });

async function assignTo(gm, playerId, combatant) {
  await gm.selectOption(`#assign-${playerId}`, combatant);
  await until(gm, `obr-stub/room/${SEALED_KEY}`, (sealed, [player, who]) => (who ? sealed?.[player]?.combatant === who : sealed && !(player in sealed)), [playerId, combatant]);
}

/** The link's token acts for its combatant in Melee (GET /options as that actor). */
async function actsFor(url, combatant) {
  const hash = hashOf(url);
  assert.equal(hash.get("as"), combatant);
  const answer = await fetch(`${MELEE}/combats/${hash.get("combat")}/options?actor=${combatant}`, {
    headers: { Authorization: `Bearer ${hash.get("token")}` },
  });
  assert.equal(answer.status, 200, await answer.text());
  const other = await fetch(`${MELEE}/combats/${hash.get("combat")}/options?actor=gm`, { headers: { Authorization: `Bearer ${hash.get("token")}` } });
  assert.equal(other.status, 403); // a player's token, not the GM's
}

let gm, background, started, secrets;

test("the GM starts a fight from the selected tokens: a side and a sheet for each", async () => {
  background = await open("obr-gm", "background.html");
  gm = await open("obr-gm");
  // Melee's address defaults to where the page comes from (Melee's own, installed from it).
  assert.equal(await gm.inputValue("#melee-url"), origin);
  await gm.fill("#melee-url", MELEE);
  await gm.fill("#api-key", API_KEY);
  await gm.click("#connect");
  await gm.waitForSelector('#ruleset option[value="sistema-2d6"]', { state: "attached", timeout: TIMEOUT });
  await gm.selectOption("#ruleset", "sistema-2d6");
  await gm.waitForSelector("#side-t-orc", { timeout: TIMEOUT });
  // The scene's four character tokens (not the prop); the unselected one is out of the fight, the
  // players' tokens on the example's first side, the GM's on its last, with the sheet it keeps.
  assert.deepEqual(await gm.locator("#fighters li").evaluateAll((items) => items.map((i) => i.dataset.item)), ["t-alice", "t-bruno", "t-orc", "t-chloe"]);
  const choice = async (id) => [await gm.inputValue(`#side-${id}`), await gm.inputValue(`#sheet-${id}`)];
  assert.deepEqual(await choice("t-alice"), ["heroes", "ana"]);
  assert.deepEqual(await choice("t-orc"), ["villains", "own"]);
  assert.deepEqual(await choice("t-chloe"), ["", "ana"]);
  await gm.selectOption("#sheet-t-bruno", "capanga"); // the GM's choice of sheet
  await gm.click("#start");
  await until(gm, `obr-stub/room/${ROOM_KEY}`, (room) => Boolean(room?.combatId));
  started = await roomOf(gm);
  assert.equal("baseUrl" in started, false); // Melee's address stays in the GM's browser

  assert.deepEqual([started.ruleset, started.lang], ["sistema-2d6", "fr"]);
  assert.deepEqual(started.combatants, [
    { id: "aline", name: "Aline", item: "t-alice" },
    { id: "sir-bruno", name: "Sir Bruno", item: "t-bruno" },
    { id: "orc", name: "Orc", item: "t-orc" },
  ]);
  // Each token's owner plays it; the GM's orc and the tokens out of the fight are no one's.
  assert.deepEqual(started.players, { "obr-alice": "aline", "obr-bruno": "sir-bruno" });
  secrets = await stored(gm, `melee-owlbear/${started.combatId}`);
  assert.equal(secrets.baseUrl, MELEE);
  assert.deepEqual(secrets.players, started.players);
  const own = hashOf(await frameSrc(gm));
  assert.deepEqual([own.get("combat"), own.get("as"), own.get("token")], [started.combatId, "gm", secrets.gm]);
  const combat = await (await fetch(`${MELEE}/combats/${started.combatId}`, { headers: { Authorization: `Bearer ${secrets.gm}` } })).json();
  assert.deepEqual(combat.combatants.map((c) => [c.id, c.name, c.side]), [["aline", "Aline", "heroes"], ["sir-bruno", "Sir Bruno", "heroes"], ["orc", "Orc", "villains"]]);
  assert.deepEqual(combat.combatants[1].sheet.skills, { Briga: 2, Esquiva: 0 }); // the example's capanga
  assert.deepEqual(combat.combatants[2].sheet.skills, { Briga: 2 }); // the orc's own sheet
});

test("each token's owner sees /play for their own token only; no token is shared in clear", async () => {
  const alice = await open("obr-alice");
  const bruno = await open("obr-bruno");
  const chloe = await open("obr-chloe");
  const links = {};
  for (const [page, combatant] of [[alice, "aline"], [bruno, "sir-bruno"]]) {
    await page.waitForFunction(() => document.querySelector("#play").getAttribute("src"), null, { timeout: TIMEOUT });
    const link = (links[combatant] = await frameSrc(page));
    assert.ok(link.startsWith(`${MELEE}/play#combat=${started.combatId}&token=`), link);
    assert.equal(hashOf(link).get("token"), secrets.combatants[combatant]);
    await actsFor(link, combatant);
    assert.equal(await page.locator("#waiting").isHidden(), true);
  }
  await chloe.waitForSelector("#waiting", { state: "visible", timeout: TIMEOUT });
  assert.equal(await chloe.locator("#play").isHidden(), true);
  assert.equal(await chloe.locator("#gm").isHidden(), true); // no GM controls for a player
  // What the room shares (its metadata, the players', the scene): sealed links, never a token.
  const sealed = await stored(gm, `obr-stub/room/${SEALED_KEY}`);
  assert.deepEqual(Object.keys(sealed).sort(), ["obr-alice", "obr-bruno"]);
  assert.equal(sealed["obr-alice"].to, (await stored(gm, "obr-stub/player/obr-alice"))["org.melee.owlbear/key"]);
  const shared = await gm.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("obr-stub/")).map((k) => localStorage.getItem(k)).join("\n"));
  for (const secret of [secrets.gm, ...Object.values(secrets.combatants)]) assert.equal(shared.includes(secret), false);
  // Alice's sealed link does not open in Bruno's browser, even labelled with his key (written by
  // someone else while the GM's background page is away); back, that page seals his own again.
  await background.close();
  const forged = { ...sealed, "obr-bruno": { ...sealed["obr-alice"], combatant: "sir-bruno", to: sealed["obr-bruno"].to } };
  await gm.evaluate(([key, value]) => localStorage.setItem(key, JSON.stringify(value)), [`obr-stub/room/${SEALED_KEY}`, forged]);
  await bruno.waitForSelector("#waiting", { state: "visible", timeout: TIMEOUT });
  assert.equal(await bruno.locator("#play").isHidden(), true);
  background = await open("obr-gm", "background.html");
  await bruno.waitForFunction((url) => document.querySelector("#play").getAttribute("src") === url, links["sir-bruno"], { timeout: TIMEOUT });
  // Given to Chloé instead of Alice: Alice's link leaves, Chloé's comes.
  await assignTo(gm, "obr-alice", "");
  await alice.waitForSelector("#waiting", { state: "visible", timeout: TIMEOUT });
  await assignTo(gm, "obr-chloe", "aline");
  await chloe.waitForFunction(() => document.querySelector("#play").getAttribute("src"), null, { timeout: TIMEOUT });
  await actsFor(await frameSrc(chloe), "aline");
  for (const page of [alice, bruno, chloe]) await page.close();
});

test("after each log entry the tokens hold their health and conditions, and show them", async () => {
  // Right after the start: full health (sistema-2d6: Aline's FOR 2 and CON 2 give 14 PV; FOR 3 and
  // CON 2, the orc's and Sir Bruno's (the example's capanga), 15).
  await until(gm, "obr-stub/scene", (scene) => scene.find((i) => i.id === "t-orc")?.metadata?.["org.melee.owlbear/melee"]);
  const before = (await stored(gm, "obr-stub/scene")).find((i) => i.id === "t-alice").metadata[ITEM_KEY];
  assert.deepEqual(before, { combat: started.combatId, combatant: "aline", health: { kind: "pv", value: 14, max: 14 }, conditions: [] });
  const act = (action) => fetch(`${MELEE}/combats/${started.combatId}/actions`, {
    method: "POST", body: JSON.stringify({ actor: "gm", ...action }), headers: { "Content-Type": "application/json", Authorization: `Bearer ${secrets.gm}` },
  });
  assert.equal((await act({ type: "adjust", target: "aline", set: { pv: 3 } })).status, 200);
  assert.equal((await act({ type: "condition", target: "orc", code: "stable" })).status, 200);
  assert.equal((await act({ type: "condition", target: "orc", label: "aveuglé par la fumée" })).status, 200);
  await until(gm, "obr-stub/scene", (scene) => scene.find((i) => i.id === "t-orc")?.metadata?.["org.melee.owlbear/melee"]?.conditions?.length === 2);
  await until(gm, "obr-stub/scene", (scene) => scene.find((i) => i.id === "t-alice")?.metadata?.["org.melee.owlbear/melee"]?.health?.value === 3);
  const scene = await stored(gm, "obr-stub/scene");
  const state = (id) => scene.find((i) => i.id === id).metadata[ITEM_KEY];
  const combat = started.combatId;
  assert.deepEqual(state("t-alice"), { combat, combatant: "aline", health: { kind: "pv", value: 3, max: 14 }, conditions: [] });
  assert.deepEqual(state("t-bruno").health, { kind: "pv", value: 15, max: 15 });
  assert.deepEqual(state("t-orc"), {
    combat, combatant: "orc", health: { kind: "pv", value: 15, max: 15 },
    conditions: [{ code: "stable", label: "stabilisé" }, { code: "narrative", label: "aveuglé par la fumée" }],
  });
  assert.equal(state("t-chloe"), undefined);
  // One label per fighting token, attached to it, in the room's language.
  const labels = Object.fromEntries(scene.filter((i) => i.type === "LABEL").map((i) => [i.attachedTo, i.text.plainText]));
  assert.deepEqual(labels, { "t-alice": "PV 3/14", "t-bruno": "PV 15/15", "t-orc": "PV 15/15 · stabilisé, aveuglé par la fumée" });
});

test("a player who rewrites the room's Melee address, or slips in a link, is sent no token", async () => {
  // Alice's Melee: it records whatever reaches it (a request, a token in a header or a URL).
  const asked = [];
  const attacker = createServer((request, response) => {
    asked.push(`${request.method} ${request.url} ${request.headers.authorization ?? ""}`);
    response.writeHead(404).end();
  });
  await new Promise((done) => attacker.listen(0, "127.0.0.1", done));
  const evil = `http://127.0.0.1:${attacker.address().port}`;
  try {
    // Alice, who plays no one now, rewrites the room's combat: Melee's address hers, the orc hers.
    const alice = await open("obr-alice");
    const room = await roomOf(gm);
    assert.deepEqual(room.players, { "obr-bruno": "sir-bruno", "obr-chloe": "aline" });
    const rewritten = { ...room, baseUrl: evil, players: { ...room.players, "obr-alice": "orc" } };
    await alice.evaluate(([key, value]) => localStorage.setItem(key, JSON.stringify(value)), [`obr-stub/room/${ROOM_KEY}`, rewritten]);
    // The GM's pages go on with the address the GM gave: the mirror (GM token) after a new entry...
    const act = await fetch(`${MELEE}/combats/${started.combatId}/actions`, {
      method: "POST", body: JSON.stringify({ actor: "gm", type: "adjust", target: "aline", set: { pv: 4 } }),
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${secrets.gm}` },
    });
    assert.equal(act.status, 200);
    await until(gm, "obr-stub/scene", (scene) => scene.find((i) => i.id === "t-alice")?.metadata?.["org.melee.owlbear/melee"]?.health?.value === 4);
    // ...and the links, sealed for whom the GM's browser says: Bruno's again, none for Alice.
    await assignTo(gm, "obr-bruno", "");
    await assignTo(gm, "obr-bruno", "sir-bruno");
    assert.deepEqual(Object.keys(await stored(gm, `obr-stub/room/${SEALED_KEY}`)).sort(), ["obr-bruno", "obr-chloe"]);
    assert.deepEqual((await roomOf(gm)).players, { "obr-bruno": "sir-bruno", "obr-chloe": "aline" }); // as the GM says
    assert.equal(await alice.locator("#waiting").isVisible(), true);
    const chloe = await open("obr-chloe");
    await chloe.waitForFunction(() => document.querySelector("#play").getAttribute("src"), null, { timeout: TIMEOUT });
    const genuine = await frameSrc(chloe);
    assert.ok(genuine.startsWith(`${MELEE}/play#combat=${started.combatId}&token=`), genuine);
    const gmView = await open("obr-gm");
    await gmView.waitForFunction(() => document.querySelector("#play").getAttribute("src"), null, { timeout: TIMEOUT });
    assert.ok((await frameSrc(gmView)).startsWith(`${MELEE}/play#combat=${started.combatId}&token=`));
    // A link Alice seals herself for Chloé's key (her address in it) does not open: the GM did not seal it.
    await background.close();
    const chloeKey = (await stored(gm, "obr-stub/player/obr-chloe"))["org.melee.owlbear/key"];
    await alice.evaluate(async ([sealedKey, to, address, combat]) => {
      const curve = { name: "ECDH", namedCurve: "P-256" };
      const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
      const own = await crypto.subtle.generateKey(curve, true, ["deriveKey"]);
      const theirs = await crypto.subtle.importKey("raw", Uint8Array.from(atob(to), (c) => c.charCodeAt(0)), curve, false, []);
      const key = await crypto.subtle.deriveKey({ name: "ECDH", public: theirs }, own.privateKey, { name: "AES-GCM", length: 256 }, false, ["encrypt"]);
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const link = JSON.stringify({ token: "not-a-token", address, combat, combatant: "aline" });
      const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(link));
      const sealed = JSON.parse(localStorage.getItem(sealedKey));
      sealed["obr-chloe"] = { combatant: "aline", to, from: b64(await crypto.subtle.exportKey("raw", own.publicKey)), iv: b64(iv), data: b64(data) };
      localStorage.setItem(sealedKey, JSON.stringify(sealed));
    }, [`obr-stub/room/${SEALED_KEY}`, chloeKey, evil, started.combatId]);
    await chloe.waitForSelector("#waiting", { state: "visible", timeout: TIMEOUT });
    assert.equal(await chloe.locator("#play").isHidden(), true);
    background = await open("obr-gm", "background.html"); // back, it seals Chloé's own link again
    await chloe.waitForFunction((url) => document.querySelector("#play").getAttribute("src") === url, genuine, { timeout: TIMEOUT });
    assert.deepEqual(asked, []);
    for (const page of [alice, chloe, gmView]) await page.close();
  } finally {
    attacker.close();
  }
});

test("the GM joins a combat by its id and GM token: a player's token is minted for their link", async () => {
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
  await until(fresh, `obr-stub/room/${ROOM_KEY}`, (room, id) => room?.combatId === id, created.id);
  // The tokens of the earlier fight lose its health, conditions and labels (this one has no tokens).
  await until(fresh, "obr-stub/scene", (scene) => scene.every((i) => i.type !== "LABEL" && !("org.melee.owlbear/melee" in i.metadata)));
  assert.deepEqual((await stored(fresh, "obr-stub/scene")).map((i) => i.id), SCENE.map((i) => i.id));
  const first = example.combat.combatants[0].id;
  await assignTo(fresh, "obr-alice", first);
  const alice = await open("obr-alice");
  await alice.waitForFunction((id) => document.querySelector("#play").getAttribute("src")?.includes(id), created.id, { timeout: TIMEOUT });
  const link = await frameSrc(alice);
  assert.notEqual(hashOf(link).get("token"), created.tokens.combatants[first]); // minted, not the creation's
  await actsFor(link, first);
  for (const page of [fresh, alice]) await page.close();
});

test("the embedded /play loads where Melee allows this page as a frame ancestor", async (t) => {
  const csp = (await fetch(`${MELEE}/play`)).headers.get("Content-Security-Policy") ?? "";
  const ancestors = /frame-ancestors ([^;]*)/.exec(csp)?.[1] ?? "";
  if (!ancestors.includes(origin) && !ancestors.includes("*")) {
    t.skip(`this Melee sends frame-ancestors ${ancestors || "(none)"}: set FRAME_ANCESTORS to the extension's origin`);
    return;
  }
  const page = await open("obr-alice");
  const frame = await (await page.waitForSelector("#play:not([hidden])", { timeout: TIMEOUT })).contentFrame();
  await frame.waitForSelector("#fight:not([hidden])", { timeout: TIMEOUT });
  await page.close();
});
