// The one stand-in for Foundry VTT in these tests: a world (users, actors, a Combat, world settings,
// the chat) shared by several simulated clients, each with its own globals (game, Hooks,
// ChatMessage, foundry, ui) as src/foundry.ts reads them, its own hooks and its own browser storage
// (client-scoped settings). Only what the module uses is here, with Foundry's v13 semantics:
//  - a document update runs the update hook (updateCombat, updateUser) on every client;
//  - only a GM may update a Combat or a world setting (as Foundry refuses players); an actor's
//    owners and the GMs may update it (Document#update with dotted paths, setFlag, unsetFlag,
//    toggleStatusEffect, which refuses an id not in that client's CONFIG.statusEffects);
//  - a Combat has turns (its combatants, in the order given), turn and round, set by Combat#update;
//  - game.modules.get("melee").flags is the installed module.json's `flags` (createWorld's moduleFlags);
//  - world settings, documents and their flags are what every client receives: a test that looks
//    for a secret "anywhere a player could read" looks in world.shared();
//  - DialogV2.wait hands the dialog (title, HTML content, buttons) to world.respond, which the test
//    sets, and returns what the clicked button's callback returns (null when closed).
// Nothing of Foundry's code is used or copied.
import { readFileSync } from "node:fs";

const OWNER = 3;

function flatten(object, prefix = "", out = {}) {
  for (const [key, value] of Object.entries(object)) {
    if (value !== null && typeof value === "object") flatten(value, `${prefix}${key}.`, out);
    else out[`${prefix}${key}`] = value;
  }
  return out;
}

function hasProperty(object, path) {
  let value = object;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object" || !(part in value)) return false;
    value = value[part];
  }
  return true;
}

const clone = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/** foundry.utils.setProperty: writes `value` at a dotted path, making the objects on the way. */
function setProperty(object, path, value) {
  const parts = path.split(".");
  let node = object;
  for (const part of parts.slice(0, -1)) {
    if (node[part] === null || typeof node[part] !== "object") node[part] = {};
    node = node[part];
  }
  node[parts.at(-1)] = value;
}

/** The statuses a v13 client starts with (a few of CONFIG.statusEffects' defaults). */
const CORE_STATUS_EFFECTS = [
  { id: "dead", name: "EFFECT.StatusDead", img: "icons/svg/skull.svg" },
  { id: "unconscious", name: "EFFECT.StatusUnconscious", img: "icons/svg/unconscious.svg" },
  { id: "prone", name: "EFFECT.StatusProne", img: "icons/svg/falling.svg" },
];

class Hooks {
  #handlers = new Map();
  on(name, fn) {
    if (!this.#handlers.has(name)) this.#handlers.set(name, []);
    this.#handlers.get(name).push({ fn, once: false });
  }
  once(name, fn) {
    this.on(name, fn);
    this.#handlers.get(name).at(-1).once = true;
  }
  #run(name, args, stopOnFalse) {
    const list = this.#handlers.get(name) ?? [];
    for (const handler of [...list]) {
      if (handler.once) list.splice(list.indexOf(handler), 1);
      if (handler.fn(...args) === false && stopOnFalse) return false;
    }
    return true;
  }
  call(name, ...args) {
    return this.#run(name, args, true);
  }
  callAll(name, ...args) {
    this.#run(name, args, false);
    return true;
  }
}

/**
 * users: [{id, name, isGM}], actors: [{id, name, system, owners: [userId], sheet?}],
 * combat: {id, combatants: [{id, name, actorId, disposition}]}, lang: the interface language file,
 * moduleFlags: the `flags` of the module.json installed.
 */
