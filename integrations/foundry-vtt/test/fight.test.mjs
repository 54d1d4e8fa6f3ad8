// The module's logic against a live Melee (MELEE_URL), through the stubbed host of foundry-stub.mjs:
// a GM and a player connected, a Foundry Combat of the ruleset's example, the fight started from it,
// every prompt answered through the dialogs (the example's actions, in order), the log in the chat,
// Melee's state mirrored onto the actors, their status effects and the tracker's turn, the snapshot
// in the GM's browser only, and the fight ended by the GM. MELEE_RULESETS limits the rulesets.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { webcrypto } from "node:crypto";
import { createWorld } from "./foundry-stub.mjs";
import { register } from "../dist/melee.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const base = process.env.MELEE_URL;
if (!base) throw new Error("MELEE_URL: the address of a live Melee");
const en = JSON.parse(await (await import("node:fs/promises")).readFile(join(root, "lang/en.json"), "utf8")).MELEE;

const rulesets = process.env.MELEE_RULESETS
  ? process.env.MELEE_RULESETS.split(",")
  : (await (await fetch(`${base}/rulesets`)).json()).map((r) => r.id);

const unescape = (text) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The form's inputs as a browser would submit them untouched: a select's first option, inputs empty. */
function formDefaults(html) {
  const values = {};
  for (const m of html.matchAll(/<select [^>]*name="([^"]+)">(.*?)<\/select>/g)) {
    const first = /<option value="([^"]*)"/.exec(m[2]);
    values[unescape(m[1])] = first ? unescape(first[1]) : "";
  }
  for (const m of html.matchAll(/<input [^>]*name="([^"]+)"/g)) values[unescape(m[1])] = "";
  return values;
}

function selectOptions(html, name) {
  const m = new RegExp(`<select [^>]*name="${name.replace(/[.]/g, "\\.")}">(.*?)</select>`).exec(html);
  return m ? [...m[1].matchAll(/<option value="([^"]*)"/g)].map((o) => unescape(o[1])) : [];
}

/** Whether the form can make `action`: each of its selects the action sets offers the action's value. */
function fits(html, action) {
  for (const [key, value] of Object.entries(action)) {
    if (["type", "actor", "dice"].includes(key)) continue;
    const options = selectOptions(html, key);
    if (!options.length) continue;
    if (value !== null && typeof value === "object") continue;
    if (!options.includes(String(value))) return false;
  }
  return true;
}

/** The form values that make `action`: each field filled from it, the rest left as they are. */
function fill(html, action) {
  const values = formDefaults(html);
  for (const name of Object.keys(values)) {
    const path = name.split(".");
    let value = action;
    for (const part of path) value = value?.[part];
    if (name === "dice") value = action.dice?.join(" ");
    if (value === undefined) continue;
    if (value !== null && typeof value === "object") {
      // A choice that is an object: the option whose JSON has every field of the action's.
      const match = selectOptions(html, name).find((o) => {
        try {
          const parsed = JSON.parse(o);
          return Object.entries(value).every(([k, v]) => JSON.stringify(parsed[k]) === JSON.stringify(v));
        } catch {
          return false;
        }
      });
      if (match !== undefined) values[name] = match;
    } else values[name] = String(value);
  }
  return values;
}

const label = (type) => en.Action[type] ?? type.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

