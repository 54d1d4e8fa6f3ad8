// Plays one complete fight of every ruleset through the TypeScript client generated
// from openapi/openapi.json: openapi-typescript's types (build/melee.d.ts) and
// openapi-fetch. build/fights.ts holds each ruleset's example, typed by that
// ruleset's own creation and action types, so tsc --strict checks every body.
// Usage: node build/out/fight.js BASE_URL API_KEY. Prints one JSON line per fight.
import createClient from "openapi-fetch";
import type { components, paths } from "./build/melee.js";
import { fights } from "./build/fights.js";

type Action = components["schemas"]["Action"];
type Combat = components["schemas"]["Combat"];

const [base, apiKey] = process.argv.slice(2);
const melee = createClient<paths>({ baseUrl: base });

function problem(what: string, error: components["schemas"]["Problem"] | undefined): never {
  throw new Error(`${what}: ${error ? `${error.status} ${error.detail}` : "no answer"}`);
}

// An attack with its inline defense (a GM-driven screen sends both) compiles with openapi-typescript's default flags.
export const readmeShot: components["schemas"]["Sistema2d6AttackAction"] = {
  type: "attack", actor: "ana", target: "capanga", weapon: "pistola", defense: { skill: "Esquiva" }, dice: [5, 4, 2, 3, 6],
};

// The combat is a union told apart by `ruleset`: narrowing it types each ruleset's health.
function health(combat: Combat): number[] {
  switch (combat.ruleset) {
    case "age-du-silicium":
      return combat.combatants.map((c) => c.blessures);
    default:
      return combat.combatants.map((c) => c.pv);
  }
}

for (const fight of fights) {
  const created = await melee.POST("/combats", { body: fight.combat, headers: { "X-API-Key": apiKey } });
  if (!created.data) problem(`create a ${fight.combat.ruleset} combat`, created.error);
  const combat_id: string = created.data.id;
  // POST /combats answers a creation with CreatedCombat (tokens shown once) and a
  // restore (body {"snapshot"}) with the Combat alone: this body is a creation.
  if (!("tokens" in created.data)) throw new Error("a creation answered without tokens");
  const { tokens } = created.data as components["schemas"]["CreatedCombat"];
  const tokenOf = (actor: string): string => (actor === "gm" ? tokens.gm : tokens.combatants[actor] ?? tokens.gm);
  const play = async (action: Action): Promise<Combat> => {
    const acted = await melee.POST("/combats/{combat_id}/actions", {
      params: { path: { combat_id } },
      body: action,
      headers: { Authorization: `Bearer ${tokenOf(action.actor)}` },
    });
    if (!acted.data) problem(`${action.actor} ${action.type}`, acted.error);
    return acted.data.combat;
  };
  for (const action of fight.actions) await play(action);
  const end: components["schemas"]["EndCombatAction"] = { type: "end_combat", actor: "gm", reason: "The contract test is over." };
  const last = await play(end);
  const log = await melee.GET("/combats/{combat_id}/events", {
    params: { path: { combat_id }, query: { limit: 200 } },
    headers: { Authorization: `Bearer ${tokens.gm}` },
  });
  if (!log.data) problem("read the log", log.error);
  console.log(JSON.stringify({ ruleset: last.ruleset, status: last.status, entries: log.data.items.length, seed: last.seed, health: health(last) }));
}
