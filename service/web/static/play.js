// Melee /play: a game master starts a fight and shares one link per player;
// everyone sees the combatants and the log live and acts from forms built
// from GET /combats/{id}/options (only the legal choices, with their labels).
// Everything here is what a VTT module does: see docs/vtt.md.

import { $, LANGS, actionLabel, api, busy, follow, humanize, known, nameOf, page, pageError, pickLanguage, showError, t, valueLabel } from "./play-core.js";
import { loadForms } from "./play-forms.js";
import { download, renderRoster, setUpRoster } from "./play-roster.js";

function translatePage() {
  document.documentElement.lang = page.lang === "pt" ? "pt-BR" : page.lang;
  document.title = t("title");
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  $("lang").value = page.lang;
  renderLogLanguages();
  renderLinks();
  $("log").replaceChildren(...page.entries.map(logItem));
  if (page.combat) render(page.combat);
  renderRoster().catch(showError);
}


// ---- creating and joining ----------------------------------------------

async function loadRulesets() {
  const rulesets = await api("GET", "/rulesets");
  $("ruleset").replaceChildren(...rulesets.map((r) => new Option(r.name, r.id)));
}

async function createCombat(event) {
  event.preventDefault();
  showError(null);
  const button = $("create");
  busy(button, true, t("sending"));
  try {
    page.token = null;
    const ruleset = await api("GET", `/rulesets/${$("ruleset").value}`);
    // Without the example's public seed and supplied dice: the server draws fresh dice, nobody knows them beforehand.
    const { seed: _seed, dice: _dice, ...combat } = ruleset.example.combat;
    await opened(await api("POST", "/combats", combat));
  } catch (error) { showError(error); } finally { busy(button, false); }
}

// A fight just created (the example's or the roster's): its links to share, then the GM's seat.
async function opened(created) {
  page.links = { id: created.id, tokens: [["gm", created.tokens.gm], ...Object.entries(created.tokens.combatants)],
    names: created.combatants.map(({ id, name }) => ({ id, name })) };
  keepLinks();
  renderLinks();
  $("share").hidden = false;
  await join(created.id, created.tokens.gm, "gm");
}

// ---- the players' links ------------------------------------------------------
// Kept in this browser (local storage) for the fights it started or resumed, so a
// reload of the GM's page still shows them; failing that, the GM mints new ones
// (POST /combats/{id}/tokens, one player token per combatant; the old ones keep working).

const LINKS_KEY = "melee-links";
const LINKS_KEPT = 20;

function keptLinks() {
  try {
    const stored = JSON.parse(localStorage.getItem(LINKS_KEY) || "[]");
    return Array.isArray(stored) ? stored.filter((l) => l && typeof l.id === "string" && Array.isArray(l.tokens)) : [];
  } catch { return []; }
}

function keepLinks() {
  if (!page.links) return;
  const others = keptLinks().filter((l) => l.id !== page.links.id);
  localStorage.setItem(LINKS_KEY, JSON.stringify([page.links, ...others].slice(0, LINKS_KEPT)));
}

function reopenLinks(combatId) {
  if (page.links?.id === combatId) return;
  page.links = keptLinks().find((l) => l.id === combatId) || { id: combatId, tokens: [["gm", page.token]], names: [] };
}

async function mintLinks() {
  showError(null);
  const button = $("mint-links");
  busy(button, true, t("sending"));
  try {
    const combatants = page.combat?.combatants || [];
    const minted = [];
    for (const { id } of combatants) minted.push([id, (await api("POST", `/combats/${page.combatId}/tokens`, { role: "player", combatant: id })).token]);
    const gm = page.links?.id === page.combatId ? page.links.tokens.filter(([who]) => who === "gm") : [];
    page.links = { id: page.combatId, tokens: [...(gm.length ? gm : [["gm", page.token]]), ...minted],
      names: combatants.map(({ id, name }) => ({ id, name })) };
    keepLinks();
    renderLinks();
    $("links-status").textContent = t("links.minted");
  } catch (error) { showError(error); } finally { busy(button, false); }
}

// ---- save and resume -------------------------------------------------------
// The file holds the sealed snapshot (GET /combats/{id}/snapshot, the GM's token)
// and what the page needs to go on: where, which fight, the GM's token, the players' links.

