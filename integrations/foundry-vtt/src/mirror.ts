// Melee's state mirrored onto Foundry's world, by the leading GM's client only (players may not
// update actors they do not own, nor the Combat): after each burst of the log,
//  - each combatant's health (Melee's `pv`/`pv_max`, age-du-silicium's `blessures`/`blessures_max`)
//    is written to its actor at the paths of healthPaths() below (dnd5e-like actors:
//    system.attributes.hp.value/max, which their tokens' bars show);
//  - each Melee condition becomes a status effect `melee-<condition>` on the actor (its tokens show
//    it), registered in CONFIG.statusEffects with the ruleset's own words for it;
//  - the tracker's turn goes to the first combatant Melee awaits, and its round is Melee's.
import type { Combatant as MeleeCombatant } from "@melee/client";
import { getPath, HEALTH_FIELD } from "./mapping.js";
import type { StatusEffect } from "./host.js";

/** Where an actor's health is written: the current value, and the maximum when there is a path for it. */
export interface HealthPaths {
  value: string;
  max?: string;
}

/** The documented per-system mapping, tried in order: the first whose value path holds a number in
 * the actor's data is written. dnd5e (and pf2e, and most d20-like systems) keep hit points at
 * system.attributes.hp; other systems at system.hp or system.health. */
export const HEALTH_PATHS: HealthPaths[] = [
  { value: "system.attributes.hp.value", max: "system.attributes.hp.max" },
  { value: "system.hp.value", max: "system.hp.max" },
  { value: "system.health.value", max: "system.health.max" },
];

/** The generic fallback, for an actor with none of those: the actor's Melee flags, which every system
 * keeps (a game system only keeps the `system` fields its data model declares). No bar shows a flag:
 * a world whose system keeps health elsewhere names its paths in the "Health paths" setting. */
export const FALLBACK_HEALTH: HealthPaths = { value: "flags.melee.health.value", max: "flags.melee.health.max" };

/** The "Health paths" setting's text (`{"value": "system.x.value", "max": "system.x.max"}`), parsed;
 * empty: null (the documented mapping decides). */
export function parseHealthSetting(text: unknown): HealthPaths | null {
  if (typeof text !== "string" || text.trim() === "") return null;
  const value = JSON.parse(text) as { value?: unknown; max?: unknown };
  if (typeof value?.value !== "string") throw new Error('health: {"value": "system.….value", "max": "system.….max"} expected');
  return typeof value.max === "string" ? { value: value.value, max: value.max } : { value: value.value };
}

/** The paths an actor's health is written to: the GM's setting, else the first of HEALTH_PATHS the
 * actor has, else the fallback. */
export function healthPaths(system: unknown, setting: HealthPaths | null): HealthPaths {
  if (setting) return setting;
  return HEALTH_PATHS.find((paths) => typeof getPath({ system }, paths.value) === "number") ?? FALLBACK_HEALTH;
}

/** A Melee combatant's health now and at most, null when its ruleset has no health field. */
export function meleeHealth(ruleset: string, combatant: MeleeCombatant): { value: number; max: number | null } | null {
  const field = HEALTH_FIELD[ruleset];
  const value = field ? combatant[field] : undefined;
  if (typeof value !== "number") return null;
  const max = combatant[`${field}_max`];
  return { value, max: typeof max === "number" ? max : null };
}

/** The actor data that writes `health` at `paths`. */
export function healthUpdate(paths: HealthPaths, health: { value: number; max: number | null }): Record<string, number> {
  const data: Record<string, number> = { [paths.value]: health.value };
  if (paths.max && health.max !== null) data[paths.max] = health.max;
  return data;
}

export const STATUS_PREFIX = "melee-";

export function statusId(condition: string): string {
  return `${STATUS_PREFIX}${condition}`;
}

/** The condition codes a Melee combatant has now (each once). */
export function conditionCodes(combatant: MeleeCombatant): string[] {
  return [...new Set(combatant.conditions.map((c) => c.code).filter((code) => code !== ""))];
}

/** Foundry's own icons (icons/svg/, shipped with every install) for the conditions that have one. */
const ICONS: Record<string, string> = {
  dead: "icons/svg/skull.svg",
  unconscious: "icons/svg/unconscious.svg",
  knocked_out: "icons/svg/unconscious.svg",
  coma: "icons/svg/unconscious.svg",
  dying: "icons/svg/degen.svg",
  stable: "icons/svg/regen.svg",
  prone: "icons/svg/falling.svg",
  stunned: "icons/svg/daze.svg",
  paralysed: "icons/svg/paralysis.svg",
  immobilised: "icons/svg/net.svg",
  disarmed: "icons/svg/sword.svg",
  surprised: "icons/svg/hazard.svg",
  frenzy: "icons/svg/terror.svg",
  wound: "icons/svg/blood.svg",
  grave_wound: "icons/svg/blood.svg",
  critical_wound: "icons/svg/blood.svg",
  eliminated: "icons/svg/skull.svg",
  incapacitated: "icons/svg/daze.svg",
};
const DEFAULT_ICON = "icons/svg/aura.svg";

/** The status effects of a ruleset's conditions, named in `labels[lang].condition` (the ruleset's words). */
export function statusEffects(conditionLabels: Record<string, unknown>): StatusEffect[] {
  return Object.entries(conditionLabels)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .map(([code, words]) => ({ id: statusId(code), name: words.charAt(0).toUpperCase() + words.slice(1), img: ICONS[code] ?? DEFAULT_ICON }));
}

/** The combatant whose turn the tracker shows: the first one Melee awaits that is in the Combat
 * (not the GM's own `gm`), null when Melee awaits none of them. */
export function turnOf(awaiting: { actor: string }[], combatantIds: string[]): string | null {
  return awaiting.map((a) => a.actor).find((actor) => combatantIds.includes(actor)) ?? null;
}