async function openSealed(world, userId, sealed) {
  const pair = JSON.parse(world.storage[userId]["melee.keyPair"]);
  const key = await webcrypto.subtle.importKey("jwk", pair.privateKey, { name: "RSA-OAEP", hash: "SHA-256" }, false, ["decrypt"]);
  const bytes = Uint8Array.from(atob(sealed), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(await webcrypto.subtle.decrypt({ name: "RSA-OAEP" }, key, bytes));
}

/** A world with a GM, Alice who owns the example's first combatant, Bob the second one (unless it is
 * an NPC), and Carol who owns none. The first actor is dnd5e-like (its health at
 * system.attributes.hp), the others keep only the sheet's fields (health written to their flags).
 * The module was installed from Melee's manifest: its flags preset the Melee URL. */
async function setUp(ruleset, { npc = false } = {}) {
  const detail = await (await fetch(`${base}/rulesets/${ruleset}`)).json();
  const example = detail.example;
  const [first, ...others] = example.combat.combatants;
  const actor = (sheet, owners, dnd5e = false) => {
    const { id, name, side, contact_with, ...system } = sheet;
    if (dnd5e) system.attributes = { ...(system.attributes ?? {}), hp: { value: 1, max: 1 } };
    return { id: `actor-${id}`, name, system, owners };
  };
  const world = createWorld({
    langDir: join(root, "lang"),
    users: [
      { id: "gm", name: "Gamemaster", isGM: true },
      { id: "alice", name: "Alice", isGM: false },
      { id: "bob", name: "Bob", isGM: false },
      { id: "carol", name: "Carol", isGM: false },
    ],
    actors: [actor(first, ["alice"], true), ...others.map((s, i) => actor(s, i === 0 && !npc ? ["bob"] : []))],
    combat: {
      id: "combat1",
      combatants: example.combat.combatants.map((s, i) => ({ id: s.id, name: s.name, actorId: `actor-${s.id}`, disposition: i === 0 ? 1 : -1 })),
    },
    moduleFlags: { melee: { url: base } },
  });
  world.settings["melee.ruleset"] = ruleset;
  // The API key is the GM's browser's (a client setting), as the module registers it.
  if (process.env.MELEE_API_KEY) world.storage.gm = { "melee.apiKey": process.env.MELEE_API_KEY };
  const answered = [];
  const pending = [...example.actions];
  // Each example action whose prompt found Foundry's tracker following Melee's awaiting.
  const turnsChecked = new Set();
  let gmToken = null;
  /** Settles once the tracker shows Melee's awaiting as it is now (its turn the first combatant
   * Melee awaits, its round Melee's), fetched again whenever the world or the fight moves on. */
  const trackerFollows = async () => {
    const state = world.state();
    gmToken ??= await openSealed(world, "gm", state.gm.gm);
    for (;;) {
      const seq = world.state().lastSeq;
      const live = await gmGet(`/combats/${state.combatId}`, gmToken);
      const awaited = live.awaiting.map((a) => a.actor).find((id) => world.combat.combatants.some((c) => c.id === id));
      assert.ok(awaited, `a prompt while Melee awaits none of the Combat's combatants: ${JSON.stringify(live.awaiting)}`);
      const shown = () => JSON.stringify([world.combat.combatants[world.combat.turn]?.id, world.combat.round]);
      const now = shown();
      if (now === JSON.stringify([awaited, live.round])) return;
      await world.until(() => shown() !== now || world.state().lastSeq !== seq);
    }
  };
  // Each prompt: the example's next action for that combatant, picked and filled as a user would;
  // a button whose form cannot make that action is closed and the next one tried, as a user would.
  const names = Object.fromEntries(example.combat.combatants.map((s) => [s.name, s.id]));
  let current = null;
  let tries = 0;
  world.respond = async ({ user, title, content, buttons }) => {
    if (world.holdUser === user) return null;
    if (process.env.MELEE_DEBUG) console.error("dialog", user, title, buttons.map((b) => b.label).join("/"), JSON.stringify(world.notes.slice(1)), world.state()?.lastSeq, JSON.stringify(world.state()?.awaiting), world.chat.length);
    if (buttons.length === 1 && buttons[0].action === "submit") {
      const action = current;
      current = null;
      if (!action || !fits(content, action)) return null;
      pending.shift();
      tries = 0;
      answered.push({ user, action });
      return { action: "submit", values: fill(content, action) };
    }
    const actorId = names[title.split(":")[0]];
    if (!pending.some((a) => a.actor === actorId)) return null;
    await world.until(() => pending[0]?.actor === actorId);
    const action = pending[0];
    // Melee awaits this combatant: Foundry's tracker shows whose turn and which round it is.
    await trackerFollows();
    turnsChecked.add(action);
    const targetName = example.combat.combatants.find((s) => s.id === action.target)?.name;
    const candidates = buttons.filter((b) => b.label === label(action.type) || b.label.startsWith(`${label(action.type)} (`));
    // The buttons that name more of the action's choices first (its target's name, its weapon...).
    const words = [targetName, ...Object.entries(action).filter(([k, v]) => !["type", "actor", "dice", "target"].includes(k) && typeof v === "string").map(([, v]) => v.replace(/_/g, " "))].filter(Boolean).map((w) => w.toLowerCase());
    const score = (b) => words.filter((w) => b.label.toLowerCase().includes(w)).length;
    candidates.sort((a, b) => score(b) - score(a));
    const button = candidates[tries++];
    assert.ok(button, `${actorId}: no ${action.type} that fits among ${buttons.map((b) => b.label).join(" | ")}`);
    current = action;
    return { action: button.action };
  };
  return { world, detail, example, answered, pending, turnsChecked, creation: example.combat };
}

const tables = [];
// Every simulated client stops following its fights, whatever a test's verdict, so node can exit.
after(() => tables.forEach((table) => table.stop()));

function boot(world, userId) {
  const client = world.connect(userId);
  register(client);
  const table = client.boot();
  tables.push(table);
  return table;
}

const gmGet = async (path, token) => (await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } })).json();

