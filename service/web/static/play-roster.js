// The game master's own characters: a roster kept in this browser (local
// storage), entered through forms built from each ruleset's sheet schema,
// imported and exported as a JSON file; a fight starts from the ones picked,
// each on the side chosen for it.

import { $, api, busy, labelled, page, pageError, problemWords, showError, t } from "./play-core.js";

const labelledControl = (control, text, required) => labelled(control, text, "", required);
import { checkNumbers, missing, sheetForm, showSheetErrors, sideWords, slug } from "./play-sheet.js";

const KEY = "melee-roster";
const rulesets = new Map(); // id -> GET /rulesets/{id}

export function loadRoster() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || "{}");
    return Array.isArray(stored.characters) ? stored.characters : [];
  } catch { return []; }
}

function saveRoster(characters) {
  localStorage.setItem(KEY, JSON.stringify({ melee_roster: 1, characters }));
}

export async function rulesetNamed(id) {
  if (!rulesets.has(id)) rulesets.set(id, await api("GET", `/rulesets/${id}`));
  return rulesets.get(id);
}

const current = () => $("ruleset").value;
const mine = () => loadRoster().filter((c) => c.ruleset === current());

// The sides offered: the example's, the roster's, heroes and villains.
async function knownSides() {
  const ruleset = await rulesetNamed(current());
  const sides = ["heroes", "villains", ...(ruleset.example?.combat?.combatants || []).map((c) => c.side), ...mine().map((c) => c.side)];
  return [...new Set(sides.filter(Boolean))];
}

export async function renderRoster() {
  if (!current()) return;
  const ruleset = await rulesetNamed(current());
  const sides = await knownSides();
  const list = $("roster");
  const characters = mine();
  list.replaceChildren(...characters.map((character) => {
    const item = document.createElement("li");
    item.className = "roster-entry";
    item.dataset.key = character.key;
    const pick = Object.assign(document.createElement("input"), { type: "checkbox", id: `pick-${character.key}`, className: "pick", checked: character.picked !== false });
    const name = Object.assign(document.createElement("label"), { htmlFor: pick.id, className: "pick-name", textContent: character.name });
    const side = Object.assign(document.createElement("select"), { id: `side-${character.key}`, className: "pick-side" });
    for (const value of sides) side.append(new Option(sideWords(value), value));
    side.value = character.side;
    side.setAttribute("aria-label", `${t("side")} (${character.name})`);
    const store = (changes) => saveRoster(loadRoster().map((c) => (c.key === character.key ? { ...c, ...changes } : c)));
    pick.addEventListener("change", () => store({ picked: pick.checked }));
    side.addEventListener("change", () => store({ side: side.value }));
    const edit = Object.assign(document.createElement("button"), { type: "button", className: "edit", textContent: t("roster.edit") });
    edit.setAttribute("aria-label", `${t("roster.edit")} (${character.name})`);
    edit.addEventListener("click", () => openEditor(character));
    const remove = Object.assign(document.createElement("button"), { type: "button", className: "remove", textContent: t("roster.remove") });
    remove.setAttribute("aria-label", `${t("roster.remove")} (${character.name})`);
    remove.addEventListener("click", () => { saveRoster(loadRoster().filter((c) => c.key !== character.key)); renderRoster(); });
    const head = document.createElement("div");
    head.className = "pick-head";
    head.append(pick, name);
    item.append(head, side, edit, remove);
    return item;
  }));
  $("roster-empty").hidden = characters.length > 0;
  $("start-roster").disabled = characters.length < 2;
  $("roster-ruleset").textContent = ruleset.name;
}

// ---- the character form --------------------------------------------------

let editing = null; // {character, sheet}

