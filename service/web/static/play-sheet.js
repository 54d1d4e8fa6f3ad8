// A character sheet as a form, built from the ruleset's published JSON Schema
// (GET /rulesets/{id} `sheet`): numbers, choices, yes/no, lists with rows to add
// and remove (weapons, armour), named maps (attributes, skills), the catalog's
// entries by name. Each control carries the JSON pointer of its value, so a
// 422's errors[].pointer lands next to the field that caused it.

import { fieldLabel, humanize, known, labelled as named, page, problemWords, t, valueLabel } from "./play-core.js";

const labelled = (control, text, required) => named(control, text, "", required);

// Filled by the page itself: the combatant's id comes from its name, a side is chosen apart.
const OWN_FIELDS = new Set(["id", "name", "side"]);
// The catalog's entries for a "catalog" field, by where it sits in the sheet.
const CATALOGS = { weapons: ["weapons"], armour: ["armour", "armor", "armours"], armor: ["armor", "armour"], armour_catalog: ["armour", "armor"], defensive_item: ["defensive_items"] };

let serial = 0;

// What the form being built is about: the ruleset whose catalog and labels name its
// choices (a fight of another may be open), who the character is (named in the errors),
// and who a contact may be (dark-earth's contact_with: [{value, label}]). Kept by each
// list and map, whose rows are added later.
let context = {};
const rules = () => context.ruleset || page.ruleset;
function within(kept, build) {
  const before = context;
  context = kept;
  try { return build(); } finally { context = before; }
}

// The object schema of a node that may be "this or null" (anyOf).
function resolve(node) {
  if (!node?.anyOf) return { node: node || {}, nullable: Boolean(node?.nullable) };
  const object = node.anyOf.find((option) => option.properties || option.additionalProperties || option.items || option.enum);
  return { node: { ...object, description: node.description, default: node.default }, nullable: true };
}

// A catalog entry's or a label's words for an enum value.
function choiceWords(path, value) {
  const key = path[path.length - 1];
  const owner = [...path].reverse().find((part) => CATALOGS[part]) || key;
  if (key === "catalog" && owner === "weapons" && rules()?.labels?.[page.lang]?.weapon?.[value]) return rules().labels[page.lang].weapon[value];
  for (const group of CATALOGS[key === "catalog" ? owner : key] || []) {
    const entry = rules()?.catalog?.[group]?.[value];
    if (entry?.name) return entry.name;
  }
  const labels = rules()?.labels?.[page.lang] || {};
  if (labels[key]?.[value]) return labels[key][value];
  const byField = known(`byField.${key}.${value}`);
  if (byField) return byField;
  const ours = known(`choices.${value}`);
  if (ours) return ours;
  for (const group of Object.values(labels)) if (group && typeof group[value] === "string") return group[value];
  return known(`values.${value}`) ?? valueLabel(key, value);
}

// The skills a sheet may name, offered as suggestions: the catalog's, the
// example's, the catalog weapons' (a skill stays free text: the rules take any).
const SKILL_FIELDS = new Set(["skill", "defense_skill", "dodge_skill", "martial_art"]);
const SKILL_MAPS = new Set(["skills", "skill_levels"]);
function skillList() {
  const id = `skills-${rules()?.id}`;
  let list = document.getElementById(id);
  if (list) return id;
  const catalog = rules()?.catalog || {};
  const names = new Set([
    ...Object.values(catalog.skills || {}).filter((v) => typeof v === "string"),
    ...(rules()?.example?.combat?.combatants || []).flatMap((c) => Object.keys(c.skills || {})),
    ...Object.values(catalog.weapons || {}).map((w) => w?.skill).filter((v) => typeof v === "string"),
  ]);
  list = Object.assign(document.createElement("datalist"), { id });
  for (const name of [...names].sort((a, b) => a.localeCompare(b))) list.append(new Option(name, name));
  document.body.append(list);
  return id;
}

