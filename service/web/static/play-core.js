// What every part of /play shares: the page's state, its words (play-i18n.js
// and the ruleset's labels), the API calls and the live log (both through the
// TypeScript SDK, ./sdk/) and how a refusal is shown.

import { WORDS } from "./play-i18n.js";
import { MeleeClient, MeleeNetworkError, MeleeProblem } from "./sdk/index.js";

export const LANGS = ["en", "fr", "pt"];
const COMBATANT_FIELDS = new Set(["target", "combatant", "defender", "opponents", "initiative_against", "face"]);

export const page = { lang: "en", logLang: "fight", combatId: null, token: null, viewer: null, ruleset: null, combat: null, stream: null, lastSeq: 0, logGeneration: 0, entries: [], links: null, renders: 0 };
export const $ = (id) => document.getElementById(id);

// ---- words -------------------------------------------------------------

export function t(path, vars = {}) {
  const find = (lang) => path.split(".").reduce((node, key) => (node == null ? undefined : node[key]), WORDS[lang]);
  const text = find(page.lang) ?? find("en") ?? path;
  if (typeof text !== "string") return text;
  const filled = text.replace(/\{(\w+)\}/g, (_, name) => `\u0000${vars[name] ?? ""}`);
  // French elides que, de, le before a vowel: "Ce qu'Ana peut faire", not "Ce que Ana".
  const elided = page.lang === "fr" ? filled.replace(/\b(qu|d|l)e \u0000(?=[aeiouyàâäéèêëîïôöùûüœæ])/gi, "$1'") : filled;
  return elided.replaceAll("\u0000", "");
}

