// /play that a game master can trust (issue 36, item 3), at 1280 and 390 px:
// the players' links survive a reload (or are made anew), the example fight
// rolls fresh dice, a sheet's numbers are checked as they are typed, contacts
// are chosen by name, catalog names keep their accents, the sheet's weapon is
// the attack's, the GM can undo; and no English reaches a French or
// Portuguese page through a whole fight (the GM's page and a player's).
// Usage: node gm-trust.test.mjs <base URL>
import assert from "node:assert/strict";
import { WORDS } from "../../service/web/static/play-i18n.js";
import { OUTPUT, launch, logHas, noOverflow, optionTexts, ready, seat, text } from "./lib.mjs";
import { addCharacter, playToTheEnd } from "./play-helpers.mjs";

const base = process.argv[2];
const WAIT = 60000; // a ceiling on each wait for a state, never a pause: the machine may be loaded
const RULESETS = ["age-du-silicium", "dark-earth", "duel-2d6", "sistema-2d6", "space-opera-d100"];

const SAID = {
  en: { minted: "New links made: the earlier ones still work.", undone: "The last action was undone.", nothing: "There is nothing left to undo.",
    mel: "Mira, MEL: between 0 and 20.", pv: "Mira, HP: between 1 and 200.",
    zed: "Zed's sheet is refused: see the fields marked below.", zedPv: "Zed, HP: between 1 and 500." },
  fr: { minted: "Nouveaux liens créés\u00a0: les précédents fonctionnent toujours.", undone: "La dernière action a été annulée.",
    nothing: "Il n'y a plus rien à annuler.", mel: "Mira, MEL\u00a0: entre 0 et 20.", pv: "Mira, PV\u00a0: entre 1 et 200.",
    zed: "La fiche de Zed est refusée\u00a0: voyez les champs signalés plus bas.", zedPv: "Zed, PV\u00a0: entre 1 et 500." },
  pt: { minted: "Novos links criados: os anteriores continuam valendo.", undone: "A última ação foi desfeita.",
    nothing: "Não há mais nada para desfazer.", mel: "Mira, MEL: entre 0 e 20.", pv: "Mira, PV: entre 1 e 200.",
    zed: "A ficha de Zed foi recusada: veja os campos indicados abaixo.", zedPv: "Zed, PV: entre 1 e 500." },
};

async function startExample(page, ruleset) {
  await page.goto(`${base}/play`);
  await page.waitForSelector(`#ruleset option[value="${ruleset}"]`, { state: "attached", timeout: WAIT });
  await page.selectOption("#ruleset", ruleset);
  const posted = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === "/combats", { timeout: WAIT });
  await page.click("#create");
  const request = await posted;
  await logHas(page, 1);
  await ready(page);
  return JSON.parse(request.postData());
}

const linksOf = (page) => page.locator("#join-links a.join").evaluateAll((links) => links.map((a) => [a.dataset.who, a.getAttribute("href")]));
const versionIs = (page, v) => page.waitForFunction((n) => document.querySelector("#version").textContent === String(n), v, { timeout: WAIT });

