// What every part of /play shares: the page's state, its words (play-i18n.js
// and the ruleset's labels), the API call and how a refusal is shown.

import { WORDS } from "./play-i18n.js";

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

// A refusal's words in the reader's language: marshmallow's and the rules' English
// messages recognised by their shape; what is not recognised is said generally.
export function problemWords(message) {
  const text = String(message || "");
  const range = /greater than or equal to (-?\d+(?:\.\d+)?) and less than or equal to (-?\d+(?:\.\d+)?)/.exec(text);
  if (range) return t("problems.range", { min: range[1], max: range[2] });
  const min = /greater than or equal to (-?\d+(?:\.\d+)?)/.exec(text);
  if (min) return t("problems.min", { min: min[1] });
  const max = /less than or equal to (-?\d+(?:\.\d+)?)/.exec(text);
  if (max) return t("problems.max", { max: max[1] });
  const sum = /= (\d+), but the \w+ is (\d+)/.exec(text);
  if (sum) return t("problems.sum", { sum: sum[1], total: sum[2] });
  const shapes = [
    [/Missing data for required field|Field may not be null/i, "missing"], [/Not a valid (integer|number)/i, "number"],
    [/Must be one of|Not a valid choice/i, "choice"], [/Length must be|Longer than|Shorter than/i, "length"],
    [/Unknown field/i, "unknown"], [/unique/i, "unique"], [/Not a valid/i, "type"],
  ];
  const shape = shapes.find(([pattern]) => pattern.test(text));
  return shape ? t(`problems.${shape[1]}`) : null;
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

export async function api(method, path, body, headers = {}) {
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
  if (!response.ok) {
    const lang = response.headers.get("Content-Language") || "en";
    throw new ApiError(response.status, data?.detail || data?.title || `HTTP ${response.status}`, data || {}, lang);
  }
  return data;
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