export function createWorld({ users, actors, combat, lang = "en", langDir, moduleFlags = {} }) {
  const words = flatten(JSON.parse(readFileSync(`${langDir}/${lang}.json`, "utf8")));
  const world = {
    users: users.map((u) => ({ ...u, active: false, flags: {} })),
    actors: actors.map((a) => ({ ...a, statuses: [], flags: a.sheet ? { melee: { sheet: a.sheet } } : {} })),
    combat: { ...combat, turn: null, round: 0, flags: {} },
    moduleFlags,
    settings: {},
    chat: [],
    notes: [],
    /** Browser storage (client-scoped settings) per user: survives a "restart" of the clients. */
    storage: {},
    clients: new Map(),
    waiters: [],
    respond: async () => null,
    /** Everything any client (any player) receives: world settings, documents with their flags, chat. */
    shared() {
      return JSON.stringify({ settings: world.settings, users: world.users, actors: world.actors, combat: world.combat, chat: world.chat });
    },
    changed() {
      for (const waiter of [...world.waiters]) {
        if (waiter.test()) {
          world.waiters.splice(world.waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    },
    /** Settles when test() holds after some change (no timer: a hung fight is the test's timeout). */
    until(test) {
      if (test()) return Promise.resolve();
      return new Promise((resolve) => world.waiters.push({ test, resolve }));
    },
    state() {
      return world.combat.flags.melee?.state ?? null;
    },
    /** A client for this user: fresh globals, as after a browser reload (its storage kept). */
    connect(userId) {
      const client = makeClient(world, userId, words, lang);
      world.clients.set(userId, client);
      world.users.find((u) => u.id === userId).active = true;
      return client;
    },
    disconnectAll() {
      world.clients.clear();
      for (const user of world.users) user.active = false;
    },
    broadcast(hook, args) {
      for (const client of world.clients.values()) client.Hooks.callAll(hook, ...args(client));
    },
  };
  return world;
}

function makeClient(world, userId, words, lang) {
  const storage = (world.storage[userId] ??= {});
  const registered = new Map();
  const me = () => world.users.find((u) => u.id === userId);
  const userView = (data) => ({
    get id() { return data.id; },
    get name() { return data.name; },
    get isGM() { return data.isGM; },
    get active() { return data.active; },
    getFlag: (scope, key) => clone(data.flags[scope]?.[key]),
    setFlag: async (scope, key, value) => {
      if (data.id !== userId && !me().isGM) throw new Error("stub: a player updates only their own user");
      (data.flags[scope] ??= {})[key] = clone(value);
      world.broadcast("updateUser", (c) => [c.game.users.get(data.id), { flags: { [scope]: { [key]: clone(value) } } }, {}, userId]);
      world.changed();
    },
  });
  const users = () => world.users.map(userView);
  const mayUpdate = (data) => me().isGM || (data.owners ?? []).includes(userId);
  const actorView = (data) => ({
    id: data.id,
    name: data.name,
    system: clone(data.system),
    get statuses() { return new Set(data.statuses); },
    getFlag: (scope, key) => clone(data.flags[scope]?.[key]),
    setFlag: async (scope, key, value) => {
      if (!mayUpdate(data)) throw new Error("stub: only an owner or a GM may update an actor");
      (data.flags[scope] ??= {})[key] = clone(value);
      world.changed();
    },
    unsetFlag: async (scope, key) => {
      if (!mayUpdate(data)) throw new Error("stub: only an owner or a GM may update an actor");
      delete data.flags[scope]?.[key];
      world.changed();
    },
    update: async (changes) => {
      if (!mayUpdate(data)) throw new Error("stub: only an owner or a GM may update an actor");
      for (const [path, value] of Object.entries(flatten(changes))) {
        if (!path.startsWith("system.") && !path.startsWith("flags.")) throw new Error(`stub: ${path} is not actor data`);
        setProperty(data, path, clone(value));
      }
      world.changed();
    },
    toggleStatusEffect: async (statusId, { active } = {}) => {
      if (!mayUpdate(data)) throw new Error("stub: only an owner or a GM may update an actor");
      if (!client.CONFIG.statusEffects.some((e) => e.id === statusId)) throw new Error(`Invalid status ID "${statusId}" provided to Actor#toggleStatusEffect`);
      const has = data.statuses.includes(statusId);
      const wanted = active ?? !has;
      if (wanted === has) return has ? true : undefined;
      data.statuses = wanted ? [...data.statuses, statusId] : data.statuses.filter((s) => s !== statusId);
      world.changed();
      return wanted ? { id: statusId } : false;
    },
    testUserPermission: (user, level) => level === "OWNER" && (user.isGM || (data.owners ?? []).includes(user.id)),
    ownership: Object.fromEntries((data.owners ?? []).map((id) => [id, OWNER])),
  });
  const combatantViews = (data) =>
    data.combatants.map((c) => ({
      id: c.id,
      name: c.name,
      actor: c.actorId ? actorView(world.actors.find((a) => a.id === c.actorId)) : null,
      token: { disposition: c.disposition ?? 0 },
    }));
  const combatView = (data) => ({
    id: data.id,
    combatants: {
      get contents() { return combatantViews(data); },
      get: (id) => combatantViews(data).find((c) => c.id === id),
    },
    get turns() { return combatantViews(data); },
    get turn() { return data.turn; },
    get round() { return data.round; },
    update: async (changes) => {
      if (!me().isGM) throw new Error("stub: only a GM may update a Combat");
      for (const key of Object.keys(changes)) if (!["turn", "round"].includes(key)) throw new Error(`stub: Combat#update of ${key}`);
      Object.assign(data, clone(changes));
      world.broadcast("updateCombat", (c) => [c.game.combat, clone(changes), {}, userId]);
      world.changed();
    },
    getFlag: (scope, key) => clone(data.flags[scope]?.[key]),
    setFlag: async (scope, key, value) => {
      if (!me().isGM) throw new Error("stub: only a GM may update a Combat");
      (data.flags[scope] ??= {})[key] = clone(value);
      world.broadcast("updateCombat", (c) => [c.game.combat, { flags: { [scope]: { [key]: clone(value) } } }, {}, userId]);
      world.changed();
    },
  });
  const module = { id: "melee", flags: clone(world.moduleFlags) };
  const notify = (level) => (message) => {
    world.notes.push({ user: userId, level, message });
    world.changed();
  };
  const client = {
    Hooks: new Hooks(),
    CONFIG: { statusEffects: clone(CORE_STATUS_EFFECTS) },
    game: {
      get user() { return userView(me()); },
      users: {
        get contents() { return users(); },
        filter: (fn) => users().filter(fn),
        get: (id) => users().find((u) => u.id === id),
      },
      get combat() { return combatView(world.combat); },
      actors: {
        get: (id) => {
          const data = world.actors.find((a) => a.id === id);
          return data ? actorView(data) : undefined;
        },
      },
      combats: { get contents() { return [combatView(world.combat)]; } },
      modules: { get: (id) => (id === "melee" ? module : undefined) },
      i18n: {
        lang,
        localize: (key) => words[key] ?? key,
        format: (key, data) => (words[key] ?? key).replace(/\{(\w+)\}/g, (_, k) => String(data?.[k] ?? `{${k}}`)),
        has: (key) => key in words,
      },
      settings: {
        register: (namespace, key, config) => registered.set(`${namespace}.${key}`, config),
        get: (namespace, key) => {
          const id = `${namespace}.${key}`;
          const config = registered.get(id);
          if (!config) throw new Error(`stub: setting ${id} is not registered`);
          const store = config.scope === "world" ? world.settings : storage;
          return id in store ? clone(store[id]) : config.default;
        },
        set: async (namespace, key, value) => {
          const id = `${namespace}.${key}`;
          const config = registered.get(id);
          if (!config) throw new Error(`stub: setting ${id} is not registered`);
          if (config.scope === "world" && !me().isGM) throw new Error("stub: only a GM may change a world setting");
          (config.scope === "world" ? world.settings : storage)[id] = clone(value);
          return value;
        },
      },
    },
    ChatMessage: {
      create: async (data) => {
        world.chat.push({ ...clone(data), author: userId });
        world.changed();
        return data;
      },
    },
    foundry: {
      utils: { hasProperty },
      applications: {
        api: {
          DialogV2: {
            wait: async (config) => {
              const answer = await world.respond({ user: userId, title: config.window?.title, content: config.content, buttons: config.buttons });
              if (!answer) return null;
              const button = config.buttons.find((b) => b.action === answer.action);
              if (!button) throw new Error(`stub: no button ${answer.action}`);
              if (!button.callback) return button.action;
              const values = answer.values ?? {};
              const form = { elements: { namedItem: (name) => (name in values ? { value: String(values[name]) } : null) } };
              return button.callback(new Event("submit"), { form }, {});
            },
          },
        },
      },
    },
    ui: { notifications: { info: notify("info"), warn: notify("warn"), error: notify("error") } },
    /** Runs Foundry's start-up hooks on this client, as a page load does. */
    boot() {
      client.Hooks.callAll("init");
      client.Hooks.callAll("setup");
      client.Hooks.callAll("ready");
      return module.api;
    },
  };
  return client;
}
