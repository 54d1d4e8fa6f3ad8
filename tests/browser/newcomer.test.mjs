// What a new game master tripped over on /play (issue 25), in en, fr and pt,
// at 1280 and 390 px: each check failed before its fix.
// Usage: node newcomer.test.mjs <base URL>
import assert from "node:assert/strict";
import { OUTPUT, TIMEOUT, assertNoJargon, exampleWith, launch, logHas, noOverflow, optionTexts, ready, rulesetOf, seat, text } from "./lib.mjs";

const base = process.argv[2];
const WORDS = {
  en: { default: "(default: Soco)", seat: "You play Capanga.", you: "you", round: "Round 1", actionsOfAna: "What Ana can do",
    noWound: "No wound", malus: "No wound (penalty \u22121)", missing: "this is required.", hint: "Together they must make 7 dice (the potential).",
    sum: "Total: 3 of 7", sumWrong: "they add up to 6; they must add up to 7.", initLabel: "Initiative dice", pvRange: "between 1 and 200." },
  fr: { default: "(par défaut\u00a0: Soco)", seat: "Vous jouez Capanga.", you: "vous", round: "Tour 1", actionsOfAna: "Ce qu'Ana peut faire",
    noWound: "Aucune blessure", malus: "Aucune blessure (malus \u22121)", missing: "ce champ est obligatoire.",
    hint: "Ensemble, ils doivent faire 7 dés (le potentiel).", sum: "Total\u00a0: 3 sur 7", sumWrong: "leur somme fait 6, elle doit faire 7.", initLabel: "Dés d'initiative", pvRange: "entre 1 et 200." },
  pt: { default: "(padrão: Soco)", seat: "Você joga com Capanga.", you: "você", round: "Rodada 1", actionsOfAna: "O que Ana pode fazer",
    noWound: "Nenhum ferimento", malus: "Nenhum ferimento (penalidade \u22121)", missing: "este campo é obrigatório.",
    hint: "Juntos, precisam somar 7 dados (o potencial).", sum: "Total: 3 de 7", sumWrong: "a soma dá 6, mas precisa dar 7.", initLabel: "Dados de iniciativa", pvRange: "entre 1 e 200." },
};

// The example fight of a ruleset; where `first` is given, one where that combatant acts first (fresh dice).
async function start(page, ruleset, first) {
  await page.goto(`${base}/play`);
  await page.waitForSelector(`#ruleset option[value="${ruleset}"]`, { state: "attached", timeout: TIMEOUT });
  await page.selectOption("#ruleset", ruleset);
  if (first) await exampleWith(page, first, `#form-${first}-attack`);
  else await page.click("#create");
  await logHas(page, 1);
  await ready(page);
}

async function sistema(browser, lang, width, errors) {
  const w = WORDS[lang];
  const gm = await seat(browser, lang, width, errors);
  try {
    await start(gm.page, "sistema-2d6", "ana");
    // Only what Ana carries (a pistol) and everyone's punch and kick; the default named.
    assert.deepEqual(await optionTexts(gm.page, "#form-ana-attack [name=weapon]"), [w.default, "Pistola", "Soco", "Chute"], lang);
    // French elides "que" before a vowel.
    assert.equal(await text(gm.page, '.actor-actions[data-actor="ana"] h3'), w.actionsOfAna);
    // No "v1": the round only.
    assert.equal(await gm.page.locator(".meta").innerText(), w.round);
    // Ana attacks, Capanga's player must defend, from their own page.
    const link = await gm.page.getAttribute('a.join[data-who="capanga"]', "href");
    await gm.page.click("#form-ana-attack button[type=submit]");
    await logHas(gm.page, 2);
    const player = await gm.ctx.newPage();
    player.on("pageerror", (error) => errors.push(`${lang}@${width} player: ${error}`));
    await player.goto(base + link);
    await player.waitForSelector("#form-capanga-defend", { timeout: TIMEOUT });
    assert.equal(await text(player, "#seat"), w.seat);
    assert.equal(await text(player, '#combatants [data-id="capanga"] .badge.you'), w.you);
    assert.equal(await player.locator("#combatants .badge.you").count(), 1);
    // The defense's skill and attribute are the sheet's own (Capanga: Briga, Esquiva; FOR, DES, CON, in the sheet's order).
    assert.deepEqual((await optionTexts(player, "#form-capanga-defend [name=skill]")).slice(1), ["Briga", "Esquiva"]);
    assert.deepEqual((await optionTexts(player, "#form-capanga-defend [name=attribute]")).slice(1), ["FOR", "DES", "CON"]);
    await player.selectOption("#form-capanga-defend [name=skill]", { label: "Esquiva" });
    await noOverflow(player, `sistema player ${lang}@${width}`);
    if (width === 390) await player.screenshot({ path: `${OUTPUT}newcomer-player-${lang}-390.png`, fullPage: true });
    await player.click("#form-capanga-defend button[type=submit]");
    await logHas(player, 3);
    // A condition the GM sets is named in the page's language (the ruleset's labels, under "condition").
    const labels = (await rulesetOf(gm.page, "sistema-2d6")).labels;
    await logHas(gm.page, 3);
    await ready(gm.page);
    await gm.page.click("#gm-tools-box summary");
    const form = "#form-gm-condition";
    const variants = await optionTexts(gm.page, `${form}-variant`);
    await gm.page.selectOption(`${form}-variant`, { index: variants.indexOf("Capanga") }); // the first: a condition by its code
    await gm.page.selectOption(`${form} [name=code]`, { label: labels[lang].condition.unconscious });
    await gm.page.click(`${form} button[type=submit]`);
    await logHas(gm.page, 4);
    await gm.page.waitForFunction((words) => document.querySelector('#combatants [data-id="capanga"] .conditions')?.textContent.includes(words),
      labels[lang].condition.unconscious, { timeout: TIMEOUT });
    if (lang !== "en") assert.doesNotMatch(await text(gm.page, '#combatants [data-id="capanga"] .conditions'), /unconscious/i);
    await player.close();
  } finally { await gm.ctx.close(); }
}

