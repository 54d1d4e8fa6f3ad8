// Save a fight to a file, lose it (deleted, as when its TTL runs out), reload
// the page, resume it from the file and finish it; the players' links keep
// working; resuming a fight that is still live just reopens it. Portuguese, 390 px.
// Usage: node save-resume.test.mjs <base URL>
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { OUTPUT, TIMEOUT, launch, logHas, noOverflow, seat, text } from "./lib.mjs";
import { checkCardsAndLog, playToTheEnd } from "./play-helpers.mjs";

const base = process.argv[2];
const browser = await launch();
const errors = [];
try {
  const { ctx, page } = await seat(browser, "pt", 390, errors);
  await page.goto(`${base}/play`);
  await page.waitForSelector('#ruleset option[value="sistema-2d6"]', { state: "attached", timeout: TIMEOUT });
  await page.selectOption("#ruleset", "sistema-2d6");
  await page.click("#create");
  await logHas(page, 1);
  await playToTheEnd(page, "before saving", 2);
  const version = Number(await page.textContent("#version"));
  assert.ok(version >= 3, `version ${version}`);
  await logHas(page, version);
  const lines = await page.locator("#log li").allInnerTexts();

  // The file: the sealed snapshot and what the page needs to go on.
  assert.equal(await text(page, "#save-fight"), "Salvar este combate (arquivo)");
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: TIMEOUT }), page.click("#save-fight")]);
  const file = await download.path();
  const saved = JSON.parse(readFileSync(file, "utf8"));
  const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
  assert.equal(saved.combat, hash.get("combat"));
  assert.equal(saved.gm_token, hash.get("token"));
  assert.equal(saved.base, base);
  assert.equal(typeof saved.snapshot, "string");
  assert.deepEqual(saved.links.map(([who]) => who), ["gm", "ana", "capanga"]);
  assert.equal(await text(page, "#save-status"), "Salvo: guarde o arquivo para retomar o combate depois.");

  // The fight is gone (deleted here; its TTL would do the same).
  const deleted = await page.evaluate(async ({ id, token }) => (await fetch(`/combats/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${token}` } })).status,
    { id: saved.combat, token: saved.gm_token });
  assert.equal(deleted, 204);

  // A fresh page resumes it from the file, where it was.
  await page.goto(`${base}/play`);
  await page.reload();
  await page.waitForSelector('#ruleset option[value="sistema-2d6"]', { state: "attached", timeout: TIMEOUT });
  assert.equal(await page.isHidden("#fight"), true);
  await page.selectOption("#ruleset", "dark-earth"); // the roster shows the resumed fight's ruleset once it is open
  await page.setInputFiles("#resume-file", file);
  await logHas(page, version + 1); // the log's `restored` entry
  assert.equal(await text(page, "#setup-status"), "O combate voltou ao ponto em que foi salvo.");
  assert.equal(await page.inputValue("#ruleset"), "sistema-2d6");
  assert.equal(await page.textContent("#version"), String(version + 1));
  const resumed = await page.locator("#log li").allInnerTexts();
  assert.deepEqual(resumed.slice(0, -1), lines);
  assert.match(resumed.at(-1), /O mestre retoma o combate em .*, a partir do ponto salvo em .* \(versão \d+\)\./);
  assert.deepEqual(await page.locator("#join-links a.join").allTextContents(), ["Mestre", "Ana", "Capanga"]);
  await noOverflow(page, "resumed");
  await page.screenshot({ path: `${OUTPUT}resumed-pt-390.png`, fullPage: true });

  // Capanga's player's link, from before the save, still opens their seat.
  const player = await ctx.newPage();
  await player.goto(base + await page.getAttribute('a.join[data-who="capanga"]', "href"));
  await logHas(player, version + 1);
  assert.equal(await text(player, "#seat"), "Você joga com Capanga.");
  await player.close();

  // And the fight is played to its end.
  await playToTheEnd(page, "after resuming");
  await checkCardsAndLog(page, { ruleset: "sistema-2d6", lang: "pt", characters: [{ name: "Ana" }, { name: "Capanga" }] });
  const end = await page.textContent("#version");

  // Resuming a fight that is still there (409) just reopens it.
  await page.goto(`${base}/play`);
  await page.reload();
  await page.waitForSelector('#ruleset option[value="sistema-2d6"]', { state: "attached", timeout: TIMEOUT });
  await page.setInputFiles("#resume-file", file);
  await logHas(page, Number(end));
  assert.equal(await page.isHidden("#decided"), false);
  assert.equal(await page.isHidden("#error"), true);
  await ctx.close();
  assert.deepEqual(errors, []);
  console.log("save-resume: 1 passed, 0 failed");
} finally {
  await browser.close();
}