export async function openEditor(character, errors) {
  const ruleset = await rulesetNamed(character?.ruleset || current());
  const known = await knownSides();
  // The form is named from this ruleset's labels and catalog (a fight of another may be open).
  const saved = page.ruleset;
  page.ruleset = ruleset;
  const box = $("character-form");
  const models = ruleset.example?.combat?.combatants || [];
  const heading = Object.assign(document.createElement("h3"), { textContent: character ? t("roster.editing", { who: character.name }) : t("roster.new") });
  const name = Object.assign(document.createElement("input"), { type: "text", id: "character-name", required: true, maxLength: 80, value: character?.name || "" });
  name.dataset.pointer = "/name";
  // A side among those known (in the page's words), or a new one typed.
  const choice = Object.assign(document.createElement("select"), { id: "character-side" });
  choice.dataset.pointer = "/side";
  const offered = [...new Set([...known, ...(character?.side ? [character.side] : [])])];
  for (const value of offered) choice.append(new Option(sideWords(value), value));
  choice.append(new Option(t("roster.otherSide"), ""));
  choice.value = character?.side || offered[0] || "";
  const other = Object.assign(document.createElement("input"), { type: "text", id: "character-side-new", maxLength: 60, autocomplete: "off" });
  const otherField = labelledControl(other, t("roster.newSide"), true);
  const showOther = () => { otherField.hidden = choice.value !== ""; };
  choice.addEventListener("change", showOther);
  showOther();
  const side = { get value() { return choice.value || other.value; } };
  const like = Object.assign(document.createElement("select"), { id: "character-like" });
  like.append(new Option(t("roster.blank"), ""));
  models.forEach((model, i) => like.append(new Option(model.name, String(i))));
  const holder = document.createElement("div");
  const start = character ? character.sheet : sheetOf(models[0]);
  // The form keeps this ruleset's catalog names (accents and all) when rebuilt later, names the
  // character in its errors, and offers the other characters by name as contacts (dark-earth).
  const about = { ruleset, who: () => name.value.trim() || character?.name || "",
    contacts: () => mine().filter((c) => c.key !== character?.key).map((c) => ({ value: c.name, label: c.name, aliases: [slug(c.name)] })) };
  let form = sheetForm(ruleset.sheet, start, about);
  holder.append(form.element);
  const rebuild = (value) => { const next = sheetForm(ruleset.sheet, value, about); form.element.replaceWith(next.element); form = next; editing.form = form; };
  like.addEventListener("change", () => rebuild(like.value === "" ? {} : sheetOf(models[Number(like.value)])));
  like.value = character ? "" : (models.length ? "0" : "");
  // Raw JSON, for what the form does not say (or to paste a sheet).
  const advanced = Object.assign(document.createElement("details"), { className: "sheet-json" });
  const json = Object.assign(document.createElement("textarea"), { id: "character-json", rows: 10, spellcheck: false });
  const apply = Object.assign(document.createElement("button"), { type: "button", textContent: t("roster.applyJson") });
  const jsonError = Object.assign(document.createElement("p"), { className: "field-error json-error", hidden: true });
  advanced.addEventListener("toggle", () => { if (advanced.open) json.value = JSON.stringify(form.read() || {}, null, 1); });
  apply.addEventListener("click", () => {
    try { rebuild(JSON.parse(json.value || "{}")); jsonError.hidden = true; } catch { jsonError.textContent = t("roster.badJson"); jsonError.hidden = false; }
  });
  advanced.append(Object.assign(document.createElement("summary"), { textContent: t("roster.advanced") }),
    labelledControl(json, t("roster.json")), apply, jsonError);
  const save = Object.assign(document.createElement("button"), { type: "submit", className: "primary", textContent: t("roster.save") });
  const cancel = Object.assign(document.createElement("button"), { type: "button", textContent: t("roster.cancel") });
  cancel.addEventListener("click", closeEditor);
  const buttons = document.createElement("div");
  buttons.className = "buttons";
  buttons.append(save, cancel);
  const top = document.createElement("div");
  top.className = "fields";
  top.append(labelledControl(name, t("join.name"), true), labelledControl(choice, t("side"), true), otherField, labelledControl(like, t("roster.like")));
  box.replaceChildren(heading, top, holder, advanced, buttons);
  box.hidden = false;
  editing = { character, form, name, side, ruleset: ruleset.id };
  page.ruleset = saved;
  if (errors?.length) showSheetErrors(box, errors, "", character?.name);
  (errors?.length ? box.querySelector("[aria-invalid]") : name)?.focus();
}

const sheetOf = (model) => {
  if (!model) return {};
  const { id: _id, name: _name, side: _side, ...rest } = model;
  return rest;
};

function closeEditor() {
  $("character-form").hidden = true;
  $("character-form").replaceChildren();
  editing = null;
}

