// The one stand-in for Foundry VTT in these tests: a world (users, actors, a Combat, world settings,
// the chat) shared by several simulated clients, each with its own globals (game, Hooks,
// ChatMessage, foundry, ui) as src/foundry.ts reads them, its own hooks and its own browser storage
// (client-scoped settings). Only what the module uses is here, with Foundry's v13 semantics:
//  - a document update runs the update hook (updateCombat, updateUser) on every client;
//  - only a GM may update a Combat or a world setting (as Foundry refuses players);
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
 * combat: {id, combatants: [{id, name, actorId, disposition}]}, lang: the interface language file.
 */
export function createWorld({ users, actors, combat, lang = "en", langDir }) {
  const words = flatten(JSON.parse(readFileSync(`${langDir}/${lang}.json`, "utf8")));
  const world = {
    users: users.map((u) => ({ ...u, active: false, flags: {} })),
    actors: actors.map((a) => ({ ...a, flags: a.sheet ? { melee: { sheet: a.sheet } } : {} })),
    combat: { ...combat, flags: {} },
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
  const actorView = (data) => ({
    id: data.id,
    name: data.name,
    system: clone(data.system),
    getFlag: (scope, key) => clone(data.flags[scope]?.[key]),
    testUserPermission: (user, level) => level === "OWNER" && (user.isGM || (data.owners ?? []).includes(user.id)),
    ownership: Object.fromEntries((data.owners ?? []).map((id) => [id, OWNER])),
  });
  const combatView = (data) => ({
    id: data.id,
    combatants: {
      contents: data.combatants.map((c) => ({
        id: c.id,
        name: c.name,
        actor: c.actorId ? actorView(world.actors.find((a) => a.id === c.actorId)) : null,
        token: { disposition: c.disposition ?? 0 },
      })),
    },
    getFlag: (scope, key) => clone(data.flags[scope]?.[key]),
    setFlag: async (scope, key, value) => {
      if (!me().isGM) throw new Error("stub: only a GM may update a Combat");
      (data.flags[scope] ??= {})[key] = clone(value);
      world.broadcast("updateCombat", (c) => [c.game.combat, { flags: { [scope]: { [key]: clone(value) } } }, {}, userId]);
      world.changed();
    },
  });
  const module = { id: "melee" };
  const notify = (level) => (message) => {
    world.notes.push({ user: userId, level, message });
    world.changed();
  };
  const client = {
    Hooks: new Hooks(),
    game: {
      get user() { return userView(me()); },
      users: {
        get contents() { return users(); },
        filter: (fn) => users().filter(fn),
        get: (id) => users().find((u) => u.id === id),
      },
      get combat() { return combatView(world.combat); },
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