/** The snapshot the GM's browser keeps for a fight (a client setting: its local storage). */
const savedSnapshot = (world, combatId) => JSON.parse(world.storage.gm?.["melee.snapshots"] ?? "{}")[combatId];

const HEALTH = { "age-du-silicium": "blessures" };

/** Melee's combat as the GM's client mirrored it: each actor's health (the dnd5e-like first one at
 * system.attributes.hp, the others in their Melee flags), its melee-* status effects (registered in
 * the GM's CONFIG.statusEffects with the ruleset's words), the tracker's turn and round. */
function assertMirrored(world, detail, live) {
  const field = HEALTH[detail.id] ?? "pv";
  const config = world.clients.get("gm").CONFIG.statusEffects;
  const words = detail.labels.en.condition;
  live.combatants.forEach((fighter, i) => {
    const data = world.actors.find((a) => a.id === `actor-${fighter.id}`);
    const written = i === 0 ? data.system.attributes.hp : data.flags.melee?.health;
    assert.deepEqual(written, { value: fighter[field], max: fighter[`${field}_max`] }, `${fighter.id}'s health`);
    const codes = fighter.conditions.map((c) => c.code);
    assert.deepEqual([...data.statuses].sort(), codes.map((c) => `melee-${c}`).sort(), `${fighter.id}'s status effects`);
    for (const code of codes) {
      const effect = config.find((e) => e.id === `melee-${code}`);
      assert.equal(effect?.name, words[code].charAt(0).toUpperCase() + words[code].slice(1));
    }
  });
  // At the end Melee may await none of the Combat's combatants: the turn is left where it was (each
  // prompt checked it on the way, trackerFollows in setUp), the round is still Melee's.
  const awaited = live.awaiting.map((a) => a.actor).find((id) => world.combat.combatants.some((c) => c.id === id));
  if (awaited) assert.equal(world.combat.combatants[world.combat.turn].id, awaited, "the tracker's turn");
  assert.equal(world.combat.round, live.round, "the tracker's round");
}