const pointerOf = (path) => `/${path.join("/")}`;
const wordsFor = (path) => {
  const key = [...path].reverse().find((part) => !/^\d+$/.test(part)) || "";
  return known(`sheet.${key}`) ?? fieldLabel(key);
};

// One value of the schema as controls: {element, read(), write(value)}; read() is
// undefined when the field is left empty (the server's default then applies).
export function sheetControl(schema, path, required, value) {
  const { node, nullable } = resolve(schema);
  const id = `sheet-${++serial}`;
  const text = wordsFor(path);
  if (node.enum || node.type === "boolean") {
    const choices = node.enum ? node.enum.filter((v) => v !== null) : [false, true];
    const select = Object.assign(document.createElement("select"), { id, name: path.join(".") });
    select.dataset.pointer = pointerOf(path);
    const def = node.default;
    const first = def !== undefined && def !== null ? t("defaultIs", { value: typeof def === "boolean" ? t(def ? "yes" : "no") : choiceWords(path, def) })
      : (required ? "" : t("sheet.none"));
    select.append(new Option(first, ""));
    choices.forEach((choice, i) => select.append(new Option(typeof choice === "boolean" ? t(choice ? "yes" : "no") : choiceWords(path, choice), String(i))));
    const write = (v) => { const i = choices.indexOf(v); select.value = i < 0 ? "" : String(i); };
    write(value);
    return { element: labelled(select, text, required), read: () => (select.value === "" ? undefined : choices[Number(select.value)]), write };
  }
  if (node.type === "integer" || node.type === "number") {
    const input = Object.assign(document.createElement("input"), { id, type: "number", inputMode: "numeric", name: path.join(".") });
    input.dataset.pointer = pointerOf(path);
    if (node.minimum !== undefined && node.minimum !== null) input.min = node.minimum;
    if (node.maximum !== undefined && node.maximum !== null) input.max = node.maximum;
    if (node.type === "integer") input.step = 1;
    if (node.default !== undefined && node.default !== null) input.placeholder = String(node.default);
    const write = (v) => { input.value = v === undefined || v === null ? "" : String(v); };
    write(value);
    const element = labelled(input, text, required);
    // Checked as it is typed, against the schema's bounds: the error is said at the field, naming the character.
    const who = context.who;
    const check = () => { checkNumber(input, who); };
    input.addEventListener("input", check);
    input.addEventListener("change", check);
    return { element, read: () => (input.value === "" ? undefined : Number(input.value)), write };
  }
  if (node.type === "array" && node.items) return listControl(node, path, value, text);
  if (node.type === "object" && node.properties) return objectControl(node, path, value, text, nullable || !required);
  if (node.type === "object" && node.additionalProperties) return mapControl(node, path, value, text);
  if (path[path.length - 2] === "contact_with" && context.contacts) return contactControl(id, path, text, value);
  const input = Object.assign(document.createElement("input"), { id, type: "text", name: path.join(".") });
  input.dataset.pointer = pointerOf(path);
  if (SKILL_FIELDS.has(path[path.length - 1])) input.setAttribute("list", skillList());
  if (node.maxLength) input.maxLength = node.maxLength;
  if (node.default !== undefined && node.default !== null) input.placeholder = String(node.default);
  const write = (v) => { input.value = v === undefined || v === null ? "" : String(v); };
  write(value);
  return { element: labelled(input, text, required), read: () => (input.value.trim() === "" ? undefined : input.value.trim()), write };
}

// dark-earth's "in contact with": another combatant, chosen by name (the value is
// what the caller says: a combatant's id in a fight, a character's name in the roster).
function contactControl(id, path, text, value) {
  const select = Object.assign(document.createElement("select"), { id, name: path.join(".") });
  select.dataset.pointer = pointerOf(path);
  const offered = context.contacts();
  // A contact that names no one here (the example's "goule" in a roster without her) is left empty.
  const match = offered.find((o) => o.value === value) || offered.find((o) => o.aliases?.includes(value));
  select.append(new Option("", ""), ...offered.map((o) => new Option(o.label, o.value)));
  select.value = match?.value ?? "";
  const write = (v) => { select.value = offered.some((o) => o.value === v) ? v : ""; };
  return { element: labelled(select, text, true), read: () => (select.value === "" ? undefined : select.value), write };
}

