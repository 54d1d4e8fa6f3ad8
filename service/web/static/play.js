// Melee /play: a game master starts a fight and shares one link per player;
// everyone sees the combatants and the log live and acts from forms built
// from GET /combats/{id}/options (only the legal choices, with their labels).
// Everything here is what a VTT module does: see docs/vtt.md.
"use strict";

const LANGS = ["en", "fr", "pt"];
const ODDS_TYPES = new Set(["attack", "shoot", "test", "threaten", "counter", "death_test", "stabilize", "break_free"]);
// Action types that roll nothing: no die inputs on their forms.
const NO_DICE = new Set(["pass", "face", "join", "allocate", "declare", "hold", "forgo", "choose_frenzy", "reload", "leave"]);
const FACES = [4, 6, 8, 10, 12, 20, 100];
// The die a ruleset's rolls mostly use, and how many of them a typical roll takes.
const USUAL_DICE = { "duel-2d6": [6, 6], "dark-earth": [6, 6, 6], "sistema-2d6": [6, 6], "space-opera-d100": [100], "age-du-silicium": [100] };
const COMBATANT_FIELDS = new Set(["target", "combatant", "defender", "opponents", "initiative_against", "face"]);

const page = { lang: "en", logLang: "fight", combatId: null, token: null, viewer: null, ruleset: null, combat: null, stream: null, lastSeq: 0, logGeneration: 0, entries: [], links: null, renders: 0 };
const $ = (id) => document.getElementById(id);

// ---- words -------------------------------------------------------------

function t(path, vars = {}) {
  const find = (lang) => path.split(".").reduce((node, key) => (node == null ? undefined : node[key]), window.PLAY_I18N[lang]);
  const text = find(page.lang) ?? find("en") ?? path;
  return typeof text === "string" ? text.replace(/\{(\w+)\}/g, (_, name) => vars[name] ?? "") : text;
}