// b, g, h, a: one sistema-2d6 example fight.
async function exampleFight(browser, lang, width, errors) {
  const w = SAID[lang];
  const gm = await seat(browser, lang, width, errors);
  try {
    const example = (await fetch(`${base}/rulesets/sistema-2d6`).then((r) => r.json())).example.combat;
    assert.ok(example.seed !== undefined && Array.isArray(example.dice), "the example has a seed and dice to leave out");
    // b. The example is posted without its public seed and its supplied dice.
    const sent = await startExample(gm.page, "sistema-2d6");
    assert.equal("seed" in sent, false, `${lang}@${width}: the seed was sent`);
    assert.equal("dice" in sent, false, `${lang}@${width}: the dice were sent`);
    assert.deepEqual(sent.combatants.map((c) => c.name), ["Ana", "Capanga"]);

    // g. The attack is made with the sheet's own weapon (Ana's pistol, Capanga's knife), not the default punch;
    // the server is told so. Who acts first is the fresh dice's say.
    const attacker = await gm.page.getAttribute("#awaiting li", "data-actor");
    const [own, ownId] = attacker === "ana" ? ["Pistola", "pistola"] : ["Faca", "faca"];
    const weapon = `#form-${attacker}-attack [name=weapon]`;
    assert.equal(await gm.page.locator(weapon).evaluate((s) => s.selectedOptions[0].textContent), own);
    const cards = await gm.page.locator("#combatants .health strong").allTextContents();
    await gm.page.click(`#form-${attacker}-attack button[type=submit]`);
    await logHas(gm.page, 2);
    const attack = await gm.page.evaluate(async () => {
      const hash = new URLSearchParams(location.hash.slice(1));
      const answer = await fetch(`/combats/${hash.get("combat")}/events?after=1`, { headers: { Authorization: `Bearer ${hash.get("token")}` } });
      return (await answer.json()).items[0].action;
    });
    assert.equal(attack.type, "attack");
    assert.equal(attack.weapon, ownId);
    await ready(gm.page);

    // h. The GM undoes the attack: logged as an entry, the fight is back to the attacker's turn; then nothing is left to undo.
    await gm.page.click("#undo");
    await logHas(gm.page, 3);
    await versionIs(gm.page, 3);
    await ready(gm.page);
    assert.equal(await text(gm.page, "#save-status"), w.undone);
    assert.equal(await gm.page.getAttribute("#awaiting li", "data-actor"), attacker);
    assert.match(await text(gm.page, '#log li[data-seq="3"] .entry-head'), new RegExp(`${WORDS[lang].actions.undo}$`));
    assert.deepEqual(await gm.page.locator("#combatants .health strong").allTextContents(), cards);
    await gm.page.click("#undo");
    await gm.page.waitForSelector("#error:not([hidden])", { timeout: WAIT });
    assert.equal(await text(gm.page, "#error .detail"), w.nothing);
    await noOverflow(gm.page, `undo ${lang}@${width}`);

    // a. A reload of the GM's page keeps the players' links (kept in this browser).
    const links = await linksOf(gm.page);
    assert.deepEqual(links.map(([who]) => who), ["gm", "ana", "capanga"]);
    await gm.page.reload();
    await logHas(gm.page, 3);
    await ready(gm.page);
    await gm.page.waitForSelector("#share:not([hidden]) #join-links a.join", { timeout: WAIT });
    assert.deepEqual(await linksOf(gm.page), links);
    assert.equal(await gm.page.isHidden("#links-missing"), true);
    // Without them (another browser, the storage cleared), the page says so and makes new ones that work.
    await gm.page.evaluate(() => localStorage.removeItem("melee-links"));
    await gm.page.reload();
    await logHas(gm.page, 3);
    await gm.page.waitForSelector("#links-missing:not([hidden])", { timeout: WAIT });
    assert.deepEqual((await linksOf(gm.page)).map(([who]) => who), ["gm"]);
    await gm.page.click("#mint-links");
    await gm.page.waitForFunction(() => document.querySelectorAll("#join-links a.join").length === 3, null, { timeout: WAIT });
    assert.equal(await text(gm.page, "#links-status"), w.minted);
    assert.equal(await gm.page.isHidden("#links-missing"), true);
    const minted = await linksOf(gm.page);
    assert.deepEqual(minted.map(([who]) => who), ["gm", "ana", "capanga"]);
    assert.notDeepEqual(minted[2], links[2]);
    assert.deepEqual(await gm.page.locator("#join-links a.join").allTextContents(), [WORDS[lang].gm, "Ana", "Capanga"]);
    await noOverflow(gm.page, `links ${lang}@${width}`);
    if (width === 390) await gm.page.screenshot({ path: `${OUTPUT}gm-trust-links-${lang}-390.png`, fullPage: true });
    const player = await gm.ctx.newPage();
    player.on("pageerror", (error) => errors.push(`${lang}@${width} player: ${error}`));
    await player.goto(base + minted[2][1]);
    await player.waitForSelector("#seat:not([hidden])", { timeout: WAIT });
    assert.match(await text(player, "#seat"), /Capanga/);
    assert.equal(await player.isHidden("#share"), true);
    await player.close();
  } finally { await gm.ctx.close(); }
}

