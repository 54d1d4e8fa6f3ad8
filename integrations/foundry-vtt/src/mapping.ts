// From a Foundry Combatant's actor to a Melee sheet. The default, for every ruleset:
//  1. start from one of the ruleset's example combatants (GET /rulesets/{id} `example`): the first
//     one for the allies (a friendly token; without a friendly or hostile disposition, an actor a
//     player owns), the first one of another side for the enemies (everyone else);
//  2. id = the Combatant's id, name = the Combatant's name, side = "allies" or "enemies";
//  3. each other field F of that example sheet is read from the actor at the paths of
//     DEFAULT_PATHS (`system.F`, and for the health field also dnd5e-style `system.attributes.hp.max`),
//     or at the paths the GM gave in the "mapping" setting; a value is taken only if it has the
//     example's type (a number for a number, an object of numbers for `attributes`...), else the
//     example's value stays;
//  4. `actor.flags.melee.sheet` (a partial sheet the GM set on the actor) is merged over the result;
//  5. per ruleset fix-ups: dark-earth's `contact_with` lists every fighter of the other side;
//  6. the hook `melee.mapActor` is called with {sheet, actor, combatant, ruleset}: a module may
//     change `sheet` in place (or return false to leave the combatant out of the fight).

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
/** Sheet field (a dotted path in the sheet) -> the actor's path(s) to read it from, first found wins. */
export type Paths = Record<string, string | string[]>;
/** The "mapping" setting: ruleset id -> Paths, each replacing the default for that sheet field. */
export type Mapping = Record<string, Paths>;

/** The field that holds a combatant's health, per ruleset: also read from `system.attributes.hp.max`. */
export const HEALTH_FIELD: Record<string, string> = {
  "age-du-silicium": "blessures",
  "dark-earth": "pv",
  "duel-2d6": "pv",
  "sistema-2d6": "pv",
  "space-opera-d100": "pv",
};

const NOT_MAPPED = new Set(["id", "name", "side", "contact_with"]);

/** The default paths for a ruleset, given the example sheet it starts from. */
export function defaultPaths(ruleset: string, template: JsonObject): Paths {
  const paths: Paths = {};
  for (const field of Object.keys(template)) {
    if (NOT_MAPPED.has(field)) continue;
    paths[field] = field === HEALTH_FIELD[ruleset] ? [`system.${field}`, "system.attributes.hp.max"] : `system.${field}`;
  }
  const health = HEALTH_FIELD[ruleset];
  if (health && !(health in paths)) paths[health] = [`system.${health}`, "system.attributes.hp.max"];
  return paths;
}

