// @melee/client: Melee's TypeScript SDK. See README.md.
export { MeleeClient, isRetryable, newIdempotencyKey, tokenFor } from "./client.js";
export type { ActOptions, MeleeOptions, SubscribeHandlers, SubscribeOptions, Subscription } from "./client.js";
export { MeleeNetworkError, MeleeProblem, parseRetryAfter } from "./errors.js";
export type { ProblemFieldError, ProblemInit } from "./errors.js";
export { SseParser } from "./sse.js";
export { actionFrom, legalOf } from "./options.js";
export type { SseEvent } from "./sse.js";
export { RULESET_IDS } from "./generated/rulesets.js";
export type { RulesetId, RulesetTypes } from "./generated/rulesets.js";
export type { components, operations, paths } from "./generated/openapi.js";
export type * from "./types.js";