function saveCharacter(event) {
  event.preventDefault();
  if (!editing) return;
  const { character, form, name, side, ruleset } = editing;
  const sheet = form.read() || {};
  const errors = [];
  if (!name.value.trim()) errors.push({ pointer: "/name", detail: "Missing data for required field." });
  if (!slug(side.value)) errors.push({ pointer: "/side", detail: "Missing data for required field." });

  const schema = rulesets.get(ruleset).sheet;
  errors.push(...missing(schema, sheet));
  const box = $("character-form");
  const who = () => name.value.trim();
  showSheetErrors(box, errors, "", who());
  // Numbers out of the sheet's bounds (MEL −3, PV 9999) are refused here, not at the fight's start.
  if (errors.length + checkNumbers(box, who)) { box.querySelector("[aria-invalid]")?.focus(); return; }
  const entry = { key: character?.key || `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`, ruleset,
    name: name.value.trim(), side: slug(side.value), sheet, picked: character?.picked ?? true };
  const all = loadRoster();
  const at = all.findIndex((c) => c.key === entry.key);
  if (at < 0) all.push(entry); else all[at] = entry;
  saveRoster(all);
  closeEditor();
  renderRoster();
}

// ---- a fight from the roster --------------------------------------------

// The picked characters as the combat's combatants, each id from its name (unique).
// dark-earth's contacts, kept by name in the roster, become those combatants' ids.
function combatantsOf(characters) {
  const used = new Set(["gm"]);
  const ids = characters.map((c) => {
    let id = slug(c.name) || "combatant";
    for (let n = 2; used.has(id); n++) id = `${slug(c.name) || "combatant"}-${n}`;
    used.add(id);
    return id;
  });
  const idOf = (contact) => {
    const at = characters.findIndex((c) => c.name === contact);
    const slugged = at < 0 ? ids.indexOf(slug(contact)) : at;
    return slugged < 0 ? contact : ids[slugged];
  };
  return characters.map((c, i) => {
    const sheet = Array.isArray(c.sheet?.contact_with) ? { ...c.sheet, contact_with: c.sheet.contact_with.map(idOf) } : c.sheet;
    return { ...sheet, id: ids[i], name: c.name, side: c.side };
  });
}

export async function startFromRoster(onCreated) {
  showError(null);
  const picked = mine().filter((c) => c.picked !== false);
  const button = $("start-roster");
  if (picked.length < 2) { showError(pageError(t("roster.needTwo"))); return; }
  busy(button, true, t("sending"));
  try {
    page.token = null;
    const body = { ruleset: current(), lang: page.lang, combatants: combatantsOf(picked) };
    let created;
    try {
      created = await api("POST", "/combats", body);
    } catch (error) {
      // A sheet the rules refuse: its form opens with the errors next to their fields.
      const at = /^\/combatants\/(\d+)/.exec(error.errors?.[0]?.pointer || "");
      if (error.status === 422 && at) {
        const character = picked[Number(at[1])];
        const own = error.errors.filter((e) => e.pointer.startsWith(`/combatants/${at[1]}`))
          .map((e) => ({ ...e, pointer: e.pointer.slice(`/combatants/${at[1]}`.length) || "/" }));
        await openEditor(character, own);
        // Said in the page's words, naming whose sheet it is, where the fields say it all (else the server's reason stays).
        if (own.length && own.every((e) => problemWords(e.detail || e.message))) throw pageError(t("roster.refusedFor", { who: character.name }));
      }
      throw error;
    }
    await onCreated(created);
  } catch (error) { showError(error); } finally { busy(button, false); }
}

// ---- the roster as a file ------------------------------------------------

export function download(name, data) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function exportRoster() {
  download("melee-roster.json", { melee_roster: 1, characters: loadRoster() });
}

async function importRoster(event) {
  const file = event.target.files?.[0];
  event.target.value = "";
  if (!file) return;
  showError(null);
  try {
    const data = JSON.parse(await file.text());
    const incoming = Array.isArray(data?.characters) ? data.characters : null;
    if (!incoming || incoming.some((c) => !c || typeof c.name !== "string" || typeof c.ruleset !== "string" || typeof c.sheet !== "object")) throw new Error("shape");
    const all = loadRoster();
    for (const character of incoming) {
      const at = all.findIndex((c) => c.key === character.key);
      if (at < 0) all.push(character); else all[at] = character;
    }
    saveRoster(all);
    renderRoster();
    $("roster-status").textContent = t("roster.imported", { n: incoming.length });
  } catch {
    showError(pageError(t("roster.badFile")));
  }
}

export function setUpRoster(onCreated) {
  $("new-character").addEventListener("click", () => openEditor(null));
  $("start-roster").addEventListener("click", () => startFromRoster(onCreated));
  $("export-roster").addEventListener("click", exportRoster);
  $("import-roster").addEventListener("change", importRoster);
  $("character-form").addEventListener("submit", saveCharacter);
  $("ruleset").addEventListener("change", () => { closeEditor(); renderRoster().catch(showError); });
}
