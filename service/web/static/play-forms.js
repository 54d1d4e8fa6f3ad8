// The forms of /play, built from GET /combats/{id}/options: one per legal
// action type, only its legal choices, each named; die inputs for players who
// roll at the table; odds on demand.

import { $, actionLabel, api, busy, fieldLabel, humanize, known, labelled, nameOf, page, pageError, problemWords, showError, t, valueLabel } from "./play-core.js";
import { loadRoster } from "./play-roster.js";
import { sheetForm, showSheetErrors } from "./play-sheet.js";

const ODDS_TYPES = new Set(["attack", "shoot", "test", "threaten", "counter", "death_test", "stabilize", "break_free"]);
// Action types that roll nothing: no die inputs on their forms.
const NO_DICE = new Set(["pass", "face", "join", "allocate", "declare", "hold", "forgo", "choose_frenzy", "reload", "leave"]);
const FACES = [4, 6, 8, 10, 12, 20, 100];
// The die a ruleset's rolls mostly use, and how many of them a typical roll takes.
const USUAL_DICE = { "duel-2d6": [6, 6], "dark-earth": [6, 6, 6], "sistema-2d6": [6, 6], "space-opera-d100": [100], "age-du-silicium": [100] };

// Forms for whom this viewer may act for: the GM for anyone awaited and for
// the GM's own tools, a player for their own combatant.
export async function loadForms(combat, onCombat) {
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
    section.append(...formsFor(listing, onCombat));
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
  $("gm-tools").replaceChildren(...(gm ? formsFor(gm, onCombat) : []));
  $("actions").dataset.version = combat.version; // the forms are this version's (tests wait on it)
}

function formsFor(listing, onCombat) {
  const byType = new Map();
  for (const action of listing.actions) {
    if (Object.values(action.params).some((spec) => spec.required && !renderable(spec))) continue;
    if (!byType.has(action.type)) byType.set(action.type, []);
    byType.get(action.type).push(action);
  }
  return [...byType].map(([type, variants]) => actionForm(listing.actor, type, variants, onCombat));
}

const renderable = (spec) => Boolean(spec.choices || ["integer", "number", "string", "boolean"].includes(spec.type) || spec.keys || Array.isArray(spec.items)
  || spec.schema === "sheet" || spec.inline);

// What the listing leaves for the client to compose, made into fields: adjust's
// `set` takes the value names `change` lists (numbers); an inline answer
// (duel-2d6's and sistema-2d6's `defense`, space-opera-d100's `reaction`) takes
// the fields of its object in the ruleset's action schema (GET /rulesets/{id}).
// A free-text skill or attribute (sistema-2d6's defend and test) is one of the sheet's own.
const SHEET_LISTS = { skill: "skills", attribute: "attributes" };
function sheetChoices(combatantId, name) {
  const list = page.combat?.combatants.find((c) => c.id === combatantId)?.sheet?.[SHEET_LISTS[name]];
  const keys = Array.isArray(list) ? list.map((item) => item?.id ?? item).filter((v) => typeof v === "string") : Object.keys(list || {});
  return keys.length ? keys : null;
}

function expanded(type, params, actor) {
  return Object.fromEntries(Object.entries(params).map(([name, spec]) => {
    if (SHEET_LISTS[name] && spec.type === "string" && !spec.choices) {
      const choices = sheetChoices(actor, name);
      if (choices) return [name, { ...spec, type: undefined, choices }];
    }
    if (type === "adjust" && name === "set" && spec.type === "object" && !spec.keys && params.change?.keys) {
      return [name, { ...spec, keys: params.change.keys }];
    }
    // duel-2d6's older adjust field names an opponent: offered by name, not typed as an id.
    if (name === "initiative_against" && spec.type === "string" && !spec.choices) {
      const target = params.target?.choices?.[0];
      const others = (page.combat?.combatants || []).map((c) => c.id).filter((id) => id !== target);
      return [name, { ...spec, choices: others }];
    }
    if (spec.type === "object" && !spec.keys && !spec.schema) {
      const inline = inlineSchema(type, name);
      if (inline) return [name, { ...spec, inline: { ...inline, fits: fittingAnswers(type, name, params) } }];
    }
    return [name, spec];
  }));
}