function humanize(id) {
  const words = String(id).replace(/[_.]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// The table's words for an id, or undefined when the table has none.
const known = (path) => { const text = t(path); return text === path ? undefined : text; };
const fieldLabel = (name) => known(`fields.${name}`) ?? humanize(name);
const actionLabel = (type) => known(`actions.${type}`) ?? humanize(type);
const nameOf = (id) => (id === "gm" ? t("gm") : (page.combat?.combatants.find((c) => c.id === id)?.name ?? humanize(id)));

// A value's words: a combatant's name, a weapon's name, the ruleset's own
// label (GET /rulesets/{id} `labels`), this page's table, or the id humanized.
function valueLabel(name, value, actor) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  if (Array.isArray(value)) return value.map((v) => valueLabel(name, v, actor)).join(", ");
  if (typeof value === "string" && value.includes(".")) return value.split(".").map((part) => valueLabel(name, part, actor)).join(" · ");
  if (value !== null && typeof value === "object") {
    return Object.entries(value).map(([key, v]) => `${fieldLabel(key)}${t("sep")}${valueLabel(key, v, actor)}`).join(", ");
  }
  if (COMBATANT_FIELDS.has(name) && page.combat?.combatants.some((c) => c.id === value)) return nameOf(value);
  if (name.includes("weapon")) {
    const owner = page.combat?.combatants.find((c) => c.id === actor);
    const own = owner?.sheet?.weapons?.find?.((w) => w.id === value);
    const listed = page.ruleset?.catalog?.weapons?.[value];
    if (own?.name || listed?.name) return own?.name || listed.name;
  }
  const server = (lang) => page.ruleset?.labels?.[lang]?.[name]?.[value];
  return server(page.lang) ?? known(`values.${value}`) ?? server("en") ?? humanize(value);
}

function translatePage() {
  document.documentElement.lang = page.lang === "pt" ? "pt-BR" : page.lang;
  document.title = t("title");
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
  $("lang").value = page.lang;
  renderLogLanguages();
  renderLinks();
  $("log").replaceChildren(...page.entries.map(logItem));
  if (page.combat) render(page.combat);
}

function pickLanguage() {
  const asked = new URLSearchParams(location.hash.slice(1)).get("lang") || localStorage.getItem("melee-lang");
  if (LANGS.includes(asked)) return asked;
  for (const wanted of navigator.languages || [navigator.language]) {
    const base = String(wanted).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

// ---- the API -----------------------------------------------------------

class ApiError extends Error {
  constructor(status, detail) { super(detail); this.status = status; this.detail = detail; }
}

async function api(method, path, body, headers = {}) {
  const sent = { ...headers };
  if (body !== undefined) sent["Content-Type"] = "application/json";
  if (page.token) sent.Authorization = `Bearer ${page.token}`;
  let response;
  try {
    response = await fetch(path, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new ApiError(0, String(error.message || error));
  }
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data?.detail || data?.title || `HTTP ${response.status}`);
  return data;
}

// A translated lead sentence, then the server's own detail (which may stay English).
function showError(error) {
  const box = $("error");
  if (!error) { box.replaceChildren(); box.hidden = true; return; }
  const status = error instanceof ApiError ? error.status : null;
  const lead = status === 0 ? t("errors.network") : (known(`errors.${status}`) ?? t("errors.lead"));
  const strong = Object.assign(document.createElement("strong"), { textContent: lead });
  const detail = Object.assign(document.createElement("span"), { textContent: error.detail || error.message || "", lang: "en", className: "detail" });
  box.replaceChildren(strong, " ", detail);
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" }); // on a phone the form that failed may be far below
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
    const created = await api("POST", "/combats", ruleset.example.combat);
    page.links = { id: created.id, tokens: [["gm", created.tokens.gm], ...Object.entries(created.tokens.combatants)], names: created.combatants };
    renderLinks();
    $("share").hidden = false;
    await join(created.id, created.tokens.gm, "gm");
  } catch (error) { showError(error); } finally { busy(button, false); }
}

function renderLinks() {
  if (!page.links) return;
  const { id, tokens, names } = page.links;
  $("join-links").replaceChildren(...tokens.map(([who, token]) => {
      const item = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/play#combat=${id}&token=${encodeURIComponent(token)}&as=${encodeURIComponent(who)}`;
      a.className = "join";
      a.dataset.who = who;
      a.target = "_blank";
      a.rel = "noopener";
      a.textContent = who === "gm" ? t("gm") : names.find((c) => c.id === who)?.name || who;
      item.append(a);
      return item;
    }));
}

async function join(combatId, token, viewer) {
  for (const id of ["actions", "gm-tools", "combatants", "awaiting"]) $(id).replaceChildren();
  resetLog();
  page.combatId = combatId;
  page.token = token;
  history.replaceState(null, "", `#combat=${combatId}&token=${encodeURIComponent(token)}&as=${encodeURIComponent(viewer || "")}`);
  const combat = await api("GET", `/combats/${combatId}`);
  page.ruleset = await api("GET", `/rulesets/${combat.ruleset}`);
  page.viewer = viewer || (await api("GET", `/combats/${combatId}/options?actor=gm`).then(() => "gm", () => null));
  $("fight").hidden = false;
  $("new-combat").hidden = page.viewer !== "gm"; // a player's link is for playing, not for starting fights
  renderLogLanguages();
  render(combat);
  listen();
}

// ---- the log, live -----------------------------------------------------
// EventSource cannot send headers (hence ?access_token=): each entry it
// announces is read back from GET /events with the reader's log language.

function listen() {
  if (page.stream) page.stream.close();
  resetLog();
  const url = `/combats/${page.combatId}/stream?after=0&access_token=${encodeURIComponent(page.token)}`;
  const stream = new EventSource(url);
  page.stream = stream;
  stream.onopen = () => setLive("live", true);
  stream.onerror = () => setLive("reconnecting", false);
  stream.addEventListener("entry", (message) => {
    const entry = JSON.parse(message.data);
    if (entry.seq > page.lastSeq) catchUp().catch(showError);
  });
  for (const end of ["gone", "revoked"]) stream.addEventListener(end, () => { stream.close(); setLive(end, false); });
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
  head.textContent = entry.action.type === "start" ? `#${entry.seq}` : `#${entry.seq} ${nameOf(entry.action.actor)} · ${actionLabel(entry.action.type)}`;
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
  loadForms(combat).catch(showError);
}

function card(combatant) {
  const item = document.createElement("li");
  item.className = "combatant";
  item.dataset.id = combatant.id;
  if (page.combat.awaiting.some((w) => w.actor === combatant.id) && page.combat.status === "active") item.classList.add("awaited");
  const title = document.createElement("h3");
  title.textContent = combatant.name;
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
  const names = combatant.conditions.map((c) => valueLabel("code", c.code) + (c.rounds ? ` (${c.rounds})` : ""));
  conditions.textContent = `${t("conditions")}${t("sep")}${names.length ? names.join(", ") : t("none")}`;
  item.append(conditions);
  return item;
}

// Forms for whom this viewer may act for: the GM for anyone awaited and for
// the GM's own tools, a player for their own combatant.
async function loadForms(combat) {
  const ticket = ++page.renders; // a later render wins over this one's slower answers
  const awaited = combat.awaiting.map((w) => w.actor);
  const actors = page.viewer === "gm" ? awaited : awaited.filter((a) => a === page.viewer);
  const wanted = page.viewer === "gm" ? [...actors, "gm"] : actors;
  const listings = await Promise.all(wanted.map((actor) => api("GET", `/combats/${page.combatId}/options?actor=${encodeURIComponent(actor)}`)));
  if (ticket !== page.renders) return;
  const groups = listings.filter((l) => l.actor !== "gm").map((listing) => {
    const section = document.createElement("section");
    section.className = "actor-actions";
    section.dataset.actor = listing.actor;
    section.append(Object.assign(document.createElement("h3"), { textContent: t("actionsOf", { who: nameOf(listing.actor) }) }));
    section.append(...formsFor(listing));
    return section;
  });
  $("actions").replaceChildren(...groups);
  if (page.viewer !== "gm" && actors.length === 0) {
    const waiting = document.createElement("p");
    waiting.textContent = t("awaitingOther", { who: awaited.map(nameOf).join(", ") });
    $("actions").append(waiting);
  }
  const gm = listings.find((l) => l.actor === "gm");
  $("gm-tools-box").hidden = !gm;
  $("gm-tools").replaceChildren(...(gm ? formsFor(gm) : []));
}

function formsFor(listing) {
  const byType = new Map();
  for (const action of listing.actions) {
    if (Object.values(action.params).some((spec) => spec.required && !renderable(spec))) continue;
    if (!byType.has(action.type)) byType.set(action.type, []);
    byType.get(action.type).push(action);
  }
  return [...byType].map(([type, variants]) => actionForm(listing.actor, type, variants));
}

const renderable = (spec) => Boolean(spec.choices || ["integer", "number", "string", "boolean"].includes(spec.type) || spec.keys || Array.isArray(spec.items));

// One form per action type; several listed entries of a type (parameters that
// go together) become a first select, named by what tells them apart.
function actionForm(actor, type, variants) {
  const form = document.createElement("form");
  form.className = "action";
  form.id = `form-${actor}-${type}`;
  form.dataset.type = type;
  const legend = Object.assign(document.createElement("h4"), { textContent: actionLabel(type) });
  const body = document.createElement("div");
  body.className = "fields";
  let fields = [];
  const show = (variant) => {
    fields = Object.entries(variant.params).filter(([, spec]) => renderable(spec)).map(([name, spec]) => field(`${form.id}-${name}`, name, spec, actor));
    body.replaceChildren(...fields.map((f) => f.element));
  };
  form.append(legend);
  if (variants.length > 1) {
    const select = document.createElement("select");
    select.id = `${form.id}-variant`;
    variants.forEach((variant, i) => select.append(new Option(variantLabel(variant, variants, actor), String(i))));
    select.addEventListener("change", () => show(variants[Number(select.value)]));
    form.append(labelled(select, t("variant"), "variant"));
  }
  form.append(body);
  show(variants[0]);
  const dice = actor === "gm" || NO_DICE.has(type) ? null : diceBox(form.id);
  if (dice) form.append(dice.element);
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  const submit = Object.assign(document.createElement("button"), { type: "submit", textContent: t("act"), className: "primary" });
  buttons.append(submit);
  const result = Object.assign(document.createElement("div"), { className: "odds-result" });
  result.setAttribute("aria-live", "polite");
  if (ODDS_TYPES.has(type)) {
    const odds = Object.assign(document.createElement("button"), { type: "button", textContent: t("odds"), className: "odds" });
    odds.addEventListener("click", async () => {
      showError(null);
      busy(odds, true, t("computing"));
      result.textContent = t("computing");
      try {
        const answer = await api("POST", `/combats/${page.combatId}/odds`, { action: read(actor, type, fields) });
        showOdds(result, answer, actor);
      } catch (error) { result.textContent = ""; showError(error); } finally { busy(odds, false); }
    });
    buttons.append(odds);
  }
  form.append(buttons, result);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(null);
    busy(submit, true, t("sending"));
    form.setAttribute("aria-busy", "true");
    try {
      const body = read(actor, type, fields);
      const values = dice?.read() || [];
      if (values.length) body.dice = values;
      render((await api("POST", `/combats/${page.combatId}/actions`, body)).combat);
    } catch (error) {
      showError(error);
      if (error.status === 409) render(await api("GET", `/combats/${page.combatId}`).catch(() => page.combat));
    } finally { busy(submit, false); form.removeAttribute("aria-busy"); }
  });
  return form;
}