for (const ruleset of rulesets) {
  test(`${ruleset}: a fight started from Foundry's Combat, played through the prompts, to its end`, { timeout: 120_000 }, async () => {
    const { world, detail, example, answered, turnsChecked, creation } = await setUp(ruleset);
    const [gm, alice, bob, carol] = ["gm", "alice", "bob", "carol"].map((id) => boot(world, id));
    await Promise.all([gm.ready, alice.ready, bob.ready, carol.ready]);

    const state = await gm.startCombat({ dice: creation.dice, seed: creation.seed });
    assert.ok(state, world.notes.map((n) => n.message).join("; "));
    const [first, second] = creation.combatants.map((c) => c.id);
    // The GM token sealed for the GM only; each combatant's for its owner and the GM, never Carol.
    assert.deepEqual(Object.keys(state.gm), ["gm"]);
    assert.deepEqual(Object.keys(state.tokens[first]).sort(), ["alice", "gm"]);
    assert.deepEqual(Object.keys(state.tokens[second]).sort(), ["bob", "gm"]);
    const aliceToken = await openSealed(world, "alice", state.tokens[first].alice);
    const bobToken = await openSealed(world, "bob", state.tokens[second].bob);
    const gmToken = await openSealed(world, "gm", state.gm.gm);
    await assert.rejects(openSealed(world, "carol", state.tokens[first].alice), "Carol's key opens Alice's token");
    await assert.rejects(openSealed(world, "bob", state.tokens[first].alice), "Bob's key opens Alice's token");
    // Each token is the one Melee gave for that combatant: its own options, not the other's (403).
    assert.equal((await gmGet(`/combats/${state.combatId}/options?actor=${first}`, aliceToken)).actor, first);
    assert.equal((await gmGet(`/combats/${state.combatId}/options?actor=${first}`, bobToken)).status, 403);

    // Every example action answered through a prompt, by its owner; each log entry in the chat.
    const entries = 1 + example.actions.length;
    await world.until(() => (world.state()?.lastSeq ?? 0) >= entries && answered.length === example.actions.length);
    for (const { user, action } of answered) assert.equal(user, action.actor === first ? "alice" : "bob", `${action.type} by ${action.actor}`);
    // Before every action, Foundry's turn and round were Melee's awaiting (trackerFollows).
    assert.equal(turnsChecked.size, example.actions.length, "the tracker checked before each action");
    assert.ok(world.chat.length >= entries - 1, "one chat message per log entry that has sentences");
    assert.ok(world.chat.every((m) => m.speaker.alias === "Melee" && m.content.startsWith('<div class="melee-entry">')));

    // Melee's state on the world: health, status effects, turn and round.
    const live = await gmGet(`/combats/${state.combatId}`, gmToken);
    assertMirrored(world, detail, live);

    // The snapshot is saved after each action in the GM's browser, nowhere a player receives it.
    const saved = savedSnapshot(world, state.combatId);
    assert.equal(typeof saved, "string");
    assert.ok(!world.shared().includes(saved), "the snapshot in the world's shared data");

    await gm.endCombat(undefined, "The test is over.");
    await world.until(() => world.state()?.status === "over");
    const combat = await gmGet(`/combats/${state.combatId}`, gmToken);
    assert.equal(combat.status, "over");
    const log = await gmGet(`/combats/${state.combatId}/events?after=0&limit=200`, gmToken);
    assert.equal(world.state().lastSeq, log.items.at(-1).seq, "every entry of the log recorded");
    const sentences = log.items.flatMap((e) => e.events.map((ev) => ev.text)).filter(Boolean);
    const chat = world.chat.map((m) => m.content).join("");
    for (const sentence of sentences) assert.ok(chat.includes(sentence.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")), sentence);

    // No token in clear anywhere a player's client receives: world settings, documents, chat.
    const shared = world.shared();
    for (const token of [aliceToken, bobToken, gmToken]) assert.ok(!shared.includes(token), "a token in clear in the world's shared data");
    assert.deepEqual(world.notes.filter((n) => n.level !== "info"), []);
  });
}

test("sistema-2d6: an NPC answered by the GM; Melee loses the fight, Foundry restarts, the GM's client restores it", { timeout: 120_000 }, async (t) => {
  const { world, answered, creation } = await setUp("sistema-2d6", { npc: true });
  world.holdUser = "gm"; // the GM's dialogs are closed until Foundry "restarts"
  const gm = boot(world, "gm");
  const alice = boot(world, "alice");
  await Promise.all([gm.ready, alice.ready]);
  const state = await gm.startCombat({ dice: creation.dice, seed: creation.seed });
  const [ana, capanga] = creation.combatants.map((c) => c.id);
  assert.deepEqual(Object.keys(state.tokens[capanga]), ["gm"], "an NPC's token is the GM's only");
  const gmToken = await openSealed(world, "gm", state.gm.gm);
  if ((await fetch(`${base}/combats/${state.combatId}/snapshot`, { headers: { Authorization: `Bearer ${gmToken}` } })).status === 404) {
    t.skip("this Melee has no snapshot API");
    return;
  }
  // Ana attacks (Alice's prompt); Capanga's defense is awaited from the GM.
  await world.until(() => world.state()?.lastSeq >= 2 && world.state().awaiting.some((a) => a.actor === capanga));
  const saved = savedSnapshot(world, state.combatId);
  assert.equal(typeof saved, "string");
  assert.ok(!world.shared().includes(saved), "the snapshot in the world's shared data");

  // Melee loses the combat (the GM deletes it), and every Foundry client goes away.
  gm.stop();
  alice.stop();
  const deleted = await fetch(`${base}/combats/${state.combatId}`, { method: "DELETE", headers: { Authorization: `Bearer ${gmToken}` } });
  assert.equal(deleted.status, 204);
  assert.equal((await fetch(`${base}/combats/${state.combatId}`, { headers: { Authorization: `Bearer ${gmToken}` } })).status, 404);
  world.disconnectAll();
  world.notes.length = 0;

  // Foundry restarts: the GM's client finds the fight gone, restores the snapshot, and prompts the GM.
  world.holdUser = null;
  const gm2 = boot(world, "gm");
  const alice2 = boot(world, "alice");
  await Promise.all([gm2.ready, alice2.ready]);
  assert.ok(world.notes.some((n) => n.level === "info" && n.message === en.Info.Restored), JSON.stringify(world.notes));
  // Entry 3 is Melee's `restored` entry; the GM's answer for Capanga comes after it.
  await world.until(() => world.state()?.lastSeq >= 4);
  assert.deepEqual(
    answered.map(({ user, action }) => [user, action.actor]),
    [["alice", ana], ["gm", capanga]],
  );
  const combat = await (await fetch(`${base}/combats/${state.combatId}`, { headers: { Authorization: `Bearer ${gmToken}` } })).json();
  assert.equal(combat.version, world.state().version);
  await gm2.endCombat(undefined, "The test is over.");
  await world.until(() => world.state()?.status === "over");
  assert.deepEqual(world.notes.filter((n) => n.level !== "info"), []);
  gm2.stop();
  alice2.stop();
});

test("sistema-2d6: the mapping reads the actors' data, the GM's paths, the actor's sheet flag and the melee.mapActor hook", { timeout: 120_000 }, async () => {
  const { world, creation } = await setUp("sistema-2d6", { npc: true });
  const [ana, capanga] = world.actors;
  // Ana's system in a dnd5e-like shape: hp at system.attributes.hp.max (a default path), FOR under
  // abilities (a path the GM gives), and a skills object that is not numbers (ignored: the template's stay).
  ana.system = { attributes: { hp: { max: 17 }, FOR: "strong" }, abilities: { str: { value: 4 } }, skills: { acr: { value: 2 } } };
  world.settings["melee.mapping"] = JSON.stringify({ "sistema-2d6": { "attributes.FOR": ["system.nothing", "system.abilities.str.value"] } });
  capanga.flags = { melee: { sheet: { skills: { Briga: 4 } } } };
  const gm = boot(world, "gm");
  world.clients.get("gm").Hooks.on("melee.mapActor", ({ sheet, ruleset }) => {
    if (ruleset === "sistema-2d6" && sheet.id === "capanga") sheet.name = "Capanga, the boss";
  });
  await gm.ready;
  const state = await gm.startCombat({ dice: creation.dice, seed: creation.seed });
  const gmToken = await openSealed(world, "gm", state.gm.gm);
  const combat = await gmGet(`/combats/${state.combatId}`, gmToken);
  const byId = Object.fromEntries(combat.combatants.map((c) => [c.id, c]));
  const template = creation.combatants[0];
  assert.equal(byId.ana.pv_max, 17); // system.attributes.hp.max, a default path of the health field
  const anaSheet = byId.ana.sheet;
  assert.equal(anaSheet.attributes.FOR, 4); // the GM's second path: the first one is missing
  assert.equal(anaSheet.attributes.DES, template.attributes.DES); // the template's where the actor has nothing
  assert.deepEqual(anaSheet.skills, template.skills);
  const capangaSheet = byId.capanga.sheet;
  assert.equal(capangaSheet.skills.Briga, 4); // the actor's flags.melee.sheet, merged over
  assert.equal(byId.capanga.name, "Capanga, the boss"); // the hook's change
  assert.equal(state.names.capanga, "Capanga, the boss");
  await gm.endCombat(undefined, "The test is over.");
  await world.until(() => world.state()?.status === "over");
  gm.stop();
});

test("sistema-2d6: an actor Melee can read nothing from is refused until the GM fills its Melee sheet; a closed prompt comes back", { timeout: 120_000 }, async () => {
  const { world, creation } = await setUp("sistema-2d6", { npc: true });
  const capanga = world.actors[1];
  capanga.system = { biography: "A thug from the docks." };
  const gm = boot(world, "gm");
  const alice = boot(world, "alice");
  await Promise.all([gm.ready, alice.ready]);
  // Refused, naming it: it would otherwise fight with the example's statistics under its name.
  assert.equal(await gm.startCombat({ dice: creation.dice, seed: creation.seed }), null);
  assert.deepEqual(
    world.notes.filter((n) => n.level !== "info").map((n) => n.message),
    [en.Error.NoSheet.replace("{names}", "Capanga")],
  );
  assert.equal(world.state(), null, "nothing started");

  // The GM's Melee sheet editor opens with the fields Melee needs (the example's), the GM sets pv.
  world.respond = async ({ user, title, content, buttons }) => {
    assert.equal(user, "gm");
    assert.equal(title, en.Sheet.Title.replace("{name}", capanga.name));
    assert.deepEqual(buttons.map((b) => b.action), ["submit"]);
    const shown = JSON.parse(unescape(/<textarea [^>]*>([\s\S]*?)<\/textarea>/.exec(content)[1]));
    assert.ok(typeof shown.attributes?.FOR === "number" && !("id" in shown) && !("side" in shown), JSON.stringify(shown));
    return { action: "submit", values: { sheet: JSON.stringify({ ...shown, pv: 11 }) } };
  };
  assert.equal(await gm.editSheet(capanga.id), true);
  assert.equal(capanga.flags.melee.sheet.pv, 11);

  // Alice closes her prompt without acting, once the fight has settled (nobody acts: nothing
  // changes, so nothing prompts her again); the tracker's "Your move" button brings it back.
  // Each of Alice's prompts notes whether "Your move" had been pressed before it opened.
  const opened = [];
  let aliceOpen = 0;
  let pressed = false;
  let release;
  const held = new Promise((resolve) => (release = resolve));
  world.respond = async ({ user }) => {
    if (user !== "alice") return null;
    opened.push(pressed);
    aliceOpen++;
    world.changed();
    if (opened.length === 1) await held;
    aliceOpen--;
    world.changed();
    return null;
  };
  world.notes.length = 0;
  const state = await gm.startCombat({ dice: creation.dice, seed: creation.seed });
  assert.ok(state, JSON.stringify(world.notes));
  await world.until(() => opened.length === 1 && world.state()?.lastSeq >= 1);
  release();
  await world.until(() => aliceOpen === 0); // she closed it
  pressed = true;
  alice.promptAgain();
  await world.until(() => opened.length === 2);
  assert.deepEqual(opened, [false, true], "a closed prompt came back before Your move was pressed");
  const gmToken = await openSealed(world, "gm", state.gm.gm);
  const combat = await gmGet(`/combats/${state.combatId}`, gmToken);
  assert.equal(combat.combatants.find((c) => c.id === "capanga").pv_max, 11);
  await gm.endCombat(undefined, "The test is over.");
  await world.until(() => world.state()?.status === "over");
  assert.equal(savedSnapshot(world, state.combatId), undefined, "a finished fight's snapshot is forgotten");
  gm.stop();
  alice.stop();
});
