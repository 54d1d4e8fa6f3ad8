// The public types: the generated schemas under short names, and each one per ruleset.
import type { components } from "./generated/openapi.js";
import type { RulesetId, RulesetTypes } from "./generated/rulesets.js";

type Schemas = components["schemas"];

/** Any ruleset's action: the union of the rulesets' action unions (each told apart by `type`). */
export type Action = Schemas["Action"];
/** One ruleset's action union: `ActionFor<"sistema-2d6">`. */
export type ActionFor<R extends RulesetId> = RulesetTypes[R]["action"];
/** One action type of one ruleset: `ActionOf<"sistema-2d6", "attack">`. */
export type ActionOf<R extends RulesetId, T extends keyof RulesetTypes[R]["actions"]> = RulesetTypes[R]["actions"][T];
/** The action types of a ruleset: `ActionType<"duel-2d6">` is `"attack" | "defend" | ...`. */
export type ActionType<R extends RulesetId = RulesetId> = ActionFor<R>["type"];

export type Combat = Schemas["Combat"];
export type CombatFor<R extends RulesetId> = RulesetTypes[R]["combat"];
export type Combatant = RulesetTypes[RulesetId]["combatant"];
export type CombatantFor<R extends RulesetId> = RulesetTypes[R]["combatant"];
export type Sheet = RulesetTypes[RulesetId]["sheet"];
export type SheetFor<R extends RulesetId> = RulesetTypes[R]["sheet"];

/** A creation body (`POST /combats`) of any ruleset. */
export type CombatCreate = Schemas["CreateCombat"];
export type CreateCombat = CombatCreate;
export type CombatCreateFor<R extends RulesetId> = RulesetTypes[R]["createCombat"];

/** The creation's answer: the combat and its tokens (`tokens.gm`, `tokens.combatants[id]`), shown once. */
export type CreatedCombat = Schemas["CreatedCombat"];
export type CreatedCombatFor<R extends RulesetId> = RulesetTypes[R]["createdCombat"];
/** The answer to a creation body: its own ruleset's when the body's `ruleset` is a literal. */
export type CreatedCombatOf<B> = B extends { ruleset: infer R extends RulesetId } ? CreatedCombatFor<R> : CreatedCombat;

export type ActionResult = Schemas["ActionResult"];
export type ActionResultFor<R extends RulesetId> = RulesetTypes[R]["actionResult"];

/** One entry of the log (what `GET /events` and the stream give). */
export type LogEntry = RulesetTypes[RulesetId]["logEntry"];
export type LogEntryFor<R extends RulesetId> = RulesetTypes[R]["logEntry"];
export type LogEvent = RulesetTypes[RulesetId]["event"];
/** A page of the log: `items`, `last_seq`, `next_after`. */
export type EventsPage = Schemas["LogPage"];
export type EventsPageFor<R extends RulesetId> = RulesetTypes[R]["logPage"];

export type Tokens = Schemas["Tokens"];
/** One of a combat's tokens as `GET /combats/{id}/tokens` lists it: public id, role, combatant. */
export type TokenInfo = Schemas["TokenInfo"];
export type TokenRequest = Schemas["TokenRequest"];
export type MintedToken = Schemas["MintedToken"];
export type Awaiting = Schemas["Awaiting"];
export type Roll = Schemas["Roll"];
/** `GET /combats/{id}/options`: what one actor (or the GM) may send now (any ruleset's). */
export type Options = Schemas["Options"];
/** One ruleset's options: `actions` are its legal actions, told apart by `type`. */
export type OptionsFor<R extends RulesetId> = RulesetTypes[R]["actionOptions"];
/** A legal action of any ruleset: `type` and `params` (name -> its legal values or bounds). */
export type LegalAction = RulesetTypes[RulesetId]["legalAction"];
export type LegalActionFor<R extends RulesetId> = RulesetTypes[R]["legalAction"];
/** One action type's legal action: `LegalActionOf<"duel-2d6", "attack">["params"]["maneuver"]`. */
export type LegalActionOf<R extends RulesetId, T extends keyof RulesetTypes[R]["legalActions"]> = RulesetTypes[R]["legalActions"][T];
/** One parameter of a legal action: `required`, and `choices` (typed as the action's field) or bounds. */
export type LegalParam = Schemas["LegalParam"];
/** The value a parameter takes: the type of its `choices`. */
export type ParamValue<P> = P extends { choices?: (infer V)[] } ? V : never;
/** The values of a legal action's parameters, each optional: what `actionFrom` takes. */
export type ParamValues<L extends { params: object }> = { [K in keyof L["params"]]?: ParamValue<NonNullable<L["params"][K]>> };
export type Odds = Schemas["Odds"];
export type OddsRequest = Schemas["OddsRequest"];
export type RulesetSummary = Schemas["RulesetSummary"];
/** A ruleset's published example: a creation body and actions that play from it. */
export interface RulesetExample {
  combat: CombatCreate;
  actions: Action[];
  [member: string]: unknown;
}
/** `GET /rulesets/{id}`: its schemas, labels, options... and `example`, typed. */
/** ``Omit`` for the generated schemas: they carry an index signature (additionalProperties),
 * through which ``Omit`` (a ``Pick`` of ``keyof``) would keep only ``[key: string]: unknown``. */
export type Without<T, K extends PropertyKey> = { [P in keyof T as P extends K ? never : P]: T[P] };
export type Ruleset = Without<Schemas["RulesetDetail"], "example"> & { example: RulesetExample };
export type Problem = Schemas["Problem"];

/** `GET /combats/{id}/snapshot` (GM only): the combat sealed in one opaque string. */
export type SnapshotResponse = Schemas["Snapshot"];
/** `POST /combats` with a snapshot and nothing else: restores it under its own id. */
export type RestoreCombat = Schemas["RestoreCombat"];
/** What a restore answers a caller without a token of the restored combat: which combat it is. */
export interface CombatRef {
  id: string;
  ruleset: string;
  version: number;
}
/** `restore`'s answer: the combat as the token sees it, or only its reference. */
export type RestoredCombatFor<R extends RulesetId> = CombatFor<R> | CombatRef;