function variantLabel(variant, variants, actor) {
  // What tells the entries apart: the parameters fixed to one choice here and to another elsewhere.
  const telling = Object.entries(variant.params).filter(([name, spec]) => spec.choices?.length === 1
    && variants.some((other) => JSON.stringify(other.params[name]?.choices) !== JSON.stringify(spec.choices)));
  return telling.map(([name, spec]) => valueLabel(name, spec.choices[0], actor)).join(" · ") || actionLabel(variant.type);
}

function read(actor, type, fields) {
  const body = { type, actor };
  for (const f of fields) {
    const value = f.read();
    if (value !== undefined) body[f.name] = value;
  }
  return body;
}

function showOdds(box, answer, actor) {
  const list = document.createElement("ul");
  for (const outcome of answer.outcomes) {
    const item = document.createElement("li");
    const words = outcome.outcome.split(", ").map((part) => valueLabel("outcome", part, actor)).join(", ");
    item.textContent = `${words}${t("sep")}${(100 * outcome.probability).toLocaleString(page.lang, { maximumFractionDigits: 1 })} %`;
    list.append(item);
  }
  const lines = [Object.assign(document.createElement("strong"), { textContent: t("oddsLead") }), list];
  for (const damage of answer.expected_damage || []) {
    lines.push(Object.assign(document.createElement("p"), {
      textContent: t("expectedDamage", { who: nameOf(damage.combatant), n: damage.damage.toLocaleString(page.lang, { maximumFractionDigits: 1 }) }),
    }));
  }
  box.replaceChildren(...lines);
}