// The answers that fit this attack, where the ruleset's catalog says (duel-2d6:
// each maneuver's defenses, the shots' own): the schema lists every defense.
function fittingAnswers(type, name, params) {
  const catalog = page.ruleset?.catalog || {};
  const maneuver = params.maneuver?.choices?.length === 1 ? params.maneuver.choices[0] : null;
  if (name !== "defense") return {};
  if (type === "attack" && catalog.melee_attacks?.[maneuver]?.defenses) return { defense: catalog.melee_attacks[maneuver].defenses };
  if (type === "shoot" && Array.isArray(catalog.ranged_defenses)) return { defense: catalog.ranged_defenses };
  return {};
}

function inlineSchema(type, name) {
  const property = page.ruleset?.actions?.[type]?.properties?.[name];
  const object = property?.properties ? property : property?.anyOf?.find((option) => option.properties);
  return object ? { properties: object.properties, required: object.required || [] } : null;
}

// One form per action type; several listed entries of a type (parameters that
// go together) become a first select, named by what tells them apart.
function actionForm(actor, type, variants, onCombat) {
  const form = document.createElement("form");
  form.className = "action";
  form.id = `form-${actor}-${type}`;
  form.dataset.type = type;
  form.noValidate = true; // refusals are said in the page's language, next to their fields, not by the browser
  // The GM's join brings a newcomer in; a duel-2d6 player's join enters a duel.
  const title = actor === "gm" && type === "join" ? t("join.action") : actionLabel(type);
  const legend = Object.assign(document.createElement("h4"), { textContent: title });
  const body = document.createElement("div");
  body.className = "fields";
  let fields = [];
  const show = (variant) => {
    fields = Object.entries(expanded(type, variant.params, actor)).filter(([, spec]) => renderable(spec))
      .map(([name, spec]) => field(`${form.id}-${name}`, name, spec, actor, type));
    body.replaceChildren(...fields.map((f) => f.element));
    for (const f of fields) f.attach?.(fields);
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
        showOdds(result, answer);
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
    clearFieldErrors(form);
    try {
      const body = read(actor, type, fields);
      const values = dice?.read() || [];
      if (values.length) body.dice = values;
      const answer = await api("POST", `/combats/${page.combatId}/actions`, body);
      // A newcomer's player link, shown once (join): play.js adds it to the links to share.
      if (answer.tokens?.combatants) document.dispatchEvent(new CustomEvent("melee:tokens", { detail: { tokens: answer.tokens.combatants, combat: answer.combat } }));
      await onCombat(answer.combat);
      focusNext();
    } catch (error) {
      showError(error);
      const sheet = form.querySelector("fieldset.sheet");
      if (sheet) showSheetErrors(sheet, error.errors, sheet.dataset.pointer); else markFieldErrors(form, error);
      if (error.status === 409) onCombat(await api("GET", `/combats/${page.combatId}`).catch(() => page.combat));
    } finally { busy(submit, false); form.removeAttribute("aria-busy"); }
  });
  return form;
}

// This form is gone once its action is played: keyboard and screen reader
// users continue from the next prompt (or the fight's state) instead of the page top.
function focusNext() {
  const next = document.querySelector("#actions h3") ?? ($("decided").hidden ? $("fight-heading") : $("decided"));
  next.tabIndex = -1;
  next.focus();
}

function variantLabel(variant, variants, actor) {
  // What tells the entries apart: the parameters fixed to one choice here and to another elsewhere.
  const telling = Object.entries(variant.params).filter(([name, spec]) => spec.choices?.length === 1
    && variants.some((other) => JSON.stringify(other.params[name]?.choices) !== JSON.stringify(spec.choices)));
  // A yes or no says nothing without the name of what it answers.
  const words = ([name, spec]) => (typeof spec.choices[0] === "boolean" ? `${fieldLabel(name)}${t("sep")}` : "") + choiceWords(name, spec.choices[0], actor);
  return telling.map(words).join(" · ") || actionLabel(variant.type);
}

