// Drives /play in Debian's headless Chromium: a GM and a player, in two browser
// contexts, see the same fight update live. Usage: node play.test.mjs <base URL>
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const base = process.argv[2];
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const TIMEOUT = 15000;

// A fresh profile per context: launchPersistentContext is how playwright takes --user-data-dir.
async function context(name) {
  const dir = mkdtempSync(join(tmpdir(), `melee-${name}-`));
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: "/usr/bin/chromium", headless: true, args: FLAGS });
  return { ctx, dir, page: ctx.pages()[0] || (await ctx.newPage()) };
}

const logHas = (page, seq) => page.waitForSelector(`#log li[data-seq="${seq}"]`, { timeout: TIMEOUT });

const gm = await context("gm");
const player = await context("player");
try {
  const errors = [];
  gm.page.on("pageerror", (error) => errors.push(error));
  // A Content-Security-Policy violation is only a console error: the page must cause none.
  for (const { page } of [gm, player]) {
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
    });
  }
  await gm.page.goto(`${base}/play`);
  await gm.page.waitForSelector('#ruleset option[value="sistema-2d6"]', { state: "attached", timeout: TIMEOUT });
  await gm.page.selectOption("#ruleset", "sistema-2d6");
  await gm.page.click("#create");
  await logHas(gm.page, 1);
  assert.match(await gm.page.textContent("#awaiting"), /ana: attack/);
  assert.equal(await gm.page.locator("#combatants tbody tr").count(), 2);

  // The player joins from the link the GM shares, in another browser context.
  const link = await gm.page.getAttribute('a.join[data-who="capanga"]', "href");
  await player.page.goto(base + link);
  await logHas(player.page, 1);

  // The GM acts for Ana: odds first, then the attack; both pages see it live.
  await gm.page.fill("#form-ana-attack [name=target]", "capanga");
  await gm.page.fill("#form-ana-attack [name=weapon]", "pistola");
  await gm.page.click("#form-ana-attack button.odds");
  await gm.page.waitForFunction(() => /hit \d/.test(document.querySelector("#form-ana-attack .odds-result").textContent), null, { timeout: TIMEOUT });
  await gm.page.click("#form-ana-attack button[type=submit]");
  await logHas(gm.page, 2);
  await logHas(player.page, 2);

  // The player answers the prompt its page shows; the GM's page updates live.
  await player.page.waitForSelector("#form-capanga-defend", { timeout: TIMEOUT });
  await player.page.click("#form-capanga-defend button[type=submit]");
  await logHas(player.page, 3);
  await logHas(gm.page, 3);
  assert.match(await gm.page.textContent('#log li[data-seq="3"]'), /defend \(capanga\)/);
  await gm.page.waitForFunction(() => document.querySelector("#version").textContent === "3", null, { timeout: TIMEOUT });
  assert.deepEqual(errors, []);
  console.log("play: 1 passed, 0 failed");
} finally {
  for (const { ctx, dir } of [gm, player]) {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