export function humanize(id) {
  const words = String(id).replace(/[_.]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// The table's words for an id, or undefined when the table has none.
export const known = (path) => { const text = t(path); return text === path ? undefined : text; };
export const fieldLabel = (name) => known(`fields.${name}`) ?? humanize(name);
export const actionLabel = (type) => known(`actions.${type}`) ?? humanize(type);
export const nameOf = (id) => (id === "gm" ? t("gm") : (page.combat?.combatants.find((c) => c.id === id)?.name ?? humanize(id)));

// A value's words: a combatant's name, a weapon's name, the ruleset's own
// label (GET /rulesets/{id} `labels`), this page's table, or the id humanized.
export function valueLabel(name, value, actor) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  if (Array.isArray(value)) return value.map((v) => valueLabel(name, v, actor)).join(", ");
  if (typeof value === "string" && value.includes(".")) return value.split(".").map((part) => valueLabel(name, part, actor)).join(" · ");
  if (value !== null && typeof value === "object") {
    return Object.entries(value).filter(([, v]) => v !== null && v !== undefined)
      .map(([key, v]) => `${fieldLabel(key)}${t("sep")}${valueLabel(key, v, actor)}`).join(", ");
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

// A refusal's words in the reader's language: marshmallow's and the rules' messages
// recognised by their shape, in whichever of the server's languages they came (the
// combat's, or the one asked for); what is not recognised is said generally.
const NUMBER = "(-?\\d+(?:\\.\\d+)?)";
const SHAPES = {
  range: new RegExp(`(?:greater than or equal to|compris entre|estar entre) ${NUMBER} (?:and less than or equal to|et|e) ${NUMBER}`),
  min: new RegExp(`(?:greater than or equal to|supérieur ou égal à|maior ou igual a) ${NUMBER}`),
  max: new RegExp(`(?:less than or equal to|inférieur ou égal à|menor ou igual a) ${NUMBER}`),
  sum: /= (\d+), (?:but|mais|mas) (?:the|le|o) \w+ (?:is|est de|é de) (\d+)/,
};
const KINDS = [
  [/Missing data for required field|Field may not be null|champ est obligatoire|ne peut pas être null|campo é obrigatório|não pode ser nulo/i, "missing"],
  [/Not a valid (integer|number)|pas un nombre|não é um número/i, "number"],
  [/Must be one of|Not a valid choice|l'une de ces valeurs|um destes valores/i, "choice"],
  [/Length must be|Longer than|Shorter than|longueur|comprimento/i, "length"],
  [/Unknown field|Champ inconnu|Campo desconhecido/i, "unknown"],
  [/unique|únic/i, "unique"],
  [/Not a valid|n'est pas un|não é um/i, "type"],
];
export function problemWords(message) {
  const text = String(message || "");
  const range = SHAPES.range.exec(text);
  if (range) return t("problems.range", { min: range[1], max: range[2] });
  const min = SHAPES.min.exec(text);
  if (min) return t("problems.min", { min: min[1] });
  const max = SHAPES.max.exec(text);
  if (max) return t("problems.max", { max: max[1] });
  const sum = SHAPES.sum.exec(text);
  if (sum) return t("problems.sum", { sum: sum[1], total: sum[2] });
  const kind = KINDS.find(([pattern]) => pattern.test(text));
  return kind ? t(`problems.${kind[1]}`) : null;
}

// The name a pointer's field goes by on the page: "/split/init" -> "Initiative dice",
// "/combatants/0/pv" -> "HP"; numbers (list rows) are left out.
export function pointerWords(pointer) {
  const parts = String(pointer || "").split("/").filter((part) => part && !/^\d+$/.test(part));
  return parts.length ? fieldLabel(parts[parts.length - 1]) : "";
}

export function pickLanguage() {
  const asked = new URLSearchParams(location.hash.slice(1)).get("lang") || localStorage.getItem("melee-lang");
  if (LANGS.includes(asked)) return asked;
  for (const wanted of navigator.languages || [navigator.language]) {
    const base = String(wanted).slice(0, 2).toLowerCase();
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

// ---- the API -----------------------------------------------------------
// Every call goes through Melee's TypeScript SDK (clients/typescript, its built
// modules served at /play/sdk/): a creation, a restore and each action carry a
// fresh Idempotency-Key, reused by the SDK's retries (docs/vtt.md); the token
// travels in the Authorization header only, the live log's stream included.

export class ApiError extends Error {
  constructor(status, detail, problem = {}, lang = "en") {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.lang = lang; // the problem's Content-Language: its title and detail are in it
    this.type = problem.type || "";
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
  }
}

// The SDK client of this page's seat: its token (none while a fight is created
// or restored), and the narration's language when one is asked for.
export function melee(lang) {
  return new MeleeClient({ baseUrl: location.origin, ...(page.token ? { token: page.token } : {}), ...(lang ? { lang } : {}) });
}

// The SDK's failure as the page shows it: the problem's status, words and
// fields; status 0 when no answer came (the SDK retried what it safely could).
function apiError(error) {
  if (error instanceof MeleeProblem) {
    const problem = new ApiError(error.status, error.detail || error.title, error.body, error.language || "en");
    return Object.assign(problem, { idempotencyKey: error.idempotencyKey });
  }
  if (error instanceof MeleeNetworkError) return new ApiError(0, String(error.cause?.message || error.message));
  return error;
}

const COMBAT = "/combats/([^/]+)";
// Each request the page makes, and the SDK call that makes it: [method, path, call(client, ids, query, body, sent)].
const ROUTES = [
  ["GET", "/rulesets", (m) => m.rulesets()],
  ["GET", "/rulesets/([^/]+)", (m, [id]) => m.ruleset(id)],
  ["POST", "/combats", (m, _, q, body, sent) => (typeof body?.snapshot === "string"
    ? m.restore(body.snapshot, sent) : m.createCombat(body, sent))],
  ["GET", COMBAT, (m, [id]) => m.combat(id)],
  ["DELETE", COMBAT, (m, [id]) => m.deleteCombat(id)],
  ["POST", `${COMBAT}/actions`, (m, [id], q, body, sent) => m.act(id, body, sent)],
  ["GET", `${COMBAT}/options`, (m, [id], q) => m.options(id, { actor: q.get("actor") || "gm" })],
  ["POST", `${COMBAT}/odds`, (m, [id], q, { action, ...more }) => m.odds(id, action, more)],
  ["POST", `${COMBAT}/undo`, (m, [id], q, body, sent) => m.undo(id, sent)],
  ["POST", `${COMBAT}/redo`, (m, [id], q, body, sent) => m.redo(id, sent)],
  ["GET", `${COMBAT}/snapshot`, async (m, [id]) => ({ snapshot: await m.snapshot(id) })],
  ["GET", `${COMBAT}/events`, (m, [id], q) => m.events(id, Object.fromEntries(["after", "wait", "limit"]
    .filter((name) => q.has(name)).map((name) => [name, Number(q.get(name))])))],
  ["GET", `${COMBAT}/tokens`, (m, [id]) => m.tokens(id)],
  ["POST", `${COMBAT}/tokens`, (m, [id], q, body) => m.mintToken(id, body)],
  ["DELETE", `${COMBAT}/tokens/([^/]+)`, (m, [id, ref]) => m.revokeToken(id, ref)],
].map(([method, path, call]) => [method, new RegExp(`^${path}$`), call]);

// One request to Melee, by its method and path (with its query), through the SDK call
// that makes it. Of `headers`, Accept-Language (the log's language), If-Match and
// Idempotency-Key are passed on to the SDK, which sets every other header itself.
export async function api(method, path, body, headers = {}) {
  const url = new URL(path, location.origin);
  const route = ROUTES.find(([verb, pattern]) => verb === method && pattern.test(url.pathname));
  if (!route) throw new Error(`play-core.js: no SDK call for ${method} ${url.pathname}`);
  const [, pattern, call] = route;
  const ids = pattern.exec(url.pathname).slice(1).map(decodeURIComponent);
  const sent = {};
  if (headers["If-Match"] !== undefined) sent.ifMatch = headers["If-Match"];
  if (headers["Idempotency-Key"] !== undefined) sent.idempotencyKey = headers["Idempotency-Key"];
  try {
    return await call(melee(headers["Accept-Language"]), ids, url.searchParams, body, sent);
  } catch (error) {
    throw apiError(error);
  }
}

// Follows the combat's log live from its first entry with the SDK's subscribe: the
// stream read with fetch (the token in Authorization), resumed after a drop, the
// long poll when streaming is unavailable. `onEntry` gets each entry once, in order;
// `onStatus` "live" or "reconnecting"; `onReset` when the server replaced the log (the
// whole log follows again); `onEnd` "gone" (combat deleted or expired), "revoked" (the
// token) or "offline" (another final refusal). Returns the subscription (close()).
export function follow({ onEntry, onStatus, onReset, onEnd }) {
  return melee().subscribe(page.combatId, {
    onEntry,
    onReset,
    onStatus: (status) => onStatus(status === "reconnecting" ? "reconnecting" : "live"),
    onError: (error) => {
      const status = error instanceof MeleeProblem ? error.status : null;
      onEnd(status === 404 ? "gone" : status === 401 || status === 403 ? "revoked" : "offline");
    },
  }, { after: 0 });
}

// A refusal the page itself makes, in the page's words.
export function pageError(text) {
  return Object.assign(new ApiError(422, text), { local: true });
}

// A translated lead sentence, then the server's own detail (in the language the server
// answered in: the browser's Accept-Language, else the combat's; Content-Language says which).
export function showError(error) {
  const box = $("error");
  if (!error) { box.replaceChildren(); box.hidden = true; return; }
  const status = error instanceof ApiError ? error.status : null;
  const lead = status === 0 ? t("errors.network") : (known(`errors.${status}`) ?? t("errors.lead"));
  const strong = Object.assign(document.createElement("strong"), { textContent: lead });
  // The fields refused, each named and said in the reader's words; the server's
  // own sentence only when nothing else says what went wrong.
  const errors = error.errors || [];
  const said = errors.map((e) => {
    const where = pointerWords(e.pointer);
    return `${where ? `${where}${t("sep")}` : ""}${problemWords(e.detail || e.message) ?? t("problems.other")}`;
  });
  const parts = [strong];
  if (said.length) parts.push(" ", Object.assign(document.createElement("span"), { textContent: said.join(" "), className: "detail" }));
  // The rules' own reasons are kept where no words of the page's say them.
  if (error.local) {
    parts.push(" ", Object.assign(document.createElement("span"), { textContent: error.detail, className: "detail" }));
  } else if (!said.length || errors.some((e) => problemWords(e.detail || e.message) === null)) {
    parts.push(" ", Object.assign(document.createElement("span"), { textContent: error.detail || error.message || "", lang: error.lang || "en", className: "detail server-detail" }));
  }
  box.replaceChildren(...parts);
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" }); // on a phone the form that failed may be far below
}

// A control with its label (and a "required" mark): the one way every form of the page names its fields.
export function labelled(control, text, name, required) {
  const label = document.createElement("label");
  label.htmlFor = control.id;
  label.className = name ? `field field-${name}` : "field";
  const words = Object.assign(document.createElement("span"), { className: "label-text", textContent: text });
  if (required) {
    const mark = Object.assign(document.createElement("span"), { className: "required", textContent: " *", title: t("required") });
    mark.setAttribute("aria-hidden", "true");
    words.append(mark);
  }
  label.append(words, control);
  return label;
}

export function busy(button, on, text) {
  if (on) { button.dataset.text = button.textContent; button.textContent = text; }
  else if (button.dataset.text) button.textContent = button.dataset.text;
  button.disabled = on;
  button.setAttribute("aria-busy", String(on));
}
