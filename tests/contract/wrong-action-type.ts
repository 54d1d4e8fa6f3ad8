// The negative type test: tsc --strict must refuse this file, since "atakk" is no
// action type of sistema-2d6 (tests/contract/test_clients.py).
import type { components } from "./build/melee.js";

export const typo: components["schemas"]["Sistema2d6Action"] = { type: "atakk", actor: "ana", target: "capanga" };
