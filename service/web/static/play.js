// Melee /play: create or join a fight, act from the forms, follow the log live.
// Everything here is what a VTT module does: see docs/vtt.md.
"use strict";

const page = { combatId: null, token: null, ruleset: null, combat: null, stream: null };
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (page.token) headers.Authorization = `Bearer ${page.token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(data && data.detail ? data.detail : `HTTP ${response.status}`);
  return data;
}

function showError(error) { $("error").textContent = error ? String(error.message || error) : ""; }

async function loadRulesets() {
  const rulesets = await api("GET", "/rulesets");
  $("ruleset").replaceChildren(...rulesets.map((r) => new Option(`${r.name} (${r.id})`, r.id)));
}

async function createCombat(event) {
  event.preventDefault();
  showError(null);
  try {
    const ruleset = await api("GET", `/rulesets/${$("ruleset").value}`);
    page.token = null;
    const created = await api("POST", "/combats", ruleset.example.combat);
    const links = [["GM", created.tokens.gm], ...Object.entries(created.tokens.combatants)];
    $("join-links").replaceChildren(...links.map(([who, token]) => {
      const a = document.createElement("a");
      a.href = `/play#combat=${created.id}&token=${encodeURIComponent(token)}`;
      a.textContent = who;
      a.className = "join";
      a.dataset.who = who;
      a.target = "_blank";
      return a;
    }));
    $("share").hidden = false;
    await join(created.id, created.tokens.gm);
  } catch (error) { showError(error); }
}

async function join(combatId, token) {
  page.combatId = combatId;
  page.token = token;
  history.replaceState(null, "", `#combat=${combatId}&token=${encodeURIComponent(token)}`);
  const combat = await api("GET", `/combats/${combatId}`);
  page.ruleset = await api("GET", `/rulesets/${combat.ruleset}`);
  render(combat);
  listen();
}

// The log, live: EventSource cannot send headers, hence ?access_token=. It
// reconnects by itself (with Last-Event-ID) when the server asks it to.
function listen() {
  if (page.stream) page.stream.close();
  $("log").replaceChildren();
  const url = `/combats/${page.combatId}/stream?after=0&access_token=${encodeURIComponent(page.token)}`;
  const stream = new EventSource(url);
  page.stream = stream;
  stream.onopen = () => { $("live").textContent = "live"; $("live").className = "on"; };
  stream.onerror = () => { $("live").textContent = "reconnecting"; $("live").className = ""; };
  stream.addEventListener("entry", async (message) => {
    const entry = JSON.parse(message.data);
    if (document.querySelector(`#log li[data-seq="${entry.seq}"]`)) return;
    const item = document.createElement("li");
    item.dataset.seq = entry.seq;
    item.textContent = `#${entry.seq} ${entry.action.type} (${entry.action.actor}): ` + entry.events.map((e) => e.text).join(" ");
    $("log").append(item);
    if (!page.combat || entry.seq > page.combat.version) render(await api("GET", `/combats/${page.combatId}`));
  });
  for (const end of ["gone", "revoked"]) {
    stream.addEventListener(end, () => { stream.close(); $("live").textContent = end; $("live").className = ""; });
  }
}

function render(combat) {
  page.combat = combat;
  $("status").textContent = `${combat.id.slice(0, 8)} · ${combat.ruleset} · ${combat.status}`;
  $("round").textContent = combat.round;
  $("version").textContent = combat.version;
  $("combatants").tBodies[0].replaceChildren(...combat.combatants.map((c) => {
    const row = document.createElement("tr");
    const health = c.pv ?? c.blessures ?? "";
    for (const value of [c.id, c.name, c.side, health, c.conditions.map((k) => k.code).join(", ")]) {
      row.insertCell().textContent = value;
    }
    return row;
  }));
  $("combatant-ids").replaceChildren(...combat.combatants.map((c) => new Option(c.name, c.id)));
  $("awaiting").replaceChildren(...combat.awaiting.map((w) => {
    const item = document.createElement("li");
    item.textContent = `${w.actor}: ${w.actions.join(", ")} (${w.reason})`;
    return item;
  }));
  $("actions").replaceChildren(...combat.awaiting.flatMap((w) => w.actions.map((type) => actionForm(w.actor, type))));
}

// One form per awaited action type, generated from the ruleset's JSON Schema.
function actionForm(actor, type) {
  const schema = page.ruleset.actions[type] || { properties: {} };
  const form = document.createElement("form");
  form.className = "action";
  form.id = `form-${actor}-${type}`;
  form.append(Object.assign(document.createElement("strong"), { textContent: `${actor}: ${type}` }));
  const required = new Set(schema.required || []);
  for (const [name, property] of Object.entries(schema.properties || {})) {
    if (["type", "actor"].includes(name)) continue;
    form.append(field(name, property, required.has(name)));
  }
  const submit = Object.assign(document.createElement("button"), { type: "submit", textContent: "Act" });
  const odds = Object.assign(document.createElement("button"), { type: "button", textContent: "Odds", className: "odds" });
  const result = Object.assign(document.createElement("p"), { className: "odds-result" });
  form.append(submit, odds, result);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(null);
    try { render((await api("POST", `/combats/${page.combatId}/actions`, readForm(form, actor, type))).combat); }
    catch (error) { showError(error); }
  });
  odds.addEventListener("click", async () => {
    showError(null);
    try {
      const answer = await api("POST", `/combats/${page.combatId}/odds`, { action: readForm(form, actor, type) });
      result.textContent = answer.outcomes.map((o) => `${o.outcome} ${(100 * o.probability).toFixed(1)}%`).join(" · ");
    } catch (error) { showError(error); }
  });
  return form;
}

function field(name, property, required) {
  const label = document.createElement("label");
  label.append(`${name}${required ? " *" : ""} `);
  let input;
  const kind = Array.isArray(property.type) ? property.type.find((t) => t !== "null") : property.type;
  if (property.enum) {
    input = document.createElement("select");
    input.append(new Option("", ""), ...property.enum.filter((v) => v !== null).map((v) => new Option(v, v)));
  } else if (kind === "boolean") {
    input = Object.assign(document.createElement("input"), { type: "checkbox" });
  } else if (kind === "integer" || kind === "number") {
    input = Object.assign(document.createElement("input"), { type: "number" });
  } else if (kind === "object" || kind === "array") {
    input = Object.assign(document.createElement("textarea"), { placeholder: "JSON", rows: 1 });
  } else {
    input = Object.assign(document.createElement("input"), { type: "text" });
    if (["target", "combatant", "defender"].includes(name)) input.setAttribute("list", "combatant-ids");
  }
  input.name = name;
  input.dataset.kind = property.enum ? "enum" : kind;
  if (property.description) label.title = property.description;
  label.append(input);
  return label;
}

function readForm(form, actor, type) {
  const body = { type, actor };
  for (const input of form.querySelectorAll("input, select, textarea")) {
    const kind = input.dataset.kind;
    if (kind === "boolean") { if (input.checked) body[input.name] = true; continue; }
    if (input.value === "") continue;
    if (kind === "integer" || kind === "number") body[input.name] = Number(input.value);
    else if (kind === "object" || kind === "array") body[input.name] = JSON.parse(input.value);
    else body[input.name] = input.value;
  }
  return body;
}

async function start() {
  $("new-combat").addEventListener("submit", createCombat);
  try {
    await loadRulesets();
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.get("combat") && hash.get("token")) await join(hash.get("combat"), hash.get("token"));
  } catch (error) { showError(error); }
}

start();
