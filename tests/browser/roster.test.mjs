// A fight of every ruleset from the game master's own characters, entered
// through the sheet forms (no JSON typed), played to its end from /play's
// forms, every card and log line checked; en, fr and pt at 1280 and 390 px.
// Usage: node roster.test.mjs <base URL>
import assert from "node:assert/strict";
import { OUTPUT, TIMEOUT, combatNow, launch, noOverflow, seat, text } from "./lib.mjs";
import { addCharacter, checkCardsAndLog, playToTheEnd, START_WORDS } from "./play-helpers.mjs";

const base = process.argv[2];

// Two characters per ruleset, each from one of the example's sheets, with a name,
// a side and a few values typed (low health, so the fight ends in a few blows).
const FIGHTS = [
  { ruleset: "sistema-2d6", lang: "en", width: 1280, characters: [
    { name: "Beatriz", side: "heroes", from: 0, numbers: { pv: "3" }, dropSkill: "Medicina", addSkill: ["Briga", "2"], addWeapon: "shotgun" },
    { name: "Ogro", side: "villains", from: 1, numbers: { pv: "3" } }],
    // Kept in the roster but not ticked: not in the fight.
    benched: { name: "Reserva", side: "heroes", from: 0 } },
  { ruleset: "duel-2d6", lang: "fr", width: 390, refused: { pv: "0", said: "PV\u00a0: entre 1 et 200." }, characters: [
    { name: "Élodie", side: "heroes", from: 1, numbers: { pv: "1" } },
    { name: "Brute", side: "heroes", rowSide: "villains", from: 0, numbers: { pv: "1" } }] },
  { ruleset: "dark-earth", lang: "pt", width: 1280, characters: [
    { name: "Iara", side: "heroes", from: 0, numbers: { pv: "2" }, contact: "Ogro" },
    { name: "Ogro", newSide: "Rebeldes", from: 1, numbers: { pv: "2" }, contact: "Iara" }] },
  { ruleset: "space-opera-d100", lang: "en", width: 390, joins: { name: "Rex", like: "Trooper", side: "villains", pv: "1" }, characters: [
    { name: "Orla", side: "heroes", from: 0, numbers: { pv: "2" } },
    { name: "Trooper", side: "villains", from: 1, numbers: { pv: "2" } }] },
  { ruleset: "age-du-silicium", lang: "fr", width: 1280, missing: { key: "initiative", said: "Initiative\u00a0: ce champ est obligatoire." }, characters: [
    { name: "Inès", side: "heroes", from: 0, numbers: { blessures: "1" } },
    { name: "Vorn", side: "villains", from: 1, numbers: { blessures: "1" } }] },
];

// A value out of the sheet's bounds: refused as it is typed, next to the field, in the
// page's language and naming the character; the character is not saved until it is fixed.
async function refusedThenFixed(page, fight) {
  const [first] = fight.characters;
  await page.click(`#roster li:has(.pick-name:text-is("${first.name}")) button.edit`);
  await page.fill('#character-form [data-pointer="/pv"]', fight.refused.pv);
  await page.waitForSelector('#character-form [data-pointer="/pv"][aria-invalid="true"]', { timeout: TIMEOUT });
  assert.equal(await page.locator("#character-form .field-error:not([hidden])").textContent(), `${first.name}, ${fight.refused.said}`);
  await page.click('#character-form button[type="submit"]');
  assert.equal(await page.isHidden("#character-form"), false);
  assert.equal(await page.inputValue("#character-name"), first.name);
  if (fight.width === 390) await page.screenshot({ path: `${OUTPUT}roster-refused-${fight.ruleset}-${fight.lang}-390.png`, fullPage: true });
  await page.fill('#character-form [data-pointer="/pv"]', first.numbers.pv);
  assert.equal(await page.locator("#character-form .field-error:not([hidden])").count(), 0);
  await page.click('#character-form button[type="submit"]');
  await page.waitForSelector("#character-form[hidden]", { state: "attached", timeout: TIMEOUT });
}

// A required value left empty is said before anything is sent.
async function missingThenFilled(page, fight, character) {
  await page.click("#new-character");
  await page.selectOption("#character-like", String(character.from));
  await page.fill("#character-name", "Sans nom");
  await page.selectOption("#character-side", "heroes");
  await page.fill(`#character-form [data-pointer="/${fight.missing.key}"]`, "");
  await page.click('#character-form button[type="submit"]');
  await page.waitForSelector("#character-form .field-error", { timeout: TIMEOUT });
  assert.equal(await page.locator("#character-form .field-error:not([hidden])").textContent(), `Sans nom, ${fight.missing.said}`);
  await page.click("#character-form button:not([type=submit]):text-is('Annuler')");
}

