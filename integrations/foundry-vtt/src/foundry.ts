// The adapter: the only file that touches Foundry VTT (its globals, documents, settings, dialogs).
// Everything it needs from Foundry comes in one `FoundryGlobals` object (globalThis in Foundry;
// test/foundry-stub.mjs builds one per simulated client), and it gives the logic a Host.
import { RULESET_IDS } from "@melee/client";
import type { Field, Host, MapActorContext, HostActor, HostCombat, HostCombatant, HostUser, SettingKey, StatusEffect, TableState } from "./host.js";
import type { MeleeTable } from "./table.js";

declare module "fvtt-types/configuration" {
  interface AssumeHookRan {
    ready: never; // the module's logic runs from the ready hook on
  }
  interface SettingConfig {
    "melee.url": string;
    "melee.apiKey": string;
    "melee.ruleset": string;
    "melee.mapping": string;
    "melee.health": string;
    "melee.keyPair": string;
    "melee.snapshots": string;
  }
  namespace Hooks {
    interface HookConfig {
      /** Called once per combatant when a Melee combat starts: change `context.sheet`, or return false. */
      "melee.mapActor": (context: MapActorContext) => boolean | void;
    }
  }
  interface FlagConfig {
    Combat: { melee: { state: TableState } };
    User: { melee: { publicKey: JsonWebKey } };
    Actor: { melee: { sheet: object; health: { value: number; max: number } } };
  }
  interface ModuleConfig {
    melee: { api: MeleeTable };
  }
}

export interface FoundryGlobals {
  game: typeof game;
  Hooks: typeof Hooks;
  ChatMessage: typeof ChatMessage;
  foundry: typeof foundry;
  ui: typeof ui;
  CONFIG: typeof CONFIG;
}

/** The URL of the Melee that served this module (`flags.melee.url` of the module.json it serves),
 * the default of the "Melee URL" setting; a module installed otherwise has none. */
function presetUrl(g: FoundryGlobals): string | null {
  const flags: unknown = g.game.modules.get("melee")?.flags;
  const url = (flags as { melee?: { url?: unknown } } | undefined)?.melee?.url;
  return typeof url === "string" && url !== "" ? url : null;
}

type FoundryUser = User.Implementation;
type FoundryCombat = Combat.Implementation;
type FoundryActor = Actor.Implementation;

export function registerSettings(g: FoundryGlobals): void {
  const settings = g.game.settings;
  settings.register("melee", "url", {
    name: "MELEE.Settings.url.name",
    hint: "MELEE.Settings.url.hint",
    scope: "world",
    config: true,
    type: String,
    default: presetUrl(g) ?? "http://localhost:8000",
  });
  // Client scope: the key stays in the GM's browser. A world setting is sent to every client.
  settings.register("melee", "apiKey", {
    name: "MELEE.Settings.apiKey.name",
    hint: "MELEE.Settings.apiKey.hint",
    scope: "client",
    config: g.game.user?.isGM ?? false,
    type: String,
    default: "",
  });
  settings.register("melee", "ruleset", {
    name: "MELEE.Settings.ruleset.name",
    hint: "MELEE.Settings.ruleset.hint",
    scope: "world",
    config: true,
    type: String,
    choices: Object.fromEntries(RULESET_IDS.map((id) => [id, id])),
    default: "sistema-2d6",
  });
  settings.register("melee", "mapping", {
    name: "MELEE.Settings.mapping.name",
    hint: "MELEE.Settings.mapping.hint",
    scope: "world",
    config: true,
    type: String,
    default: "",
  });
  settings.register("melee", "health", {
    name: "MELEE.Settings.health.name",
    hint: "MELEE.Settings.health.hint",
    scope: "world",
    config: true,
    type: String,
    default: "",
  });
  // This browser's key pair (JSON of two JWKs): its private half never leaves the browser (src/seal.ts).
  settings.register("melee", "keyPair", { scope: "client", config: false, type: String, default: "" });
  // Melee's snapshots of the fights this (GM's) browser follows, by combat id. A client setting on
  // purpose: Foundry sends every world setting (restricted or not) and every document (whatever its
  // ownership) to every client, players included; a client setting stays in this browser.
  settings.register("melee", "snapshots", { scope: "client", config: false, type: String, default: "{}" });
}

/** An entry for GMs in the Actors directory's right-click menu (`label`: a key, the menu localizes
 * it). Foundry v13 calls the hook
 * `getActorContextOptions` (get{DocumentName}ContextOptions) with the entries and then each entry's
 * callback with the actor's `<li data-entry-id>`; this release of fvtt-types does not name it yet. */
export function onActorMenu(g: FoundryGlobals, label: string, open: (actorId: string) => void): void {
  const hook = "getActorContextOptions" as Parameters<typeof g.Hooks.on>[0];
  const addEntry = (_app: unknown, entries: { name: string; icon: string; condition: () => boolean; callback: (li: HTMLElement) => void }[]) => {
    entries.push({
      name: label,
      icon: '<i class="fa-solid fa-user-pen"></i>',
      condition: () => g.game.user?.isGM ?? false,
      callback: (li) => {
        const id = li.dataset.entryId;
        if (id) open(id);
      },
    });
  };
  g.Hooks.on(hook, addEntry as never);
}

