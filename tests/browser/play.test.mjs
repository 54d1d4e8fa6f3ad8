// Drives /play in Debian's headless Chromium: a game master (desktop, French)
// and a player (phone, Brazilian Portuguese), in two browser contexts, play a
// fight to its end; then every language at desktop and phone sizes is
// screenshotted and checked for horizontal overflow and raw ids.
// Usage: node play.test.mjs <base URL>   (screenshots go to ./output/, gitignored)
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM } from "./chromium.mjs";

const base = process.argv[2];
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const TIMEOUT = 15000;
const OUTPUT = new URL("./output/", import.meta.url).pathname;
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 740 }, phone390: { width: 390, height: 844 } };
mkdirSync(OUTPUT, { recursive: true });

// A fresh profile per context: launchPersistentContext is how playwright takes --user-data-dir.
async function context(name, viewport, locale) {
  const dir = mkdtempSync(join(tmpdir(), `melee-${name}-`));
  const ctx = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport, locale });
  return { ctx, dir, page: ctx.pages()[0] || (await ctx.newPage()) };
}

const logHas = (page, seq) => page.waitForSelector(`#log li[data-seq="${seq}"]`, { timeout: TIMEOUT });
const texts = (page, selector) => page.locator(selector).allTextContents();
const optionTexts = (page, selector) => page.locator(`${selector} option`).allTextContents();
const versionIs = (page, version) =>
  page.waitForFunction((v) => document.querySelector("#version").textContent === String(v), version, { timeout: TIMEOUT });

// Nothing a person reads may be a raw id (no snake_case word in labels,
// options or cards), and every control has a label.
async function assertReadable(page) {
  const shown = [...await texts(page, ".label-text, legend, option, .combatant, #awaiting li, h4, summary, button")];
  const raw = shown.filter((text) => /\b[a-z]+_[a-z_]+\b/.test(text));
  assert.deepEqual(raw, [], "raw ids shown");
  const unlabelled = await page.evaluate(() => [...document.querySelectorAll("input, select")]
    .filter((control) => !control.labels.length && !control.getAttribute("aria-label")).map((control) => control.id || control.name));
  assert.deepEqual(unlabelled, [], "controls without a label");
}

async function screenshots(page, name) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
    await page.screenshot({ path: `${OUTPUT}${name}-${size}.png`, fullPage: true });
    assert.ok(overflow <= 0, `${name} at ${size}: ${overflow}px of horizontal overflow`);
  }
}

async function setLanguage(page, lang) {
  await page.selectOption("#lang", lang);
  await page.waitForFunction((l) => document.documentElement.lang.startsWith(l), lang, { timeout: TIMEOUT });
}

