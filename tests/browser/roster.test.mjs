// A fight of every ruleset from the game master's own characters, entered
// through the sheet forms (no JSON typed), played to its end from /play's
// forms, every card and log line checked; en, fr and pt at 1280 and 390 px.
// Usage: node roster.test.mjs <base URL>
import assert from "node:assert/strict";
import { OUTPUT, TIMEOUT, launch, noOverflow, seat, text } from "./lib.mjs";
import { addCharacter, checkCardsAndLog, playToTheEnd, START_WORDS } from "./play-helpers.mjs";

const base = process.argv[2];

// Two characters per ruleset, each from one of the example's sheets, with a name,
// a side and a few values typed (low health, so the fight ends in a few blows).
const FIGHTS = [
  { ruleset: "sistema-2d6", lang: "en", width: 1280, characters: [
    { name: "Beatriz", side: "heroes", from: 0, numbers: { pv: "3" } },
    { name: "Ogro", side: "villains", from: 1, numbers: { pv: "3" } }] },
  { ruleset: "duel-2d6", lang: "fr", width: 390, characters: [
    { name: "Élodie", side: "heroes", from: 1, numbers: { pv: "2" } },
    { name: "Brute", side: "villains", from: 0, numbers: { pv: "2" } }] },
  { ruleset: "dark-earth", lang: "pt", width: 1280, characters: [
    { name: "Iara", side: "heroes", from: 0, numbers: { pv: "2" }, contact: "ogro" },
    { name: "Ogro", side: "villains", from: 1, numbers: { pv: "2" }, contact: "iara" }] },
  { ruleset: "space-opera-d100", lang: "en", width: 390, characters: [
    { name: "Orla", side: "heroes", from: 0, numbers: { pv: "2" } },
    { name: "Trooper", side: "villains", from: 1, numbers: { pv: "2" } }] },
  { ruleset: "age-du-silicium", lang: "fr", width: 1280, characters: [
    { name: "Inès", side: "heroes", from: 0, numbers: { blessures: "1" } },
    { name: "Vorn", side: "villains", from: 1, numbers: { blessures: "1" } }] },
];

const browser = await launch();
const errors = [];
let passed = 0;
try {
  for (const fight of FIGHTS) {
    const { ctx, page } = await seat(browser, fight.lang, fight.width, errors);
    try {
      await page.goto(`${base}/play`);
      await page.waitForSelector(`#ruleset option[value="${fight.ruleset}"]`, { state: "attached", timeout: TIMEOUT });
      await page.selectOption("#ruleset", fight.ruleset);
      await page.waitForFunction(() => document.querySelector("#roster-empty") && !document.querySelector("#roster-empty").hidden, null, { timeout: TIMEOUT });
      for (const character of fight.characters) await addCharacter(page, character);
      // Both are in the roster, ticked, each on its side.
      assert.deepEqual(await page.locator("#roster .pick-name").allTextContents(), fight.characters.map((c) => c.name));
      if (fight.width === 390) await page.screenshot({ path: `${OUTPUT}roster-${fight.ruleset}-${fight.lang}-390.png`, fullPage: true });
      await noOverflow(page, `roster ${fight.ruleset}`);
      await page.click("#start-roster");
      await page.waitForSelector('#log li[data-seq="1"]', { timeout: TIMEOUT });
      assert.match(await text(page, '#log li[data-seq="1"]'), START_WORDS[fight.lang], fight.ruleset);
      const steps = await playToTheEnd(page, fight.ruleset);
      assert.equal(await page.isHidden("#decided"), false, `${fight.ruleset}: not over after ${steps} actions`);
      await checkCardsAndLog(page, fight);
      await noOverflow(page, `fight ${fight.ruleset}`);
      if (fight.width === 390) await page.screenshot({ path: `${OUTPUT}roster-over-${fight.ruleset}-${fight.lang}-390.png`, fullPage: true });
      console.log(`${fight.ruleset} (${fight.lang}, ${fight.width} px): over after ${steps} actions`);
      passed += 1;
    } finally { await ctx.close(); }
  }
  assert.deepEqual(errors, []);
  console.log(`roster: ${passed} passed, 0 failed`);
} finally {
  await browser.close();
}
