#!/usr/bin/env node
// Plays a ruleset's published example (GET /rulesets/{id}: `example`) to its end with @melee/client:
// creates the combat without the example's public `seed` (fresh dice: the fight differs at each run)
// and sends the example's actions, each with its actor's own token (the GM's for NPCs), while the
// fight goes their way (each one awaited and accepted). Then it answers the prompts in `awaiting` from
// GET /options, each with that actor's token, for at most N more actions (--max-actions, default 20):
// the fight goes on as unattended players would play it (each required parameter's first legal value). The GM ends it with end_combat when
// the GM is awaited, when nobody else can act, or after those N actions. Prints the log's sentences.
//
//   node examples/fight.mjs BASE_URL RULESET [--max-actions N] [--api-key KEY] [--lang en|fr|pt]
//
// Exits 0 only when the combat is over, 1 otherwise (a refused action, the combat still active), 2 on bad usage.
import { MeleeClient, MeleeProblem, tokenFor } from "@melee/client";

function usage(message) {
  console.error(`${message}\nusage: node examples/fight.mjs BASE_URL RULESET [--max-actions N] [--api-key KEY] [--lang LANG]`);
  process.exit(2);
}

const positional = [];
const flags = { "--max-actions": "20", "--api-key": process.env.MELEE_API_KEY ?? "", "--lang": "" };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  if (argv[i] in flags) flags[argv[i]] = argv[++i] ?? usage(`${argv[i - 1]} needs a value`);
  else positional.push(argv[i]);
}
const [baseUrl, rulesetId] = positional;
if (!baseUrl || !rulesetId) usage("BASE_URL and RULESET are required");
const maxActions = Number(flags["--max-actions"]);
if (!Number.isInteger(maxActions) || maxActions < 0) usage("--max-actions must be an integer, 0 or more");

const melee = new MeleeClient({
  baseUrl,
  ...(flags["--api-key"] ? { apiKey: flags["--api-key"] } : {}),
  ...(flags["--lang"] ? { lang: flags["--lang"] } : {}),
});

/** A value for one parameter's spec from /options, or undefined when an unattended player cannot pick one. */
function pick(spec) {
  if (Array.isArray(spec.choices)) return spec.choices.length ? spec.choices[0] : undefined;
  if (spec.type === "integer" || spec.type === "number") return spec.minimum ?? 0;
  if (spec.type === "boolean") return false;
  if (spec.type === "string") return "x".repeat(Math.max(1, spec.minLength ?? 1));
  if (spec.type === "array" && Array.isArray(spec.items)) {
    const items = spec.items.map(pick); // a fixed list: one value per item
    return items.includes(undefined) ? undefined : items;
  }
  if (spec.type === "object" && Array.isArray(spec.keys) && Number.isInteger(spec.total)) {
    // A budget to split between the keys (dark-earth's init/att/def): as evenly as it goes.
    const share = Math.floor(spec.total / spec.keys.length);
    return Object.fromEntries(spec.keys.map((key, i) => [key, share + (i < spec.total % spec.keys.length ? 1 : 0)]));
  }
  return undefined;
}

/** An action built from one legal entry of /options: each required parameter's first legal value. */
function fromOptions(legal, actor) {
  const action = { type: legal.type, actor };
  for (const [name, spec] of Object.entries(legal.params)) {
    if (!spec.required) continue;
    const value = pick(spec);
    if (value === undefined) return null;
    action[name] = value;
  }
  return action;
}

/** The next action: the first prompt that can be answered, with the prompt's own order of types. */
async function nextAction(combat, created) {
  for (const prompt of combat.awaiting) {
    if (prompt.actor === "gm" && prompt.actions.includes("end_combat")) return endCombat;
    if (prompt.actor === "gm") continue;
    const player = melee.withToken(tokenFor(created.tokens, prompt.actor));
    const { actions } = await player.options(created.id, { actor: prompt.actor });
    for (const type of prompt.actions) {
      for (const legal of actions.filter((a) => a.type === type)) {
        const action = fromOptions(legal, prompt.actor);
        if (action) return action;
      }
    }
  }
  return endCombat; // nobody else can act: the GM ends it
}

const endCombat = { type: "end_combat", actor: "gm", reason: "The example is over." };

try {
  const { example } = await melee.ruleset(rulesetId);
  const { seed: _seed, ...fresh } = example.combat; // the public seed would let anyone predict every roll
  const created = await melee.createCombat(fresh);
  const gm = melee.withToken(created.tokens.gm);
  let combat = created;
  let sent = 0;
  const send = async (action) => {
    combat = (await melee.withToken(tokenFor(created.tokens, action.actor)).act(created.id, action)).combat;
    sent += 1;
  };
  for (const action of example.actions) {
    const awaited = combat.awaiting.some((p) => p.actor === action.actor && p.actions.includes(action.type));
    if (!awaited) break; // the dice took the fight elsewhere: the options from now on
    try {
      await send(action);
    } catch (error) {
      // The example's own dice no longer fit this fight: the options from now on.
      if (error instanceof MeleeProblem && (error.status === 409 || error.status === 422)) break;
      throw error;
    }
  }
  for (let answered = 0; combat.status !== "over" && answered < maxActions; answered++) {
    await send(await nextAction(combat, created));
  }
  if (combat.status !== "over") await send(endCombat);
  for (let after = 0; after !== null; ) {
    const page = await gm.events(created.id, { after, limit: 200 });
    for (const entry of page.items) for (const event of entry.events) if (event.text) console.log(event.text);
    after = page.next_after;
  }
  console.log(`${rulesetId}: ${combat.status} after ${sent} actions (combat ${created.id}).`);
  process.exit(combat.status === "over" ? 0 : 1);
} catch (error) {
  if (error instanceof MeleeProblem) console.error(`${error.status} ${error.title}: ${error.detail ?? ""}`);
  else console.error(error);
  process.exit(1);
}
