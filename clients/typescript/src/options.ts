// Typed helpers for GET /combats/{id}/options: pick a legal action, build the action it allows.
import type { RulesetId } from "./generated/rulesets.js";
import type { ActionFor, LegalActionFor, ParamValues } from "./types.js";

/** The legal actions of one type, narrowed to it: `legalOf(options, "attack")`. */
export function legalOf<A extends { type: string }, T extends A["type"]>(options: { actions: A[] }, type: T): Extract<A, { type: T }>[] {
  return options.actions.filter((action): action is Extract<A, { type: T }> => action.type === type);
}

/** A legal value of one parameter: its first choice, else an integer's minimum (`undefined`: none to pick). */
function firstValue(spec: { choices?: unknown[]; type?: string; minimum?: number | null }): unknown {
  if (Array.isArray(spec.choices)) return spec.choices[0];
  if (spec.type === "integer") return spec.minimum ?? 0;
  return undefined;
}

/**
 * The action a legal action allows, for `actor`: each parameter's value from `values`, else, for a
 * required one, its first legal choice (or an integer's minimum). `null` when a required parameter
 * has no value (an object or a sheet to write, a string to type): pass it in `values`.
 * `ruleset` types the answer: `act<R>` takes it as it is.
 */
export function actionFrom<R extends RulesetId, L extends LegalActionFor<R>>(
  ruleset: R,
  legal: L,
  actor: string,
  values: ParamValues<L> = {},
): Extract<ActionFor<R>, { type: L["type"] }> | null {
  void ruleset; // only its type is needed: the legal action's parameters carry the rest
  const action: Record<string, unknown> = { type: legal.type, actor };
  const given: Record<string, unknown> = values;
  for (const [name, spec] of Object.entries(legal.params) as [string, Parameters<typeof firstValue>[0] & { required: boolean }][]) {
    const value = name in given ? given[name] : spec.required ? firstValue(spec) : undefined;
    if (value === undefined) {
      if (spec.required) return null;
      continue;
    }
    action[name] = value;
  }
  return action as Extract<ActionFor<R>, { type: L["type"] }>;
}
