// Melee for Foundry VTT v13: the module's entry point (module.json `esmodules`).
import { foundryHost, onActorMenu, registerSettings, type FoundryGlobals } from "./foundry.js";
import type { Host } from "./host.js";
import { MeleeTable } from "./table.js";

export { MeleeTable } from "./table.js";
export { foundryHost, registerSettings } from "./foundry.js";
export * as mapping from "./mapping.js";

/** The logic on a host: prompts on every Combat change, keys re-sealed when a user publishes one. */
export function install(host: Host): MeleeTable {
  const table = new MeleeTable(host);
  host.onCombatChanged((combat) => table.combatChanged(combat));
  host.onUserChanged((user) => void table.userChanged(user));
  return table;
}

/** Hooks the module into a Foundry client: settings at init, the logic at ready, the tracker's buttons. */
export function register(g: FoundryGlobals): void {
  g.Hooks.once("init", () => registerSettings(g));
  g.Hooks.once("ready", () => {
    const table = install(foundryHost(g));
    const module = g.game.modules.get("melee");
    if (module) module.api = table;
    void table.start();
  });
  onActorMenu(g, "MELEE.Sheet.Menu", (actorId) => {
    const api = g.game.modules.get("melee")?.api;
    api?.editSheet(actorId).catch((error: unknown) => g.ui.notifications?.error(String(error instanceof Error ? error.message : error)));
  });
  g.Hooks.on("renderCombatTracker", (_app, html) => {
    if (!g.game.user?.isGM || html.querySelector(".melee-start")) return;
    const api = g.game.modules.get("melee")?.api;
    if (!api) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "melee-start";
    button.textContent = g.game.i18n.localize("MELEE.Start");
    button.addEventListener("click", () => {
      api.startCombat().catch((error: unknown) => g.ui.notifications?.error(String(error instanceof Error ? error.message : error)));
    });
    (html.querySelector(".combat-tracker-header") ?? html).prepend(button);
  });
}

if (typeof (globalThis as { Hooks?: unknown }).Hooks !== "undefined") register(globalThis as unknown as FoundryGlobals);
