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
  // The tracker's buttons: "Start a Melee fight" for GMs, "Your move" (the prompts again) for everyone.
  g.Hooks.on("renderCombatTracker", (_app, html) => {
    const api = g.game.modules.get("melee")?.api;
    if (!api) return;
    const header = html.querySelector(".combat-tracker-header") ?? html;
    const add = (className: string, label: string, onClick: () => void) => {
      if (html.querySelector(`.${className}`)) return;
      const button = document.createElement("button");
      button.type = "button";
      button.className = className;
      button.textContent = g.game.i18n.localize(label);
      button.addEventListener("click", onClick);
      header.prepend(button);
    };
    add("melee-act", "MELEE.Act", () => api.promptAgain());
    if (g.game.user?.isGM) {
      add("melee-start", "MELEE.Start", () => {
        api.startCombat().catch((error: unknown) => g.ui.notifications?.error(String(error instanceof Error ? error.message : error)));
      });
    }
  });
}

if (typeof (globalThis as { Hooks?: unknown }).Hooks !== "undefined") register(globalThis as unknown as FoundryGlobals);