const gm = await context("gm", SIZES.desktop, "fr-FR");
const player = await context("player", SIZES.phone, "pt-BR");
try {
  const errors = [];
  for (const { page } of [gm, player]) {
    page.on("pageerror", (error) => errors.push(String(error)));
    // A Content-Security-Policy violation is only a console error: the page must cause none.
    page.on("console", (message) => {
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
    });
  }

  // The interface follows the browser's language.
  await gm.page.goto(`${base}/play`);
  await gm.page.waitForSelector('#ruleset option[value="sistema-2d6"]', { state: "attached", timeout: TIMEOUT });
  assert.equal(await gm.page.textContent("#create"), "Lancer le combat d'exemple");
  await gm.page.selectOption("#ruleset", "sistema-2d6");
  await gm.page.click("#create");
  await logHas(gm.page, 1);
  assert.equal(await gm.page.locator("#combatants li.combatant").count(), 2);
  assert.match(await gm.page.textContent('#combatants [data-id="ana"]'), /PV 14 \/ 14/);
  assert.match(await gm.page.textContent("#awaiting"), /Ana \(à son tour\)/);

  // The GM's forms come from /options, with labels: Ana's attack offers the one
  // possible target by name, and a boolean with a default can be left, set or unset.
  const attack = "#form-ana-attack";
  await gm.page.waitForSelector(attack, { timeout: TIMEOUT });
  assert.equal(await gm.page.textContent(`${attack} label[for$="-target"] .label-text`), "Cible *");
  assert.deepEqual(await optionTexts(gm.page, `${attack} [name=target]`), ["Capanga"]);
  assert.deepEqual(await optionTexts(gm.page, `${attack} [name=lethal]`), ["(par défaut)", "non", "oui"]);
  assert.ok((await optionTexts(gm.page, `${attack} [name=weapon]`)).includes("Pistola"));
  assert.ok((await optionTexts(gm.page, `${attack} [name=location]`)).includes("cheville"));
  await assertReadable(gm.page);

  // The player joins from the link the GM shares, on a phone, in Portuguese;
  // their page offers nothing while Ana is awaited.
  const link = await gm.page.getAttribute('a.join[data-who="capanga"]', "href");
  await player.page.goto(base + link);
  await logHas(player.page, 1);
  assert.match(await player.page.textContent("#actions"), /Aguardando Ana\./);
  assert.equal(await player.page.locator("form.action").count(), 0);
  assert.equal(await player.page.isHidden("#new-combat"), true);

  // The odds call shows its loading state (the answer is held until checked).
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  let oddsAsked;
  await gm.page.route("**/odds", async (route) => { oddsAsked = route.request().postDataJSON(); await held; await route.continue(); });
  await gm.page.selectOption(`${attack} [name=lethal]`, { label: "non" }); // a default of true can be sent as false
  await gm.page.click(`${attack} button.odds`);
  await gm.page.waitForFunction((f) => document.querySelector(`${f} .odds-result`).textContent === "Calcul en cours…", attack, { timeout: TIMEOUT });
  assert.equal(await gm.page.getAttribute(`${attack} button.odds`, "aria-busy"), "true");
  assert.deepEqual(oddsAsked, { action: { type: "attack", actor: "ana", target: "capanga", lethal: false } });
  release();
  await gm.page.waitForFunction((f) => /%/.test(document.querySelector(`${f} .odds-result`).textContent), attack, { timeout: TIMEOUT });
  assert.match(await gm.page.textContent(`${attack} .odds-result`), /dégâts attendus pour Capanga/);
  assert.match(await gm.page.textContent(`${attack} .odds-result`), /touché critique\u00a0: \d/);
  await gm.page.unroute("**/odds");
  await gm.page.selectOption(`${attack} [name=lethal]`, { label: "(par défaut)" });

  // The GM rolls Ana's dice at the table and types them in the die inputs.
  await gm.page.click(`${attack} details.dice summary`);
  assert.equal(await gm.page.textContent(`${attack} label[for$="-die-0"] .label-text`), "Dé 1 (d6)");
  await gm.page.fill(`${attack} #form-ana-attack-die-0`, "6");
  await gm.page.fill(`${attack} #form-ana-attack-die-1`, "6");
  await gm.page.click(`${attack} button[type=submit]`);
  await logHas(gm.page, 2);
  await logHas(player.page, 2);
  const rolls = await gm.page.evaluate(async () => {
    const hash = new URLSearchParams(location.hash.slice(1));
    const answer = await fetch(`/combats/${hash.get("combat")}/events?after=1`, { headers: { Authorization: `Bearer ${hash.get("token")}` } });
    return (await answer.json()).items[0].rolls.slice(0, 2).map((r) => [r.value, r.source]);
  });
  assert.deepEqual(rolls, [[6, "gm"], [6, "gm"]]);

  // The player must answer; a die that does not fit is refused with a
  // Portuguese lead sentence above the server's detail (in the browser's Accept-Language), and nothing changes.
  const defend = "#form-capanga-defend";
  await player.page.waitForSelector(defend, { timeout: TIMEOUT });
  await assertReadable(player.page);
  await player.page.click(`${defend} details.dice summary`);
  await player.page.selectOption(`${defend} select[id$="-faces"]`, "100");
  await player.page.click(`${defend} button.add-die`);
  await player.page.fill(`${defend} #form-capanga-defend-die-2`, "77");
  await player.page.click(`${defend} button[type=submit]`);
  await player.page.waitForSelector("#error:not([hidden])", { timeout: TIMEOUT });
  assert.equal(await player.page.textContent("#error strong"), "Algo no formulário não foi aceito.");
  assert.ok((await player.page.textContent("#error .detail")).length > 0);
  assert.equal(await player.page.textContent("#version"), "2");
  await player.page.click(`${defend} button.remove-die`);
  const sent = player.page.waitForRequest((request) => request.url().endsWith("/actions") && request.method() === "POST");
  await player.page.click(`${defend} button[type=submit]`);
  assert.equal("dice" in (await sent).postDataJSON(), false, "empty die inputs leave the rolls to the server");
  await logHas(player.page, 3);
  await logHas(gm.page, 3);
  // The played form is gone: focus moves on to what the player can do next.
  await player.page.waitForFunction(() => document.activeElement?.matches("#actions h3, #fight-heading"), null, { timeout: TIMEOUT });
  assert.equal(await player.page.isHidden("#error"), true);
  assert.match(await gm.page.textContent('#log li[data-seq="3"]'), /Capanga · Se défendre/);

  // Health is shown per combatant and follows the fight.
  await versionIs(gm.page, 3);
  const hit = await gm.page.textContent('#combatants [data-id="capanga"] .health');
  assert.match(hit, /PV -?\d+ \/ 15/);

  // The log is narrated in each reader's language (the fight's is Portuguese),
  // and follows the interface when it changes.
  assert.match(await gm.page.textContent('#log li[data-seq="1"]'), /Le combat commence/);
  assert.match(await player.page.textContent('#log li[data-seq="1"]'), /O combate começa/);
  await setLanguage(gm.page, "en");
  await gm.page.waitForFunction(() => /The fight begins/.test(document.querySelector('#log li[data-seq="1"]')?.textContent || ""), null, { timeout: TIMEOUT });
  assert.match(await gm.page.textContent('#log li[data-seq="3"]'), /Capanga · Defend/);

  // Screenshots mid-fight, every language at every size, from both seats.
  for (const lang of ["en", "fr", "pt"]) {
    for (const [who, seat] of [["gm", gm], ["player", player]]) {
      await setLanguage(seat.page, lang);
      await assertReadable(seat.page);
      await screenshots(seat.page, `fight-${who}-${lang}`);
    }
  }
  await setLanguage(gm.page, "en");
  await setLanguage(player.page, "pt");

  // The GM's tools: a value set with a reason, narrated in each reader's language with the
  // reason as typed; then a newcomer with a sheet like Ana's, whose player's link is offered.
  await gm.page.click("#gm-tools-box summary");
  const adjust = "#form-gm-adjust";
  await gm.page.selectOption(`${adjust}-variant`, { label: "Ana" });
  assert.equal(await gm.page.textContent(`${adjust} fieldset.keys:has([name="set.pv"]) legend`), "Set to");
  await gm.page.fill(`${adjust}-reason`, "poison");
  await gm.page.fill(`${adjust}-set-pv`, "10");
  await gm.page.click(`${adjust} button[type=submit]`);
  await logHas(gm.page, 4);
  await logHas(player.page, 4);
  // Ana's 14 PV set to 10.
  assert.match(await gm.page.textContent('#log li[data-seq="4"]'), /The game master sets Ana's HP from 14 to 10 \(reason: poison\)\./);
  assert.match(await player.page.textContent('#log li[data-seq="4"]'), /Ana: o mestre muda os PV de 14 para 10 \(motivo: poison\)\./);
  assert.match(await gm.page.textContent('#combatants [data-id="ana"] .health'), /HP 10 \/ 14/);
  // The GM tools are built again from the new options (the typed reason is gone) before the next form is filled.
  await gm.page.waitForFunction(() => document.querySelector("#form-gm-adjust-reason")?.value === "", null, { timeout: TIMEOUT });
  const joinForm = "#form-gm-join";
  assert.equal(await gm.page.textContent(`${joinForm} h4`), "Add a combatant");
  assert.deepEqual(await optionTexts(gm.page, `${joinForm}-combatant-like`), ["Ana", "Capanga"]);
  await gm.page.fill(`${joinForm}-reason`, "reinforcements");
  await gm.page.fill(`${joinForm}-combatant-name`, "Rui");
  await gm.page.selectOption(`${joinForm}-combatant-side`, "heroes");
  await gm.page.selectOption(`${joinForm}-combatant-like`, { label: "Ana" });
  await assertReadable(gm.page);
  await gm.page.click(`${joinForm} button[type=submit]`);
  await logHas(gm.page, 5);
  await logHas(player.page, 5);
  assert.match(await gm.page.textContent('#log li[data-seq="5"]'), /Game master · Add a combatant/);
  assert.match(await gm.page.textContent('#log li[data-seq="5"]'), /Rui joins the fight \(heroes; reason: reinforcements\)\./);
  assert.match(await player.page.textContent('#log li[data-seq="5"]'), /Rui entra no combate \(heroes; motivo: reinforcements\)\./);
  await gm.page.waitForSelector('#combatants [data-id="rui"]', { timeout: TIMEOUT });
  assert.equal(await gm.page.textContent('a.join[data-who="rui"]'), "Rui");
  // Rui's player opens that link (a third browser, in French): the fight as it stands, Rui among the combatants.
  const newcomer = await context("newcomer", SIZES.phone, "fr-FR");
  try {
    await newcomer.page.goto(base + await gm.page.getAttribute('a.join[data-who="rui"]', "href"));
    await logHas(newcomer.page, 5);
    assert.match(await newcomer.page.textContent('#log li[data-seq="5"]'), /Rui entre dans le combat \(heroes ; motif : reinforcements\)\./);
    assert.match(await newcomer.page.textContent('#combatants [data-id="rui"]'), /PV 14 \/ 14/);
    assert.equal(await newcomer.page.isHidden("#new-combat"), true);
  } finally {
    await newcomer.ctx.close();
    rmSync(newcomer.dir, { recursive: true, force: true });
  }
  assert.equal(await gm.page.isHidden("#error"), true);
  await gm.page.click("#gm-tools-box summary");

  // The GM ends the fight from the GM tools; then neither page offers any form.
  await gm.page.click("#gm-tools-box summary");
  await gm.page.click("#form-gm-end_combat button[type=submit]");
  await gm.page.waitForSelector("#decided:not([hidden])", { timeout: TIMEOUT });
  await player.page.waitForSelector("#decided:not([hidden])", { timeout: TIMEOUT });
  assert.equal(await gm.page.textContent("#decided"), "The fight is over. Nothing more can be played.");
  assert.equal(await player.page.textContent("#decided"), "O combate terminou. Nada mais pode ser jogado.");
  assert.equal(await player.page.textContent("#status"), "encerrado");
  assert.equal(await gm.page.isHidden("#awaiting-heading"), true);
  assert.equal(await gm.page.locator("form.action").count(), 0);
  assert.equal(await player.page.locator("form.action").count(), 0);
  for (const lang of ["en", "fr", "pt"]) {
    await setLanguage(gm.page, lang);
    await screenshots(gm.page, `over-gm-${lang}`);
  }

  // Every other ruleset's example: its forms carry labels, fit a phone, and
  // the first awaited combatant's first move, sent from its form, is accepted.
  // The duel-2d6, space-opera-d100 and sistema-2d6 attacks carry the target's answer inline, from the GM's token.
  const firstMoves = {
    "duel-2d6": async () => {
      await gm.page.click("#form-truand-attack details.inline summary");
      assert.equal(await gm.page.textContent("#form-truand-attack details.inline summary"), "Réponse du défenseur, donnée dès maintenant");
      // Only the defenses against this maneuver (Coup simple), by their names in the seed.
      assert.deepEqual(await optionTexts(gm.page, "#form-truand-attack-defense-defense"),
        ["(la cible répondra)", "Esquiver", "Esquiver MA", "Bloquer", "Bloquer MA", "Amortir", "Feinte", "Contre-attaque", "Aucune défense"]);
      await gm.page.selectOption("#form-truand-attack-defense-defense", { label: "Esquiver" });
      await gm.page.click("#form-truand-attack button[type=submit]");
    },
    "dark-earth": async () => {
      for (const [key, dice] of [["init", "3"], ["att", "2"], ["def", "2"]]) await gm.page.fill(`#form-kael-allocate-split-${key}`, dice);
      await gm.page.click("#form-kael-allocate button[type=submit]");
    },
    "space-opera-d100": async () => {
      await gm.page.click("#form-kira-attack details.inline summary");
      assert.equal(await gm.page.textContent("#form-kira-attack details.inline summary"), "Reação do alvo, declarada agora");
      await gm.page.selectOption("#form-kira-attack-reaction-kind", { index: 1 });
      await gm.page.click("#form-kira-attack button[type=submit]");
    },
    "sistema-2d6": async () => {
      await gm.page.click("#form-ana-attack details.inline summary");
      await gm.page.selectOption("#form-ana-attack-defense-skill", "Esquiva");
      await gm.page.click("#form-ana-attack button[type=submit]");
    },
    "age-du-silicium": async () => {
      await gm.page.selectOption("#form-krieg-declare-actions-0", { index: 1 });
      await gm.page.click("#form-krieg-declare button[type=submit]");
    },
  };
  // What each inline answer reads as in the log: the target answered, and is not asked to defend or react.
  const answered = {
    "duel-2d6": [/Le truand attaque Philip, qui choisit Esquiver\./, "philip"],
    "space-opera-d100": [/Garde se esquiva: \d+ contra \d+/, "garde"],
    "sistema-2d6": [/Capanga defends: \d+, \d+ → \d+\./, "capanga"],
  };
  for (const [ruleset, lang] of [["duel-2d6", "fr"], ["dark-earth", "en"], ["space-opera-d100", "pt"], ["age-du-silicium", "fr"], ["sistema-2d6", "en"]]) {
    await gm.page.setViewportSize(SIZES.desktop);
    await setLanguage(gm.page, lang);
    await gm.page.selectOption("#ruleset", ruleset);
    await gm.page.click("#create");
    // Ready: the new fight's name, its first log entry and the forms of whoever it awaits.
    await gm.page.waitForFunction(() => {
      const awaited = document.querySelector("#awaiting li")?.dataset.actor;
      return document.querySelector("#ruleset-name").textContent === document.querySelector("#ruleset").selectedOptions[0].text
        && document.querySelector('#log li[data-seq="1"]') && document.querySelector(`.actor-actions[data-actor="${awaited}"] form.action`);
    }, null, { timeout: TIMEOUT });
    await gm.page.click("#gm-tools-box summary");
    await assertReadable(gm.page);
    await screenshots(gm.page, `${ruleset}-gm-${lang}`);
    await gm.page.setViewportSize(SIZES.desktop);
    await firstMoves[ruleset]();
    await logHas(gm.page, 2);
    assert.equal(await gm.page.isHidden("#error"), true, ruleset);
    if (answered[ruleset]) {
      const [said, target] = answered[ruleset];
      assert.match(await gm.page.textContent('#log li[data-seq="2"]'), said, ruleset);
      const awaiting = await gm.page.evaluate(async () => {
        const hash = new URLSearchParams(location.hash.slice(1));
        const answer = await fetch(`/combats/${hash.get("combat")}`, { headers: { Authorization: `Bearer ${hash.get("token")}` } });
        return (await answer.json()).awaiting;
      });
      const prompted = awaiting.filter((w) => w.actor === target && w.actions.some((a) => a === "defend" || a === "react"));
      assert.deepEqual(prompted, [], ruleset);
    }
  }

  assert.deepEqual(errors, []);
  console.log("play: 1 passed, 0 failed");
} finally {
  for (const { ctx, dir } of [gm, player]) {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