// The roster as a file: exported, then imported into another browser's roster.
async function exportedAndImported(page, fight) {
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: TIMEOUT }), page.click("#export-roster")]);
  const file = await download.path();
  const other = await seat(browser, fight.lang, fight.width, errors);
  try {
    await other.page.goto(`${base}/play`);
    await other.page.waitForSelector(`#ruleset option[value="${fight.ruleset}"]`, { state: "attached", timeout: TIMEOUT });
    await other.page.selectOption("#ruleset", fight.ruleset);
    await other.page.setInputFiles("#import-roster", file);
    const names = [...fight.characters, fight.benched].filter(Boolean).map((c) => c.name);
    await other.page.waitForFunction((n) => document.querySelectorAll("#roster .pick-name").length === n, names.length, { timeout: TIMEOUT });
    assert.deepEqual(await other.page.locator("#roster .pick-name").allTextContents(), names);
    assert.equal(await text(other.page, "#roster-status"), `${names.length} characters imported.`);
    // What was ticked and the sides travel with the file.
    assert.deepEqual(await other.page.locator("#roster input.pick").evaluateAll((boxes) => boxes.map((b) => b.checked)), [true, true, false]);
  } finally { await other.ctx.close(); }
}

// The GM brings a newcomer in with the same sheet form, started from a roster character.
async function newcomerJoins(page, fight) {
  const { name, like, side, pv } = fight.joins;
  const form = "#form-gm-join";
  await page.waitForSelector(form, { state: "attached", timeout: TIMEOUT });
  await page.click("#gm-tools-box summary");
  await page.fill(`${form}-combatant-name`, name);
  await page.selectOption(`${form}-combatant-side`, side);
  await page.selectOption(`${form}-combatant-like`, { label: like });
  await page.click(`${form} fieldset.sheet > details.sheet-fold > summary`);
  await page.fill(`${form} fieldset.sheet [data-pointer="/pv"]`, pv);
  const version = Number(await page.textContent("#version"));
  await page.click(`${form} button[type=submit]`);
  await page.waitForSelector(`#log li[data-seq="${version + 1}"]`, { timeout: TIMEOUT });
  assert.match(await text(page, `#log li[data-seq="${version + 1}"]`), new RegExp(`${name} joins the fight`));
  await page.waitForSelector(`#combatants [data-id="${name.toLowerCase()}"]`, { timeout: TIMEOUT });
  assert.match(await text(page, `#combatants [data-id="${name.toLowerCase()}"] .health`), new RegExp(`HP ${pv} / ${pv}`));
  await page.click("#gm-tools-box summary");
  fight.characters.push({ name, side });
}

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
      if (fight.missing) await missingThenFilled(page, fight, fight.characters[0]);
      for (const character of fight.characters) await addCharacter(page, character);
      if (fight.refused) await refusedThenFixed(page, fight);
      if (fight.benched) {
        await addCharacter(page, fight.benched);
        await page.uncheck(`#roster li:has(.pick-name:text-is("${fight.benched.name}")) input.pick`);
      }
      // A side changed in the roster's row, where the fight is set up.
      for (const character of fight.characters.filter((c) => c.rowSide)) {
        await page.selectOption(`#roster li:has(.pick-name:text-is("${character.name}")) select.pick-side`, character.rowSide);
        character.side = character.rowSide;
      }
      const names = fight.characters.map((c) => c.name);
      assert.deepEqual(await page.locator("#roster .pick-name").allTextContents(), fight.benched ? [...names, fight.benched.name] : names);
      if (fight.width === 390) await page.screenshot({ path: `${OUTPUT}roster-${fight.ruleset}-${fight.lang}-390.png`, fullPage: true });
      await noOverflow(page, `roster ${fight.ruleset}`);
      await page.click("#start-roster");
      await page.waitForSelector('#log li[data-seq="1"]', { timeout: TIMEOUT });
      assert.match(await text(page, '#log li[data-seq="1"]'), START_WORDS[fight.lang], fight.ruleset);
      if (fight.ruleset === "sistema-2d6") {
        // The rows added and removed in the form are the sheet's: a shotgun beside the pistol, Briga for Medicina.
        const combat = await combatNow(page);
        assert.deepEqual(combat.combatants[0].sheet.weapons.map((w) => w.id), ["pistola", "escopeta"]);
        assert.deepEqual(combat.combatants[0].sheet.skills, { "Armas de Fogo": 2, Esquiva: 1, Briga: 2 });
      }
      if (fight.joins) await newcomerJoins(page, fight);
      const steps = await playToTheEnd(page, fight.ruleset);
      assert.equal(await page.isHidden("#decided"), false, `${fight.ruleset}: not over after ${steps} actions`);
      await checkCardsAndLog(page, fight);
      await noOverflow(page, `fight ${fight.ruleset}`);
      if (fight.width === 390) await page.screenshot({ path: `${OUTPUT}roster-over-${fight.ruleset}-${fight.lang}-390.png`, fullPage: true });
      if (fight.ruleset === "sistema-2d6") await exportedAndImported(page, fight);
      console.log(`${fight.ruleset} (${fight.lang}, ${fight.width} px): over after ${steps} actions`);
      passed += 1;
    } finally { await ctx.close(); }
  }
  assert.deepEqual(errors, []);
  console.log(`roster: ${passed} passed, 0 failed`);
} finally {
  await browser.close();
}