export function getPath(source: unknown, path: string): unknown {
  let value: unknown = source;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function setPath(target: JsonObject, path: string, value: Json): void {
  const parts = path.split(".");
  let node: JsonObject = target;
  for (const part of parts.slice(0, -1)) {
    const next = node[part];
    if (next === null || typeof next !== "object" || Array.isArray(next)) node[part] = {};
    node = node[part] as JsonObject;
  }
  node[parts[parts.length - 1]!] = value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function toJson(value: unknown): Json | undefined {
  if (value === undefined || typeof value === "function") return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as Json;
  } catch {
    return undefined;
  }
}

/** The template's value, replaced by the source's parts that have the template's types. */
export function fit(template: Json, source: unknown): Json {
  if (typeof template === "number" || template === null) {
    return typeof source === "number" && Number.isFinite(source) ? Math.round(source) : template;
  }
  if (typeof template === "string") return typeof source === "string" && source !== "" ? source : template;
  if (typeof template === "boolean") return typeof source === "boolean" ? source : template;
  if (Array.isArray(template)) return Array.isArray(source) ? (toJson(source) ?? template) : template;
  if (!isObject(source)) return template;
  const result: JsonObject = { ...template };
  const values = Object.values(template);
  const numbers = values.length > 0 && values.every((v) => typeof v === "number");
  for (const [key, value] of Object.entries(source)) {
    if (key in template) result[key] = fit(template[key]!, value);
    else if (numbers && typeof value === "number" && Number.isFinite(value)) result[key] = Math.round(value);
  }
  return result;
}

/** A GM's partial sheet merged over the sheet (objects key by key, anything else replaced). */
export function mergeSheet(target: JsonObject, partial: unknown): JsonObject {
  if (!isObject(partial)) return target;
  for (const [key, value] of Object.entries(partial)) {
    const json = toJson(value);
    if (json === undefined) continue;
    const current = target[key];
    target[key] = isObject(current) && isObject(json) ? mergeSheet({ ...current } as JsonObject, json) : json;
  }
  return target;
}

export interface MapInput {
  ruleset: string;
  /** The example sheet chosen for this combatant (step 1). */
  template: JsonObject;
  id: string;
  name: string;
  side: string;
  system: unknown;
  sheet: unknown;
  mapping: Mapping;
}

/** Steps 2 to 4: the sheet of one combatant, and the sheet fields read from the actor's data. */
export function mapSheet(input: MapInput): { sheet: JsonObject; read: string[] } {
  const sheet = JSON.parse(JSON.stringify(input.template)) as JsonObject;
  delete sheet.contact_with;
  sheet.id = input.id;
  sheet.name = input.name.slice(0, 80) || input.id;
  sheet.side = input.side;
  const paths: Paths = { ...defaultPaths(input.ruleset, input.template), ...(input.mapping[input.ruleset] ?? {}) };
  const read: string[] = [];
  for (const [field, from] of Object.entries(paths)) {
    const current = getPath(sheet, field);
    for (const path of Array.isArray(from) ? from : [from]) {
      const found = getPath({ system: input.system }, path);
      if (found === undefined || found === null) continue;
      setPath(sheet, field, fit((toJson(current) ?? null) as Json, found));
      if (typeof found === typeof current) read.push(field); // of the template's kind: taken (fit above)
      break;
    }
  }
  return { sheet: mergeSheet(sheet, input.sheet), read };
}

/** Whether an actor gives Melee anything of its own: a field read from its data, or a Melee sheet
 * the GM set. Without either, its combatant would fight with the example's statistics. */
export function hasMeleeFields(read: string[], sheet: unknown): boolean {
  return read.length > 0 || (isObject(sheet) && Object.keys(sheet).length > 0);
}

/** Step 5, once every sheet is made. */
export function fixUp(ruleset: string, sheets: JsonObject[]): void {
  if (ruleset !== "dark-earth") return;
  for (const sheet of sheets) {
    if (sheet.contact_with !== undefined) continue;
    sheet.contact_with = sheets.filter((other) => other.side !== sheet.side).map((other) => other.id as string);
  }
}

/** Step 1: the example combatant a side starts from. */
export function templateFor(example: JsonObject[], ally: boolean): JsonObject {
  const first = example[0];
  if (!first) return {};
  if (ally) return first;
  return example.find((c) => c.side !== first.side) ?? example[1] ?? first;
}

/** The "mapping" setting's text, parsed; a bad text is an error naming what is wrong. */
export function parseMapping(text: unknown): Mapping {
  if (text === undefined || text === null || text === "") return {};
  const value: unknown = typeof text === "string" ? JSON.parse(text) : text;
  if (!isObject(value)) throw new Error("mapping: not an object of rulesets");
  const mapping: Mapping = {};
  for (const [ruleset, paths] of Object.entries(value)) {
    if (!isObject(paths)) throw new Error(`mapping.${ruleset}: not an object of sheet fields`);
    const checked: Paths = {};
    for (const [field, from] of Object.entries(paths)) {
      if (typeof from === "string" || (Array.isArray(from) && from.every((p) => typeof p === "string"))) checked[field] = from;
      else throw new Error(`mapping.${ruleset}.${field}: not a path or a list of paths`);
    }
    mapping[ruleset] = checked;
  }
  return mapping;
}
