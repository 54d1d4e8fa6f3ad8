// Driving /play as a game master would: a character entered through the sheet
// form, a fight played from the forms to its end, its cards and log checked.
import assert from "node:assert/strict";
import { TIMEOUT, text } from "./lib.mjs";

export const START_WORDS = { en: /The fight begins/, fr: /Le combat commence/, pt: /O combate começa/ };
const SIDE_WORDS = { en: "Side: ", fr: "Camp\u00a0: ", pt: "Lado: " };
const SIDE_NAMES = { en: { heroes: "heroes", villains: "villains" }, fr: { heroes: "héros", villains: "méchants" }, pt: { heroes: "heróis", villains: "vilões" } };
const CONDITION_WORDS = { en: "Conditions: ", fr: "États\u00a0: ", pt: "Condições: " };
const DECIDED = { en: "The fight is over. Nothing more can be played.", fr: "Le combat est terminé. Plus rien ne peut être joué.",
  pt: "O combate terminou. Nada mais pode ser jogado." };

// A new character: started from one of the example's sheets, named, put on a side, a few numbers typed.
export async function addCharacter(page, character) {
  await page.click("#new-character");
  await page.waitForSelector("#character-name", { timeout: TIMEOUT });
  await page.selectOption("#character-like", String(character.from));
  await page.fill("#character-name", character.name);
  if (character.newSide) {
    await page.selectOption("#character-side", "");
    await page.fill("#character-side-new", character.newSide);
  } else {
    await page.selectOption("#character-side", character.side);
  }
  for (const [key, value] of Object.entries(character.numbers || {})) await page.fill(`#character-form [data-pointer="/${key}"]`, value);
  const skills = '#character-form fieldset[data-pointer="/skills"]';
  if (character.dropSkill) {
    const at = await page.locator(`${skills} .row input.key`).evaluateAll((keys, name) => keys.findIndex((k) => k.value === name), character.dropSkill);
    assert.ok(at >= 0, `no skill ${character.dropSkill}`);
    await page.locator(`${skills} .rows > .row`).nth(at).locator("button.remove-row").click();
  }
  if (character.addSkill) {
    await page.click(`${skills} > button.add-row`);
    const row = page.locator(`${skills} .rows > .row`).last();
    await row.locator("input.key").fill(character.addSkill[0]);
    await row.locator('input[type="number"]').fill(character.addSkill[1]);
  }
  if (character.addWeapon) {
    const weapons = '#character-form fieldset[data-pointer="/weapons"]';
    await page.click(`${weapons} > button.add-row`);
    const at = (await page.locator(`${weapons} .rows > .row`).count()) - 1;
    await page.selectOption(`#character-form [data-pointer="/weapons/${at}/catalog"]`, { label: character.addWeapon });
  }
  if (character.contact) {
    // dark-earth: who this one is in contact with, chosen by name among the characters already entered.
    const row = '#character-form [data-pointer="/contact_with/0"]';
    if (!(await page.locator(row).count())) await page.click('#character-form fieldset[data-pointer="/contact_with"] > button.add-row');
    const offered = await page.locator(`${row} option`).allTextContents();
    if (offered.includes(character.contact)) await page.selectOption(row, { label: character.contact });
    else await page.locator('#character-form fieldset[data-pointer="/contact_with"] .rows > .row button.remove-row').first().click();
  }
  await page.click('#character-form button[type="submit"]');
  await page.waitForFunction((name) => [...document.querySelectorAll("#roster .pick-name")].some((l) => l.textContent === name)
    && document.querySelector("#character-form").hidden, character.name, { timeout: TIMEOUT });
}

// The first awaited combatant's forms are built for the version shown (or the fight is over).
async function settled(page) {
  await page.waitForFunction(() => {
    if (!document.querySelector("#decided").hidden) return true;
    const version = document.querySelector("#version").textContent;
    const first = document.querySelector("#awaiting li")?.dataset.actor;
    const gm = document.querySelector('#awaiting li[data-actor="gm"]') && document.querySelector("#form-gm-end_combat");
    return version && document.querySelector(`#log li[data-seq="${version}"]`) && first && document.querySelector("#actions").dataset.version === version
      && (gm || document.querySelector(`.actor-actions[data-actor="${first}"] form.action`));
  }, null, { timeout: TIMEOUT });
}

