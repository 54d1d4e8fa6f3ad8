// One turn driven by GET /options, type-checked with tsc --strict and no cast (tests/clients/test_typescript_sdk.py):
// the awaited player reads their options, builds an action from them and sends it.
import { MeleeClient, actionFrom, legalOf, tokenFor } from "@melee/client";
import type { ActionFor } from "@melee/client";

declare const process: { argv: string[] };
const [baseUrl, apiKey] = process.argv.slice(2);
const melee = new MeleeClient({ baseUrl: baseUrl!, apiKey: apiKey! });
const { example } = await melee.ruleset("duel-2d6");
const created = await melee.createCombat({ ...example.combat, seed: undefined }); // fresh dice
const prompt = created.awaiting.find((p) => p.actor !== "gm");
if (!prompt) throw new Error("nobody but the GM is awaited");
const player = melee.withToken(tokenFor(created.tokens, prompt.actor));
const options = await player.options<"duel-2d6">(created.id, { actor: prompt.actor });
let action: ActionFor<"duel-2d6"> | null = null;
// A parameter's choices have its field's type: here the maneuvers the rules name.
for (const attack of legalOf(options, "attack")) {
  if (attack.params.maneuver?.choices?.includes("coup_simple")) {
    action = actionFrom("duel-2d6", attack, prompt.actor, { maneuver: "coup_simple" });
  }
}
for (const legal of options.actions) {
  if (!action && prompt.actions.includes(legal.type)) action = actionFrom("duel-2d6", legal, prompt.actor);
}
if (!action) throw new Error(`no action to build for ${prompt.actor}`);
const result = await player.act<"duel-2d6">(created.id, action);
console.log(JSON.stringify({ type: result.action.type, awaited: prompt.actions, offered: options.actions.length }));
