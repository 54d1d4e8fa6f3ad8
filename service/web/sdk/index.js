// @melee/client: Melee's TypeScript SDK. See README.md.
export { MeleeClient, isRetryable, newIdempotencyKey, tokenFor } from "./client.js";
export { MeleeNetworkError, MeleeProblem, parseRetryAfter } from "./errors.js";
export { SseParser } from "./sse.js";
export { actionFrom, legalOf } from "./options.js";
export { RULESET_IDS } from "./generated/rulesets.js";