// What to fill in the first awaited combatant's most telling form: every required
// choice left empty gets its first option, a required number its minimum, a split its pool.
function plan() {
  const PRIORITY = ["attack", "shoot", "allocate", "declare", "defend", "react", "death_test", "choose_frenzy", "face", "stabilize", "pass"];
  const actor = document.querySelector("#awaiting li").dataset.actor;
  const forms = [...document.querySelectorAll(`.actor-actions[data-actor="${actor}"] form.action`)];
  const form = PRIORITY.map((type) => forms.find((f) => f.dataset.type === type)).find(Boolean) || forms[0];
  const steps = [];
  for (const select of form.querySelectorAll(".fields select")) {
    if (select.closest("details") || !select.required || select.value !== "") continue;
    steps.push(["select", `#${select.id}`, select.options[1]?.value]);
  }
  for (const sum of form.querySelectorAll("fieldset.keys")) {
    const inputs = [...sum.querySelectorAll("input")];
    const total = Number(inputs[0]?.max);
    if (!sum.querySelector("output.sum") || !total) continue;
    const att = Math.max(0, total - 2);
    const values = inputs.length === 3 ? [Math.min(1, total), att, total - Math.min(1, total) - att] : inputs.map((_, i) => (i === 0 ? total : 0));
    inputs.forEach((input, i) => steps.push(["fill", `#${input.id}`, String(values[i])]));
  }
  for (const input of form.querySelectorAll(".fields input[type=number]")) {
    if (input.closest("details") || input.closest("fieldset.keys") || !input.required || input.value !== "") continue;
    steps.push(["fill", `#${input.id}`, String(Math.max(Number(input.min) || 0, 8))]);
  }
  return { form: `#${form.id}`, type: form.dataset.type, steps };
}

// `onStep(page)`, when given, is called each time the page has settled (to read it, say).
export async function playToTheEnd(page, label, most = 150, onStep = null) {
  for (let played = 0; played < most; played++) {
    await settled(page);
    if (onStep) await onStep(page);
    if (!(await page.isHidden("#decided"))) return played;
    // Decided: no seed ends a fight by itself, the game master is awaited to end it.
    if (await page.locator('#awaiting li[data-actor="gm"]').count()) {
      if (!(await page.getAttribute("#gm-tools-box", "open")) && (await page.getAttribute("#gm-tools-box", "open")) !== "") await page.click("#gm-tools-box summary");
      await page.click("#form-gm-end_combat button[type=submit]");
      await page.waitForSelector("#decided:not([hidden])", { timeout: TIMEOUT });
      return played + 1;
    }
    const { form, steps } = await page.evaluate(plan);
    for (const [how, selector, value] of steps) {
      if (how === "select") await page.selectOption(selector, value);
      else await page.fill(selector, value);
    }
    const version = await page.textContent("#version");
    await page.click(`${form} button[type=submit]`);
    await page.waitForFunction((v) => document.querySelector("#version").textContent !== v || !document.querySelector("#error").hidden, version, { timeout: TIMEOUT });
    assert.equal(await page.isHidden("#error"), true, `${label}: ${form} refused: ${await page.textContent("#error")}`);
  }
  return most;
}

// Every card names its combatant, its side and its state in the page's words; every
// log line is narrated (no id, no placeholder, no Python value) in the fight's language.
export async function checkCardsAndLog(page, fight) {
  const { lang } = fight;
  assert.equal(await text(page, "#decided"), DECIDED[lang]);
  const names = fight.characters.map((c) => c.name);
  assert.deepEqual(await page.locator("#combatants li.combatant h3").allTextContents(), names);
  const cards = await page.locator("#combatants li.combatant").all();
  for (const [i, card] of cards.entries()) {
    const said = await card.innerText();
    const character = fight.characters[i];
    const side = character.newSide ?? SIDE_NAMES[lang][character.side];
    if (side) assert.equal(await card.locator(".side").textContent(), `${SIDE_WORDS[lang]}${side}`, said);
    assert.ok((await card.locator(".side").textContent()).startsWith(SIDE_WORDS[lang]), said);
    assert.ok((await card.locator(".conditions").textContent()).startsWith(CONDITION_WORDS[lang]), said);
    assert.doesNotMatch(said, /\b[a-z]+_[a-z_]+\b|undefined|null|NaN|\{/, `${fight.ruleset} card: ${said}`);
  }
  const lines = await page.locator("#log li").allInnerTexts();
  assert.ok(lines.length >= 3, `${fight.ruleset}: ${lines.length} log lines`);
  lines.forEach((line, i) => {
    assert.match(line, new RegExp(`^#${i + 1}\\b`), line);
    assert.ok(line.split("\n").slice(1).join(" ").trim().length > 0, `${fight.ruleset}: empty log line ${line}`);
    assert.doesNotMatch(line, /\b[a-z]+_[a-z_]+\b|undefined|\bNone\b|\bTrue\b|\bFalse\b|NaN|\{|\}/, `${fight.ruleset} log: ${line}`);
  });
  assert.match(lines[0], START_WORDS[lang]);
  const langs = await page.locator("#log li > span:last-child").evaluateAll((spans) => [...new Set(spans.map((s) => s.lang))]);
  assert.deepEqual(langs, [lang]);
}