export function foundryHost(g: FoundryGlobals): Host {
  const game = g.game;
  const toUser = (u: FoundryUser): HostUser => ({
    id: u.id ?? "",
    name: u.name ?? "",
    isGM: u.isGM,
    active: u.active,
    publicKey: (u.getFlag("melee", "publicKey") as JsonWebKey | undefined) ?? null,
  });
  const toActor = (a: FoundryActor): HostActor => ({
    id: a.id ?? "",
    name: a.name ?? "",
    statuses: [...a.statuses],
    system: a.system,
    sheet: a.getFlag("melee", "sheet") ?? null,
    ownerIds: game.users.filter((u) => !u.isGM && a.testUserPermission(u, "OWNER")).map((u) => u.id ?? ""),
  });
  // A combatant's actor: for a token not linked to its actor, the token's own (synthetic) actor.
  const actorOf = (c: FoundryCombat, combatantId: string): FoundryActor => {
    const actor = c.combatants.get(combatantId)?.actor;
    if (!actor) throw new Error(`melee: combatant ${combatantId} has no actor`);
    return actor;
  };
  const toCombat = (c: FoundryCombat): HostCombat => ({
    id: c.id ?? "",
    // Read anew each time: the actors' data and statuses change during the fight.
    get combatants() {
      return c.combatants.contents.map(
        (cb): HostCombatant => ({
          id: cb.id ?? "",
          name: cb.name ?? "",
          actor: cb.actor ? toActor(cb.actor) : null,
          disposition: cb.token?.disposition ?? null,
        }),
      );
    },
    state: () => (c.getFlag("melee", "state") as TableState | undefined) ?? null,
    setState: async (state) => {
      await c.setFlag("melee", "state", state);
    },
    setTurn: async (combatantId, round) => {
      const index = combatantId === null ? -1 : c.turns.findIndex((t) => t.id === combatantId);
      const turn = index === -1 ? c.turn : index;
      if (turn !== c.turn || round !== c.round) await c.update({ turn, round });
    },
    updateActor: async (combatantId, data) => {
      // Dotted paths of the actor's data: the shape Document#update takes, checked by its data model.
      await actorOf(c, combatantId).update(data as never);
    },
    setStatus: async (combatantId, statusId, active) => {
      await actorOf(c, combatantId).toggleStatusEffect(statusId, { active });
    },
  });
  const me = (): FoundryUser => {
    const user = game.user;
    if (!user) throw new Error("melee: no user yet");
    return user;
  };
  return {
    user: () => toUser(me()),
    users: () => game.users.contents.map(toUser),
    setting: (key: SettingKey) => game.settings.get("melee", key),
    setSetting: async (key: SettingKey, value: unknown) => {
      // The value's type is the setting's (SettingConfig above); the Host passes what it read or made.
      await game.settings.set("melee", key, value as never);
    },
    currentCombat: () => (game.combat ? toCombat(game.combat) : null),
    actor: (id) => {
      const actor = game.actors.get(id);
      return actor ? toActor(actor) : null;
    },
    setActorSheet: async (id, sheet) => {
      const actor = game.actors.get(id);
      if (!actor) return;
      if (sheet === null) await actor.unsetFlag("melee", "sheet");
      else await actor.setFlag("melee", "sheet", sheet);
    },
    addStatusEffects: (effects: StatusEffect[]) => {
      const known = new Set(g.CONFIG.statusEffects.map((e) => e.id));
      for (const effect of effects) if (!known.has(effect.id)) g.CONFIG.statusEffects.push({ ...effect });
    },
    combats: () => game.combats.contents.map(toCombat),
    lang: () => game.i18n.lang,
    localize: (key, data) => (data ? game.i18n.format(key, Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)]))) : game.i18n.localize(key)),
    has: (key) => game.i18n.has(key),
    notify: (level, message) => {
      g.ui.notifications?.[level](message);
    },
    chat: async (content, whisperToGMs = false) => {
      await g.ChatMessage.create({
        content,
        speaker: { alias: "Melee" },
        whisper: whisperToGMs ? game.users.filter((u) => u.isGM).map((u) => u.id ?? "") : [],
      });
    },
    choose: async (title, content, buttons) => {
      const picked: unknown = await g.foundry.applications.api.DialogV2.wait({
        window: { title },
        content,
        buttons: buttons.map((b) => ({ action: b.action, label: b.label })),
        rejectClose: false,
      });
      return typeof picked === "string" ? picked : null;
    },
    form: async (title, content, fields: Field[], submit) => {
      const values: unknown = await g.foundry.applications.api.DialogV2.wait({
        window: { title },
        content,
        buttons: [
          {
            action: "submit",
            label: submit,
            default: true,
            callback: (_event, button) => {
              const read: Record<string, string> = {};
              for (const field of fields) {
                const input = button.form?.elements.namedItem(field.name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null;
                read[field.name] = input?.value ?? "";
              }
              return read;
            },
          },
        ],
        rejectClose: false,
      });
      return values !== null && typeof values === "object" ? (values as Record<string, string>) : null;
    },
    mapActor: (context) => g.Hooks.call("melee.mapActor", context),
    onCombatChanged: (callback) => {
      g.Hooks.on("updateCombat", (combat, changed) => {
        if (g.foundry.utils.hasProperty(changed, "flags.melee")) callback(toCombat(combat));
      });
    },
    onUserChanged: (callback) => {
      g.Hooks.on("updateUser", (user, changed) => {
        if (g.foundry.utils.hasProperty(changed, "flags.melee")) callback(toUser(user));
      });
    },
    publishPublicKey: async (key) => {
      await me().setFlag("melee", "publicKey", key);
    },
  };
}