// A number against its bounds (min, max, whole): the error, in the page's words and
// naming the character, right under the field; gone once the value fits.
const FIELD_ERROR = "number-error";
function numberProblem(input) {
  if (input.validity.badInput) return t("problems.number");
  if (input.value === "") return null;
  const n = Number(input.value);
  const min = input.min === "" ? null : Number(input.min);
  const max = input.max === "" ? null : Number(input.max);
  if ((min !== null && n < min) || (max !== null && n > max)) {
    if (min !== null && max !== null) return t("problems.range", { min, max });
    return min !== null ? t("problems.min", { min }) : t("problems.max", { max });
  }
  if (input.step === "1" && !Number.isInteger(n)) return t("problems.number");
  return null;
}

export function checkNumber(input, who) {
  const label = input.closest("label");
  const old = label?.nextElementSibling?.classList.contains(FIELD_ERROR) ? label.nextElementSibling : null;
  const problem = numberProblem(input);
  old?.remove();
  if (!problem) {
    if (old) { input.removeAttribute("aria-invalid"); input.removeAttribute("aria-describedby"); }
    return true;
  }
  // A map's entry is named by its key (an attribute's "MEL"), not by "Value".
  const key = input.closest(".sheet-map > .rows > .row")?.querySelector("input.key")?.value.trim();
  const field = key || label?.querySelector(".label-text")?.firstChild?.textContent || "";
  const name = who?.() || "";
  const words = name ? t("problems.of", { who: name, field, problem }) : `${field}${t("sep")}${problem}`;
  const note = Object.assign(document.createElement("p"), { className: `field-error ${FIELD_ERROR}`, id: `sheet-error-${++serial}`, textContent: words });
  (label || input).after(note);
  input.setAttribute("aria-invalid", "true");
  input.setAttribute("aria-describedby", note.id);
  return false;
}

// Every number of a sheet form checked at once (before it is saved): how many are refused.
export function checkNumbers(root, who) {
  return [...root.querySelectorAll("input[type=number]")].filter((input) => !checkNumber(input, who)).length;
}

function group(path, text, className) {
  const box = document.createElement("fieldset");
  box.className = `sheet-group ${className}`;
  box.dataset.pointer = pointerOf(path);
  box.append(Object.assign(document.createElement("legend"), { textContent: text }));
  return box;
}

// An object with named properties (a weapon, an armour): one field each; a
// nested one that may be left out (armour, bouffon) is folded in a details.
function objectControl(node, path, value, text, optional) {
  const box = group(path, text, "sheet-object");
  const required = new Set(node.required || []);
  const parts = Object.entries(node.properties).filter(([key]) => !(path.length === 0 && OWN_FIELDS.has(key)) && key !== "id")
    .map(([key, schema]) => [key, sheetControl(schema, [...path, key], required.has(key), value?.[key])]);
  for (const [, part] of parts) box.append(part.element);
  const read = () => {
    const filled = parts.map(([key, part]) => [key, part.read()]).filter(([, v]) => v !== undefined);
    return filled.length ? Object.fromEntries(filled) : undefined;
  };
  const write = (v) => { for (const [key, part] of parts) part.write(v?.[key]); };
  if (!optional || path.length === 0) return { element: box, read, write };
  const folded = Object.assign(document.createElement("details"), { className: "sheet-fold", open: value !== undefined && value !== null });
  folded.append(Object.assign(document.createElement("summary"), { textContent: text }), box);
  return { element: folded, read, write };
}