// ---- fields ------------------------------------------------------------
// Each returns {name, element, read()}; read() is undefined when the field is
// left to its default, so the server's default applies (never a guessed one).

function field(id, name, spec, actor) {
  if (spec.choices) return choiceField(id, name, spec, actor);
  if (spec.type === "boolean") return choiceField(id, name, { ...spec, choices: [false, true] }, actor);
  if (spec.keys) return keysField(id, name, spec);
  if (Array.isArray(spec.items)) return itemsField(id, name, spec, actor);
  const input = document.createElement("input");
  input.id = id;
  if (spec.type === "integer" || spec.type === "number") {
    input.type = "number";
    input.inputMode = "numeric";
    if (spec.minimum !== undefined) input.min = spec.minimum;
    if (spec.maximum !== undefined) input.max = spec.maximum;
    if (spec.type === "integer") input.step = 1;
  } else {
    input.type = "text";
  }
  input.required = Boolean(spec.required);
  input.name = name;
  return {
    name, element: labelled(input, fieldLabel(name), name, spec.required),
    read: () => (input.value === "" ? undefined : (input.type === "number" ? Number(input.value) : input.value)),
  };
}

function choiceField(id, name, spec, actor) {
  const select = document.createElement("select");
  select.id = id;
  select.name = name;
  select.required = Boolean(spec.required);
  if (!spec.required || spec.choices.length > 1) select.append(new Option(spec.required ? "" : t("defaultChoice"), ""));
  spec.choices.forEach((choice, i) => select.append(new Option(valueLabel(name, choice, actor), String(i))));
  if (spec.required && spec.choices.length === 1) select.value = "0";
  return {
    name, element: labelled(select, fieldLabel(name), name, spec.required),
    read: () => (select.value === "" ? undefined : spec.choices[Number(select.value)]),
  };
}