// c, d, e: characters entered in dark-earth's and sistema-2d6's sheet forms.
async function sheets(browser, lang, width, errors) {
  const w = SAID[lang];
  const gm = await seat(browser, lang, width, errors);
  const page = gm.page;
  try {
    await page.goto(`${base}/play`);
    await page.waitForSelector('#ruleset option[value="dark-earth"]', { state: "attached", timeout: WAIT });
    await page.selectOption("#ruleset", "dark-earth");
    await page.waitForFunction(() => document.querySelector("#roster-ruleset").textContent.startsWith("Dark Earth"), null, { timeout: WAIT });

    // e. "Start from" another sheet and back: the catalog's armour keeps its name, accents and all.
    await page.click("#new-character");
    await page.waitForSelector("#character-name", { timeout: WAIT });
    const armour = '#character-form [data-pointer="/armour/catalog"]';
    const chosen = (selector) => page.locator(selector).evaluate((s) => s.selectedOptions[0]?.textContent);
    assert.equal(await chosen(armour), "Cuir (complète)");
    await page.selectOption("#character-like", "1");
    await page.selectOption("#character-like", "0");
    assert.equal(await chosen(armour), "Cuir (complète)");
    assert.deepEqual((await optionTexts(page, armour)).slice(1).sort(), ["Cuir (complète)", "Vêtements lourds"]);

    // c. Numbers out of the sheet's bounds are refused as they are typed, at the field, naming the character.
    await page.fill("#character-name", "Mira");
    await page.fill('#character-form [data-pointer="/attributes/MEL"]', "-3");
    const melError = '#character-form [data-pointer="/attributes/MEL"]';
    await page.waitForFunction((s) => document.querySelector(s).getAttribute("aria-invalid") === "true", melError, { timeout: WAIT });
    const noteOf = (selector) => page.locator(selector).evaluate((input) => document.getElementById(input.getAttribute("aria-describedby"))?.textContent);
    assert.equal(await noteOf(melError), w.mel);
    await page.fill('#character-form [data-pointer="/pv"]', "9999");
    assert.equal(await noteOf('#character-form [data-pointer="/pv"]'), w.pv);
    // Saving is refused while they stand; the roster stays empty.
    await page.click('#character-form button[type="submit"]');
    assert.equal(await page.isHidden("#character-form"), false);
    assert.equal(await page.locator("#roster .pick-name").count(), 0);
    await noOverflow(page, `sheet errors ${lang}@${width}`);
    if (width === 390) await page.screenshot({ path: `${OUTPUT}gm-trust-sheet-${lang}-390.png`, fullPage: true });
    // Put right, the errors go and the character is kept.
    await page.fill('#character-form [data-pointer="/attributes/MEL"]', "3");
    await page.fill('#character-form [data-pointer="/pv"]', "2");
    assert.equal(await page.locator("#character-form .field-error:not([hidden])").count(), 0);
    await page.click('#character-form button[type="submit"]');
    await page.waitForFunction(() => document.querySelector("#character-form").hidden, null, { timeout: WAIT });

    // d. Contacts are chosen among the characters, by name; the fight starts with them in contact.
    await page.click("#new-character");
    await page.waitForSelector("#character-name", { timeout: WAIT });
    await page.selectOption("#character-like", "1");
    const contacts = '#character-form fieldset[data-pointer="/contact_with"]';
    await page.click(`${contacts} > button.add-row`);
    assert.deepEqual(await optionTexts(page, `${contacts} select`), ["", "Mira"]);
    await addCharacterNamed(page, { name: "Ogro", side: "villains", contact: "Mira" });
    await page.click("#start-roster");
    await logHas(page, 1);
    assert.match(await text(page, '#log li[data-seq="1"]'), /Mira/);
    assert.match(await text(page, '#log li[data-seq="1"]'), /Ogro/);

    // e. sistema-2d6: a weapon added after "Start from" changed is named from the catalog ("Serra Elétrica").
    await page.selectOption("#ruleset", "sistema-2d6");
    await page.waitForFunction(() => document.querySelector("#roster-ruleset").textContent.startsWith("Sistema"), null, { timeout: WAIT });
    await page.click("#new-character");
    await page.waitForSelector("#character-name", { timeout: WAIT });
    await page.selectOption("#character-like", "1");
    await page.selectOption("#character-like", "0");
    const weapons = '#character-form fieldset[data-pointer="/weapons"]';
    assert.equal(await chosen('#character-form [data-pointer="/armor/catalog"]'), "Colete à prova de balas");
    await page.click(`${weapons} > button.add-row`);
    const added = (await page.locator(`${weapons} .rows > .row`).count()) - 1;
    const offered = await optionTexts(page, `#character-form [data-pointer="/weapons/${added}/catalog"]`);
    const saw = (await fetch(`${base}/rulesets/sistema-2d6`).then((r) => r.json())).labels[lang].weapon.serra_eletrica;
    if (lang !== "en") assert.match(saw, /[éç]/); // "serra elétrica", "tronçonneuse": with their accents
    assert.ok(offered.includes(saw), offered.join(", "));
    assert.equal(offered.some((o) => /eletrica/i.test(o)), false, offered.join(", "));
    await noOverflow(page, `sheet ${lang}@${width}`);

    // c. What the form could not check (characters imported from a file) is refused at the start,
    // the character's form opened with the error at its field, both naming the character.
    await page.click('#character-form > .buttons button[type="button"]'); // cancel
    const sheet = (pv) => ({ attributes: { FOR: 2, DES: 2, CON: 2 }, pv });
    const file = { melee_roster: 1, characters: [{ key: "zed", ruleset: "sistema-2d6", name: "Zed", side: "heroes", sheet: sheet(9999), picked: true },
      { key: "yan", ruleset: "sistema-2d6", name: "Yan", side: "villains", sheet: sheet(5), picked: true }] };
    await page.setInputFiles("#import-roster", { name: "roster.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(file)) });
    await page.waitForFunction(() => document.querySelectorAll("#roster .pick-name").length === 2, null, { timeout: WAIT });
    await page.click("#start-roster");
    await page.waitForSelector("#character-form:not([hidden]) .field-error:not([hidden])", { timeout: WAIT });
    assert.equal(await page.inputValue("#character-name"), "Zed");
    assert.equal(await noteOf('#character-form [data-pointer="/pv"]'), w.zedPv);
    assert.equal(await text(page, "#error .detail"), w.zed);
  } finally { await gm.ctx.close(); }
}

// The contact form opened above is finished here: a name, a side, the contact by name, saved.
async function addCharacterNamed(page, character) {
  await page.fill("#character-name", character.name);
  await page.selectOption("#character-side", character.side);
  await page.selectOption('#character-form fieldset[data-pointer="/contact_with"] .rows > .row:last-child select', { label: character.contact });
  await page.fill('#character-form [data-pointer="/pv"]', "2");
  await page.click('#character-form button[type="submit"]');
  await page.waitForFunction((name) => [...document.querySelectorAll("#roster .pick-name")].some((l) => l.textContent === name)
    && document.querySelector("#character-form").hidden, character.name, { timeout: WAIT });
}

// ---- f. no English on a French or Portuguese page -----------------------------

function leaves(node) {
  return Object.values(node).flatMap((value) => (value && typeof value === "object" ? leaves(value) : [value]));
}
const humanize = (id) => { const words = String(id).replace(/[_.]+/g, " ").trim(); return words.charAt(0).toUpperCase() + words.slice(1); };

// The English the page could show where it failed to translate: its own words (the parts
// between placeholders), the ruleset's English labels, ids (raw or humanized) of sides,
// conditions and values; each kept only where the language's own words differ.
function englishFor(lang, rulesets, combats) {
  // The language's own words (the page's, the rulesets' labels and catalogs): what is in them is no English.
  const names = (catalog) => Object.values(catalog || {}).flatMap((group) => Object.values(group || {}).map((entry) => entry?.name).filter(Boolean));
  const ownText = [...leaves(WORDS[lang]), ...rulesets.flatMap((r) => [...leaves(r.labels[lang]), ...names(r.catalog)])].join("\n");
  const words = new Set(["One side standing", "Wounds", "Eliminated", "Weapon", "Incapacitated", "Cornered", "Immobilised", "Out of action",
    "Contracted", "Knocked out", "Off balance", "Loses next action"]);
  for (const text of leaves(WORDS.en)) for (const part of String(text).split(/\{\w+\}/)) words.add(part.trim());
  for (const ruleset of rulesets) {
    const labels = ruleset.labels;
    for (const [group, values] of Object.entries(labels.en)) {
      if (!values || typeof values !== "object") continue;
      for (const [id, english] of Object.entries(values)) {
        if (labels[lang]?.[group]?.[id] !== english) words.add(english);
        if (!/^[A-Z0-9_]+$/.test(id) && id.includes("_")) { words.add(id); words.add(humanize(id)); }
      }
    }
  }
  for (const combat of combats) for (const c of combat.combatants) { words.add(c.side); if (!c.name.toLowerCase().includes(c.id)) words.add(c.id); }
  return [...words].filter((w) => w.length >= 3 && /[a-z]/i.test(w) && !wordIn(w, ownText, "iu"));
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const wordIn = (w, text, flags = "u") => new RegExp(`(?<![\\p{L}\\p{N}_])${escape(w)}(?![\\p{L}\\p{N}_])`, flags).test(text);

// Each English word found, with a few words around it (to say where).
function englishIn(text, english) {
  return english.map((w) => [w, new RegExp(`(?<![\\p{L}\\p{N}_])${escape(w)}(?![\\p{L}\\p{N}_])`, "u").exec(text)]).filter(([, m]) => m)
    .map(([w, m]) => [w, text.slice(Math.max(0, m.index - 40), m.index + w.length + 20).replace(/\s+/g, " ")]);
}

// Everything a person reads: the visible text (every fold opened), the options of every select, labels read aloud.
const visibleText = (page) => page.evaluate(() => [(document.querySelectorAll("details").forEach((d) => { d.open = true; }), document.body.innerText), ...[...document.querySelectorAll("option")].map((o) => o.textContent),
  ...[...document.querySelectorAll("[aria-label]")].map((e) => e.getAttribute("aria-label"))].join("\n"));

async function noEnglish(browser, lang, widths, errors) {
  const rulesets = await Promise.all(RULESETS.map((id) => fetch(`${base}/rulesets/${id}`).then((r) => r.json())));
  const examples = rulesets.map((r) => r.example.combat);
  const english = englishFor(lang, rulesets, examples);
  assert.ok(english.includes("Wounds") && english.includes("heroes"), "the list of English words");
  const found = new Map();
  const check = async (page, where) => {
    for (const [w, around] of englishIn(await visibleText(page), english)) if (!found.has(w)) found.set(w, `${where}: …${around}…`);
  };
  for (const ruleset of RULESETS) {
    const gm = await seat(browser, lang, widths[0], errors);
    try {
      await startExample(gm.page, ruleset);
      await check(gm.page, `${ruleset} GM, start`);
      // The character form too, as it opens (from the example's first sheet).
      await gm.page.click("#new-character");
      await gm.page.waitForSelector("#character-name", { timeout: WAIT });
      await check(gm.page, `${ruleset} GM, character form`);
      await gm.page.click('#character-form > .buttons button[type="button"]'); // cancel
      // A player's page, at the other width, follows the same fight.
      const who = (await linksOf(gm.page))[1];
      const player = await seat(browser, lang, widths[1], errors);
      await player.page.goto(base + who[1]);
      await logHas(player.page, 1);
      await check(player.page, `${ruleset} player, start`);
      let steps = 0;
      await playToTheEnd(gm.page, `${ruleset} ${lang}`, 40, async (page) => { if (steps++ % 3 === 0) await check(page, `${ruleset} GM, step ${steps}`); });
      // A fight the fresh dice make long is ended by the game master.
      if (await gm.page.isHidden("#decided")) {
        if (await gm.page.isHidden("#form-gm-end_combat")) await gm.page.click("#gm-tools-box summary");
        await gm.page.click("#form-gm-end_combat button[type=submit]");
        await gm.page.waitForSelector("#decided:not([hidden])", { timeout: WAIT });
      }
      await check(gm.page, `${ruleset} GM, end`);
      await player.page.waitForSelector("#decided:not([hidden])", { timeout: WAIT });
      await check(player.page, `${ruleset} player, end`);
      await noOverflow(player.page, `${ruleset} player ${lang}@${widths[1]}`);
      await player.ctx.close();
    } finally { await gm.ctx.close(); }
  }
  assert.deepEqual([...found].map(([w, where]) => `${w} (${where})`), [], `${lang}: English on the page`);
}

const browser = await launch();
const errors = [];
let passed = 0;
try {
  for (const [lang, width] of [["fr", 1280], ["pt", 390], ["en", 390]]) {
    await exampleFight(browser, lang, width, errors);
    await sheets(browser, lang, width === 390 ? 1280 : 390, errors);
    passed += 1;
  }
  await noEnglish(browser, "fr", [1280, 390], errors);
  passed += 1;
  await noEnglish(browser, "pt", [390, 1280], errors);
  passed += 1;
  assert.deepEqual(errors, []);
  console.log(`gm-trust: ${passed} passed, 0 failed`);
} finally {
  await browser.close();
}