// A map of names to values (attributes, skills, armour by location): a row per
// entry, its name typed, rows added and removed.
function mapControl(node, path, value, text) {
  const box = group(path, text, "sheet-map");
  const rows = document.createElement("div");
  rows.className = "rows";
  const entries = [];
  const kept = context;
  const add = (key = "", v) => within(kept, () => {
    const row = document.createElement("div");
    row.className = "row";
    const name = Object.assign(document.createElement("input"), { type: "text", id: `sheet-${++serial}`, value: key, maxLength: 40, className: "key" });
    if (SKILL_MAPS.has(path[path.length - 1])) name.setAttribute("list", skillList());
    const part = sheetControl(node.additionalProperties, [...path, key || "?"], true, v);
    part.element.querySelector(".label-text")?.replaceChildren(t("sheet.value"));
    const entry = { name, row, part };
    // The entry's pointer follows its name (a 422 names "/skills/Esquiva"), the controls stay.
    const prefix = pointerOf([...path, key || "?"]);
    const pointed = [part.element, ...part.element.querySelectorAll("[data-pointer]")].filter((el) => el.dataset.pointer);
    const suffixes = pointed.map((el) => el.dataset.pointer.slice(prefix.length));
    const repoint = () => pointed.forEach((el, i) => { el.dataset.pointer = `${pointerOf([...path, name.value.trim() || "?"])}${suffixes[i]}`; });
    row.append(labelled(name, t("sheet.entryName")), part.element);
    name.addEventListener("input", repoint);
    const remove = Object.assign(document.createElement("button"), { type: "button", className: "remove-row", textContent: t("sheet.remove") });
    remove.setAttribute("aria-label", `${t("sheet.remove")} (${text})`);
    remove.addEventListener("click", () => { row.remove(); entries.splice(entries.indexOf(entry), 1); });
    row.append(remove);
    rows.append(row);
    entries.push(entry);
    return entry;
  });
  for (const [key, v] of Object.entries(value || {})) add(key, v);
  const more = Object.assign(document.createElement("button"), { type: "button", className: "add-row", textContent: t("sheet.addEntry", { what: text.toLowerCase() }) });
  more.addEventListener("click", () => add().name.focus());
  box.append(rows, more);
  const read = () => {
    const filled = entries.map((e) => [e.name.value.trim(), e.part.read()]).filter(([key, v]) => key && v !== undefined);
    return filled.length ? Object.fromEntries(filled) : undefined;
  };
  const write = (v) => { rows.replaceChildren(); entries.length = 0; for (const [key, x] of Object.entries(v || {})) add(key, x); };
  return { element: box, read, write };
}

// A list (weapons, armour pieces, specialisations): a row per item, added and removed.
function listControl(node, path, value, text) {
  const box = group(path, text, "sheet-list");
  const rows = document.createElement("div");
  rows.className = "rows";
  const items = [];
  const renumber = () => items.forEach((item, i) => {
    const one = known(`sheetItem.${path[path.length - 1]}`) ?? text;
    item.part.element.querySelector("legend, .label-text")?.replaceChildren(`${one} ${i + 1}`);
    for (const control of item.row.querySelectorAll("[data-pointer]")) {
      control.dataset.pointer = control.dataset.pointer.replace(new RegExp(`^${pointerOf(path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/\\d+`), `${pointerOf(path)}/${i}`);
    }
  });
  const kept = context;
  const add = (v) => within(kept, () => {
    const row = document.createElement("div");
    row.className = "row";
    const part = sheetControl(node.items, [...path, String(items.length)], true, v);
    const item = { row, part, id: v?.id };
    const remove = Object.assign(document.createElement("button"), { type: "button", className: "remove-row", textContent: t("sheet.remove") });
    remove.addEventListener("click", () => { row.remove(); items.splice(items.indexOf(item), 1); renumber(); });
    row.append(part.element, remove);
    rows.append(row);
    items.push(item);
    renumber();
    return item;
  });
  for (const v of value || []) add(v);
  const more = Object.assign(document.createElement("button"), { type: "button", className: "add-row", textContent: t("sheet.addItem", { what: text.toLowerCase() }) });
  more.addEventListener("click", () => add().row.querySelector("input, select")?.focus());
  box.append(rows, more);
  const hasId = Boolean(node.items?.properties?.id);
  const read = () => {
    const values = items.map((item) => ({ item, value: item.part.read() })).filter(({ value: v }) => v !== undefined);
    if (!values.length) return undefined;
    if (!hasId) return values.map(({ value: v }) => v);
    // An item's id (a weapon's) comes from its name or its catalog entry, unique in the list.
    const used = new Set();
    return values.map(({ item, value: v }) => {
      let base = item.id || slug(v.name || v.catalog || "") || "item";
      for (let n = 2; used.has(base); n++) base = `${slug(v.name || v.catalog || "") || "item"}-${n}`;
      used.add(base);
      return { id: base, ...v };
    });
  };
  const write = (v) => { rows.replaceChildren(); items.length = 0; for (const x of v || []) add(x); };
  return { element: box, read, write };
}