async function duel(browser, lang, width, errors) {
  const w = WORDS[lang];
  const gm = await seat(browser, lang, width, errors);
  try {
    await start(gm.page, "duel-2d6");
    // The wound level is on the card, and its malus once it has one.
    assert.equal(await text(gm.page, '#combatants [data-id="philip"] .wound'), w.noWound);
    await gm.page.click("#gm-tools-box summary");
    const adjust = "#form-gm-adjust";
    await gm.page.selectOption(`${adjust}-variant`, { label: "Philip" });
    await gm.page.fill(`${adjust}-change-malus`, "-1");
    await gm.page.click(`${adjust} button[type=submit]`);
    await logHas(gm.page, 2);
    await gm.page.waitForFunction((words) => document.querySelector('#combatants [data-id="philip"] .wound')?.textContent === words, w.malus, { timeout: TIMEOUT });
    // A newcomer's sheet the rules refuse: the error is said next to its field, in the page's language.
    await ready(gm.page);
    const join = "#form-gm-join";
    if (await gm.page.isHidden(join)) await gm.page.click("#gm-tools-box summary");
    await gm.page.fill(`${join}-combatant-name`, "Zoé");
    await gm.page.click(`${join} fieldset.sheet > details.sheet-fold > summary`);
    await gm.page.fill(`${join} fieldset.sheet [data-pointer="/pv"]`, "0");
    await gm.page.click(`${join} button[type=submit]`);
    await gm.page.waitForSelector(`${join} .field-error`, { timeout: TIMEOUT });
    assert.equal(await gm.page.locator(`${join} .field-error`).textContent(), w.pvRange);
    assert.equal(await gm.page.getAttribute(`${join} fieldset.sheet [data-pointer="/pv"]`, "aria-invalid"), "true");
    await assertNoJargon(gm.page, `join ${lang}`);
    assert.doesNotMatch(await gm.page.locator("#error").innerText(), /Must be|\/combatant/);
  } finally { await gm.ctx.close(); }
}

async function darkEarth(browser, lang, width, errors) {
  const w = WORDS[lang];
  const gm = await seat(browser, lang, width, errors);
  try {
    await start(gm.page, "dark-earth");
    const form = "#form-kael-allocate";
    // The form says the dice must add up to the potential, and sums them as they are typed.
    assert.equal(await text(gm.page, `${form} fieldset.keys .hint`), w.hint);
    assert.equal(await text(gm.page, `${form} label[for$="-split-init"] .label-text`), `${w.initLabel} *`);
    await gm.page.fill(`${form}-split-init`, "3");
    assert.equal(await text(gm.page, `${form} output.sum`), w.sum);
    // Left empty, attack and defense dice are said to be needed, next to them, in the page's language.
    await gm.page.click(`${form} button[type=submit]`);
    await gm.page.waitForSelector(`${form} .field-error`, { timeout: TIMEOUT });
    assert.equal(await gm.page.locator(`${form} .field-error`).first().textContent(), w.missing);
    assert.equal(await gm.page.getAttribute(`${form}-split-att`, "aria-invalid"), "true");
    await assertNoJargon(gm.page, `dark-earth ${lang}`);
    // A sum that falls short is refused by the rules, said in the page's language.
    await gm.page.fill(`${form}-split-att`, "2");
    await gm.page.fill(`${form}-split-def`, "1");
    await gm.page.click(`${form} button[type=submit]`);
    await gm.page.waitForFunction((f) => document.querySelectorAll(`${f} .field-error`).length === 1
      && !document.querySelector(`${f}-split-init`).closest("label").nextElementSibling?.matches(".field-error"), form, { timeout: TIMEOUT });
    assert.equal(await gm.page.locator(`${form} .field-error`).textContent(), w.sumWrong);
    assert.match(await text(gm.page, "#error .detail"), new RegExp(w.sumWrong.replace(/[.()]/g, "\\$&")));
    if (width === 390) await gm.page.screenshot({ path: `${OUTPUT}newcomer-split-${lang}-390.png`, fullPage: true });
    await noOverflow(gm.page, `dark-earth ${lang}@${width}`);
    await gm.page.fill(`${form}-split-def`, "2");
    await gm.page.click(`${form} button[type=submit]`);
    await logHas(gm.page, 2);
    assert.equal(await gm.page.isHidden("#error"), true);
  } finally { await gm.ctx.close(); }
}

const browser = await launch();
const errors = [];
let passed = 0;
try {
  // Every fix in every language; each language at both widths across the checks.
  for (const [lang, widths] of [["en", [1280, 390]], ["fr", [390, 1280]], ["pt", [1280, 390]]]) {
    await sistema(browser, lang, widths[0], errors);
    await duel(browser, lang, widths[1], errors);
    await darkEarth(browser, lang, widths[1], errors);
    passed += 1;
  }
  assert.deepEqual(errors, []);
  console.log(`newcomer: ${passed} passed, 0 failed`);
} finally {
  await browser.close();
}