async function saveFight() {
  showError(null);
  const button = $("save-fight");
  busy(button, true, t("sending"));
  try {
    const { snapshot } = await api("GET", `/combats/${page.combatId}/snapshot`);
    const links = page.links?.id === page.combatId ? page.links : { id: page.combatId, tokens: [["gm", page.token]], names: [] };
    download(`melee-${page.combatId}.json`, {
      melee_fight: 1, base: location.origin, combat: page.combatId, ruleset: page.combat?.ruleset, saved_at: new Date().toISOString(),
      gm_token: page.token, links: links.tokens, names: links.names, snapshot,
    });
    $("save-status").textContent = t("saved");
  } catch (error) { showError(error); } finally { busy(button, false); }
}

async function resumeFight(event) {
  const file = event.target.files?.[0];
  event.target.value = "";
  if (!file) return;
  showError(null);
  let saved;
  try {
    saved = JSON.parse(await file.text());
    if (typeof saved?.snapshot !== "string" || typeof saved.combat !== "string" || typeof saved.gm_token !== "string") throw new Error("shape");
  } catch { showError(pageError(t("badFightFile"))); return; }
  try {
    page.token = null;
    try {
      await api("POST", "/combats", { snapshot: saved.snapshot });
    } catch (error) {
      if (error.status !== 409) throw error; // 409: the fight is still live, it is simply reopened
    }
    page.links = { id: saved.combat, tokens: Array.isArray(saved.links) ? saved.links : [["gm", saved.gm_token]], names: Array.isArray(saved.names) ? saved.names : [] };
    keepLinks();
    renderLinks();
    $("share").hidden = false;
    await join(saved.combat, saved.gm_token, "gm");
    $("setup-status").textContent = t("resumed");
  } catch (error) { showError(error); }
}

function renderLinks() {
  if (!page.links) return;
  const { id, tokens, names } = page.links;
  // Whose player has no link here (a reload without the links kept): the GM makes new ones.
  const missing = (page.combat?.combatants || []).filter((c) => !tokens.some(([who]) => who === c.id));
  $("links-missing").hidden = page.combat?.id !== id || missing.length === 0;
  $("join-links").replaceChildren(...tokens.map(([who, token]) => {
      const item = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/play#combat=${id}&token=${encodeURIComponent(token)}&as=${encodeURIComponent(who)}`;
      a.className = "join";
      a.dataset.who = who;
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = who === "gm" ? t("gm") : names.find((c) => c.id === who)?.name || nameOf(who);
      item.append(a);
      return item;
    }));
}

// A newcomer the GM brought in (join): its player's link, shown once by the server, joins the links to share.
function addLinks({ tokens, combat }) {
  if (!page.links || page.links.id !== page.combatId) page.links = { id: page.combatId, tokens: [], names: [] };
  for (const [who, token] of Object.entries(tokens)) {
    page.links.tokens.push([who, token]);
    page.links.names.push({ id: who, name: combat.combatants.find((c) => c.id === who)?.name || who });
  }
  keepLinks();
  renderLinks();
  $("share").hidden = false;
}

async function join(combatId, token, viewer) {
  for (const id of ["actions", "gm-tools", "combatants", "awaiting"]) $(id).replaceChildren();
  resetLog();
  page.combatId = combatId;
  page.token = token;
  history.replaceState(null, "", `#combat=${combatId}&token=${encodeURIComponent(token)}&as=${encodeURIComponent(viewer || "")}`);
  const combat = await api("GET", `/combats/${combatId}`);
  page.ruleset = await api("GET", `/rulesets/${combat.ruleset}`);
  // The roster shows this fight's ruleset (a resumed or linked fight may be of another).
  if ($("ruleset").value !== combat.ruleset && [...$("ruleset").options].some((o) => o.value === combat.ruleset)) {
    $("ruleset").value = combat.ruleset;
    renderRoster().catch(showError);
  }
  page.viewer = viewer || (await api("GET", `/combats/${combatId}/options?actor=gm`).then(() => "gm", () => null));
  $("fight").hidden = false;
  // A player's link is for playing, not for starting fights or keeping characters.
  $("new-combat").hidden = page.viewer !== "gm";
  $("roster-box").hidden = page.viewer !== "gm";
  $("save-box").hidden = page.viewer !== "gm";
  if (page.viewer === "gm") {
    reopenLinks(combatId);
    $("share").hidden = false;
  } else {
    $("share").hidden = true;
  }
  renderLogLanguages();
  render(combat);
  renderLinks();
  listen();
}

// ---- undo (the game master's) ------------------------------------------------
// POST /combats/{id}/undo: the fight goes back to before its last action; the undo
// is itself an entry of the log, so every page following the fight sees it.

