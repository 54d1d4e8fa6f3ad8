// What the browser tests of /play share: one headless Chromium (Debian's, as
// play.test.mjs uses), a context per seat, and small waits on the page's state.
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { chromium } from "playwright-core";
import { CHROMIUM } from "./chromium.mjs";

export const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
export const TIMEOUT = 60000; // a ceiling on waits for a state (a loaded 2-core machine), never a pause
export const OUTPUT = new URL("./output/", import.meta.url).pathname;
export const WIDTHS = { 1280: { width: 1280, height: 800 }, 390: { width: 390, height: 844 } };
export const LOCALES = { en: "en-US", fr: "fr-FR", pt: "pt-BR" };
mkdirSync(OUTPUT, { recursive: true });

export async function launch() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
}

// A fresh context (its own local storage) in a language at a width; page errors and CSP violations collected.
export async function seat(browser, lang, width, errors, options = {}) {
  const ctx = await browser.newContext({ viewport: WIDTHS[width], locale: LOCALES[lang], acceptDownloads: true, ...options });
  const page = await ctx.newPage();
  page.on("pageerror", (error) => errors.push(`${lang}@${width}: ${error}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  return { ctx, page };
}

export const logHas = (page, seq) => page.waitForSelector(`#log li[data-seq="${seq}"]`, { timeout: TIMEOUT });
export const optionTexts = (page, selector) => page.locator(`${selector} option`).allTextContents();
export const text = (page, selector) => page.textContent(selector, { timeout: TIMEOUT });

// The fight's forms are built for the combat's current version (its seat's forms are there).
export async function ready(page) {
  await page.waitForFunction(() => {
    const version = document.querySelector("#version")?.textContent;
    const decided = !document.querySelector("#decided")?.hidden;
    const awaited = [...document.querySelectorAll("#awaiting li")].map((li) => li.dataset.actor);
    const forms = document.querySelector("#actions").dataset.version === version
      && awaited.some((a) => document.querySelector(`.actor-actions[data-actor="${a}"] form.action`));
    return version && document.querySelector(`#log li[data-seq="${version}"]`) && (decided || forms || !document.querySelector("#new-combat:not([hidden])"));
  }, null, { timeout: TIMEOUT });
}

export async function noOverflow(page, label) {
  const overflow = await page.evaluate(() => document.scrollingElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${label}: ${overflow}px of horizontal overflow`);
}

// The combat as the GM sees it, read with the page's own token.
export function combatNow(page) {
  return page.evaluate(async () => {
    const hash = new URLSearchParams(location.hash.slice(1));
    const answer = await fetch(`/combats/${hash.get("combat")}`, { headers: { Authorization: `Bearer ${hash.get("token")}` } });
    return answer.json();
  });
}

export function rulesetOf(page, id) {
  return page.evaluate(async (ruleset) => (await fetch(`/rulesets/${ruleset}`)).json(), id);
}

// A value the page shows no snake_case id, no pointer, no English marshmallow sentence.
export async function assertNoJargon(page, label) {
  const body = await page.locator("main").innerText();
  assert.doesNotMatch(body, /Missing data for required field|Not a valid integer|\/split\/|Must be one of/, `${label}: raw server words`);
}

// The example fight, started again until `first` is the first awaited (and, when given, has
// the form `form`): /play posts the example without its seed, so the dice are fresh and
// who acts first, and how, varies.
export async function exampleWith(page, first, form = null, most = 30) {
  for (let n = 0; n < most; n++) {
    const before = await page.evaluate(() => location.hash);
    await page.click("#create");
    await page.waitForFunction((hash) => location.hash !== hash && document.querySelector('#log li[data-seq="1"]')
      && (document.querySelector("#awaiting li") || !document.querySelector("#decided").hidden)
      && document.querySelector("#actions").dataset.version === document.querySelector("#version").textContent, before, { timeout: TIMEOUT });
    if ((await page.getAttribute("#awaiting li", "data-actor")) === first && (!form || (await page.locator(form).count()))) return n + 1;
  }
  throw new Error(`${first} was never the first to act${form ? ` (${form})` : ""} in ${most} example fights`);
}