export const slug = (text) => String(text).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
  .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 56);

// The whole sheet (without id, name and side): {element, read(), write(), showErrors(errors, prefix)}.
// `about`: {ruleset, who(), contacts()}, what the form is about (see `context`).
export function sheetForm(schema, value, about = {}) {
  const form = within(about, () => objectControl(schema, [], value, t("sheet.title"), false));
  form.element.classList.add("sheet-form");
  return {
    ...form,
    showErrors: (errors, prefix) => showSheetErrors(form.element, errors, prefix),
  };
}

export function clearErrors(root) {
  for (const note of root.querySelectorAll(".field-error:not(.json-error)")) note.remove(); // the JSON box's own note stays
  for (const control of root.querySelectorAll("[aria-invalid]")) { control.removeAttribute("aria-invalid"); control.removeAttribute("aria-describedby"); }
}

// errors[].pointer, less the prefix ("/combatants/0"), names a control's data-pointer
// or, failing that, the nearest group above it; the message goes right after it.
export function showSheetErrors(root, errors, prefix = "", who = "") {
  clearErrors(root);
  let shown = 0;
  for (const error of errors || []) {
    let pointer = String(error.pointer || "");
    if (prefix && pointer.startsWith(prefix)) pointer = pointer.slice(prefix.length);
    let found = null;
    for (let at = pointer; at && !found; at = at.slice(0, at.lastIndexOf("/"))) {
      found = root.querySelector(`[data-pointer="${CSS.escape(at)}"]`);
    }
    if (!found) found = root.matches("fieldset") ? root : root.querySelector("fieldset");
    if (!found) continue;
    for (let up = found.closest("details"); up; up = up.parentElement?.closest("details")) up.open = true;
    const place = found.matches("fieldset") ? found.querySelector("legend") : found.closest("label") || found;
    const problem = problemWords(error.detail || error.message) ?? t("problems.other");
    const field = place.querySelector?.(".label-text")?.firstChild?.textContent || place.textContent || "";
    const note = Object.assign(document.createElement("p"), { className: "field-error", id: `sheet-error-${++serial}`,
      textContent: who ? t("problems.of", { who, field, problem }) : problem });
    place.after(note);
    const control = found.matches("fieldset") ? found.querySelector("input, select") : found;
    control?.setAttribute("aria-invalid", "true");
    control?.setAttribute("aria-describedby", note.id);
    shown += 1;
  }
  return shown;
}

// What is required by the schema and left empty, as errors in the server's shape.
export function missing(schema, value) {
  const errors = [];
  const walk = (node, v, path) => {
    const { node: n } = resolve(node);
    if (!n.properties || v === undefined || v === null) return;
    for (const key of n.required || []) {
      if (path.length === 0 && OWN_FIELDS.has(key)) continue;
      if (v[key] === undefined) errors.push({ pointer: pointerOf([...path, key]), detail: "Missing data for required field." });
    }
    for (const [key, child] of Object.entries(n.properties)) {
      const c = resolve(child).node;
      if (c.type === "array" && Array.isArray(v[key])) v[key].forEach((item, i) => walk(c.items, item, [...path, key, String(i)]));
      else if (c.properties) walk(c, v[key], [...path, key]);
    }
  };
  walk(schema, value, []);
  return errors;
}

export const sideWords = (side) => valueLabel("side", side) || humanize(side);