async function undoLast() {
  showError(null);
  const button = $("undo");
  busy(button, true, t("sending"));
  try {
    const answer = await api("POST", `/combats/${page.combatId}/undo`);
    $("save-status").textContent = t("undo.done");
    await render(answer.combat);
  } catch (error) {
    if (error.status === 409 && /action-not-allowed/.test(error.type)) showError(pageError(t("undo.nothing")));
    else showError(error);
  } finally { busy(button, false); }
}

// ---- the log, live -----------------------------------------------------
// The SDK's subscription (play-core.js follow: the token in a header, never in the
// URL) announces each entry; it is read back from GET /events in the reader's log language.

function listen() {
  if (page.stream) page.stream.close();
  resetLog();
  page.stream = follow({
    onEntry: (entry) => { if (entry.seq > page.lastSeq) catchUp().catch(showError); },
    onStatus: (status) => setLive(status, status === "live"),
    // The store lost entries this page had shown (a Redis rollback): the log starts again, empty.
    onReset: () => resetLog(),
    onEnd: (why) => setLive(why, false),
  });
}

function setLive(key, on) {
  $("live").dataset.i18n = key;
  $("live").textContent = t(key);
  $("live").classList.toggle("on", on);
}

let catchingUp = null;
async function catchUp() {
  if (catchingUp) return catchingUp.then(() => catchUp());
  catchingUp = (async () => {
    const language = page.logLang === "fight" ? "*" : page.logLang;
    const generation = page.logGeneration;
    let after = page.lastSeq;
    for (;;) {
      const answer = await api("GET", `/combats/${page.combatId}/events?after=${after}`, undefined, { "Accept-Language": language });
      if (generation !== page.logGeneration) return; // the log was reset meanwhile: those words are stale
      if (answer.reset) return listen(); // the store lost entries shown here: start again from an empty log
      for (const entry of answer.items) appendEntry(entry);
      if (!answer.next_after) break;
      after = answer.next_after;
    }
    if (!page.combat || page.lastSeq > page.combat.version) render(await api("GET", `/combats/${page.combatId}`));
  })();
  try { await catchingUp; } finally { catchingUp = null; }
}

function resetLog() {
  $("log").replaceChildren();
  page.lastSeq = 0;
  page.entries = [];
  page.logGeneration += 1;
}

function appendEntry(entry) {
  if (entry.seq <= page.lastSeq) return;
  page.lastSeq = entry.seq;
  page.entries.push(entry);
  $("log").append(logItem(entry));
  $("log").lastElementChild.scrollIntoView({ block: "nearest" });
}

function logItem(entry) {
  const item = document.createElement("li");
  item.dataset.seq = entry.seq;
  const head = document.createElement("span");
  head.className = "entry-head";
  head.textContent = entry.action.type === "start" ? `#${entry.seq}` : `#${entry.seq} ${nameOf(entry.action.actor)} · ${entry.action.actor === "gm" && entry.action.type === "join" ? t("join.action") : actionLabel(entry.action.type)}`;
  const text = document.createElement("span");
  text.textContent = entry.events.map((e) => e.text).join(" ");
  text.lang = page.logLang === "fight" ? page.combat?.lang || "" : page.logLang;
  item.append(head, " ", text);
  return item;
}

// The log is read in the interface's language by default (the server narrates
// in the one asked for); "fight" keeps the combat's own (Accept-Language: *).
function setLogLanguage(lang) {
  page.logLang = lang;
  resetLog();
  if (page.combatId) catchUp().catch(showError);
}

function renderLogLanguages() {
  const select = $("log-lang");
  const fightLang = page.combat?.lang || page.ruleset?.language || "";
  select.replaceChildren(new Option(t("logFight", { lang: t(`langNames.${fightLang}`) || fightLang }), "fight"),
    ...LANGS.map((lang) => new Option(t(`langNames.${lang}`), lang)));
  select.value = page.logLang;
}

// ---- the fight ---------------------------------------------------------

