// What the extension keeps, and where.
// The room's metadata (shared with everyone in the room, under one namespaced key): the combat
// and each OBR player's /play link. The GM's own browser (localStorage): the GM token and the
// combatants' tokens, so that a link can be made again; never the room.

/** The room metadata key (OBR asks extensions to namespace theirs by a domain they own). */
export const ROOM_KEY = "org.melee.owlbear/combat";

export interface Link {
  /** The combatant this OBR player plays. */
  combatant: string;
  /** Melee's /play for that combatant, with its player token. */
  url: string;
}

export interface RoomState {
  baseUrl: string;
  combatId: string;
  ruleset: string;
  combatants: { id: string; name: string }[];
  /** OBR player id -> that player's link. */
  links: Record<string, Link>;
}

/** The GM's secrets of one combat, kept in the GM's browser only. */
export interface GmSecrets {
  gm: string;
  combatants: Record<string, string>;
}

/** The room's Melee combat, if the metadata holds a well-formed one. */
export function readRoom(metadata: Record<string, unknown>): RoomState | null {
  const value = metadata[ROOM_KEY];
  if (!value || typeof value !== "object") return null;
  const state = value as Partial<RoomState>;
  if (typeof state.baseUrl !== "string" || typeof state.combatId !== "string") return null;
  return {
    baseUrl: state.baseUrl,
    combatId: state.combatId,
    ruleset: typeof state.ruleset === "string" ? state.ruleset : "",
    combatants: Array.isArray(state.combatants) ? state.combatants : [],
    links: state.links && typeof state.links === "object" ? state.links : {},
  };
}

/** Melee's /play for one token (the page reads its fragment: never sent to a server, nor logged). */
export function playLink(baseUrl: string, combatId: string, token: string, actor: string): string {
  const params = new URLSearchParams({ combat: combatId, token, as: actor });
  return `${baseUrl.replace(/\/+$/, "")}/play#${params.toString()}`;
}

const secretsKey = (combatId: string): string => `melee-owlbear/${combatId}`;

export function loadSecrets(storage: Storage, combatId: string): GmSecrets | null {
  try {
    const parsed = JSON.parse(storage.getItem(secretsKey(combatId)) ?? "null") as GmSecrets | null;
    return parsed && typeof parsed.gm === "string" ? { gm: parsed.gm, combatants: parsed.combatants ?? {} } : null;
  } catch {
    return null;
  }
}

export function saveSecrets(storage: Storage, combatId: string, secrets: GmSecrets): void {
  storage.setItem(secretsKey(combatId), JSON.stringify(secrets));
}
