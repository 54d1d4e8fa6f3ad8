// The JSON boundary with Melee: what the module builds or reads at run time from data (sheets mapped
// from actors, actions from a form, a ruleset's example) is plain JSON; the SDK types it per ruleset.
// The few conversions between the two are here, checked where they can be.
import type { Action, CombatCreate, LegalAction, LogEntry, Ruleset } from "@melee/client";
import type { Json, JsonObject } from "./mapping.js";

export function asCreate(body: JsonObject): CombatCreate {
  return body as unknown as CombatCreate;
}

export function asAction(action: JsonObject): Action {
  if (typeof action.type !== "string" || typeof action.actor !== "string") throw new Error("an action needs a type and an actor");
  return action as unknown as Action;
}

/** The example's combatants (GET /rulesets/{id} `example.combat.combatants`). */
export function exampleCombatants(ruleset: Ruleset): JsonObject[] {
  const combat = ruleset.example.combat as { combatants?: unknown } | undefined;
  return Array.isArray(combat?.combatants) ? (combat.combatants as JsonObject[]) : [];
}

/** `labels[lang][param][value]`: the words a ruleset uses for a choice, if it has some. */
export function choiceLabel(ruleset: Ruleset, lang: string, param: string, value: string): string | undefined {
  const byLang = ruleset.labels[lang] as Record<string, Record<string, unknown>> | undefined;
  const words = byLang?.[param]?.[value];
  return typeof words === "string" ? words : undefined;
}

/** `labels[lang].condition`: the ruleset's words for its conditions. */
export function conditionLabels(ruleset: Ruleset, lang: string): Record<string, unknown> {
  const byLang = (ruleset.labels[lang] ?? ruleset.labels.en) as Record<string, unknown> | undefined;
  const words = byLang?.condition;
  return words !== null && typeof words === "object" ? (words as Record<string, unknown>) : {};
}

export function optionDefault(ruleset: Ruleset, option: string): unknown {
  return ruleset.option_defaults[option];
}

/** One parameter of a legal action (GET /combats/{id}/options), any ruleset's, as the SDK types it:
 * `required`, bounds, and `choices` (an array's `items`) typed as the action's own field. */
export type Param = ParamOf<LegalAction>;
type ParamOf<L> = L extends { params: infer P } ? NonNullable<P[keyof P]> : never;

/** A choice as a form value: its JSON when it is an object (duel-2d6's `second`). */
export function encodeChoice(choice: Json): string {
  return choice !== null && typeof choice === "object" ? JSON.stringify(choice) : String(choice);
}

export function params(legal: LegalAction): [string, Param][] {
  const all: Record<string, Param | undefined> = legal.params;
  return Object.entries(all).filter((entry): entry is [string, Param] => entry[1] !== undefined);
}

/** The sentences of a log entry, in the combat's language. */
export function sentences(entry: LogEntry): string[] {
  return entry.events.map((event) => (event as { text?: unknown }).text).filter((t): t is string => typeof t === "string" && t !== "");
}