function render(combat) {
  page.combat = combat;
  const active = combat.status === "active";
  $("status").textContent = known(`status.${combat.status}`) ?? humanize(combat.status);
  $("status").className = `badge ${active ? "on" : "off"}`;
  $("ruleset-name").textContent = page.ruleset?.name || combat.ruleset;
  $("round").textContent = t("round", { n: combat.round });
  $("version").textContent = combat.version;
  $("version").dataset.version = combat.version;
  $("combatants").replaceChildren(...combat.combatants.map(card));
  // A player's page says whose seat it is.
  const mine = combat.combatants.find((c) => c.id === page.viewer);
  $("seat").hidden = !mine;
  $("seat").textContent = mine ? t("yourCombatant", { who: mine.name }) : "";
  $("awaiting").replaceChildren(...(active ? combat.awaiting : []).map((w) => {
    const item = document.createElement("li");
    item.dataset.actor = w.actor;
    const reason = known(`reasons.${w.reason}`) ?? humanize(w.reason);
    item.textContent = `${nameOf(w.actor)} (${reason})${t("sep")}${w.actions.map(actionLabel).join(", ")}`;
    return item;
  }));
  $("awaiting-none").hidden = !active || combat.awaiting.length > 0;
  $("decided").hidden = active;
  $("awaiting-heading").hidden = !active;
  if (!active) { $("actions").replaceChildren(); $("gm-tools").replaceChildren(); $("gm-tools-box").hidden = true; return; }
  return loadForms(combat, render).catch(showError);
}

const signed = (n) => (Number(n) > 0 ? `+${n}` : String(n).replace("-", "\u2212"));

function card(combatant) {
  const item = document.createElement("li");
  item.className = "combatant";
  item.dataset.id = combatant.id;
  if (page.combat.awaiting.some((w) => w.actor === combatant.id) && page.combat.status === "active") item.classList.add("awaited");
  const title = document.createElement("h3");
  title.textContent = combatant.name;
  if (combatant.id === page.viewer) {
    item.classList.add("mine");
    title.append(" ", Object.assign(document.createElement("span"), { className: "badge you", textContent: t("you") }));
  }
  const side = document.createElement("p");
  side.className = "side";
  side.textContent = `${t("side")}${t("sep")}${valueLabel("side", combatant.side)}`;
  item.append(title, side);
  const key = ["pv", "blessures"].find((k) => combatant[k] !== undefined && combatant[k] !== null);
  if (key) {
    const health = document.createElement("p");
    health.className = "health";
    const max = combatant[`${key}_max`];
    const label = Object.assign(document.createElement("span"), { textContent: `${t(`health.${key}`)} ` });
    const value = Object.assign(document.createElement("strong"), { textContent: max ? `${combatant[key]} / ${max}` : String(combatant[key]) });
    health.append(label, value);
    if (max) {
      const meter = document.createElement("meter");
      Object.assign(meter, { min: 0, max, value: Math.max(0, combatant[key]), low: max / 3, high: (2 * max) / 3, optimum: max });
      meter.setAttribute("aria-label", `${t(`health.${key}`)} ${combatant.name}`);
      health.append(meter);
    }
    item.append(health);
  }
  const conditions = document.createElement("p");
  conditions.className = "conditions";
  // duel-2d6 keeps a wound level and the malus it gives apart from the HP.
  if (typeof combatant.wound === "string") {
    const wound = document.createElement("p");
    wound.className = "wound";
    const words = valueLabel("level", combatant.wound);
    const malus = Number(combatant.malus) ? ` (${t("malus", { n: signed(combatant.malus) })})` : "";
    wound.textContent = words.charAt(0).toUpperCase() + words.slice(1) + malus;
    item.append(wound);
  }
  // The ruleset's labels name conditions under "condition".
  const names = combatant.conditions.map((c) => valueLabel("condition", c.code) + (c.rounds ? ` (${c.rounds})` : ""));
  conditions.textContent = `${t("conditions")}${t("sep")}${names.length ? names.join(", ") : t("none")}`;
  item.append(conditions);
  return item;
}

// ---- start -------------------------------------------------------------

async function start() {
  page.lang = pickLanguage();
  $("lang").replaceChildren(...LANGS.map((lang) => new Option(t(`langNames.${lang}`), lang)));
  page.logLang = page.lang;
  $("lang").addEventListener("change", () => {
    const logFollows = page.logLang === page.lang;
    page.lang = $("lang").value;
    localStorage.setItem("melee-lang", page.lang);
    if (logFollows) setLogLanguage(page.lang);
    translatePage();
  });
  $("log-lang").addEventListener("change", () => setLogLanguage($("log-lang").value));
  $("new-combat").addEventListener("submit", createCombat);
  setUpRoster(opened);
  $("save-fight").addEventListener("click", saveFight);
  $("undo").addEventListener("click", undoLast);
  $("mint-links").addEventListener("click", mintLinks);
  $("resume-file").addEventListener("change", resumeFight);
  document.addEventListener("melee:tokens", (event) => addLinks(event.detail));
  translatePage();
  try {
    await loadRulesets();
    await renderRoster();
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("combat") && hash.get("token")) await join(hash.get("combat"), hash.get("token"), hash.get("as"));
  } catch (error) { showError(error); }
}

start();