function read(actor, type, fields) {
  const body = { type, actor };
  for (const f of fields) {
    const value = f.read();
    if (value !== undefined) body[f.name] = value;
  }
  return body;
}

// The odds name outcomes in English ("critical hit", "wound grave"): each part
// in the reader's words, a wound's level from the ruleset's labels.
function outcomeWords(part) {
  const wound = /^wound (.+)$/.exec(part);
  if (wound) return t("outcomes.wound", { level: valueLabel(page.ruleset?.labels?.en?.severity ? "severity" : "level", wound[1]).toLowerCase() });
  return known(`outcomes.${part}`) ?? part;
}

function showOdds(box, answer) {
  const list = document.createElement("ul");
  for (const outcome of answer.outcomes) {
    const item = document.createElement("li");
    const words = outcome.outcome.split(", ").map(outcomeWords).join(", ");
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

function field(id, name, spec, actor, type) {
  if (spec.schema === "sheet") return sheetField(id, name, spec);
  if (spec.inline) return inlineField(id, name, spec, actor, type);
  if (spec.choices) return choiceField(id, name, spec, actor, type);
  if (spec.type === "boolean") return choiceField(id, name, { ...spec, choices: [false, true] }, actor, type);
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

// What the server does with a field left out, named: "(default: Punch)" rather than "(default)".
function defaultWords(type, name, actor) {
  const value = page.ruleset?.actions?.[type]?.properties?.[name]?.default;
  if (value === undefined || value === null || typeof value === "object") return t("defaultChoice");
  return t("defaultIs", { value: choiceWords(name, value, actor) });
}

function choiceField(id, name, spec, actor, type) {
  const select = document.createElement("select");
  select.id = id;
  select.name = name;
  select.required = Boolean(spec.required);
  if (!spec.required || spec.choices.length > 1) select.append(new Option(spec.required ? "" : defaultWords(type, name, actor), ""));
  spec.choices.forEach((choice, i) => select.append(new Option(choiceWords(name, choice, actor), String(i))));
  if (spec.required && spec.choices.length === 1) select.value = "0";
  // An attack is made with the sheet's own weapon (sistema-2d6's revolver), not the server's default punch.
  const own = name === "weapon" && !spec.required ? ownWeapon(actor, spec.choices) : -1;
  if (own >= 0) select.value = String(own);
  return {
    name, element: labelled(select, fieldLabel(name), name, spec.required),
    read: () => (select.value === "" ? undefined : spec.choices[Number(select.value)]),
  };
}

// A condition's code (the GM's condition form, age-du-silicium's adjust) is named by the
// ruleset's labels of conditions ("acculé", not "Cornered"); anything else as valueLabel says.
const LABEL_GROUPS = { code: "condition", add: "condition", remove: "condition" };
function choiceWords(name, value, actor) {
  if (Array.isArray(value)) return value.map((v) => choiceWords(name, v, actor)).join(", ");
  const group = LABEL_GROUPS[name];
  const labels = page.ruleset?.labels || {};
  // A value whose words depend on its field (a range's "medium", a pace's "medium"): this page's table.
  const byField = typeof value === "string" && !labels[page.lang]?.[name]?.[value] ? known(`byField.${name}.${value}`) : undefined;
  if (byField) return byField;
  const own = group && typeof value === "string" ? labels[page.lang]?.[group]?.[value] ?? known(`values.${value}`) ?? labels.en?.[group]?.[value] : undefined;
  return own ?? valueLabel(name, value, actor);
}

// The index among the choices of the first weapon the actor's sheet lists, or -1.
function ownWeapon(actor, choices) {
  const weapons = page.combat?.combatants.find((c) => c.id === actor)?.sheet?.weapons;
  if (!Array.isArray(weapons)) return -1;
  for (const weapon of weapons) {
    const at = choices.indexOf(weapon?.id);
    if (at >= 0) return at;
  }
  return -1;
}

function keysField(id, name, spec) {
  const box = document.createElement("fieldset");
  box.className = "keys";
  box.append(Object.assign(document.createElement("legend"), { textContent: fieldLabel(name) + (spec.total !== undefined ? ` (${spec.total})` : "") }));
  const inputs = spec.keys.map((key) => {
    const input = Object.assign(document.createElement("input"), { type: "number", id: `${id}-${key}`, name: `${name}.${key}`, step: 1 });
    if (spec.total !== undefined) { input.min = 0; input.max = spec.total; }
    const words = known(`fields.${key}`) ?? valueLabel(name, key);
    box.append(labelled(input, words.charAt(0).toUpperCase() + words.slice(1), key, spec.required && spec.total !== undefined));
    if (spec.total !== undefined) input.required = Boolean(spec.required);
    return [key, input];
  });
  // dark-earth's split: the dice must add up to the pool (the potential); the sum is shown as it is typed.
  if (spec.total !== undefined) {
    const sum = Object.assign(document.createElement("output"), { className: "sum", id: `${id}-sum` });
    sum.setAttribute("aria-live", "polite");
    const update = () => {
      const total = inputs.reduce((n, [, input]) => n + (Number(input.value) || 0), 0);
      sum.textContent = t("splitSum", { sum: total, total: spec.total });
      sum.classList.toggle("off", total !== spec.total);
    };
    for (const [, input] of inputs) input.addEventListener("input", update);
    update();
    box.append(Object.assign(document.createElement("p"), { className: "hint", textContent: t("splitHint", { total: spec.total }) }), sum);
  }
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

// join's newcomer: a name, a side, and a sheet in the same form as the roster's,
// started from one of the ruleset's example combatants or of the GM's characters;
// the raw JSON stays in an "advanced" view.
function sheetField(id, name) {
  const box = document.createElement("fieldset");
  box.className = "sheet";
  box.dataset.pointer = `/${name}`;
  box.append(Object.assign(document.createElement("legend"), { textContent: t("join.who") }));
  const named = Object.assign(document.createElement("input"), { type: "text", id: `${id}-name`, name: `${name}.name`, required: true, maxLength: 80 });
  named.dataset.pointer = "/name";
  const side = Object.assign(document.createElement("select"), { id: `${id}-side`, name: `${name}.side`, required: true });
  const examples = page.ruleset?.example?.combat?.combatants || [];
  const characters = loadRoster().filter((c) => c.ruleset === page.ruleset?.id);
  const models = [...examples.map((m) => ({ name: m.name, side: m.side, sheet: sheetOnly(m) })), ...characters];
  const sides = [...new Set([...(page.combat?.combatants || []).map((c) => c.side), ...examples.map((c) => c.side)])];
  sides.forEach((value) => side.append(new Option(valueLabel("side", value), value)));
  const like = Object.assign(document.createElement("select"), { id: `${id}-like`, name: `${name}.like`, required: true });
  models.forEach((model, i) => like.append(new Option(model.name, String(i))));
  const holder = document.createElement("details");
  holder.className = "sheet-fold";
  holder.append(Object.assign(document.createElement("summary"), { textContent: t("join.edit") }));
  // In this fight, a contact (dark-earth) is one of its combatants, chosen by name.
  const about = { ruleset: page.ruleset, who: () => named.value.trim(),
    contacts: () => (page.combat?.combatants || []).map((c) => ({ value: c.id, label: c.name })) };
  let form = sheetForm(page.ruleset?.sheet || { properties: {} }, models[0]?.sheet, about);
  holder.append(form.element);
  const sheet = Object.assign(document.createElement("textarea"), { id: `${id}-sheet`, name: `${name}.sheet`, rows: 6, spellcheck: false });
  const rebuild = (value) => {
    const next = sheetForm(page.ruleset?.sheet || { properties: {} }, value, about);
    form.element.replaceWith(next.element);
    form = next;
  };
  like.addEventListener("change", () => {
    const model = models[Number(like.value)];
    rebuild(model?.sheet);
    if (model?.side && sides.includes(model.side)) side.value = model.side;
  });
  const more = document.createElement("details");
  more.className = "sheet-json";
  const apply = Object.assign(document.createElement("button"), { type: "button", textContent: t("roster.applyJson") });
  more.addEventListener("toggle", () => { if (more.open) sheet.value = JSON.stringify(form.read() || {}, null, 1); });
  apply.addEventListener("click", () => {
    try { rebuild(JSON.parse(sheet.value || "{}")); } catch (error) { showError(pageError(t("join.badJson", { detail: error.message }))); }
  });
  more.append(Object.assign(document.createElement("summary"), { textContent: t("roster.advanced") }), labelled(sheet, t("join.sheet"), "sheet"), apply);
  box.append(labelled(named, t("join.name"), "name", true), labelled(side, t("side"), "side", true), labelled(like, t("join.like"), "like", true), holder, more);
  return {
    name, element: box,
    read: () => ({ ...(form.read() || {}), id: freeId(named.value), name: named.value.trim(), side: side.value }),
  };
}

const sheetOnly = ({ id: _id, name: _name, side: _side, ...rest }) => rest;

// An id for a newcomer's name, unused in this fight: "Renfort 2" -> "renfort-2".
function freeId(text) {
  const base = text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 56) || "newcomer";
  const used = new Set([...(page.combat?.combatants || []).map((c) => c.id), "gm"]);
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
  return id;
}

const TARGETS = ["target", "defender", "opponent"];
// An item of the target's: what a parry or a block is made with.
const ITEM_FIELDS = new Set(["using", "item"]);

// An inline answer: the object's own fields (a nested object, such as a
// counter-attack's, is left to the target's own form); sent only when one is filled.
function inlineField(id, name, spec, actor) {
  const box = document.createElement("details");
  box.className = "inline";
  box.append(Object.assign(document.createElement("summary"), { textContent: known(`inline.${name}`) ?? fieldLabel(name) }));
  const parts = [];
  const items = [];
  for (const [key, schema] of Object.entries(spec.inline.properties)) {
    if (schema.anyOf || schema.type === "object" || schema.type === "array") continue;
    const partId = `${id}-${key}`;
    const required = spec.inline.required.includes(key);
    if (SHEET_LISTS[key] && !schema.enum) {
      // The target's own skills or attributes, refilled with the target.
      const select = Object.assign(document.createElement("select"), { id: partId, name: `${name}.${key}` });
      select.dataset.sheetList = key;
      items.push(select);
      box.append(labelled(select, fieldLabel(key), key));
      parts.push([key, () => (select.value === "" ? undefined : select.value)]);
    } else if (ITEM_FIELDS.has(key)) {
      const select = Object.assign(document.createElement("select"), { id: partId, name: `${name}.${key}` });
      items.push(select);
      box.append(labelled(select, fieldLabel(key), key));
      parts.push([key, () => (select.value === "" ? undefined : select.value)]);
    } else if (schema.enum || schema.type === "boolean") {
      // second_defense takes the defense's words.
      const words = key.endsWith("_defense") ? "defense" : key;
      const fits = spec.inline.fits?.[key];
      // In the catalog's order (the seed's) where it lists them.
      const listed = schema.enum ? schema.enum.filter((v) => v !== null) : [false, true];
      const choices = fits ? fits.filter((v) => listed.includes(v)) : listed;
      const select = Object.assign(document.createElement("select"), { id: partId, name: `${name}.${key}` });
      // Left empty, the answer's key field sends no answer at all: the target is asked.
      select.append(new Option(required ? t("inline.later") : t("defaultChoice"), ""));
      choices.forEach((choice, i) => select.append(new Option(choiceWords(words, choice, actor), String(i))));
      box.append(labelled(select, fieldLabel(key), key, required));
      parts.push([key, () => (select.value === "" ? undefined : choices[Number(select.value)])]);
    } else {
      const input = Object.assign(document.createElement("input"), { id: partId, name: `${name}.${key}` });
      if (schema.type === "integer") {
        Object.assign(input, { type: "number", inputMode: "numeric", step: 1 });
        if (schema.minimum !== undefined) input.min = schema.minimum;
        if (schema.maximum !== undefined) input.max = schema.maximum;
      } else {
        input.type = "text";
        if (schema.maxLength) input.maxLength = schema.maxLength;
      }
      box.append(labelled(input, fieldLabel(key), key, required));
      parts.push([key, () => (input.value === "" ? undefined : (input.type === "number" ? Number(input.value) : input.value))]);
    }
  }
  box.append(Object.assign(document.createElement("p"), { className: "hint", textContent: t("inline.hint") }));
  return {
    name, element: box,
    // The items offered are the chosen target's: filled now and whenever the target changes.
    attach: (fields) => {
      const target = fields.find((f) => TARGETS.includes(f.name));
      const refill = () => {
        const who = page.combat?.combatants.find((c) => c.id === target?.read());
        const weapons = Array.isArray(who?.sheet?.weapons) ? who.sheet.weapons : [];
        for (const select of items) {
          if (select.dataset.sheetList) {
            const keys = sheetChoices(who?.id, select.dataset.sheetList) || [];
            select.replaceChildren(new Option(t("defaultChoice"), ""), ...keys.map((k) => new Option(valueLabel(select.dataset.sheetList, k), k)));
            continue;
          }
          select.replaceChildren(new Option(t("defaultChoice"), ""), ...weapons.map((w) => new Option(
            w.name || page.ruleset?.catalog?.weapons?.[w.catalog]?.name || humanize(w.id), w.id)));
        }
      };
      target?.element.querySelector("select")?.addEventListener("change", refill);
      refill();
    },
    read: () => {
      const filled = parts.map(([key, value]) => [key, value()]).filter(([, value]) => value !== undefined);
      return filled.length ? Object.fromEntries(filled) : undefined;
    },
  };
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

// ---- errors next to their fields ---------------------------------------
// A 422's errors[].pointer ("/split/init") names the control ("split.init") or
// the group it belongs to ("split"): the reader's words go right under it.

export function clearFieldErrors(form) {
  for (const note of form.querySelectorAll(".field-error")) note.remove();
  for (const control of form.querySelectorAll("[aria-invalid]")) { control.removeAttribute("aria-invalid"); control.removeAttribute("aria-describedby"); }
}

export function markFieldErrors(form, error, prefix = "") {
  let n = 0;
  for (const e of error?.errors || []) {
    const parts = String(e.pointer || "").split("/").filter(Boolean);
    if (prefix && parts[0] === prefix) parts.shift();
    let control = null;
    for (let length = parts.length; length > 0 && !control; length--) {
      const name = parts.slice(0, length).join(".");
      control = form.querySelector(`[name="${CSS.escape(name)}"]`) || form.querySelector(`[name^="${CSS.escape(name)}."]`)?.closest("fieldset")
        || form.querySelector(`[data-pointer="${CSS.escape("/" + parts.slice(0, length).join("/"))}"]`);
    }
    if (!control) continue;
    const place = control.matches("fieldset") ? control : (control.closest(".field") || control);
    const note = Object.assign(document.createElement("p"), { className: "field-error", id: `${form.id}-error-${n++}`,
      textContent: problemWords(e.detail || e.message) ?? t("problems.other") });
    place.after(note);
    const target = control.matches("fieldset") ? control.querySelector("input, select") : control;
    if (target) { target.setAttribute("aria-invalid", "true"); target.setAttribute("aria-describedby", note.id); }
  }
  return n;
}