function keysField(id, name, spec) {
  const box = document.createElement("fieldset");
  box.className = "keys";
  box.append(Object.assign(document.createElement("legend"), { textContent: fieldLabel(name) + (spec.total !== undefined ? ` (${spec.total})` : "") }));
  const inputs = spec.keys.map((key) => {
    const input = Object.assign(document.createElement("input"), { type: "number", id: `${id}-${key}`, name: `${name}.${key}`, step: 1 });
    if (spec.total !== undefined) { input.min = 0; input.max = spec.total; }
    const words = valueLabel(name, key);
    box.append(labelled(input, words.charAt(0).toUpperCase() + words.slice(1), key));
    return [key, input];
  });
  return {
    name, element: box,
    read: () => {
      const filled = inputs.filter(([, input]) => input.value !== "");
      if (!filled.length && !spec.required) return undefined;
      return Object.fromEntries(filled.map(([key, input]) => [key, Number(input.value)]));
    },
  };
}

function itemsField(id, name, spec, actor) {
  const box = document.createElement("fieldset");
  box.className = "items";
  box.append(Object.assign(document.createElement("legend"), { textContent: fieldLabel(name) }));
  const parts = spec.items.map((item, i) => field(`${id}-${i}`, `${name}`, { required: true, ...item }, actor));
  parts.forEach((part, i) => {
    const legend = part.element.querySelector("legend, .label-text");
    if (legend) legend.firstChild.textContent = `${fieldLabel(name)} ${i + 1}`;
    box.append(part.element);
  });
  return { name, element: box, read: () => parts.map((part) => part.read()) };
}

function labelled(control, text, name, required) {
  const label = document.createElement("label");
  label.htmlFor = control.id;
  label.className = `field field-${name}`;
  const words = Object.assign(document.createElement("span"), { className: "label-text", textContent: text });
  if (required) {
    const mark = Object.assign(document.createElement("span"), { className: "required", textContent: " *", title: t("required") });
    mark.setAttribute("aria-hidden", "true");
    words.append(mark);
  }
  label.append(words, control);
  return label;
}

// Physical dice, one input per die with its faces. Empty by default: the
// server rolls (no `dice` sent). Hidden when the combat's dice_policy is 'server'.
function diceBox(formId) {
  if (page.combat.options?.dice_policy === "server") return null;
  const box = document.createElement("details");
  box.className = "dice";
  box.append(Object.assign(document.createElement("summary"), { textContent: t("ownDice") }));
  const list = document.createElement("div");
  list.className = "die-list";
  const faces = document.createElement("select");
  faces.id = `${formId}-faces`;
  faces.setAttribute("aria-label", t("addDie"));
  FACES.forEach((n) => faces.append(new Option(`d${n}`, String(n))));
  const usual = USUAL_DICE[page.ruleset.id] || [6];
  faces.value = String(usual[0]);
  const add = Object.assign(document.createElement("button"), { type: "button", textContent: t("addDie"), className: "add-die" });
  const remove = Object.assign(document.createElement("button"), { type: "button", textContent: t("removeDie"), className: "remove-die" });
  const dice = [];
  const addDie = (sides) => {
    const input = Object.assign(document.createElement("input"), {
      type: "number", min: 1, max: sides, step: 1, id: `${formId}-die-${dice.length}`, className: "die", inputMode: "numeric",
    });
    input.dataset.sides = sides;
    const label = labelled(input, t("dieLabel", { n: dice.length + 1, faces: `d${sides}` }), "die");
    dice.push(label);
    list.append(label);
  };
  usual.forEach(addDie);
  add.addEventListener("click", () => addDie(Number(faces.value)));
  remove.addEventListener("click", () => { if (dice.length) dice.pop().remove(); });
  const controls = document.createElement("div");
  controls.className = "die-controls";
  controls.append(faces, add, remove);
  box.append(list, controls, Object.assign(document.createElement("p"), { className: "hint", textContent: t("diceHint") }));
  return {
    element: box,
    read: () => [...list.querySelectorAll("input.die")].filter((input) => input.value !== "").map((input) => Number(input.value)),
  };
}

function busy(button, on, text) {
  if (on) { button.dataset.text = button.textContent; button.textContent = text; }
  else if (button.dataset.text) button.textContent = button.dataset.text;
  button.disabled = on;
  button.setAttribute("aria-busy", String(on));
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
  translatePage();
  try {
    await loadRulesets();
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("combat") && hash.get("token")) await join(hash.get("combat"), hash.get("token"), hash.get("as"));
  } catch (error) { showError(error); }
}

start();
